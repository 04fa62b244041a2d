// Go's RE2 writes out each counted repetition: 'a{1000}'.repeat(3000), 21,000 characters, took
// 0.9s and 700 MB in one native step. The guard refuses patterns whose repetitions expand past
// 100,000 elements; the program's own literals are measured before goja compiles them.
// expect: value: ["RangeError","RangeError","RangeError",true]
// config: compute=2s wall=5s
const name = (f) => { try { f(); return "compiled"; } catch (e) { return e.name; } };
return [name(() => new RegExp("a{1000}".repeat(3000))), name(() => new RegExp("(?:[^a]{1000})".repeat(300), "i")),
	name(() => eval("/" + "a{1000}".repeat(3000) + "/")), /a{1000}/.test("a".repeat(1000))];
