// A 20,000-deep array in a template literal and a concatenation: ToString calls toString, then
// the join guard, per level; the call-stack limit ends it.
// expect: exception: Maximum call stack size exceeded
// config: compute=5s wall=6s
let a = [];
for (let i = 0; i < 20000; i++) a = [a];
const s = `${a}` + a;
