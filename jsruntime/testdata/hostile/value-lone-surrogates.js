// Strings that are not well-formed UTF-16 silently became U+FFFD on their way to a tool; they
// are refused, naming the place. (The result case is in boundary_test.go.)
// expect: value: ["binding arguments cannot be converted to JSON: argument.a[1]: string is not well-formed UTF-16 (lone surrogate U+D800 at index 1)","\ud83d\ude00\ufffd"]
// config: compute=2s wall=5s
let msg;
try { await tools.echo({a: ["ok", "x\ud800"]}); } catch (e) { msg = e.message; }
return [msg, await tools.echo("\ud83d\ude00\ufffd")];
