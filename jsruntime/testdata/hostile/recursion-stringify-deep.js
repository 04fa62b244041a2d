// JSON.stringify of a 20,000-deep array: goja's recursed in Go per level and checked cycles by
// scanning the open objects for each one (100,000 deep took 31s at a 1s budget; a million levels
// overflow Go's stack). The replacement refuses nesting past 12,000 levels.
// expect: exception: RangeError: JSON.stringify: values nested deeper than 12000 levels
// config: compute=5s wall=6s
let a = [];
for (let i = 0; i < 20000; i++) a = [a];
JSON.stringify(a);
