// flatMap whose callback returns the same large array for each element: 10**12 results.
// (serial: it burns its whole budget, which would eat concurrent cases' budgets.)
// expect: timeout|exception: RangeError: Invalid array length
// config: compute=1s wall=2s serial
const big = new Array(1000000).fill(0);
big.flatMap(() => big);
