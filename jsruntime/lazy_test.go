package jsruntime_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// lazyFunctions mix names that are array indices (an ordinary object lists them first, in
// ascending order) with others, and a group.
func lazyFunctions() []jsruntime.Function {
	return []jsruntime.Function{echo("b"), echo("10"), echo("a"), grouped("g", echo("y")), echo("2"), grouped("g", echo("1")), echo("01"), echo("4294967295")}
}

// The namespace's functions are built when the program first reads them; what the program can
// observe is the object an eager build gives, whatever it reads, tests or changes first.
func TestConformanceLazyNamespace(t *testing.T) {
	fns := lazyFunctions()
	keys := `[["2","10","b","a","g","01","4294967295"],["1","y"]]`
	forEachIsolation(t, []confCase{
		{name: "order before any read", fns: fns, program: `return [Object.keys(tools), Object.keys(tools.g)]`, want: keys},
		{name: "order after reading out of order", fns: fns, program: `tools.a; tools["4294967295"]; tools.g.y; tools[10];
			return [Object.keys(tools), Reflect.ownKeys(tools.g)]`, want: keys},
		{name: "for-in and entries", fns: fns, program: `tools.a; const ks = []; for (const k in tools) ks.push(k);
			return [ks, Object.entries(tools).map(([k, v]) => k + ":" + typeof v), Object.values(tools.g).length]`,
			want: `[["2","10","b","a","g","01","4294967295"],["2:function","10:function","b:function","a:function","g:object","01:function","4294967295:function"],2]`},
		{name: "in before and after reads", fns: fns, program: `const before = ["a" in tools, "zz" in tools, 10 in tools, "y" in tools.g, "g" in tools];
			tools.a; Object.keys(tools); return [before, "a" in tools, "zz" in tools, 10 in tools]`,
			want: `[[true,false,true,true,true],true,false,true]`},
		{name: "descriptor before any read", fns: fns, program: `const d = Object.getOwnPropertyDescriptor(tools, "b");
			return [typeof d.value, d.writable, d.enumerable, d.configurable, Object.getOwnPropertyDescriptor(tools, "zz") === undefined,
				Object.hasOwn(tools, "a"), Object.prototype.hasOwnProperty.call(tools, "nope"), d.value === tools.b]`,
			want: `["function",false,true,false,true,true,false,true]`},
		{name: "the same function on every read", fns: fns, program: `return [tools.a === tools.a, tools.g === tools.g, tools.g.y === tools.g.y, tools.a.name, tools[2].name]`,
			want: `[true,true,true,"a","2"]`},
		{name: "assignment before any read", fns: fns, program: `let e; try { tools.a = 1 } catch (x) { e = x.name } return [e, typeof tools.a, Object.keys(tools).length]`,
			want: `["TypeError","function",7]`},
		{name: "assignment after a read", fns: fns, program: `tools.a; let e; try { tools.a = 1 } catch (x) { e = x.name } return [e, typeof tools.a]`,
			want: `["TypeError","function"]`},
		{name: "delete and incompatible redefinition fail", fns: fns, program: `const r = [];
			for (const f of [() => delete tools.b, () => Object.defineProperty(tools, "a", {value: 1}), () => delete tools.g.y]) {
				try { f(); r.push("no error") } catch (x) { r.push(x.name) } }
			return [r, Reflect.deleteProperty(tools, "b"), Reflect.defineProperty(tools, "a", {value: 1}), typeof tools.b, typeof tools.a]`,
			want: `[["TypeError","TypeError","TypeError"],false,false,"function","function"]`},
		{name: "compatible redefinition succeeds", fns: fns, program: `return Reflect.defineProperty(tools, "a", {writable: false, configurable: false})`, want: `true`},
		{name: "extensible like an ordinary object", fns: fns, program: `tools.b; tools.mine = 1; Object.defineProperty(tools, "hidden", {value: 2});
			return [tools.mine, tools.hidden, "mine" in tools, Object.keys(tools), Object.getOwnPropertyNames(tools).slice(-2), delete tools.mine, "mine" in tools]`,
			want: `[1,2,true,["2","10","b","a","g","01","4294967295","mine"],["mine","hidden"],true,false]`},
		{name: "assignment through an heir", fns: fns, program: `const o = Object.create(tools); o.x = 1; let e; try { o.a = 2 } catch (x) { e = x.message }
			return [o.x, "x" in tools, Object.hasOwn(o, "x"), e, typeof o.a]`,
			want: `[1,false,true,"Cannot assign to read only property 'a'","function"]`},
		{name: "messages of failed changes", fns: fns, program: `const r = [];
			for (const f of [() => { tools.a = 1 }, () => { tools.a = 1 }, () => { delete tools.g.y }, () => Object.defineProperty(tools.g, "y", {value: 1})]) {
				try { f() } catch (e) { r.push(e.message) } }
			return r`,
			want: `["Cannot assign to read only property 'a'","Cannot assign to read only property 'a'","Cannot delete property 'y' of [object Object]","Cannot redefine property: y"]`},
		{name: "frozen-ness", fns: fns, program: `const before = [Object.isFrozen(tools), Object.isSealed(tools), Object.isExtensible(tools)];
			Object.freeze(tools.g); Object.preventExtensions(tools);
			return [before, Object.isFrozen(tools), Object.isExtensible(tools), Object.isFrozen(tools.g), typeof tools.a, typeof tools.g.y, await tools["01"](5),
				(() => { try { tools.added = 1; return "added" } catch (e) { return e.name } })()]`,
			want: `[[false,false,true],true,false,true,"function","function",5,"TypeError"]`},
		{name: "prototype", fns: fns, program: `return [Object.getPrototypeOf(tools), Object.getPrototypeOf(tools.g), tools.toString === undefined, tools.constructor === undefined, "__proto__" in tools]`,
			want: `[null,null,true,true,false]`},
		{name: "spread, assign and JSON", fns: fns, program: `const o = {...tools}; const p = Object.assign({}, tools.g);
			return [Object.keys(o), Object.keys(p), JSON.stringify(tools), typeof structuredClone]`,
			want: `[["2","10","b","a","g","01","4294967295"],["1","y"],"{\"g\":{}}","function"]`},
		{name: "console after a read", fns: fns[:4], program: `tools.a; tools.g.y; console.log(tools)`,
			logs: []string{"[Object: null prototype] {\n  '10': [Function: 10],\n  b: [Function: b],\n  a: [Function: a],\n  g: [Object: null prototype] { y: [Function: y] }\n}"}},
		{name: "calls", fns: fns, program: `return [await tools.b(1), await tools[10](2), await tools.g[1](3), await tools.g.y(4)]`, want: `[1,2,3,4]`},
	})
}

