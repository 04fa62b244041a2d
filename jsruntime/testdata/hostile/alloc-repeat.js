// expect: exception: RangeError: Invalid string length
// config: compute=300ms wall=3s
"x".repeat(2 ** 40);
