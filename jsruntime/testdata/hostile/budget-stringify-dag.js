// JSON.stringify of a DAG of arrays: 2**40 "[]" pairs of output, once one native step. The
// replacement polls its run and ends when the budget does.
// (serial: it burns its whole budget, which would eat concurrent cases' budgets.)
// expect: timeout|exception: RangeError: Invalid string length
// config: compute=1s wall=2s serial
let a = [];
for (let i = 0; i < 40; i++) a = [a, a];
JSON.stringify(a);
