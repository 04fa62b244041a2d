// GeneratorFunction is guarded lazily, when some source text has a star. This program has none
// in its own text: it makes generators through eval and Function, whose sources do, and their
// constructor is guarded all the same.
// expect: value: ["RangeError","RangeError",[1,2]]
// config: compute=2s wall=5s
const star = String.fromCharCode(42);
const viaEval = eval("(function" + star + " () { yield 1; yield 2 })");
const viaFunction = new Function("return function" + star + " () {}")();
const deep = "return " + "[".repeat(1e6);
const tryIt = (C) => { try { C(deep); return "compiled"; } catch (e) { return e.name; } };
return [tryIt(viaEval.constructor), tryIt(Object.getPrototypeOf(viaFunction).constructor), [...viaEval()]];
