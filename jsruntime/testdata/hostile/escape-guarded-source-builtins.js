// The guarded eval, Function family and JSON.parse lead nowhere else: every property that led
// to a goja original leads to a wrapper, and the wrappers expose nothing.
// expect: value: [true,true,true,true,true,"ReferenceError",["length","name","prototype"]]
// config: compute=2s wall=5s
const AsyncFunction = (async function () {}).constructor;
const GeneratorFunction = (function* () {}).constructor;
return [Function.prototype.constructor === Function, AsyncFunction.prototype.constructor === AsyncFunction,
	GeneratorFunction.prototype.constructor === GeneratorFunction, Object.getPrototypeOf(AsyncFunction) === Object.getPrototypeOf(Function),
	(() => { try { eval("[".repeat(1e6)); return false; } catch (e) { return e instanceof RangeError; } })(),
	(() => { try { return typeof Function.constructor("return process")(); } catch (e) { return e.name; } })(),
	Object.getOwnPropertyNames(Function).sort()];
