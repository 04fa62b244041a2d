// A binding result with a "__proto__" key gets it as an own data property: nothing is polluted.
// expect: value: [true,true,"undefined",["__proto__","ok"],{"polluted":true}]
const r = await tools["__proto__"]({});
return [Object.getPrototypeOf(r) === Object.prototype, Object.hasOwn(r, "__proto__"), typeof ({}).polluted,
	Object.keys(r), r["__proto__"]];
