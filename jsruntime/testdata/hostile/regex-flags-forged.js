// goja's matchAll and split copy a regexp with the flags they read from its flags property,
// through goja's own RegExp when the regexp's constructor is undefined: a pattern made without
// the i flag (cheap) and a forged flags property adding it compiled unmeasured (1,000 \W: about
// 25s). The copy's pattern is measured as case-insensitive.
// expect: value: ["RangeError","RangeError",2,2]
// config: compute=2s wall=5s
const re = new RegExp("(?=a)" + "\\W".repeat(1000), "g");
Object.defineProperty(re, "flags", { value: "gi" });
re.constructor = undefined;
const name = (f) => { try { f(); return "ran"; } catch (e) { return e.name; } };
return [name(() => [...re[Symbol.matchAll]("x")]), name(() => re[Symbol.split]("x")), [..."abab".matchAll(/a/g)].length, "a,b".split(/,/).length];
