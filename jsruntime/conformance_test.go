package jsruntime_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// TestMain lets a ProcessPool re-execute the test binary as its worker.
func TestMain(m *testing.M) {
	jsruntime.RunWorkerIfRequested()
	os.Exit(m.Run())
}

// closer is a Runtime that can be disposed of.
type closer interface {
	jsruntime.Runtime
	Close() error
}

// isolation builds the runtime under test for a config.
type isolation struct {
	name string
	new  func(t testing.TB, cfg jsruntime.Config) closer
}

// isolations are every backend the conformance suite runs against.
var isolations = []isolation{
	{"inprocess", func(t testing.TB, cfg jsruntime.Config) closer {
		g, err := jsruntime.New(cfg)
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		return g
	}},
	{"process", func(t testing.TB, cfg jsruntime.Config) closer {
		p, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Config: cfg, Size: 1, MemoryLimit: 512 << 20})
		if err != nil {
			t.Fatalf("NewProcessPool: %v", err)
		}
		return p
	}},
}

// runtimes caches one runtime per config for the length of a test.
type runtimes struct {
	t   *testing.T
	iso isolation
	mu  sync.Mutex
	m   map[jsruntime.Config]closer
}

func newRuntimes(t *testing.T, iso isolation) *runtimes {
	rs := &runtimes{t: t, iso: iso, m: map[jsruntime.Config]closer{}}
	t.Cleanup(func() {
		for _, rt := range rs.m {
			_ = rt.Close()
		}
	})
	return rs
}

func (rs *runtimes) get(cfg jsruntime.Config) closer {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rt, ok := rs.m[cfg]; ok {
		return rt
	}
	rt := rs.iso.new(rs.t, cfg)
	rs.m[cfg] = rt
	return rt
}

// slack is the allowed overrun past a budget: 250ms, more under the race detector, which slows
// JavaScript several times over.
func slack() time.Duration {
	if jsruntime.RaceEnabled {
		return time.Second
	}
	return 250 * time.Millisecond
}

// confCase is one conformance case: a program, its config, and the expected outcome.
type confCase struct {
	name    string
	cfg     jsruntime.Config
	program string
	fns     []jsruntime.Function
	// want is the compact JSON value; or "kind: message" for a failure; a message ending in
	// "…" is a prefix, one starting with "…" a suffix.
	want string
	logs []string // nil: logs not checked; use []string{} for none
	// notes are Result.Notes; nil: not checked; use []string{} for none
	notes []string
	max   time.Duration // the run must end within max + slack (0: not timed)
}

func (c confCase) check(t *testing.T, rt jsruntime.Runtime) {
	t.Helper()
	start := time.Now()
	res, err := rt.Run(context.Background(), jsruntime.Request{Program: c.program, Bindings: toolsNamespace(c.fns...)})
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	got := ""
	if res.Value.IsDefined() {
		got = res.Value.String()
	}
	if res.Error != nil {
		got = string(res.Error.Kind) + ": " + res.Error.Message
	}
	ok := got == c.want
	switch {
	case strings.HasSuffix(c.want, "…"):
		ok = strings.HasPrefix(got, strings.TrimSuffix(c.want, "…"))
	case strings.HasPrefix(c.want, "…"):
		ok = strings.HasSuffix(got, strings.TrimPrefix(c.want, "…"))
	}
	if !ok {
		t.Errorf("outcome = %.300s, want %s", got, c.want)
	}
	if c.logs != nil && fmt.Sprintf("%q", res.Logs) != fmt.Sprintf("%q", c.logs) {
		t.Errorf("logs = %.300q, want %q", res.Logs, c.logs)
	}
	if c.notes != nil && fmt.Sprintf("%q", res.Notes) != fmt.Sprintf("%q", c.notes) {
		t.Errorf("notes = %q, want %q", res.Notes, c.notes)
	}
	if c.max > 0 && elapsed > c.max+slack() {
		t.Errorf("took %v, budget %v", elapsed, c.max)
	}
	if n := outputBytes(res); n > max(c.cfg.MaxOutputBytes, 0) && c.cfg.MaxOutputBytes > 0 {
		t.Errorf("output is %d bytes, over the cap %d", n, c.cfg.MaxOutputBytes)
	}
}

