// A DAG of arrays (each level holds the one below twice) flattened: 2**40 elements. goja made them
// in one native step (it ran 527s at a 1s budget); the guard's loop is JavaScript, which the
// budget interrupts, and refuses more than maxElements results.
// (serial: it burns its whole budget, which would eat concurrent cases' budgets.)
// expect: timeout|exception: RangeError: Invalid array length
// config: compute=1s wall=2s serial
let a = [1];
for (let i = 0; i < 40; i++) a = [a, a];
a.flat(Infinity);
