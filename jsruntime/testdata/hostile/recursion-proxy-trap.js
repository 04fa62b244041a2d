// expect: exception: Maximum call stack size exceeded
// config: compute=300ms wall=3s
const p = new Proxy({}, { get: (t, k) => p[k] });
p.x;