// forEachIsolation runs cases against every isolation.
func forEachIsolation(t *testing.T, cases []confCase) {
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rs := newRuntimes(t, iso)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.check(t, rs.get(c.cfg)) })
			}
		})
	}
}

var short = jsruntime.Config{ComputeBudget: 300 * time.Millisecond, WallCeiling: 2 * time.Second}

func TestConformanceFailureTaxonomy(t *testing.T) {
	forEachIsolation(t, []confCase{
		{name: "transform failure", program: "const x = ;", want: "exception: main.ts:1:11: Unexpected \";\""},
		{name: "Error: its stack", program: "throw new Error('bad')", want: "exception: Error: bad\n\tat …"},
		{name: "Error with stack 42", program: "const e = new Error('m'); e.stack = 42; throw e", want: "exception: 42"},
		{name: "Error without stack", program: "const e = new Error('m'); e.stack = undefined; throw e", want: "exception: m"},
		{name: "non-Error string", program: "throw 'raw-throw'", want: "exception: raw-throw"},
		{name: "non-Error object", program: "throw {message: 'not used'}", want: "exception: [object Object]"},
		{name: "unrenderable", program: "throw {toString() { throw 1 }}", want: "exception: program threw an unrenderable value"},
		{name: "compute budget", cfg: short, program: "for (;;) {}", want: "timeout: compute budget exhausted (300ms busy)", max: 300 * time.Millisecond},
		{name: "wall ceiling", cfg: jsruntime.Config{WallCeiling: 300 * time.Millisecond}, program: "console.log('w'); await tools.never({})",
			fns: []jsruntime.Function{never("never")}, want: "timeout: wall-clock ceiling reached (300ms)", logs: []string{"w"}, max: 300 * time.Millisecond},
		{name: "invalid output", program: "return {n: 1n}", want: "invalid-output: program completion cannot be converted to JSON: result.n: BigInt, which JSON cannot hold (convert it with String() or Number())"},
		{name: "output limit", cfg: jsruntime.Config{MaxOutputBytes: 20}, program: "return 'x'.repeat(100)", want: "output-limit: outer output exc"},
		{name: "never settles", program: "await new Promise(() => {})", want: "exception: program awaits a promise that can never settle"},
	})
}

// runningSignal returns a channel closed when the program calls tools.running, and the
// bindings with that function.
func runningSignal() (<-chan struct{}, []jsruntime.Namespace) {
	ch := make(chan struct{})
	var once sync.Once
	fn := jsruntime.Function{Name: "running", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		once.Do(func() { close(ch) })
		settle(jsonv.NullValue(), nil)
	}}
	return ch, toolsNamespace(fn)
}

