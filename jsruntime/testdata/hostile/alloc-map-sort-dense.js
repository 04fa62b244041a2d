// map, sort, toSorted, toReversed, with and toSpliced allocate the receiver's whole length at
// once (goja makes it dense: 2**32 - 1 elements would be 64 GiB); array-likes whose length is a
// getter get a view with the length checked (map) or are refused (sort, which writes back); the
// ordinary uses keep working.
// expect: value: ["RangeError: Invalid array length","RangeError: Invalid array length","RangeError: Invalid array length","RangeError: Invalid array length","RangeError: Invalid array length","RangeError: Invalid array length","RangeError: Invalid array length",1,"TypeError",[1,2,3],[2,4],[1,9,3],[1,"a","b",3],["aa","bb"],{"0":"a","1":"b","length":2},[3,2,1]]
// config: compute=2s wall=3s
let n = 0;
const out = [];
for (const f of [
  () => Array(2 ** 32 - 1).map((x) => x),
  () => Array(2 ** 31).sort(),
  () => Array(2 ** 31).toSorted(),
  () => Array(2 ** 31).toReversed(),
  () => Array(2 ** 31).with(0, 1),
  () => Array(2 ** 31).toSpliced(0, 0, 1),
  () => Array.prototype.sort.call({ length: 2 ** 32 - 1 }),
  () => Array.prototype.map.call({ get length() { return n++ ? 2 ** 32 - 1 : 1; } }, (x) => x).length,
  () => Array.prototype.sort.call({ get length() { return 1; } }),
  () => [3, 1, 2].sort(),
  () => [1, 2].map((x) => x * 2),
  () => [1, 2, 3].with(1, 9),
  () => [1, 2, 3].toSpliced(1, 1, "a", "b"),
  () => Array.prototype.map.call({ length: 2, 0: "a", 1: "b" }, (x) => x + x),
  () => Array.prototype.sort.call({ length: 2, 0: "b", 1: "a" }),
  () => [1, 2, 3].toReversed(),
]) {
  try { out.push(f()); } catch (e) { out.push(e.name === "RangeError" ? e.name + ": " + e.message : e.name); }
}
return out;
