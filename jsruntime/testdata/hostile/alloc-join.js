// expect: exception: RangeError: Invalid string length
// config: compute=300ms wall=3s
Array(2 ** 32 - 1).join("x");