func TestConformanceAbortAndDisposal(t *testing.T) {
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{})
			// Before: nothing runs.
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(errors.New("gone"))
			res, err := rt.Run(ctx, jsruntime.Request{Program: "console.log('ran')"})
			if err != nil {
				t.Fatal(err)
			}
			wantFailure(t, res, jsruntime.KindAbort, "gone")
			// During a busy loop, logs kept. The program tells the host when it is running (a
			// process worker may still be starting when Run is called), and it is cancelled 50 ms
			// into its loop.
			ctx, cancel2 := context.WithCancelCause(context.Background())
			defer cancel2(nil)
			running, bindings := runningSignal()
			cancelledAt := make(chan time.Time, 1)
			go func() {
				<-running
				time.Sleep(50 * time.Millisecond)
				cancelledAt <- time.Now()
				cancel2(errors.New("stop now"))
			}()
			res, _ = rt.Run(ctx, jsruntime.Request{Program: "console.log('before'); await tools.running({}); for (;;) {}", Bindings: bindings})
			wantFailure(t, res, jsruntime.KindAbort, "stop now")
			if late := time.Since(<-cancelledAt); fmt.Sprint(res.Logs) != "[before]" || late > slack() {
				t.Errorf("logs %q, returned %v after the cancellation", res.Logs, late)
			}
			// Disposal fails the live run and later runs.
			done := make(chan jsruntime.Result, 1)
			running, bindings = runningSignal()
			go func() {
				res, _ := rt.Run(context.Background(), jsruntime.Request{Program: "console.log('live'); await tools.running({}); for (;;) {}", Bindings: bindings})
				done <- res
			}()
			<-running
			if err := rt.Close(); err != nil {
				t.Fatal(err)
			}
			res = <-done
			wantFailure(t, res, jsruntime.KindAbort, "runtime disposed")
			if fmt.Sprint(res.Logs) != "[live]" {
				t.Errorf("logs = %q", res.Logs)
			}
			if _, err := rt.Run(context.Background(), jsruntime.Request{Program: "1"}); !errors.Is(err, jsruntime.ErrClosed) ||
				err.Error() != "jsruntime: run() after disposal" {
				t.Errorf("run after Close: %v", err)
			}
		})
	}
}

func TestConformanceLedger(t *testing.T) {
	c := func(n int) jsruntime.Config { return jsruntime.Config{MaxOutputBytes: n} }
	cases := []confCase{
		{name: "euro fits", cfg: c(7), program: `return "€"`, want: `"€"`},
		{name: "euro over", cfg: c(6), program: `return "€"`, want: "output-limit: ou"},
		{name: "log and value fit", cfg: c(11), program: `console.log("abc"); return "xy"`, want: `"xy"`, logs: []string{"abc"}},
		{name: "log and value over", cfg: c(10), program: `console.log("abc"); return "xy"`, want: "output-limit: outer "},
		{name: "log and throw fit", cfg: c(11), program: `console.log("abc"); throw "xy"`, want: "exception: xy", logs: []string{"abc"}},
		{name: "log and throw over", cfg: c(10), program: `console.log("abc"); throw "xy"`, want: "output-limit: outer "},
		{name: "prefix of the first overflowing line", cfg: c(15), program: `console.log("12345"); console.log("123456"); console.log("dropped")`,
			want: "output-limit: outer outpu", logs: nil},
	}
	if !jsruntime.RaceEnabled { // 64 MiB through the race detector takes half a minute
		cases = append(cases,
			confCase{name: "default cap exactly", program: `return "x".repeat(67108860)`, want: "…xxxx\""},
			confCase{name: "default cap plus one", program: `return "x".repeat(67108861)`, want: "output-limit: outer output exceeded 67108864 bytes"})
	}
	forEachIsolation(t, cases)
}

