// Walking prototypes from a binding function ends in the realm's Object.prototype.
// expect: value: [true,true,null]
let p = tools.echo, n = 0;
while (Object.getPrototypeOf(p) !== null) { p = Object.getPrototypeOf(p); n++ }
return [p === Object.prototype, n === 2, Object.getPrototypeOf(p)];
