// new Function and its relatives (reached through prototypes, since AsyncFunction and
// GeneratorFunction have no global name) compiled deeply nested text with goja's recursive
// parser and ended the host; every way to reach them is guarded.
// expect: value: [["RangeError","RangeError","RangeError","RangeError","RangeError","RangeError"],[3,true,true,true,7,true]]
// config: compute=2s wall=5s
const deep = "return " + "[".repeat(2e6);
const ctors = [Function, Function.prototype.constructor, (() => 1).constructor,
	(async function () {}).constructor, Object.getPrototypeOf(function* () {}).constructor,
	Reflect.getPrototypeOf(async () => 1).constructor];
const names = ctors.map((C) => { try { new C("a", deep); return "compiled"; } catch (e) { return e.name; } });
class F extends Function {}
const f = new F("return 7");
return [names, [new Function("a", "b", "return a + b")(1, 2), Function("return 1")() === 1,
	f instanceof F && f instanceof Function, (async function () {}).constructor("return 1")() instanceof Promise,
	f(), typeof Object.getPrototypeOf(function* () {}).constructor("yield 1")().next === "function"]];
