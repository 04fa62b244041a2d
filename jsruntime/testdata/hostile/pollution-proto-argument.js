// An argument with an own "__proto__" key round-trips through a binding as an own key.
// expect: value: [{"__proto__":{"polluted":true},"a":1},"undefined"]
const arg = JSON.parse('{"__proto__":{"polluted":true},"a":1}');
const r = await tools.echo(arg);
return [r, typeof ({}).polluted];
