// The escape of the largest code point took the host down: goja's lexer stopped reading
// \u{10FFFF} before its "}", counted one character too many, and panicked while parsing the
// program, on a goroutine no recover covers (fixed in third_party/goja, RUNCODE.md).
// expect: value: [2,1114111,2,"SyntaxError"]
let bad = "";
try { eval('"\\u{110000}"') } catch (e) { bad = e.name }
return ["\u{10FFFF}".length, "\u{10FFFF}".codePointAt(0), eval('"\\u{10ffff}"').length, bad];
