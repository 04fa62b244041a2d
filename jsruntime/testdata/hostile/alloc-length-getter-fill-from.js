// Length getters that answer small to the guard and huge to the native method: fill on an
// array-like fills only what the guard checked; Array.from of an array-like gets a view with the
// checked length. A numeric string length is a length too.
// expect: value: [3,1,"RangeError: Invalid array length"]
// config: compute=2s wall=3s
let a = 0, b = 0;
const filled = Array.prototype.fill.call({ get length() { return a++ === 0 ? 3 : 2 ** 32 - 1; } }, 7);
const from = Array.from({ get length() { return b++ === 0 ? 1 : 2 ** 32 - 1; } });
let err;
try { Array.from({ length: "4294967295" }); } catch (e) { err = e.name + ": " + e.message; }
return [Object.keys(filled).filter((k) => k !== "length").length, from.length, err];
