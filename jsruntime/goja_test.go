package jsruntime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

func TestCompletionValues(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	tests := []struct {
		name, program, want string
	}{
		{"number", `return 1.5`, `1.5`},
		{"integer", `return 2 ** 53`, `9007199254740992`},
		{"negative", `return -3`, `-3`},
		{"string", `return "héllo €😀"`, `"héllo €😀"`},
		{"true", `return true`, `true`},
		{"false", `return false`, `false`},
		{"null", `return null`, `null`},
		{"array", `return [1, "two", null, [3]]`, `[1,"two",null,[3]]`},
		{"empty containers", `return [{}, []]`, `[{},[]]`},
		{"key order", `return {b: 1, a: 2, 10: 3, 2: 4, c: {z: 1, y: 2}}`, `{"2":4,"10":3,"b":1,"a":2,"c":{"z":1,"y":2}}`},
		{"null prototype", `const o = Object.create(null); o.x = 1; return o`, `{"x":1}`},
		{"shared reference", `const s = {a: 1}; return [s, s]`, `[{"a":1},{"a":1}]`},
		{"own __proto__ key", `return JSON.parse('{"__proto__": 1, "a": 2}')`, `{"__proto__":1,"a":2}`},
		{"getter read once", `let n = 0; return {get x() { return ++n }}`, `{"x":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantValue(t, run(t, g, tt.program, nil), tt.want)
		})
	}
}

func TestNoReturnHasNoValue(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	for _, program := range []string{``, `const x = 1`, `return`, `return undefined`, `await null`} {
		res := run(t, g, program, nil)
		if res.Error != nil || res.Value.IsDefined() {
			t.Errorf("%q: got value %v error %+v, want no value", program, res.Value, res.Error)
		}
	}
	if res := run(t, g, `return null`, nil); res.Value.Kind() != jsonv.Null {
		t.Errorf("return null: got kind %v", res.Value.Kind())
	}
}

func TestTopLevelAwaitOfBinding(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `const r = await tools.echo({x: 1, list: [1, 2]}); return {got: r, keys: Object.keys(r)}`, toolsNamespace(echo("echo")))
	wantValue(t, res, `{"got":{"x":1,"list":[1,2]},"keys":["x","list"]}`)
}

func TestPromiseAllOverThreeBindings(t *testing.T) {
	var host asyncHost
	defer host.Wait()
	var mu sync.Mutex
	var order []string
	slow := host.fn("slow", func(_ context.Context, args jsonv.Value) (jsonv.Value, error) {
		mu.Lock()
		order = append(order, args.Lookup("id").String())
		mu.Unlock()
		return jsonv.ObjectValue(jsonv.Member{Key: "id", Value: args.Lookup("id")}), nil
	})
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `
		const rs = await Promise.all([tools.slow({id: 1}), tools.slow({id: 2}), tools.slow({id: 3})]);
		return rs.map(r => r.id);`, toolsNamespace(slow))
	wantValue(t, res, `[1,2,3]`)
	host.Wait()
	if len(order) != 3 {
		t.Fatalf("host saw %d calls, want 3", len(order))
	}
}

func TestHostCallsAreMadeInProgramOrderOnTheLoop(t *testing.T) {
	var calls []string // appended on the loop goroutine only
	rec := jsruntime.Function{Name: "rec", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		calls = append(calls, args.String())
		settle(jsonv.NullValue(), nil)
	}}
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `const a = tools.rec(1), b = tools.rec(2); await tools.rec(3); await Promise.all([a, b]);`, toolsNamespace(rec))
	if res.Error != nil {
		t.Fatal(res.Error)
	}
	if got := strings.Join(calls, ","); got != "1,2,3" {
		t.Fatalf("calls = %s, want 1,2,3", got)
	}
}

func TestBindingRejectionIsToolCallError(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `
		try {
			await tools.x({});
			return "not reached";
		} catch (e) {
			return [e instanceof ToolCallError && e.toolName === "x", e instanceof Error, e.name, e.message,
				Object.keys(e), "code" in e];
		}`, toolsNamespace(failing("x", "it broke")))
	wantValue(t, res, `[true,true,"ToolCallError","it broke",["name","toolName"],false]`)
}

func TestNamespaceWithoutErrorClassRejectsWithPlainError(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	ns := []jsruntime.Namespace{{Global: "api", Functions: []jsruntime.Function{failing("get", "nope")}}}
	res := run(t, g, `try { await api.get({}) } catch (e) { return [Object.getPrototypeOf(e) === Error.prototype, e.message, "toolName" in e] }`, ns)
	wantValue(t, res, `[true,"nope",false]`)
}

// TestBindingArgumentsFollowJSONStringify: an argument reaches the host as JSON.stringify gives
// it (an argument it gives undefined for is {}); only what JSON.stringify throws on, or what
// would be altered, rejects the call, and then the host is not called.
func TestBindingArgumentsFollowJSONStringify(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	tests := []struct{ name, arg, want string }{
		{"missing", ``, `{}`},
		{"undefined", `undefined`, `{}`},
		{"function", `() => 1`, `{}`},
		{"undefined property", `{a: undefined, b: 1}`, `{"b":1}`},
		{"undefined element", `[undefined]`, `[null]`},
		{"method", `{f() {}}`, `{}`},
		{"NaN", `{n: NaN}`, `{"n":null}`},
		{"Infinity", `[Infinity, -Infinity]`, `[null,null]`},
		{"negative zero", `-0`, `0`},
		{"Date", `{d: new Date(0)}`, `{"d":"1970-01-01T00:00:00.000Z"}`},
		{"invalid Date", `{d: new Date(NaN)}`, `{"d":null}`},
		{"Map", `new Map([["k", 1]])`, `{}`},
		{"class instance", `new (class Point { constructor() { this.x = 1 } })()`, `{"x":1}`},
		{"inherits from a plain object", `Object.create({inherited: 1})`, `{}`},
		{"sparse array", `[1, , 3]`, `[1,null,3]`},
		{"array with extra property", `Object.assign([1], {extra: true})`, `[1]`},
		{"symbol", `Symbol("s")`, `{}`},
		{"symbol key", `{[Symbol("k")]: 1, a: 2}`, `{"a":2}`},
		{"non-enumerable property", `Object.defineProperty({a: 1}, "hidden", {value: 1})`, `{"a":1}`},
		{"proxy", `new Proxy({a: 1}, {})`, `{"a":1}`},
		{"boxed string", `new String("s")`, `"s"`},
		{"arguments object", `(function () { return arguments })(1)`, `{"0":1}`},
		{"toJSON", `{toJSON(key) { return {key} }}`, `{"key":""}`},
		{"null", `null`, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, g, `return await tools.echo(`+tt.arg+`)`, toolsNamespace(echo("echo")))
			wantValue(t, res, tt.want)
		})
	}
	refused := []struct{ name, arg, want string }{
		{"cycle", `(() => { const o = {}; o.self = o; return o })()`, `argument.self: circular reference to argument`},
		{"BigInt", `{n: 10n}`, `argument.n: BigInt, which JSON cannot hold (convert it with String() or Number())`},
		{"throwing getter", `{get x() { throw new Error("getter") }}`, `argument.x: converting it threw: getter`},
		{"throwing toJSON", `[{toJSON() { throw "no" }}]`, `argument[0]: converting it threw: no`},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			program := fmt.Sprintf(`
				try { await tools.echo(%s); return "resolved" }
				catch (e) { return [e instanceof ToolCallError, e.toolName, e.message] }`, tt.arg)
			res := run(t, g, program, toolsNamespace(counting(echo("echo"), &calls)))
			want, _ := json.Marshal([]any{true, "echo", "binding arguments cannot be converted to JSON: " + tt.want})
			wantValue(t, res, string(want))
			if n := calls.Load(); n != 0 {
				t.Errorf("host was called %d times", n)
			}
		})
	}
}

func TestBindingResultsAreFreshNativeValues(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	fixed := jsonv.MustParse(`{"__proto__": {"polluted": true}, "list": [1, 2], "z": 1, "a": 2}`)
	get := jsruntime.Function{Name: "get", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		settle(fixed, nil)
	}}
	res := run(t, g, `
		const r = await tools.get({});
		r.list.push(3);
		return {
			keys: Object.keys(r),
			ownProto: Object.hasOwn(r, "__proto__"),
			plain: Object.getPrototypeOf(r) === Object.prototype,
			polluted: ({}).polluted === undefined && r.polluted === undefined,
			list: r.list,
			isArray: Array.isArray(r.list),
		};`, toolsNamespace(get))
	wantValue(t, res, `{"keys":["__proto__","list","z","a"],"ownProto":true,"plain":true,"polluted":true,"list":[1,2,3],"isArray":true}`)
	if got := fixed.Lookup("list").String(); got != "[1,2]" {
		t.Errorf("host value was modified: %s", got)
	}
}

func TestNamespaceObjectShape(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	ns := toolsNamespace(echo("__proto__"), echo("constructor"), echo("my-tool"), echo("toString"))
	res := run(t, g, `
		let assignThrew = false;
		try { tools["my-tool"] = null } catch (e) { assignThrew = e instanceof TypeError }
		return {
			proto: Object.getPrototypeOf(tools) === null,
			keys: Object.keys(tools),
			hasOwnProperty: tools.hasOwnProperty === undefined,
			a: await tools["__proto__"]({n: 1}),
			b: await tools.constructor([2]),
			c: await tools["my-tool"]("three"),
			d: await tools.toString(4),
			assignThrew,
			globalTools: typeof globalThis.tools,
		};`, ns)
	wantValue(t, res, `{"proto":true,"keys":["__proto__","constructor","my-tool","toString"],"hasOwnProperty":true,"a":{"n":1},"b":[2],"c":"three","d":4,"assignThrew":true,"globalTools":"undefined"}`)
}

// TestInvalidOutput: a completion value JSON.stringify throws on fails the run, naming the
// member.
func TestInvalidOutput(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	for _, tt := range []struct{ program, want string }{
		{`const o = {}; o.o = o; return o`, `result.o: circular reference to result`},
		{`return 1n`, `result: BigInt, which JSON cannot hold (convert it with String() or Number())`},
		{`return {get x() { throw new Error("no") }}`, `result.x: converting it threw: no`},
		{`return {a: [{toJSON() { throw new TypeError("bad") }}]}`, `result.a[0]: converting it threw: bad`},
		{`const r = Proxy.revocable({}, {}); r.revoke(); return {p: r.proxy}`, `result.p: converting it threw: Proxy already revoked`},
	} {
		t.Run(tt.program, func(t *testing.T) {
			wantFailure(t, run(t, g, tt.program, nil), jsruntime.KindInvalidOutput, "program completion cannot be converted to JSON: "+tt.want)
		})
	}
}

func TestDeeplyNestedValues(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	const depth = 5000
	res := run(t, g, `
		let v = 0;
		for (let i = 0; i < 5000; i++) v = [v];
		const back = await tools.echo(v);
		let d = 0;
		for (let x = back; Array.isArray(x); x = x[0]) d++;
		if (d !== 5000) throw new Error("depth " + d);
		return back;`, toolsNamespace(echo("echo")))
	if res.Error != nil {
		t.Fatal(res.Error)
	}
	want := strings.Repeat("[", depth) + "0" + strings.Repeat("]", depth)
	if got := res.Value.String(); got != want {
		t.Fatalf("round trip of a %d-deep array differs", depth)
	}
}

func TestExceptionNamesTheModelsLine(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	program := "interface Point { x: number; y: number }\n" +
		"type Pair<T> = [T, T];\n" +
		"const p: Point = { x: 1, y: 2 };\n" +
		"throw new Error(\"boom\");\n"
	res := run(t, g, program, nil)
	if res.Error == nil || res.Error.Kind != jsruntime.KindException {
		t.Fatalf("want exception, got %+v", res)
	}
	if msg := res.Error.Message; !strings.Contains(msg, "boom") || !strings.Contains(msg, "main.ts:4") {
		t.Fatalf("message %q does not name boom at main.ts:4", msg)
	}
}

func TestSyntaxErrorReportsLineAndColumnWithoutRunning(t *testing.T) {
	var calls atomic.Int32
	ns := toolsNamespace(counting(echo("echo"), &calls))
	g := newRuntime(t, jsruntime.Config{})
	tests := []struct{ program, want string }{
		{"await tools.echo(1);\nlet y = 2 x", `main.ts:2:11: Expected ";" but found "x"`},
		{"let y = 2 x; await tools.echo(1)", `main.ts:1:11: Expected ";" but found "x"`},
		{"import fs from 'fs'", "main.ts:1:1: import declarations are not supported: a program reaches its tools through the global `tools`, declared by the SDK"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			wantFailure(t, run(t, g, tt.program, ns), jsruntime.KindException, tt.want)
		})
	}
	if calls.Load() != 0 {
		t.Errorf("a program with a syntax error ran")
	}
}

func TestThrownValues(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	tests := []struct{ name, program, want string }{
		{"string", `throw "raw-throw"`, "raw-throw"},
		{"number", `throw 42`, "42"},
		{"plain object", `throw {message: "hidden"}`, "[object Object]"},
		{"null", `throw null`, "null"},
		{"symbol", `throw Symbol("s")`, "Symbol(s)"},
		{"error with numeric stack", `const e = new Error("m"); e.stack = 42; throw e`, "42"},
		{"error without stack", `const e = new Error("only message"); e.stack = undefined; throw e`, "only message"},
		{"unrenderable", `throw {toString() { throw new Error("no") }}`, "program threw an unrenderable value"},
		{"rejected promise", `await Promise.reject("later")`, "later"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantFailure(t, run(t, g, tt.program, nil), jsruntime.KindException, tt.want)
		})
	}
}

func TestUncaughtBindingRejectionFailsWithItsStack(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `await tools.x({})`, toolsNamespace(failing("x", "it broke")))
	if res.Error == nil || res.Error.Kind != jsruntime.KindException || !strings.HasPrefix(res.Error.Message, "ToolCallError: it broke") {
		t.Fatalf("got %+v", res.Error)
	}
}

func TestDeepRecursionIsAnException(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	for _, program := range []string{
		`function f(n) { return f(n + 1) + 1 } f(0)`,
		`function f(n) { return f(n + 1) + 1 } await null; f(0)`,
		`function f(n) { try { return f(n + 1) } catch (e) { return "caught" } } return f(0)`,
	} {
		wantFailure(t, run(t, g, program, nil), jsruntime.KindException, "Maximum call stack size exceeded")
	}
}

func TestUnhandledRejectionIsLogged(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `tools.fail({}); await tools.echo({}); Promise.reject(new Error("handled")).catch(() => {}); return 1`,
		toolsNamespace(failing("fail", "nope"), echo("echo")))
	wantValue(t, res, `1`)
	if want := []string{"Unhandled rejection: nope (tools.fail, main.ts:1:11)"}; fmt.Sprint(res.Logs) != fmt.Sprint(want) {
		t.Fatalf("logs = %q, want %q", res.Logs, want)
	}
}

func TestPendingHostCallsDoNotDelayCompletion(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	var hostCtx context.Context
	var late func(jsonv.Value, error)
	keep := jsruntime.Function{Name: "keep", Call: func(ctx context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		hostCtx, late = ctx, settle
	}}
	res := run(t, g, `tools.keep({}); return "done"`, toolsNamespace(keep))
	wantValue(t, res, `"done"`)
	if hostCtx.Err() == nil {
		t.Error("host context is not cancelled after the run")
	}
	late(jsonv.NullValue(), nil) // ignored, must not panic or block
	late(jsonv.NullValue(), errors.New("twice"))
}

func TestSettleAfterRunFromGoroutinesIsIgnored(t *testing.T) {
	var host asyncHost
	defer host.Wait()
	release := make(chan struct{})
	slow := host.fn("slow", func(ctx context.Context, _ jsonv.Value) (jsonv.Value, error) {
		<-release
		return jsonv.NullValue(), nil
	})
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `for (let i = 0; i < 10; i++) tools.slow({}); return 1`, toolsNamespace(slow))
	wantValue(t, res, `1`)
	close(release)
	host.Wait()
}

func TestProgramCannotBreakTransportByMutatingGlobals(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `
		const isArray = Array.isArray;
		Object.defineProperty(Object.prototype, "get", {value: () => 1, configurable: true});
		Object.prototype.toolName = "forged";
		Object.keys = null; Object.getPrototypeOf = null; Array.isArray = () => false;
		JSON.stringify = null; JSON.parse = null; Error = null; String = null; Symbol = null;
		Object.defineProperty = null;
		const r = await tools.echo({a: [1, {b: 2}]});
		let rejection;
		try { await tools.fail({}) } catch (e) { rejection = [e instanceof ToolCallError, e.name, e.toolName, e.message] }
		return {r, rejection, arr: isArray(r.a)};`, toolsNamespace(echo("echo"), failing("fail", "nope")))
	wantValue(t, res, `{"r":{"a":[1,{"b":2}]},"rejection":[true,"ToolCallError","fail","nope"],"arr":true}`)
}

func TestRunsAreIsolated(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	run(t, g, `globalThis.leak = 1; Object.prototype.polluted = 1`, nil)
	wantValue(t, run(t, g, `return [typeof leak, ({}).polluted === undefined]`, nil), `["undefined",true]`)
}

func TestConcurrentRuns(t *testing.T) {
	var host asyncHost
	defer host.Wait()
	double := host.fn("double", func(_ context.Context, args jsonv.Value) (jsonv.Value, error) {
		return jsonv.Int(int64(args.AsNumber()) * 2), nil
	})
	g := newRuntime(t, jsruntime.Config{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := g.Run(context.Background(), jsruntime.Request{
				Program:  fmt.Sprintf(`const xs = await Promise.all([1, 2, 3].map(n => tools.double(n * %d))); return xs`, i),
				Bindings: toolsNamespace(double),
			})
			if err != nil || res.Error != nil {
				t.Errorf("run %d: %v %+v", i, err, res.Error)
				return
			}
			if want := fmt.Sprintf("[%d,%d,%d]", 2*i, 4*i, 6*i); res.Value.String() != want {
				t.Errorf("run %d: %s, want %s", i, res.Value, want)
			}
		}()
	}
	wg.Wait()
}

func TestTypeScriptFeatures(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `
		interface Item { id: number; name?: string }
		enum Color { Red, Green = "green" }
		function first<T>(xs: T[]): T | undefined { return xs[0] }
		class Counter {
			#n = 0;
			constructor(private readonly step: number) {}
			next(): number { return this.#n += this.step }
		}
		async function* items(n: number): AsyncGenerator<Item> {
			for (let i = 1; i <= n; i++) yield (await tools.echo({ id: i })) as Item;
		}
		const ids: number[] = [];
		for await (const it of items(3)) ids.push(it.id);
		const c = new Counter(2);
		c.next();
		const obj = { a: { b: null as null | { c: number } } };
		return { ids, first: first(["x", "y"]), red: Color.Red, green: Color.Green, count: c.next(),
			optional: obj.a.b?.c ?? "none", big: (2n ** 64n).toString() } satisfies Record<string, unknown>;`,
		toolsNamespace(echo("echo")))
	wantValue(t, res, `{"ids":[1,2,3],"first":"x","red":0,"green":"green","count":4,"optional":"none","big":"18446744073709551616"}`)
}

func TestUsingDeclaration(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `
		const log: string[] = [];
		{
			using r = { [Symbol.dispose]() { log.push("disposed") } };
			log.push("inside");
		}
		return log;`, nil)
	wantValue(t, res, `["inside","disposed"]`)
}

func TestInvalidRequests(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	ok := []jsruntime.Function{echo("echo")}
	class := func(name, member string) *jsruntime.ErrorClass {
		return &jsruntime.ErrorClass{Name: name, MemberNameProperty: member}
	}
	tests := []struct {
		name     string
		bindings []jsruntime.Namespace
		want     string
	}{
		{"empty global", []jsruntime.Namespace{{Global: "", Functions: ok}}, `binding global "" is not a usable identifier`},
		{"dollar", []jsruntime.Namespace{{Global: "$tools", Functions: ok}}, `binding global "$tools" is not a usable identifier`},
		{"dash", []jsruntime.Namespace{{Global: "my-tools", Functions: ok}}, `not a usable identifier`},
		{"reserved word", []jsruntime.Namespace{{Global: "await", Functions: ok}}, `binding global "await" is not a usable identifier`},
		{"eval", []jsruntime.Namespace{{Global: "eval", Functions: ok}}, `not a usable identifier`},
		{"console", []jsruntime.Namespace{{Global: "console", Functions: ok}}, `reserved binding global "console"`},
		{"duplicate", []jsruntime.Namespace{{Global: "a", Functions: ok}, {Global: "a", Functions: ok}}, `duplicate binding global "a"`},
		{"class clashes with global", []jsruntime.Namespace{{Global: "a", Functions: ok}, {Global: "b", Functions: ok, ErrorClass: class("a", "m")}}, `duplicate injected global "a"`},
		{"class clashes with class", []jsruntime.Namespace{{Global: "a", ErrorClass: class("E", "m")}, {Global: "b", ErrorClass: class("E", "n")}}, `duplicate injected global "E"`},
		{"bad class name", []jsruntime.Namespace{{Global: "a", ErrorClass: class("class", "m")}}, `binding error class "class" is not a usable identifier`},
		{"reserved member", []jsruntime.Namespace{{Global: "a", ErrorClass: class("E", "message")}}, `binding error member property "message" is not usable`},
		{"empty member", []jsruntime.Namespace{{Global: "a", ErrorClass: class("E", "")}}, `binding error member property "" is not usable`},
		{"dunder member", []jsruntime.Namespace{{Global: "a", ErrorClass: class("E", "__x__")}}, `binding error member property "__x__" is not usable`},
		{"duplicate function", []jsruntime.Namespace{{Global: "a", Functions: []jsruntime.Function{echo("f"), echo("f")}}}, `duplicate function "f"`},
		{"nil call", []jsruntime.Namespace{{Global: "a", Functions: []jsruntime.Function{{Name: "f"}}}}, `has no Call`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := g.Run(context.Background(), jsruntime.Request{Program: `return 1`, Bindings: tt.bindings})
			if !errors.Is(err, jsruntime.ErrInvalidRequest) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrInvalidRequest containing %q", err, tt.want)
			}
		})
	}
	// A namespace may be called ToolCallError when no class of that name is declared.
	ns := []jsruntime.Namespace{{Global: "ToolCallError", Functions: ok}}
	wantValue(t, run(t, g, `return typeof ToolCallError`, ns), `"object"`)
}

func TestConfigValidation(t *testing.T) {
	for _, cfg := range []jsruntime.Config{
		{ComputeBudget: -1},
		{WallCeiling: -1},
		{MaxOutputBytes: 3},
		{MaxOutputBytes: -1},
		{MaxStackDepth: -1},
	} {
		if _, err := jsruntime.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted an invalid config", cfg)
		}
	}
	g := newRuntime(t, jsruntime.Config{MaxOutputBytes: 4})
	if got := g.Config(); got.ComputeBudget != jsruntime.DefaultComputeBudget || got.WallCeiling != jsruntime.DefaultWallCeiling ||
		got.MaxOutputBytes != 4 || got.MaxStackDepth != jsruntime.DefaultMaxStackDepth {
		t.Errorf("defaults not applied: %+v", got)
	}
}

// BenchmarkRuntimeTrivialJS is the runtime alone (no registry, no bridge): one awaited binding that
// settles inline. BenchmarkRunTrivialJS in codemode is the same program end to end.
func BenchmarkRuntimeTrivialJS(b *testing.B) {
	g := newRuntime(b, jsruntime.Config{})
	req := jsruntime.Request{Program: `const r = await tools.echo({x: 1}); return r`, Bindings: toolsNamespace(echo("echo"))}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := g.Run(ctx, req)
		if err != nil || res.Error != nil {
			b.Fatal(err, res.Error)
		}
	}
}

func TestProgramRunsInStrictModeWithInjectedParameters(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `undeclared = 1`, nil)
	if res.Error == nil || !strings.HasPrefix(res.Error.Message, "ReferenceError: ") {
		t.Errorf("assignment to an undeclared variable: %+v", res.Error)
	}
	res = run(t, g, `let tools = 1`, toolsNamespace(echo("echo")))
	if res.Error == nil || res.Error.Kind != jsruntime.KindException || !strings.Contains(res.Error.Message, "main.ts:1:") {
		t.Errorf("redeclaring an injected parameter: %+v", res.Error)
	}
	wantValue(t, run(t, g, `return [typeof globalThis.console, typeof globalThis.ToolCallError, typeof this]`, toolsNamespace()),
		`["undefined","undefined","undefined"]`)
}

func TestSyntaxGojaRejectsIsAnException(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `return /a/uv.test("a")`, nil)
	if res.Error == nil || res.Error.Kind != jsruntime.KindException {
		t.Fatalf("got %+v", res)
	}
}

func TestStackColumnsOnTheFirstLineIgnoreTheWrapper(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	first := run(t, g, `throw new Error("x")`, nil)
	second := run(t, g, "\n"+`throw new Error("x")`, nil)
	if first.Error == nil || second.Error == nil {
		t.Fatal("want exceptions")
	}
	a := strings.ReplaceAll(first.Error.Message, "main.ts:1:", "main.ts:L:")
	b := strings.ReplaceAll(second.Error.Message, "main.ts:2:", "main.ts:L:")
	if a != b || !strings.Contains(a, "main.ts:L:") {
		t.Fatalf("line 1 reports %q, line 2 reports %q", first.Error.Message, second.Error.Message)
	}
}

func TestAPanickingHostFunctionRejectsItsCall(t *testing.T) {
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := rt.Run(context.Background(), jsruntime.Request{
		Program: `try { await tools.boom({}) } catch (e) { return e.message }`,
		Bindings: []jsruntime.Namespace{{Global: "tools", Functions: []jsruntime.Function{{Name: "boom",
			Call: func(context.Context, jsonv.Value, func(jsonv.Value, error)) { panic("host bug") }}}}},
	})
	if err != nil || res.Error != nil || res.Value.AsString() != `binding "boom" failed: host bug` {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}
