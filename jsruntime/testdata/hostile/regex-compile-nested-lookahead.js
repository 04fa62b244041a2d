// Compiling a regular expression is one native step, and goja's regexp2 compiler (used for
// lookarounds) is quadratic in nested groups: 20,000 nested lookaheads took 1s, a million ran
// for more than ten minutes at a 2s budget. The RegExp guard refuses patterns nesting groups
// more than 1,000 deep, or longer than 262,144 characters, with a catchable RangeError.
// expect: value: ["RangeError: RegExp: the pattern is 4000001 characters long, over the limit of 262144","RangeError: RegExp: the pattern nests groups more than 1000 levels deep",true]
// config: compute=2s wall=5s
const nested = (n) => "(?=".repeat(n) + "a" + ")".repeat(n);
const attempt = (n) => { try { new RegExp(nested(n)); return "compiled"; } catch (e) { return e.name + ": " + e.message; } };
return [attempt(1e6), attempt(50000), new RegExp(nested(1000)).test("a")];
