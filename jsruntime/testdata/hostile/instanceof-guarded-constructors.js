// The guarded ArrayBuffer and typed-array constructors still work on the right of instanceof
// (goja's instanceof throws for a proxy; the guard adds Symbol.hasInstance), for subclasses
// too, and a forged Symbol.hasInstance call cannot reach anything.
// expect: value: [true,true,false,true,false,false]
// config: compute=300ms wall=3s
class Bytes extends Uint8Array {}
const h = Uint8Array[Symbol.hasInstance];
return [new Uint8Array(2) instanceof Uint8Array, new ArrayBuffer(1) instanceof ArrayBuffer, {} instanceof Float32Array,
  new Bytes(1) instanceof Uint8Array, h.call({}, new Uint8Array(1)), h.call(42, 42)];
