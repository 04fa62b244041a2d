// JSON.parse of ten million '[' ended the host with a Go stack overflow (goja's JSON parser
// recurses per level); the guard measures the text first and throws a catchable RangeError.
// expect: value: [["RangeError","RangeError"],["JSON.parse: text of 10000000 bytes exceeds the limit of 8388608","JSON.parse: text nests deeper than 8000 levels"],8000,[[[1]]],3]
// config: compute=2s wall=5s
const caught = [1e7, 5e6].map((n) => { try { JSON.parse("[".repeat(n)); } catch (e) { return e; } });
let limit = JSON.parse("[".repeat(8000) + "]".repeat(8000)), depth = 0;
while (Array.isArray(limit)) { limit = limit[0]; depth++; }
return [caught.map((e) => e.name), caught.map((e) => e.message), depth, JSON.parse("[[[1]]]"), JSON.parse('{"a":1,"b":2}', (k, v) => k === "b" ? v + 1 : v).b];
