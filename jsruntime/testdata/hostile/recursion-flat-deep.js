// A 20,000-deep array flattened: the guard refuses nesting past 12,000 levels; flat and flatMap
// of ordinary depth still work.
// expect: value: [[1,2,3],[1,2,3,4],"RangeError"]
// config: compute=5s wall=6s
let a = [];
for (let i = 0; i < 20000; i++) a = [a];
let name;
try { a.flat(Infinity) } catch (e) { name = e.name }
return [[1, [2, [3]]].flat(2), [1, 3].flatMap((x) => [x, x + 1]), name];