// TestConformanceJSONStringify: a completion value, and a binding argument, cross as the
// realm's own JSON.stringify serializes them (undefined members dropped, toJSON, Dates as ISO
// strings, NaN as null, a Map as {}), in both isolations; a value JSON.stringify gives
// undefined for is no result, and the argument {}. The expected JSON is JSON.stringify's.
func TestConformanceJSONStringify(t *testing.T) {
	values := []string{`null`, `true`, `"s"`, `1.5`, `[]`, `{}`, `[1,{"a":[null]}]`, `{"b":1,"a":2}`,
		`JSON.parse('{"__proto__":1}')`, `Object.create(null)`, `(() => { const s = {x: 1}; return [s, s] })()`,
		`-0`, `NaN`, `Infinity`, `[1,,2]`, `{a: undefined}`, `[undefined]`, `() => 1`, `Symbol()`, `undefined`,
		`new Date(0)`, `new Date(NaN)`, `new Map([[1, 2]])`, `new Set([1])`, `new (class K { constructor() { this.k = 1 } })()`,
		`Object.assign([1], {x: 1})`, `{[Symbol.iterator]: 1, a: [Symbol()]}`, `Object.defineProperty({}, "h", {value: 1})`,
		`Object.create({inherited: 1})`, `new Proxy({a: 1}, {})`, `new Proxy([1, 2], {})`, `[new String("s"), new Number(2), Object(false)]`,
		`{toJSON(k) { return "key:" + k }}`, `[{toJSON(k) { return k }}, {toJSON() { return undefined }}]`,
		`{when: {at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6))}}`, `{xs: [[NaN, -Infinity], [-0, 1e21, 0.1]]}`,
		`{e: new Error("x"), r: /x/g, p: Promise.resolve(1), f() {}, s: Symbol("s")}`, `[1, () => 1, Symbol(), undefined, 2]`,
		`{"\ufffd": "\ud83d\ude00", "a\nb": "\u0001"}`, `new Uint8Array([1, 2])`, `(function () { return arguments })(1, "a")`}
	oracle := newRuntime(t, jsruntime.Config{})
	var cases []confCase
	for _, v := range values {
		res := run(t, oracle, "const s = JSON.stringify("+v+"); return s === undefined ? null : s", nil)
		if res.Error != nil {
			t.Fatalf("JSON.stringify(%s): %s", v, res.Error.Message)
		}
		want, arg := "", "{}"
		if res.Value.Kind() == jsonv.String {
			want = jsonv.MustParse(res.Value.AsString()).String()
			arg = want
		}
		cases = append(cases,
			confCase{name: "completion " + v, program: "return " + v, want: want},
			confCase{name: "argument " + v, program: "return await tools.echo(" + v + ")", fns: []jsruntime.Function{echo("echo")}, want: arg})
	}
	deep := `let v = 1; for (let i = 0; i < 5000; i++) v = i % 2 ? [v] : {k: v}; return await tools.echo(v)`
	cases = append(cases, confCase{name: "5000 levels", program: deep, fns: []jsruntime.Function{echo("echo")}, want: "…}]}]}]"},
		confCase{name: "5000 levels round trip", program: strings.Replace(deep, "return await tools.echo(v)", "const r = await tools.echo(v); let d = 0, x = r; while (typeof x === 'object') { x = Array.isArray(x) ? x[0] : x.k; d++ } return d", 1),
			fns: []jsruntime.Function{echo("echo")}, want: "5000"})
	forEachIsolation(t, cases)
}

func TestConformanceHostileNames(t *testing.T) {
	fns := []jsruntime.Function{echo("__proto__"), echo("constructor"), echo("my-tool"), echo("toString"), failing("hasOwnProperty", "no")}
	forEachIsolation(t, []confCase{
		{name: "members are own properties in order", fns: fns, program: `return [Object.keys(tools), Object.getPrototypeOf(tools) === null]`,
			want: `[["__proto__","constructor","my-tool","toString","hasOwnProperty"],true]`},
		{name: "calling them", fns: fns, program: `return [await tools["__proto__"]({a: 1}), await tools["my-tool"]("s"), await tools.constructor(1)]`,
			want: `[{"a":1},"s",1]`},
		{name: "rejections are ToolCallError", fns: fns, program: `try { await tools.hasOwnProperty({}) } catch (e) {
			return [e instanceof ToolCallError, e instanceof Error, e.name, e.toolName, e.message, 'code' in e, 'info' in e, Object.keys(e)] }`,
			want: `[true,true,"ToolCallError","hasOwnProperty","no",false,false,["name","toolName"]]`},
		{name: "injected names are parameters", fns: fns, program: `return [typeof globalThis.tools, typeof globalThis.ToolCallError, typeof globalThis.console]`,
			want: `["undefined","undefined","undefined"]`},
	})
}

