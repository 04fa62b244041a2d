package jsruntime_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// returning is a binding that ignores its argument and settles with v.
func returning(name string, v jsonv.Value) jsruntime.Function {
	return jsruntime.Function{Name: name, Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		settle(v, nil)
	}}
}

// nestedArrays returns n arrays nested in one another, built in Go (jsonv does not stop that).
func nestedArrays(n int) jsonv.Value {
	v := jsonv.ArrayValue()
	for i := 1; i < n; i++ {
		v = jsonv.ArrayValue(v)
	}
	return v
}

// TestBoundaryDepth: a value 1.5 million levels deep returned by the program or passed to a tool
// ended an in-process host with a Go stack overflow in the converter (a worker-exit under
// process isolation; the hostile corpus has the 1.5 million case). Values deeper than jsonv.MaxDepth are refused in either direction, the
// same way in both isolations, naming the place; jsonv.MaxDepth levels still pass both ways.
func TestBoundaryDepth(t *testing.T) {
	build := func(n string) string { return "let v = 1; for (let i = 0; i < " + n + "; i++) v = [v];" }
	forEachIsolation(t, []confCase{
		{name: "result 200,000 deep", program: build("2e5") + " return v",
			want: "invalid-output: program completion cannot be converted to JSON: result[0][0][0]…"},
		{name: "result one level too deep", program: build("12001") + " return v",
			want: "…(11976 more)…[0][0][0][0][0][0][0][0][0][0][0][0]: nests deeper than 12000 levels"},
		{name: "argument 200,000 deep", program: build("2e5") + " try { await tools.echo(v) } catch (e) { return [e.name, e.message] }",
			fns:  []jsruntime.Function{echo("echo")},
			want: `["ToolCallError","binding arguments cannot be converted to JSON: argument[0][0]…`},
		{name: "MaxDepth both ways", program: build("7999") + " let r = await tools.echo({a: v}), d = 0; r = r.a; while (Array.isArray(r)) { r = r[0]; d++ } return d",
			fns: []jsruntime.Function{echo("echo")}, want: "7999"},
		{name: "tool result deeper than MaxDepth", program: "try { await tools.deep({}) } catch (e) { return e.message }",
			fns:  []jsruntime.Function{returning("deep", nestedArrays(jsonv.MaxDepth+1))},
			want: `"binding resolution must be lossless JSON: result: nests deeper than 12000 levels"`},
		{name: "tool result at MaxDepth", program: "let r = await tools.deep({}), d = 0; while (Array.isArray(r)) { r = r[0]; d++ } return d",
			fns: []jsruntime.Function{returning("deep", nestedArrays(jsonv.MaxDepth))}, want: "12000"},
	})
}

// TestBoundaryStrings: strings that are not well-formed UTF-16 silently became U+FFFD on their
// way to a tool or out as the result; a tool's string that was not UTF-8 reached the program
// altered (differently per isolation). Both are refused now, naming the place, identically in
// both isolations; a real U+FFFD passes.
func TestBoundaryStrings(t *testing.T) {
	bad := jsonv.ObjectValue(jsonv.Member{Key: "items", Value: jsonv.ArrayValue(jsonv.StringValue("ok"),
		jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.StringValue("caf\xe9")}))})
	badKey := jsonv.ObjectValue(jsonv.Member{Key: "odd key\xff", Value: jsonv.NullValue()})
	forEachIsolation(t, []confCase{
		{name: "lone high surrogate in the result", program: `return {a: ["x", "ab\ud800"]}`,
			want: "invalid-output: program completion cannot be converted to JSON: result.a[1]: string is not well-formed UTF-16 (lone surrogate U+D800 at index 2)"},
		{name: "lone low surrogate in an argument", program: `try { await tools.echo({"odd key": [{k: "\udc00x"}]}) } catch (e) { return e.message }`,
			fns:  []jsruntime.Function{echo("echo")},
			want: `"binding arguments cannot be converted to JSON: argument[\"odd key\"][0].k: string is not well-formed UTF-16 (lone surrogate U+DC00 at index 0)"`},
		{name: "reversed pair", program: `return "\udc00\ud800"`,
			want: "invalid-output: program completion cannot be converted to JSON: result: string is not well-formed UTF-16 (lone surrogate U+DC00 at index 0)"},
		{name: "lone surrogate key", program: `return {a: {"\ud800": 1}}`,
			want: "invalid-output: program completion cannot be converted to JSON: result.a: key \"\ufffd\" is not well-formed UTF-16 (it has a lone surrogate)"},
		{name: "lone surrogate key colliding with U+FFFD", program: `return {"\ufffd": 1, "\ud800": 2}`,
			want: "invalid-output: program completion cannot be converted to JSON: result: key \"\ufffd\" is not well-formed UTF-16 (it has a lone surrogate)"},
		{name: "pairs and U+FFFD pass", program: `return await tools.echo({"\ufffd": "\ud83d\ude00\ufffd"})`,
			fns: []jsruntime.Function{echo("echo")}, want: "{\"\ufffd\":\"\U0001F600\ufffd\"}"},
		{name: "tool string not UTF-8", program: "try { await tools.bad({}) } catch (e) { return e.message }",
			fns:  []jsruntime.Function{returning("bad", bad)},
			want: `"binding resolution must be lossless JSON: result.items[1].text: string is not valid UTF-8 (byte offset 3)"`},
		{name: "tool key not UTF-8", program: "try { await tools.bad({}) } catch (e) { return e.message }",
			fns:  []jsruntime.Function{returning("bad", badKey)},
			want: "\"binding resolution must be lossless JSON: result: key \\\"odd key\ufffd\\\" is not valid UTF-8 (byte offset 7)\""},
	})
}

