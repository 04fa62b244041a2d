package jsruntime_test

import (
	"context"
	"strings"
	"testing"

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
			want: "invalid-output: program completion must be lossless JSON: the value at result[0][0][0]…"},
		{name: "result one level too deep", program: build("12001") + " return v",
			want: "…(11976 more)…[0][0][0][0][0][0][0][0][0][0][0][0] nests deeper than 12000 levels"},
		{name: "argument 200,000 deep", program: build("2e5") + " try { await tools.echo(v) } catch (e) { return [e.name, e.message] }",
			fns:  []jsruntime.Function{echo("echo")},
			want: `["ToolCallError","binding arguments must be lossless JSON: the value at argument[0][0]…`},
		{name: "MaxDepth both ways", program: build("7999") + " let r = await tools.echo({a: v}), d = 0; r = r.a; while (Array.isArray(r)) { r = r[0]; d++ } return d",
			fns: []jsruntime.Function{echo("echo")}, want: "7999"},
		{name: "tool result deeper than MaxDepth", program: "try { await tools.deep({}) } catch (e) { return e.message }",
			fns:  []jsruntime.Function{returning("deep", nestedArrays(jsonv.MaxDepth+1))},
			want: `"binding resolution must be lossless JSON: the value at result nests deeper than 12000 levels"`},
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
			want: "invalid-output: program completion must be lossless JSON: the string at result.a[1] is not well-formed UTF-16: lone surrogate U+D800 at index 2"},
		{name: "lone low surrogate in an argument", program: `try { await tools.echo({"odd key": [{k: "\udc00x"}]}) } catch (e) { return e.message }`,
			fns:  []jsruntime.Function{echo("echo")},
			want: `"binding arguments must be lossless JSON: the string at argument[\"odd key\"][0].k is not well-formed UTF-16: lone surrogate U+DC00 at index 0"`},
		{name: "reversed pair", program: `return "\udc00\ud800"`,
			want: "invalid-output: program completion must be lossless JSON: the string at result is not well-formed UTF-16: lone surrogate U+DC00 at index 0"},
		{name: "lone surrogate key", program: `return {a: {"\ud800": 1}}`,
			want: "invalid-output: program completion must be lossless JSON: the key at result.a \"\ufffd\" is not well-formed UTF-16 (it has a lone surrogate)"},
		{name: "lone surrogate key colliding with U+FFFD", program: `return {"\ufffd": 1, "\ud800": 2}`,
			want: "invalid-output: program completion must be lossless JSON: the key at result \"\ufffd\" is not well-formed UTF-16 (it has a lone surrogate)"},
		{name: "pairs and U+FFFD pass", program: `return await tools.echo({"\ufffd": "\ud83d\ude00\ufffd"})`,
			fns: []jsruntime.Function{echo("echo")}, want: "{\"\ufffd\":\"\U0001F600\ufffd\"}"},
		{name: "tool string not UTF-8", program: "try { await tools.bad({}) } catch (e) { return e.message }",
			fns:  []jsruntime.Function{returning("bad", bad)},
			want: `"binding resolution must be lossless JSON: the string at result.items[1].text is not valid UTF-8 (byte offset 3)"`},
		{name: "tool key not UTF-8", program: "try { await tools.bad({}) } catch (e) { return e.message }",
			fns:  []jsruntime.Function{returning("bad", badKey)},
			want: "\"binding resolution must be lossless JSON: the key at result \\\"odd key\ufffd\\\" is not valid UTF-8 (byte offset 7)\""},
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
