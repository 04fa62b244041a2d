// A self-perpetuating microtask chain never yields to the loop; the budget still ends it.
// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
const f = () => Promise.resolve().then(f);
f();
await new Promise(() => {});
