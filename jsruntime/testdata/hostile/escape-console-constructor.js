// console.log.constructor('return this')() is the realm's global, with no host objects on it.
// expect: value: [true,"undefined","undefined","undefined"]
const g = console.log.constructor("return this")();
return [g === globalThis, typeof g.console, typeof g.tools, typeof g.ToolCallError];
