// expect: exception: RangeError: Invalid string length
// config: compute=300ms wall=3s
"x".padEnd(2 ** 40, "yz");