// A host error that is a CodedError gives the rejection a read-only enumerable "code" in both
// isolations (the process worker's reply carries it); a plain error gives none.
func TestConformanceRejectionCode(t *testing.T) {
	coded := jsruntime.Function{Name: "deny", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		settle(jsonv.Value{}, fmt.Errorf("wrapped: %w", &jsruntime.CodedError{Code: "APPROVAL_DENIED", Message: "tool \"deny\" needs approval"}))
	}}
	fns := []jsruntime.Function{coded, failing("plain", "no")}
	forEachIsolation(t, []confCase{
		{name: "coded", fns: fns, program: `try { await tools.deny({}) } catch (e) {
			"use strict"; let threw = false; try { e.code = "X" } catch { threw = true }
			return [e instanceof ToolCallError, e.code, e.message, Object.keys(e), threw] }`,
			want: `[true,"APPROVAL_DENIED","wrapped: tool \"deny\" needs approval",["name","toolName","code"],true]`},
		{name: "uncoded", fns: fns, program: `try { await tools.plain({}) } catch (e) { return ['code' in e, Object.keys(e)] }`,
			want: `[false,["name","toolName"]]`},
	})
}

func TestConformanceConsole(t *testing.T) {
	forEachIsolation(t, []confCase{
		{name: "point", program: `console.log('point', {x: 1, y: 2})`, logs: []string{"point { x: 1, y: 2 }"}},
		{name: "got 42", program: `console.log("got", 42)`, logs: []string{"got 42"}},
		{name: "five levels", program: `console.log(1); console.info(2); console.warn(3); console.error(4); console.debug(5)`, logs: []string{"1", "2", "3", "4", "5"}},
		{name: "nested", program: `console.log([1, 'a', [2, {b: null}]], undefined)`, logs: []string{"[ 1, 'a', [ 2, { b: null } ] ] undefined"}},
		{name: "other methods are missing", program: `console.group("g")`, want: "exception: TypeError: …"},
		{name: "shape", program: `return [Object.keys(console), Object.getPrototypeOf(console) === null]`, want: `[["log","info","warn","error","debug","table","dir"],true]`},
	})
}

func TestConformanceGlobalsMutation(t *testing.T) {
	forEachIsolation(t, []confCase{{name: "mutating globals and prototypes", fns: []jsruntime.Function{echo("echo"), failing("fail", "nope")}, program: `
		const isArray = Array.isArray;
		Object.prototype.toolName = "forged"; Array.prototype.push = null; Array.prototype.join = null;
		Object.keys = null; Object.getPrototypeOf = null; Array.isArray = () => false; Object.defineProperty = null;
		JSON.stringify = null; JSON.parse = null; Error = null; Promise = null; Symbol = null; String = null;
		console.log({a: 1});
		const r = await tools.echo({a: [1, {b: 2}]});
		let rejection;
		try { await tools.fail({}) } catch (e) { rejection = [e instanceof ToolCallError, e.name, e.toolName, e.message] }
		return {r, rejection, arr: isArray(r.a)};`,
		want: `{"r":{"a":[1,{"b":2}]},"rejection":[true,"ToolCallError","fail","nope"],"arr":true}`, logs: []string{"{ a: 1 }"}}})
}

