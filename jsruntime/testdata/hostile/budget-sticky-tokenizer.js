// A tokenizer trying a sticky regexp position by position over one long non-ASCII text: goja
// searched on past each failed sticky attempt to the next match (then refused it), so each
// attempt read the rest of the text: 200,000 positions took 22s in-process. goja (runcode's
// fork) anchors sticky patterns, so each attempt stops where it starts (0.3s); a literal inside
// a function shares its compiled form across calls.
// expect: value: [10,1]
// config: compute=8s wall=12s
const s = "é".repeat(200000) + "1";
const letter = () => /[\p{L}]/uy;
let letters = 0;
for (let i = 0; i <= 200000; i += 20000) { const re = letter(); re.lastIndex = i; if (re.test(s)) letters++; }
const digit = /\d/y;
let digits = 0;
for (let i = 0; i < s.length; i++) { digit.lastIndex = i; if (digit.test(s)) digits++; }
return [letters, digits];
