// eval of deeply nested text ended the host with a Go stack overflow (goja's parser recurses
// per level); the guard measures the source first and throws a catchable RangeError. Chains
// without brackets (a.b.c..., !!!x, 1+1+...) recurse too and count.
// expect: value: [["RangeError","RangeError","RangeError","RangeError"],3]
// config: compute=5s wall=8s
const deep = ["[".repeat(1e6), "(".repeat(1e6) + "1", "a" + ".b".repeat(1.5e6), "!".repeat(5e6) + "1"];
const names = deep.map((src) => { try { eval(src); return "evaluated"; } catch (e) { return e.name; } });
return [names, eval("[[[1]]]").length + eval("(1 + 1)")];
