// A 20,000-deep array converted to a string: each level goes through the join guard, a
// JavaScript frame, so the call-stack limit ends it (not Go's stack, as goja's native join would).
// expect: exception: Maximum call stack size exceeded
// config: compute=5s wall=6s
let a = [];
for (let i = 0; i < 20000; i++) a = [a];
String(a);
