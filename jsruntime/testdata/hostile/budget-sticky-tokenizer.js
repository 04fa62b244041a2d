// A tokenizer trying sticky regexps position by position over one long non-ASCII text: goja
// searched on past each failed sticky attempt to the next match (then refused it), so each
// attempt read the rest of the text: 100,000 positions took about 6s in-process (200,000: 22s).
// goja (runcode's fork) anchors sticky patterns, so each attempt stops where it starts; a literal
// inside a function shares its compiled form across calls.
// expect: value: [10,1,1,100001]
// config: compute=3s wall=6s
const s = "é".repeat(100000) + "1";
function count(text, re) {
  let n = 0;
  for (let i = 0; i < text.length; i++) { re.lastIndex = i; if (re.test(text)) n++; }
  return n;
}
const letter = () => /[\p{L}]/uy;
let letters = 0;
for (let i = 0; i <= 100000; i += 10000) { const re = letter(); re.lastIndex = i; if (re.test(s)) letters++; }
return [letters, count(s, /\d/y), count(s.slice(-1000), /[0-9]/y), count(s, /(?:)/y)];
