// expect: value: [true,true,false,["echo","fail","__proto__","never"]]
return [Object.getPrototypeOf(tools) === null, Object.getPrototypeOf(tools.echo) === Function.prototype,
	"constructor" in tools, Object.keys(tools)];