func TestBoundaryErrorsNameLongPathsBriefly(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, "let v = 1; for (let i = 0; i < 1e5; i++) v = [v]; return v", nil)
	if res.Error == nil || len(res.Error.Message) > 300 || !strings.Contains(res.Error.Message, "more)…") {
		t.Fatalf("failure = %+v, want a short message with an elided path", res.Error)
	}
}

// TestUndefinedSettleRejects: a host function that settled with the Undefined value and no
// error resolved the program's promise with undefined; the seam refuses every resolution that
// is not lossless JSON, so it rejects, the same in both isolations.
func TestUndefinedSettleRejects(t *testing.T) {
	forEachIsolation(t, []confCase{
		{name: "undefined resolution", program: "try { return ['resolved', await tools.nothing({})] } catch (e) { return [e.name, e.toolName, e.message] }",
			fns:  []jsruntime.Function{returning("nothing", jsonv.Value{})},
			want: `["ToolCallError","nothing","binding resolution must be lossless JSON"]`},
		{name: "null resolves", program: "return await tools.none({})",
			fns: []jsruntime.Function{returning("none", jsonv.NullValue())}, want: "null"},
	})
}

// TestBoundaryStringifySemantics: values crossed the boundary only when they were lossless JSON,
// so `return {a: 1, b: undefined}`, a Date, a Map, the NaN of an empty average and an object with
// toJSON each failed the run as invalid-output naming no member, and `tools.x()` or an argument
// with an undefined member was refused. They now cross as JSON.stringify serializes them, in
// both isolations; what that silently loses gets one note, and what it throws on fails naming
// the member.
func TestBoundaryStringifySemantics(t *testing.T) {
	echoes := []jsruntime.Function{echo("echo")}
	none := []string{}
	forEachIsolation(t, []confCase{
		{name: "undefined member dropped", program: `return {a: 1, b: undefined}`, want: `{"a":1}`, notes: none},
		{name: "Date as its ISO string", program: `return new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6))`, want: `"2024-01-02T03:04:05.006Z"`, notes: none},
		{name: "Map as {} with a note", program: `return new Map([["a", 1]])`, want: `{}`,
			notes: []string{"Note: the result is a Map, which JSON turns into {} (use Object.fromEntries(map) to keep its entries)."}},
		{name: "NaN of an empty average", program: `const xs: number[] = []; return {avg: xs.reduce((a, b) => a + b, 0) / xs.length}`, want: `{"avg":null}`, notes: none},
		{name: "toJSON honoured", program: `return {toJSON() { return {x: 1} }}`, want: `{"x":1}`, notes: none},
		{name: "nested Date", program: `return {meta: {when: [new Date(0)]}}`, want: `{"meta":{"when":["1970-01-01T00:00:00.000Z"]}}`},
		{name: "NaN and infinities in nested arrays", program: `return [[NaN, [Infinity, -Infinity]], -0]`, want: `[[null,[null,null]],0]`, notes: none},
		{name: "undefined elements as null", program: `return [undefined, 1, , 2]`, want: `[null,1,null,2]`, notes: none},
		{name: "top-level undefined is no result", program: `return undefined`, want: ``, notes: none},
		{name: "top-level function is no result, with a note", program: `return () => 1`, want: ``,
			notes: []string{"Note: the result is a function, which JSON leaves out."}},
		{name: "top-level symbol is no result, with a note", program: `return Symbol("s")`, want: ``,
			notes: []string{"Note: the result is a symbol, which JSON leaves out (use String(symbol) to keep its description)."}},
		{name: "Set and function members, one note", program: `return {ids: new Set([1, 2]), f() {}, xs: [() => 1]}`, want: `{"ids":{},"xs":[null]}`,
			notes: []string{"Note: result.ids is a Set, which JSON turns into {} (use [...set] to keep its values). 2 more values lost data too."}},
		{name: "an un-awaited promise", program: `return {p: tools.echo({})}`, fns: echoes, want: `{"p":{}}`,
			notes: []string{"Note: result.p is a Promise, which JSON turns into {} (await it to keep its value)."}},
		{name: "a caught error", program: `try { null.x } catch (e) { return {error: e} }`, want: `{"error":{}}`,
			notes: []string{"Note: result.error is an Error, whose message and stack JSON leaves out (use String(error) or error.message to keep it)."}},
		{name: "BigInt names its member", program: `return {items: [{id: 1}, {id: 2}, {id: 3}, {id: 4n}]}`,
			want: "invalid-output: program completion cannot be converted to JSON: result.items[3].id: BigInt, which JSON cannot hold (convert it with String() or Number())"},
		{name: "cycle names both ends", program: `const o: any = {list: [{}]}; o.list[0].owner = o.list; return o`,
			want: "invalid-output: program completion cannot be converted to JSON: result.list[0].owner: circular reference to result.list"},
		{name: "lone surrogate names its member", program: `return {items: ["ok", {name: "\ud800"}]}`,
			want: "invalid-output: program completion cannot be converted to JSON: result.items[1].name: string is not well-formed UTF-16 (lone surrogate U+D800 at index 0)"},

		{name: "no argument is {}", program: `return [await tools.echo(), await tools.echo(undefined)]`, fns: echoes, want: `[{},{}]`, notes: none},
		{name: "undefined argument members dropped", program: `return await tools.echo({path: "a", limit: undefined})`, fns: echoes, want: `{"path":"a"}`, notes: none},
		{name: "argument toJSON and nested Date", program: `return await tools.echo({since: new Date(0), q: {toJSON: () => "query"}})`, fns: echoes,
			want: `{"since":"1970-01-01T00:00:00.000Z","q":"query"}`},
		{name: "argument Map, with a note once for repeated calls", program: `for (let i = 0; i < 3; i++) await tools.echo({m: new Map([[i, i]])}); return await tools.echo({m: new Map()})`,
			fns: echoes, want: `{"m":{}}`,
			notes: []string{"Note: argument.m of tools.echo is a Map, which JSON turns into {} (use Object.fromEntries(map) to keep its entries)."}},
		{name: "argument BigInt names its member", program: `try { await tools.echo({items: [0, 1, 2, {id: 3n}]}) } catch (e) { return e.message }`, fns: echoes,
			want: `"binding arguments cannot be converted to JSON: argument.items[3].id: BigInt, which JSON cannot hold (convert it with String() or Number())"`},
		{name: "argument cycle names its member", program: `const a: any[] = []; a.push({a}); try { await tools.echo({a}) } catch (e) { return e.message }`, fns: echoes,
			want: `"binding arguments cannot be converted to JSON: argument.a[0].a: circular reference to argument.a"`},
		{name: "notes are kept when the run fails", program: `await tools.echo({s: new Set([1])}); throw new Error("later")`, fns: echoes,
			want: "exception: Error: later…", notes: []string{"Note: argument.s of tools.echo is a Set, which JSON turns into {} (use [...set] to keep its values)."}},
		{name: "at most six note lines", program: `for (let i = 0; i < 8; i++) await tools.echo({["k" + i]: new Set()}); return 1`, fns: echoes, want: `1`,
			notes: []string{
				"Note: argument.k0 of tools.echo is a Set, which JSON turns into {} (use [...set] to keep its values).",
				"Note: argument.k1 of tools.echo is a Set, which JSON turns into {} (use [...set] to keep its values).",
				"Note: argument.k2 of tools.echo is a Set, which JSON turns into {} (use [...set] to keep its values).",
				"Note: argument.k3 of tools.echo is a Set, which JSON turns into {} (use [...set] to keep its values).",
				"Note: argument.k4 of tools.echo is a Set, which JSON turns into {} (use [...set] to keep its values).",
				"Note: 3 more notes like these were left out.",
			}},
	})
}

// TestBoundaryArgumentSizeIsBounded: a sparse array's length costs nothing in JavaScript but
// one null per element as JSON; an argument whose JSON could not be a JavaScript string is
// refused before the walk allocates for it.
func TestBoundaryArgumentSizeIsBounded(t *testing.T) {
	forEachIsolation(t, []confCase{
		{name: "huge sparse array", program: `try { await tools.echo({a: new Array(2 ** 32 - 1)}) } catch (e) { return e.message }`,
			fns: []jsruntime.Function{echo("echo")}, max: time.Second,
			want: `"binding arguments cannot be converted to JSON: argument: its JSON is longer than …`},
	})
}
