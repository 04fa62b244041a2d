// A chain of binds: goja copies "bound " + the target's name for each, so 50,000 chained binds
// needed gigabytes (the heap watchdog ended the run, in-process failing every live run). Names
// over 4,096 characters are refused; ordinary binds still work.
// expect: value: ["RangeError",682,"bound f",3]
// config: compute=2s wall=3s
function f(a, b) { return a + b; }
let g = f, n = 0, name;
try { for (let i = 0; i < 50000; i++) { g = g.bind(null); n++; } } catch (e) { name = e instanceof RangeError ? "RangeError" : String(e); }
return [name, n, f.bind(null).name, f.bind(null, 1)(2)];
