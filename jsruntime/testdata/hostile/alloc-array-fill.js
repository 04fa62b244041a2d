// expect: exception: RangeError: Invalid array length
// config: compute=300ms wall=3s
new Array(1e9).fill(0);
