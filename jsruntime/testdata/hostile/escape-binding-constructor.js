// A binding function's constructor is the realm's Function: its code sees only the realm.
// expect: value: [true,true,"undefined","undefined"]
const F = tools.echo.constructor;
const g = F("return this")();
return [F === Function, g === globalThis, typeof g.tools, F("return typeof process")()];
