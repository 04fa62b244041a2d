// regexp2 case-folds the classes of a case-insensitive pattern code point by code point: 100 \W
// with the i flag took 2.5s in one native step (goja compiles with regexp2 for lookarounds, and
// for any global or sticky search that starts past 0). The guard refuses case-insensitive
// patterns whose classes cover more than 16,777,216 code points.
// expect: value: ["RangeError","RangeError","compiled"]
// config: compute=2s wall=5s
const name = (f) => { try { f(); return "compiled"; } catch (e) { return e.name; } };
return [name(() => new RegExp("(?=a)" + "\\W".repeat(1000), "i")), name(() => "a".match(new RegExp(".".repeat(1000), "gi"))),
	name(() => new RegExp("(?=a)" + "\\W".repeat(1000), "g"))];
