// flatMap whose callback returns the same large array for each element: 10**12 results.
// expect: timeout|exception: RangeError: Invalid array length
// config: compute=1s wall=2s
const big = new Array(1000000).fill(0);
big.flatMap(() => big);
