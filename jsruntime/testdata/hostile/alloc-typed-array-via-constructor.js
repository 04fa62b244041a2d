// The guarded constructor is also what a typed array's constructor property reaches.
// expect: exception: RangeError: Invalid typed array length
// config: compute=300ms wall=3s
new (new Float64Array(1).constructor)(2 ** 31);
