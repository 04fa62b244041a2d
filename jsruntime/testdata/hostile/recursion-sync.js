// expect: exception: Maximum call stack size exceeded
// config: compute=300ms wall=3s
const f = (n) => f(n + 1) + 1;
f(0);
