// A length that answers small to the guard and huge to the native join (time of check, time of
// use): the guard reads it once and joins what it checked.
// expect: exception: RangeError: Invalid string length
// config: compute=2s wall=3s
let reads = 0;
const o = { get length() { return reads++ === 0 ? 1 : 2 ** 32 - 1; } };
const sep = "x".repeat(1000);
Array.prototype.join.call(o, sep);
return Array.prototype.join.call({ get length() { return reads++ < 2 ? 2 : 2 ** 32 - 1; } }, sep.repeat(2 ** 18));
