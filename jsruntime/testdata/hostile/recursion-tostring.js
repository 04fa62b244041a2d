// expect: exception: Maximum call stack size exceeded
// config: compute=1s wall=3s
const o = { toString() { return String(o) } };
String(o);
