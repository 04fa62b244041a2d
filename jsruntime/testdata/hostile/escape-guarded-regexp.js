// Every path to goja's RegExp constructor leads to the guard: the global, called or constructed,
// a subclass's super call, .constructor of a regexp or of RegExp.prototype, Reflect.construct
// and apply, RegExp.prototype.compile, String.prototype.match, matchAll and search with a
// string, a regexp-like object, and literals in eval and Function text. RegExp still behaves
// as RegExp (identity when called on a regexp, species, instanceof, split with a subclass).
// expect: value: [["RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError"],[true,true,true,true,true,true,true,true,"a,b","a,b",1,"a",["length","name","prototype"]]]
// config: compute=2s wall=5s
const deep = "(?=".repeat(1001) + "a" + ")".repeat(1001);
const wide = "a{1000}".repeat(101);
class R extends RegExp {}
const re = /x/g;
const name = (f) => { try { f(); return "compiled"; } catch (e) { return e.name; } };
const refused = [
	() => new RegExp(deep), () => RegExp(deep), () => new R(deep), () => re.constructor(deep),
	() => new (Object.getPrototypeOf(re).constructor)(deep), () => Reflect.construct(RegExp, [deep], R),
	() => Reflect.apply(RegExp, undefined, [wide]), () => /a/.compile(wide), () => "a".match(deep),
	() => [..."a".matchAll(deep)], () => "a".search(wide), () => new RegExp({ [Symbol.match]: true, source: wide, flags: "" }),
	() => eval("/" + wide + "/"), () => Function("return /" + wide + "/")(), () => new Function("a", "b", "return /" + wide + "/")(),
].map(name);
const works = [RegExp(re) === re, new RegExp(re) !== re, new R("a") instanceof R, new R("a") instanceof RegExp,
	re instanceof RegExp, re.constructor === RegExp && RegExp.prototype.constructor === RegExp, RegExp[Symbol.species] === RegExp,
	new RegExp(re, "i").flags === "i", "a-b".split(/-/).join(), "a-b".split(new R("-")).join(), "xay".search("a"),
	"xay".match("a")[0], Object.getOwnPropertyNames(RegExp).sort()];
return [refused, works];
