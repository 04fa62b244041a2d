// The body of a program that tests the v flag (unicodeSets): for each [pattern, flags, inputs]
// the RegExp constructor's flags, unicode and unicodeSets, and what each input's first match is
// (or the error's name and message); then literals, a code point sample of the i flag, and the
// v flag in match, matchAll, replace, split and lastIndex. The same text runs in runcode
// (TestRegexpUnicodeSetsMatchNode) and, to make the expected file, in Node 22 (V8), from the
// repository root:
//
//	node -e 'const fs = require("fs"); console.log(JSON.stringify(new Function(fs.readFileSync("jsruntime/testdata/regexp/vflag_cases.js", "utf8"))(), null, 1))' > jsruntime/testdata/regexp/vflag_cases.node22.json
// show writes a string with its non-ASCII code points (lone surrogates too) escaped.
const show = (s) => Array.from(s, (c) => (c < " " || c > "~" ? "\\u{" + c.codePointAt(0).toString(16) + "}" : c)).join("");
const t = (f) => { try { return f(); } catch (e) { return "!" + e.name + ": " + e.message; } };
const cases = [
	["[\\p{L}--[a-z]]", "v", ["a", "A", "é", "1"]],
	["[\\p{L}&&\\p{Script=Greek}]", "v", ["α", "a", "1"]],
	["[[a-z]--[aeiou]]+", "v", ["bcd", "abc"]],
	["[\\w--\\d]", "v", ["a", "1", "_"]],
	["[\\q{abc|d}x]", "v", ["abc", "d", "x", "ab"]],
	["[\\q{}]", "v", ["", "a"]],
	["^[\\q{abc|ab}]$", "v", ["abc", "ab"]],
	["[\\q{abc|ab|a}]", "v", ["abcd", "abd", "ad"]],
	["[\\q{a|}]", "v", ["", "a"]],
	["x[\\q{}]y", "v", ["xy"]],
	["[\\q{a\\|b}]", "v", ["a|b", "a"]],
	["[\\q{\\}}]", "v", ["}"]],
	["[\\q{\\b}]", "v", ["\b"]],
	["[\\q{ab|c}]+", "v", ["abcab", "cc"]],
	["[^\\q{a}]", "v", ["a", "b"]],
	["[\\p{L}--\\q{a}]", "v", ["a", "b"]],
	["[\\q{ab}--\\q{ab}]", "v", ["ab"]],
	["[\\q{ab|c}&&\\q{ab}]", "v", ["ab", "c"]],
	["[\\q{ab|cd}--\\q{ab}]", "v", ["ab", "cd"]],
	["[[a-z]&&[^aeiou]]", "v", ["b", "a"]],
	["[[[a]]]", "v", ["a"]],
	["[\\d\\s]", "v", ["1", " ", "a"]],
	["[^]", "v", ["a", "\n"]],
	["[]", "v", ["a"]],
	["[^[^a]]", "v", ["a", "b"]],
	["[\\-]", "v", ["-"]],
	["[\\(]", "v", ["("]],
	["[.]", "v", [".", "a"]],
	["[.a]", "v", [".", "a"]],
	["[\\u{1F600}-\\u{1F64F}]", "v", ["😀", "a"]],
	["[😀]", "v", ["😀"]],
	["[\\uD83D\\uDE00]", "v", ["😀"]],
	["[\\uD83D]", "v", ["\ud83d", "😀"]],
	["[\\x41]", "v", ["A"]],
	["[\\cA]", "v", ["\x01"]],
	["[\\b]", "v", ["\b"]],
	["[\\0]", "v", ["\0"]],
	["[\\&\\!\\#\\%\\,\\:\\;\\<\\=\\>\\@\\`\\~]+", "v", ["&!#%,:;<=>@`~"]],
	["[!&#%,:;<=>@`~*+?^$.]+", "v", ["!&#%,:;<=>@`~*+?^$."]],
	["[\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/]+", "v", ["^$\\.*+?()[]{}|/"]],
	["[\\-a]", "v", ["-", "a"]],
	["[a\\-z]", "v", ["-", "b"]],
	["[^^]", "v", ["^", "a"]],
	["[a^]", "v", ["^"]],
	["[\\s--\\n]", "v", [" ", "\n"]],
	["[\\D&&\\S&&\\W]", "v", ["a", "!", " ", "1"]],
	["[\\p{ASCII}--\\p{L}--\\p{N}]+", "v", ["ab!?12"]],
	["[\\p{N}--\\p{Nd}]", "v", ["½", "1", "Ⅻ"]],
	["\\p{L}+", "v", ["héllo wörld"]],
	["\\P{L}+", "v", ["ab12cd"]],
	["[\\P{L}&&\\p{ASCII}]+", "v", ["ab12!cd"]],
	["a{2}", "v", ["aa"]],
	["(?<n>a)\\k<n>", "v", ["aa"]],
	["(?<=[\\p{Lu}--[A-Z]])x", "v", ["Éx", "Ax"]],
	["[\\p{L}--\\p{Lu}]", "vi", ["a", "A", "1"]],
	["[\\p{Lu}--[A-Z]]", "vi", ["a", "A", "É", "é"]],
	["[^\\p{Lu}]", "vi", ["a", "A", "1"]],
	["\\P{Lu}", "vi", ["a", "A", "1"]],
	["\\P{Lu}", "ui", ["a", "A", "1"]],
	["[\\W]", "vi", ["ſ", "s", "K", "k", "!"]],
	["[^\\w]", "vi", ["ſ", "K", "!"]],
	["\\W", "vi", ["ſ", "K", "!"]],
	["[\\q{KS}]", "vi", ["ks", "KS", "Kſ"]],
	["[^a]", "vi", ["A", "a", "b"]],
	["[^[^a]]", "vi", ["A", "a", "b"]],
	["[[a-z]--[aeiou]]", "vi", ["A", "E", "B"]],
	["[\\p{Ll}&&[a-f]]", "vi", ["C", "c", "g"]],
	["[a-z]", "uv", ["a"]],
	["[a-z]", "vv", ["a"]],
	["[a-z]", "uu", ["a"]],
	["[(]", "v", ["("]],
	["[)]", "v", []], ["[{]", "v", []], ["[}]", "v", []], ["[/]", "v", []], ["[|]", "v", []], ["[-]", "v", []], ["[a-]", "v", []],
	["[a&&&b]", "v", []],
	["[a--b&&c]", "v", []],
	["[a-z&&[^aeiou]]", "v", []],
	["[a-c--b]", "v", []],
	["[a-c[x-z]--b]", "v", []],
	["[&&a]", "v", []], ["[a&&]", "v", []], ["[a!!b]", "v", []], ["[a..]", "v", []], ["[$$]", "v", []], ["[**]", "v", []],
	["[\\z]", "v", []], ["[\\']", "v", []], ["[\\k]", "v", []], ["[\\B]", "v", []], ["[\\q]", "v", []], ["[\\1]", "v", []],
	["[\\c1]", "v", []], ["[\\x4]", "v", []], ["[\\u12]", "v", []], ["[\\u{110000}]", "v", []],
	["[z-a]", "v", []], ["[\\d-a]", "v", []], ["[a-\\d]", "v", []], ["[a", "v", []], ["[[a]", "v", []],
	["\\q{a}", "v", []], ["\\z", "v", []], ["\\-", "v", []], ["\\,", "v", []], ["a\\.b\\/\\$", "v", ["a.b/$"]], ["[\\q{a]", "v", []], ["[\\q{(}]", "v", []], ["[\\q{a-b}]", "v", []], ["[\\q{a&&b}]", "v", []], ["[\\q{\\d}]", "v", []],
	["[^\\q{ab}]", "v", []], ["[^[\\q{ab}]]", "v", []], ["[\\p{Foo}]", "v", []], ["\\p{Foo}", "v", []], ["[\\p{L}&&\\P{Foo}]", "v", []],
	["[(]", "gv", []], ["[(]", "vg", []],
];
const out = {};
for (const [src, flags, inputs] of cases) {
	out["/" + src + "/" + flags] = t(() => {
		const re = new RegExp(src, flags);
		return [re.flags, re.unicode, re.unicodeSets, String(re), inputs.map((s) => { const m = re.exec(s); return m && [m.index, show(m[0])]; })];
	});
}
// Literals.
const literals = [/[\p{L}--[a-z]]+/v, /[\q{ab|c}]/gv, /[[a-z]&&\p{ASCII}]/iv, /\p{Lu}/v, /[^\d]/v];
out.literals = literals.map((re) => [re.source, re.flags, re.unicode, re.unicodeSets, "Ab-zC" .match(re)]);
// The i flag, code point by code point: ASCII, Latin-1, Greek, Cyrillic and the special folds.
const sample = [];
for (let cp = 0x20; cp < 0x250; cp++) sample.push(cp);
for (let cp = 0x370; cp < 0x460; cp++) sample.push(cp);
sample.push(0x1e9e, 0x212a, 0x212b, 0x2126, 0x1fbe, 0x13a0, 0xab70, 0x10400, 0x10428, 0x1e900, 0x1e922);
const foldPatterns = [["[\\p{L}--\\p{Ll}]", "vi"], ["[\\p{Lu}&&\\p{Script=Greek}]", "vi"], ["[^\\p{Ll}]", "vi"], ["[\\w--[a-f]]", "vi"],
	["[^[^k]]", "vi"], ["[\\p{L}--[^s]]", "vi"], ["\\P{Ll}", "vi"], ["[\\q{ß}\\u{1E9E}]", "vi"], ["[[\\u{100}-\\u{17F}]--\\p{Lu}]", "vi"]];
out.fold = foldPatterns.map(([src, flags]) => {
	const re = new RegExp("^(?:" + src + ")$", flags);
	return [src + "/" + flags, sample.filter((cp) => re.test(String.fromCodePoint(cp))).map((cp) => cp.toString(16)).join(" ")];
});
// The v flag matches by code points in every method.
out.methods = [
	"a😀b".split(new RegExp("", "v")).map(show),
	show("😀".replace(/(?:)/gv, "-")),
	[..."a😀b😀".matchAll(/[\p{Emoji_Presentation}]/gv)].map((m) => m.index),
	"😀😀".match(/(?:)/gv).length,
	(() => { const re = /\p{L}/gv; re.exec("éa"); return re.lastIndex; })(),
	"x😀y".search(/[^\q{x}]/v),
	Object.getOwnPropertyDescriptor(RegExp.prototype, "unicodeSets").get.call(RegExp.prototype),
	t(() => Object.getOwnPropertyDescriptor(RegExp.prototype, "unicodeSets").get.call({})),
	new RegExp(/[\q{ab}]/v, "g").flags,
	String(new RegExp(/[a]/g, "v")),
];
return out;
