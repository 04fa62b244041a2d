// Elements count, not only separators: 65,536 references to a 1 MiB string would join to 2**36
// characters in one native step.
// expect: exception: RangeError: Invalid string length
// config: compute=2s wall=3s
const s = "x".repeat(2 ** 20);
const a = new Array(2 ** 16).fill(s);
return a.join("").length;