// TestConformanceHostilePrograms is the catalogue of programs models and attackers write: each
// ends with the right failure within its budget plus slack, logs before it kept, and the test
// process survives.
func TestConformanceHostilePrograms(t *testing.T) {
	budget := 300 * time.Millisecond
	cfg := jsruntime.Config{ComputeBudget: budget, WallCeiling: 3 * time.Second}
	lowHeap := jsruntime.Config{ComputeBudget: 3 * time.Second, WallCeiling: 5 * time.Second, MaxHeapBytes: 96 << 20}
	patientLowHeap := jsruntime.Config{ComputeBudget: 15 * time.Second, WallCeiling: 20 * time.Second, MaxHeapBytes: 96 << 20}
	timeout := "timeout: compute budget exhausted (300ms busy)"
	logged := []string{"before"}
	forEachIsolation(t, []confCase{
		{name: "sync loop", cfg: cfg, program: `console.log("before"); for (;;) {}`, want: timeout, logs: logged, max: budget},
		{name: "async loop", cfg: cfg, program: `console.log("before"); await null; for (;;) {}`, want: timeout, logs: logged, max: budget},
		{name: "loop in then", cfg: cfg, program: `console.log("before"); await Promise.resolve().then(() => { for (;;) {} })`, want: timeout, logs: logged, max: budget},
		{name: "loop in finally", cfg: cfg, program: `console.log("before"); try { throw 1 } finally { for (;;) {} }`, want: timeout, logs: logged, max: budget},
		{name: "loop with a pending decoy", cfg: cfg, fns: []jsruntime.Function{never("slow")}, program: `console.log("before"); void tools.slow({}); for (;;) {}`, want: timeout, logs: logged, max: budget},
		{name: "deep sync recursion", cfg: cfg, program: `console.log("before"); const f = (n) => f(n + 1) + 1; f(0)`,
			want: "exception: Maximum call stack size exceeded", logs: logged, max: budget},
		{name: "deep async recursion", cfg: cfg, program: `console.log("before"); const f = async (n) => (await f(n + 1)) + 1; await f(0)`,
			want: "exception: …", logs: logged, max: budget},
		{name: "repeat 2**40", cfg: cfg, program: `console.log("before"); 'x'.repeat(2**40)`, want: "exception: RangeError: Invalid string length…", logs: logged, max: budget},
		{name: "padStart 2**40", cfg: cfg, program: `console.log("before"); 'x'.padStart(2**40)`, want: "exception: RangeError: Invalid string length…", logs: logged, max: budget},
		{name: "Array(1e9).fill", cfg: cfg, program: `console.log("before"); new Array(1e9).fill(0)`, want: "exception: RangeError: Invalid array length…", logs: logged, max: budget},
		{name: "join of a huge array", cfg: cfg, program: `console.log("before"); Array(2**32 - 1).join('x')`, want: "exception: RangeError: Invalid string length…", logs: logged, max: budget},
		{name: "ArrayBuffer 2**40", cfg: cfg, program: `console.log("before"); new ArrayBuffer(2**40)`, want: "exception: RangeError: Array buffer allocation failed…", logs: logged, max: budget},
		{name: "typed array through its constructor property", cfg: cfg, program: `console.log("before"); new (new Uint8Array(1).constructor)(2**31)`,
			want: "exception: RangeError: Invalid typed array length: 2147483648…", logs: logged, max: budget},
		{name: "catastrophic regex", cfg: jsruntime.Config{ComputeBudget: 2 * time.Second}, program: `console.log("before"); /^(a+)+$(?!x)/.test('a'.repeat(28) + 'b')`,
			want: "exception: RangeError: regular expression match exceeded the 250ms match timeout: /^(a+)+$(?!x)/…", logs: logged, max: time.Second},
		{name: "catastrophic regex is catchable", cfg: jsruntime.Config{ComputeBudget: 2 * time.Second}, program: `try { 'a'.repeat(30).concat('b').match(/^(a+)+$(?!x)/) } catch (e) { return e.name }`,
			want: `"RangeError"`, max: time.Second},
		{name: "console flood", cfg: jsruntime.Config{ComputeBudget: budget, MaxOutputBytes: 10000}, program: `console.log("before"); for (;;) console.log("flood")`,
			want: "output-limit: outer output exceeded 10000 bytes", max: budget},
		{name: "promise flood", cfg: cfg, program: `console.log("before"); for (let i = 0; ; i++) Promise.resolve(i).then(() => {})`, want: timeout, logs: logged, max: budget},
		{name: "never-settling await on a binding", cfg: jsruntime.Config{WallCeiling: budget}, fns: []jsruntime.Function{never("slow")},
			program: `console.log("before"); await tools.slow({})`, want: "timeout: wall-clock ceiling reached (300ms)", logs: logged, max: budget},
		{name: "never-settling promise", cfg: cfg, program: `console.log("before"); await new Promise(() => {})`,
			want: "exception: program awaits a promise that can never settle", logs: logged, max: budget},
		// About 1.3 s to the heap limit under -race on an idle machine; the budget leaves room
		// for a loaded one, where the wall-clock busy time grows with CPU starvation.
		{name: "push loop memory", cfg: patientLowHeap, program: `console.log("before"); const a = []; for (;;) a.push({i: a.length})`,
			want: "worker-exit: …", logs: logged, max: patientLowHeap.ComputeBudget},
		// In-process, one concatenation cannot be interrupted: the watchdog stops the run only
		// when the step in progress returns, so only the wall ceiling bounds it (see the
		// package documentation).
		{name: "string doubling", cfg: lowHeap, program: `console.log("before"); let s = 'x'; for (;;) s += s`,
			want: "worker-exit: …", logs: logged, max: lowHeap.WallCeiling},
		{name: "the next run succeeds", cfg: lowHeap, program: `return 1 + 1`, want: "2"},
	})
}