// A namespace bound with Members and Dispatch behaves like one bound with Functions, in both
// isolations, and the dispatcher gets the function's index.
func TestConformanceMembersNamespace(t *testing.T) {
	members, err := jsruntime.NewMembers([]jsruntime.Member{{Name: "read"}, {Name: "read_graph", Group: "memory"}, {Name: "fail"}})
	if err != nil {
		t.Fatal(err)
	}
	dispatch := func(_ context.Context, i int, args jsonv.Value, settle func(jsonv.Value, error)) {
		if i == 2 {
			settle(jsonv.Value{}, errors.New("failed"))
			return
		}
		settle(jsonv.ArrayValue(jsonv.Int(int64(i)), args), nil)
	}
	nss := []jsruntime.Namespace{{Global: "tools", Members: members, Dispatch: dispatch, MemberNoun: "tool",
		ErrorClass: &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"}}}
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{})
			defer rt.Close()
			for i, c := range []struct{ program, want string }{
				{`return [Object.keys(tools), await tools.read("a"), await tools.memory.read_graph({}), await tools.fail(1).catch((e) => [e.name, e.toolName, e.message])]`,
					`[["read","memory","fail"],[0,"a"],[1,{}],["ToolCallError","fail","failed"]]`},
				{`return await tools.memory.read_grahp({})`, "exception: TypeError: tools.memory.read_grahp is not a tool (did you mean read_graph?)\n\tat …"},
			} {
				// Twice each: the second run of the same bindings reuses what the first prepared.
				for range 2 {
					res, err := rt.Run(context.Background(), jsruntime.Request{Program: c.program, Bindings: nss})
					if err != nil {
						t.Fatal(err)
					}
					if res.Error != nil {
						wantFailurePrefix(t, res, jsruntime.KindException, c.want[len("exception: "):])
						continue
					}
					if got := res.Value.String(); got != c.want {
						t.Fatalf("case %d: got %s, want %s", i, got, c.want)
					}
				}
			}
			// Bindings that change between runs are seen as they are.
			other, _ := jsruntime.NewMembers([]jsruntime.Member{{Name: "x"}})
			res, err := rt.Run(context.Background(), jsruntime.Request{Program: `return [Object.keys(tools), await tools.x(7)]`,
				Bindings: []jsruntime.Namespace{{Global: "tools", Members: other, Dispatch: dispatch}}})
			if err != nil {
				t.Fatal(err)
			}
			wantValue(t, res, `[["x"],[0,7]]`)
			for _, bad := range []struct {
				ns   jsruntime.Namespace
				want string
			}{
				{jsruntime.Namespace{Global: "tools", Members: members}, `jsruntime: binding "tools" has Members and no Dispatch`},
				{jsruntime.Namespace{Global: "tools", Members: members, Dispatch: dispatch, Functions: []jsruntime.Function{echo("a")}}, `jsruntime: binding "tools" has both Functions and Members`},
				{jsruntime.Namespace{Global: "tools", Dispatch: dispatch, Functions: []jsruntime.Function{echo("a")}}, `jsruntime: binding "tools" has a Dispatch and no Members`},
				{jsruntime.Namespace{Global: "tools", InlineDispatch: dispatch, Functions: []jsruntime.Function{echo("a")}}, `jsruntime: binding "tools" has a Dispatch and no Members`},
			} {
				if _, err := rt.Run(context.Background(), jsruntime.Request{Program: "1", Bindings: []jsruntime.Namespace{bad.ns}}); !errors.Is(err, jsruntime.ErrInvalidRequest) || err.Error() != bad.want {
					t.Errorf("err = %v, want %s", err, bad.want)
				}
			}
		})
	}
}

