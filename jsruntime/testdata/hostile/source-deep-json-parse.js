// JSON.parse of ten million '[' ended the host with a Go stack overflow (goja's JSON parser
// recurses per level); the guard measures the text first and throws a catchable RangeError.
// Text nested up to the limit, and revivers, still work.
// expect: value: ["RangeError","JSON.parse: text nests deeper than 12000 levels",12000,[[[1]]],3]
// config: compute=5s wall=8s
let caught;
try { JSON.parse("[".repeat(1e7)); } catch (e) { caught = e; }
let limit = JSON.parse("[".repeat(12000) + "]".repeat(12000)), depth = 0;
while (Array.isArray(limit)) { limit = limit[0]; depth++; }
return [caught.name, caught.message, depth, JSON.parse("[[[1]]]"), JSON.parse('{"a":1,"b":2}', (k, v) => k === "b" ? v + 1 : v).b];