func TestConformanceBuiltins(t *testing.T) {
	forEachIsolation(t, []confCase{
		{name: "structuredClone", program: `const a = {x: [1, {y: 2}], d: new Date(5), m: new Map([[1, 2]])}; a.self = a;
			const b = structuredClone(a); return [b !== a, b.self === b, b.x[1].y, b.d.getTime(), b.m.get(1), b.x !== a.x]`,
			want: `[true,true,2,5,2,true]`},
		{name: "structuredClone rejects functions", program: `try { structuredClone({f() {}}) } catch (e) { return e.name }`, want: `"DataCloneError"`},
		{name: "structuredClone deep", program: `let v = 1; for (let i = 0; i < 5000; i++) v = [v]; let c = structuredClone(v), d = 0; while (Array.isArray(c)) { c = c[0]; d++ } return d`, want: `5000`},
		{name: "Promise.withResolvers", program: `const {promise, resolve} = Promise.withResolvers(); resolve(3); return await promise`, want: `3`},
		{name: "Object.groupBy", program: `const g = Object.groupBy([1, 2, 3, 4], (n) => n % 2 ? "odd" : "even"); return [Object.getPrototypeOf(g) === null, g]`,
			want: `[true,{"odd":[1,3],"even":[2,4]}]`},
		{name: "Map.groupBy", program: `return [...Map.groupBy([1, 2, 3], (n) => n > 1)]`, want: `[[false,[1]],[true,[2,3]]]`},
		{name: "Array.fromAsync", program: `async function* g() { yield 1; yield 2 } return [await Array.fromAsync(g()), await Array.fromAsync([Promise.resolve(3), 4], (x) => x * 2)]`,
			want: `[[1,2],[6,8]]`},
		{name: "queueMicrotask", program: `const log = []; queueMicrotask(() => log.push("micro")); log.push("sync"); await null; return log`, want: `["sync","micro"]`},
		{name: "atob and btoa", program: `return [btoa("hello\u00ff"), atob("aGVsbG8=\n"), (() => { try { btoa("€") } catch (e) { return e.name } })()]`,
			want: `["aGVsbG//","hello","InvalidCharacterError"]`},
		{name: "TextEncoder and TextDecoder", program: `const b = new TextEncoder().encode("h€😀"); return [Array.from(b), new TextDecoder().decode(b),
			new TextDecoder().decode(new Uint8Array([0xff, 0x41])), (() => { try { new TextDecoder("utf-8", {fatal: true}).decode(new Uint8Array([0xff])) } catch (e) { return e.name } })()]`,
			want: "[[104,226,130,172,240,159,152,128],\"h€😀\",\"\ufffdA\",\"TypeError\"]"},
		{name: "polyfills are not enumerable", program: `return Object.keys(globalThis).filter((k) => ["structuredClone", "atob", "TextEncoder", "queueMicrotask"].includes(k))`, want: `[]`},
		{name: "guards keep ordinary behaviour", program: `return ["ab".repeat(3), "5".padStart(3, "0"), [1, 2].join("-"), [0, 0, 0].fill(7, 1), new Uint8Array([1, 2]).length, Array.from("ab"), "aXbX".replace(/X/g, "-"), /(?<y>\d+)/.exec("x12").groups.y]`,
			want: `["ababab","005","1-2",[0,7,7],2,["a","b"],"a-b-","12"]`},
		{name: "guarded typed arrays keep ordinary behaviour", program: `class Bytes extends Uint8Array { sum() { return this.reduce((a, b) => a + b, 0) } }
			const a = new Uint8Array([1, 2, 3]), b = new Bytes(4), f = Float64Array.from([1.5]), buf = new ArrayBuffer(8);
			return [a instanceof Uint8Array, a instanceof Float64Array, [] instanceof Uint8Array, b instanceof Bytes, b instanceof Uint8Array,
				Bytes.from([5, 6]).sum(), a.map((x) => x * 2) instanceof Uint8Array, a.constructor === Uint8Array, f[0], Uint8Array.of(9)[0],
				buf instanceof ArrayBuffer, new Uint16Array(buf, 2, 2).length, ArrayBuffer.isView(a), Object.getPrototypeOf(Int8Array.prototype) === Object.getPrototypeOf(Uint8Array.prototype),
				Uint8Array.BYTES_PER_ELEMENT, typeof Uint8Array, Uint8Array.name, new Uint8Array(new Uint8Array([7, 8])).length]`,
			want: `[true,false,false,true,true,11,true,true,1.5,9,true,2,true,true,1,"function","Uint8Array",2]`},
	})
}

