// expect: exception: Maximum call stack size exceeded
// config: compute=300ms wall=3s
const o = { toString() { return String(o) } };
String(o);