func TestNewMembersRefusesClashes(t *testing.T) {
	for _, c := range []struct {
		ms   []jsruntime.Member
		want string
	}{
		{[]jsruntime.Member{{Name: "a"}, {Name: "a"}}, `jsruntime: duplicate function "a"`},
		{[]jsruntime.Member{{Name: "a", Group: "g"}, {Name: "a", Group: "g"}}, `jsruntime: duplicate function "a" in group "g"`},
		{[]jsruntime.Member{{Name: "g"}, {Name: "a", Group: "g"}}, `jsruntime: group "g" has the name of an ungrouped function`},
		{[]jsruntime.Member{{Name: "a", Group: "g"}, {Name: "g"}}, `jsruntime: group "g" has the name of an ungrouped function`},
	} {
		if _, err := jsruntime.NewMembers(c.ms); !errors.Is(err, jsruntime.ErrInvalidRequest) || err.Error() != c.want {
			t.Errorf("NewMembers(%v) = %v, want %s", c.ms, err, c.want)
		}
	}
	m, err := jsruntime.NewMembers([]jsruntime.Member{{Name: "a", Group: "b"}, {Name: "a", Group: "c"}, {Name: "a"}})
	if err != nil || m.Len() != 3 || m.At(1) != (jsruntime.Member{Name: "a", Group: "c"}) {
		t.Fatalf("NewMembers: %v, %v", m, err)
	}
}

// BenchmarkRunVisibleFunctions is a run that calls one function of a namespace of n, bound with
// Members: its cost does not grow with n.
func BenchmarkRunVisibleFunctions(b *testing.B) {
	for _, n := range []int{10, 5000} {
		b.Run(fmt.Sprintf("functions=%d", n), func(b *testing.B) {
			ms := make([]jsruntime.Member, n)
			for i := range ms {
				ms[i] = jsruntime.Member{Name: fmt.Sprintf("tool%d", i)}
			}
			members, err := jsruntime.NewMembers(ms)
			if err != nil {
				b.Fatal(err)
			}
			dispatch := func(_ context.Context, _ int, args jsonv.Value, settle func(jsonv.Value, error)) { settle(args, nil) }
			nss := []jsruntime.Namespace{{Global: "tools", Members: members, Dispatch: dispatch, ErrorClass: &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"}}}
			g := newRuntime(b, jsruntime.Config{})
			defer g.Close()
			req := jsruntime.Request{Program: `return await tools.tool1({x: 1})`, Bindings: nss}
			b.ReportAllocs()
			for b.Loop() {
				if res, err := g.Run(context.Background(), req); err != nil || res.Error != nil {
					b.Fatal(err, res.Error)
				}
			}
		})
	}
}