// TestProcessWorkerDeathIsWorkerExit kills a worker mid-run from outside: the run ends as
// worker-exit with its logs, and the pool replaces the worker. Each iteration keeps a 1 MiB typed
// array (one Go allocation), so that the bomb trips the memory limit long before the compute
// budget even under -race, which makes goja's per-character string work about 40 times slower.
func TestProcessWorkerDeathIsWorkerExit(t *testing.T) {
	p, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1, MemoryLimit: 128 << 20, Config: jsruntime.Config{ComputeBudget: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	start := time.Now()
	res, err := p.Run(context.Background(), jsruntime.Request{Program: `console.log("before"); const a = []; for (;;) a.push(new Uint8Array(1 << 20))`})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || res.Error.Kind != jsruntime.KindWorkerExit || fmt.Sprint(res.Logs) != "[before]" {
		t.Fatalf("got %+v after %v", res, time.Since(start))
	}
	t.Logf("memory bomb: %s after %v", res.Error.Message, time.Since(start))
	wantValue(t, run2(t, p, `return "alive"`), `"alive"`)
}

func run2(t *testing.T, rt jsruntime.Runtime, program string) jsruntime.Result {
	t.Helper()
	res, err := rt.Run(context.Background(), jsruntime.Request{Program: program})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestProcessHostCallsKeepOrder checks that calls proxied from the worker reach the host in
// program order and settle out of order correctly.
func TestProcessHostCallsKeepOrder(t *testing.T) {
	p, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var wg sync.WaitGroup
	defer wg.Wait()
	var order []string // appended on the calling goroutine, one call at a time
	slow := jsruntime.Function{Name: "slow", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		order = append(order, args.String())
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(30-10*int(args.AsNumber())) * time.Millisecond)
			settle(args, nil)
		}()
	}}
	res, err := p.Run(context.Background(), jsruntime.Request{Program: `return await Promise.all([0, 1, 2].map((n) => tools.slow(n)))`, Bindings: toolsNamespace(slow)})
	if err != nil {
		t.Fatal(err)
	}
	wantValue(t, res, `[0,1,2]`)
	if fmt.Sprint(order) != "[0 1 2]" {
		t.Errorf("host saw %v", order)
	}
}
