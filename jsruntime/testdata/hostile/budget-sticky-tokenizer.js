// A tokenizer trying a sticky regexp position by position over one long non-ASCII text: goja
// searched on past each failed sticky attempt to the next match (then refused it), so each
// attempt read the rest of the text: quadratic (this case ran past its 8s budget). goja
// (runcode's fork) anchors sticky patterns, so each attempt stops where it starts; a literal
// inside a function shares its compiled form across calls.
// expect: value: [5,2]
// config: compute=8s wall=12s
const s = "é".repeat(50000) + "1";
const letter = () => /[\p{L}]/uy;
let letters = 0;
for (let i = 0; i <= 50000; i += 10000) { const re = letter(); re.lastIndex = i; if (re.test(s)) letters++; }
const token = /(?:[^é]|é\d)/y;
let tokens = 0;
for (let i = 0; i < s.length; i++) { token.lastIndex = i; if (token.test(s)) tokens++; }
return [letters, tokens];
