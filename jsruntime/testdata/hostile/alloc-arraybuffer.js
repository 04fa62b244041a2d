// expect: exception: RangeError: Array buffer allocation failed
// config: compute=300ms wall=3s
new ArrayBuffer(2 ** 40);
