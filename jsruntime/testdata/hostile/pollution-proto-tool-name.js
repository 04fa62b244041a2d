// tools["__proto__"] is an ordinary own member, not the namespace's prototype.
// expect: value: [true,"function",true,{"ok":1}]
return [Object.hasOwn(tools, "__proto__"), typeof tools["__proto__"], Object.getPrototypeOf(tools) === null,
	await tools.echo({ ok: 1 })];
