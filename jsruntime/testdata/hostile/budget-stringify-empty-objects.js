// JSON.stringify of a DAG whose leaf is an object of 100,000 undefined properties: little output,
// 2**40 * 100,000 property reads. The replacement polls its run and ends when the budget does.
// (serial: it burns its whole budget, which would eat concurrent cases' budgets.)
// expect: timeout
// config: compute=1s wall=2s serial
const u = {};
for (let i = 0; i < 100000; i++) u["k" + i] = undefined;
let a = [u];
for (let i = 0; i < 40; i++) a = [a, a];
JSON.stringify(a);
