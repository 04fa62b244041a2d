// A self-containing array flattened to any depth: goja's FlattenIntoArray recursed in Go once per
// level until Go's stack overflowed (a fatal error that ended an in-process host).
// expect: exception: RangeError: Array.prototype.flat: arrays nested deeper than 12000 levels
// config: compute=3s wall=4s
const a = [1];
a.push(a);
a.flat(Infinity);
