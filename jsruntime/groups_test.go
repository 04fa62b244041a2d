package jsruntime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// grouped returns fn as a member of group.
func grouped(group string, fn jsruntime.Function) jsruntime.Function {
	fn.Group = group
	return fn
}

// labelled settles with its label, so a test can tell which function a call reached.
func labelled(name, label string) jsruntime.Function {
	return jsruntime.Function{Name: name, Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		settle(jsonv.StringValue(label), nil)
	}}
}

// groupFunctions are ungrouped functions interleaved with the members of two groups.
func groupFunctions() []jsruntime.Function {
	return []jsruntime.Function{
		echo("a"),
		grouped("memory", echo("read_graph")),
		labelled("b", "b"),
		grouped("memory", failing("fail", "graph broken")),
		grouped("other", labelled("read_graph", "other.read_graph")),
		grouped("memory", labelled("memory", "memory.memory")),
		grouped("my-group", labelled("my-tool", "my-group.my-tool")),
	}
}

// A group's object behaves like the namespace's: null prototype, own enumerable non-writable
// non-configurable members in order, placed where its first function is; calls reach the right
// host function, whatever other group has a function of the same name.
func TestConformanceGroups(t *testing.T) {
	fns := groupFunctions()
	forEachIsolation(t, []confCase{
		{name: "member order", fns: fns, program: `return [Object.keys(tools), Object.keys(tools.memory), Object.getOwnPropertyNames(tools.other), Reflect.ownKeys(tools["my-group"])]`,
			want: `[["a","memory","b","other","my-group"],["read_graph","fail","memory"],["read_graph"],["my-tool"]]`},
		{name: "null prototypes", fns: fns, program: `return [Object.getPrototypeOf(tools.memory) === null, Object.getPrototypeOf(tools.memory.read_graph) === Function.prototype]`,
			want: `[true,true]`},
		{name: "in", fns: fns, program: `return ["memory" in tools, "read_graph" in tools, "read_graph" in tools.memory, "a" in tools.memory, "constructor" in tools.memory, "fail" in tools.other]`,
			want: `[true,false,true,false,false,false]`},
		{name: "descriptors", fns: fns, program: `const d = (o, k) => { const x = Object.getOwnPropertyDescriptor(o, k); return [x.writable, x.enumerable, x.configurable, typeof x.value] };
			return [d(tools, "a"), d(tools, "memory"), d(tools.memory, "read_graph")]`,
			want: `[[false,true,false,"function"],[false,true,false,"object"],[false,true,false,"function"]]`},
		{name: "frozen-ness like the namespace", fns: fns, program: `return [Object.isFrozen(tools), Object.isFrozen(tools.memory), Object.isExtensible(tools), Object.isExtensible(tools.memory)]`,
			want: `[false,false,true,true]`},
		{name: "assignments fail", fns: fns, program: `const r = [];
			for (const f of [() => { tools.memory = 1 }, () => { tools.memory.read_graph = 1 }, () => { delete tools.memory }, () => { delete tools.memory.fail }]) {
				try { f(); r.push("no error") } catch (e) { r.push(e.name) } }
			return [r, typeof tools.memory.read_graph]`,
			want: `[["TypeError","TypeError","TypeError","TypeError"],"function"]`},
		{name: "calls", fns: fns, program: `return [await tools.memory.read_graph({x: 1}), await tools.other.read_graph({}), await tools.memory.memory({}), await tools["my-group"]["my-tool"]({}), await tools.b({}), tools.memory.read_graph.name]`,
			want: `[{"x":1},"other.read_graph","memory.memory","my-group.my-tool","b","read_graph"]`},
		{name: "rejection names the group", fns: fns, program: `try { await tools.memory.fail({}) } catch (e) { return [e instanceof ToolCallError, e.toolName, e.message, e.stack.split("\n")[1]] }`,
			want: `[true,"memory.fail","graph broken","\tat tools.memory.fail"]`},
		{name: "uncaught rejection", fns: fns, program: "\nawait tools.memory.fail({})",
			want: "exception: ToolCallError: graph broken\n\tat tools.memory.fail\n\tat main.ts:2:24(…"},
		{name: "bad arguments", fns: fns, program: `try { await tools.memory.read_graph({n: 1n}) } catch (e) { return [e.toolName, e.message] }`,
			want: `["memory.read_graph","binding arguments cannot be converted to JSON: argument.n: BigInt, which JSON cannot hold (convert it with String() or Number())"]`},
		{name: "JSON and enumeration", fns: fns, program: `const ks = []; for (const k in tools.memory) ks.push(k); return [JSON.stringify(tools), ks, Object.entries(tools.memory).length]`,
			want: `["{\"memory\":{},\"other\":{},\"my-group\":{}}",["read_graph","fail","memory"],3]`},
		{name: "console", fns: fns[:3], program: `console.log(tools)`,
			logs: []string{"[Object: null prototype] {\n  a: [Function: a],\n  memory: [Object: null prototype] { read_graph: [Function: read_graph] },\n  b: [Function: b]\n}"}},
	})
}

