// expect: exception
// config: compute=2s wall=5s
const f = async (n) => (await f(n + 1)) + 1;
await f(0);
