// The namespace builds its functions when they are first read; a program that changes it before
// reading anything (an accessor, no more extensions), or reads it through its own proxy, sees the
// object an eager build gives, and no trap exposes a host value.
// expect: value: [false,true,["echo","fail","__proto__","never","x"],"function",1,false,true,{"n":1},[]]
Object.defineProperty(tools, "x", { get() { return 1; }, enumerable: true, configurable: true });
Object.preventExtensions(tools);
const p = new Proxy(tools, {});
const leaked = [];
for (const k of Reflect.ownKeys(tools)) {
	const d = Object.getOwnPropertyDescriptor(tools, k);
	if (typeof d.value === "object" && d.value !== null) leaked.push(k);
}
return [Object.isExtensible(tools), "echo" in p, Object.keys(p), typeof p.fail, tools.x, Object.isFrozen(tools),
	Object.getOwnPropertyNames(tools.echo).every((k) => ["length", "name", "prototype"].includes(k)), await p.echo({ n: 1 }), leaked];
