// A program that reads every member of the namespace one at a time, and then changes it
// (assigns, defines, deletes, prevents extensions), gets the object an eager build gives.
// Before, the read of the last member left the traps of an incomplete object in place, and each
// change re-entered its own trap until the Go stack overflowed: a fatal error of the host.
// expect: value: [1,2,true,false,["echo","fail","__proto__","never","x","mine"],"TypeError"]
tools.echo;
tools.fail;
tools["__proto__"];
tools.never;
tools.mine = 1;
Object.defineProperty(tools, "x", { value: 2 });
const deleted = delete tools.mine;
tools.mine = 1;
Object.preventExtensions(tools);
let e;
try {
	tools.echo = 1;
} catch (x) {
	e = x.name;
}
return [tools.mine, tools.x, deleted, Object.isExtensible(tools), Reflect.ownKeys(tools), e];
