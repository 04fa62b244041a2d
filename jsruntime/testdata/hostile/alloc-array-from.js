// expect: exception: RangeError
// config: compute=300ms wall=3s
Array.from({ length: 2 ** 32 - 1 });
