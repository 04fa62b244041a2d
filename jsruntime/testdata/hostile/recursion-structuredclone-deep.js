// structuredClone (a polyfill) of a 20,000-deep array and of a cyclic object: it copies with a
// work list, not recursion.
// expect: value: [20000,true]
// config: compute=5s wall=6s
let a = [];
for (let i = 0; i < 20000; i++) a = [a];
let c = structuredClone(a), depth = 0;
while (c.length) { c = c[0]; depth++ }
const o = { name: "o" };
o.self = o;
const k = structuredClone(o);
return [depth, k.self === k && k !== o];
