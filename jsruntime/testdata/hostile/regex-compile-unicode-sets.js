// The v flag's class set operations (--, &&, nested complements, \q{…}) are computed when the
// pattern compiles, in one native step: intersections of large properties, complements nested
// hundreds deep, and case-insensitive classes of every code point would take seconds. goja
// refuses a pattern whose set operations exceed a fixed work limit, or whose classes nest more
// than 1,000 levels (a SyntaxError naming it), and the guard measures v-mode patterns before
// they compile (property escape ranges, the code points of case-insensitive classes, nested
// complements counted as '.').
// expect: value: ["RangeError","SyntaxError","SyntaxError","RangeError","RangeError","compiled"]
// config: compute=2s wall=5s
const name = (f) => { try { f(); return "compiled"; } catch (e) { return e.name; } };
return [
	name(() => new RegExp("[" + "[\\P{L}\\P{N}]&&".repeat(20000) + "a]", "v")),
	name(() => new RegExp("[^".repeat(30000) + "\\p{L}" + "]".repeat(30000), "v")),
	name(() => new RegExp("[^".repeat(400) + Array.from({ length: 3000 }, (_, k) => String.fromCharCode(0x4e00 + 3 * k) + "-" + String.fromCharCode(0x4e01 + 3 * k)).join("") + "]".repeat(400), "v")),
	name(() => new RegExp("(?=a)[" + "[^a]".repeat(20) + "]", "vi")),
	name(() => new RegExp("[" + "\\u{0}-\\u{10ffff}".repeat(20000) + "]", "vi")),
	name(() => "Héllo".match(new RegExp("[\\p{L}--[a-z]]+", "gv"))),
];
