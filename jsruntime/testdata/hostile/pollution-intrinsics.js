// Mutating intrinsics affects this run only; the next run gets a fresh realm (checked by the runner).
// expect: value: "ok"
Object.prototype.polluted = true; Array.prototype.map = null; JSON.stringify = null;
Object.defineProperty(Object.prototype, "toolName", { get() { return "forged" } });
Function.prototype.call = null; Promise.prototype.then = function () { return this };
return "ok";