// A call of a member a group lacks fails like one the namespace lacks, naming the group and the
// closest members of the group.
func TestConformanceGroupMissingMember(t *testing.T) {
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{})
			defer rt.Close()
			for _, c := range []struct{ name, program, want string }{
				{"in a group", "const x = 1;\nawait tools.memory.red_graph({})", "TypeError: tools.memory.red_graph is not a tool (did you mean read_graph?)\n\tat main.ts:2:29(…"},
				{"bracket group", "await tools['my-group'].my_tol({})", "TypeError: tools[\"my-group\"].my_tol is not a tool (did you mean my-tool?)\n\tat …"},
				{"group called", "await tools.memroy({})", "TypeError: tools.memroy is not a tool (did you mean memory?)\n\tat …"},
				{"top level", "await tools.bb({})", "TypeError: tools.bb is not a tool (did you mean b?)\n\tat …"},
			} {
				t.Run(c.name, func(t *testing.T) {
					nss := toolsNamespace(groupFunctions()...)
					nss[0].MemberNoun = "tool"
					res, err := rt.Run(context.Background(), jsruntime.Request{Program: c.program, Bindings: nss})
					if err != nil {
						t.Fatal(err)
					}
					wantFailurePrefix(t, res, jsruntime.KindException, c.want)
				})
			}
		})
	}
}

// Groups that clash with a function, or functions that clash within a group, are misuse: the
// run does not start, and the error names them.
func TestConformanceGroupClashes(t *testing.T) {
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{})
			defer rt.Close()
			for _, c := range []struct {
				name string
				fns  []jsruntime.Function
				want string
			}{
				{"group named like a function", []jsruntime.Function{grouped("memory", echo("read")), echo("memory")},
					`jsruntime: group "memory" in binding "tools" has the name of a function of the binding`},
				{"duplicate in a group", []jsruntime.Function{grouped("memory", echo("read")), echo("x"), grouped("memory", echo("read"))},
					`jsruntime: duplicate function "read" in group "memory" of binding "tools"`},
				{"no Call", []jsruntime.Function{{Name: "read", Group: "memory"}},
					`jsruntime: function "memory.read" in binding "tools" has no Call`},
			} {
				t.Run(c.name, func(t *testing.T) {
					_, err := rt.Run(context.Background(), jsruntime.Request{Program: "return 1", Bindings: toolsNamespace(c.fns...)})
					if !errors.Is(err, jsruntime.ErrInvalidRequest) || err.Error() != c.want {
						t.Fatalf("err = %v, want %s", err, c.want)
					}
				})
			}
			// The same name in two groups, and a group's function named like the group, are fine.
			res, err := rt.Run(context.Background(), jsruntime.Request{Program: "return 1",
				Bindings: toolsNamespace(grouped("a", echo("x")), grouped("b", echo("x")), grouped("x", echo("x")))})
			if err != nil {
				t.Fatal(err)
			}
			wantValue(t, res, "1")
		})
	}
}
