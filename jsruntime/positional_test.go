package jsruntime_test

import (
	"context"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// A Positional namespace's host functions get every argument as one JSON array, and a
// ResolveUndefined one may resolve undefined; both isolations agree.
func TestConformancePositionalAndUndefined(t *testing.T) {
	ns := jsruntime.Namespace{
		Global: "kv", Positional: true, ResolveUndefined: true,
		Functions: []jsruntime.Function{
			{Name: "args", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) { settle(args, nil) }},
			{Name: "nothing", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) { settle(jsonv.Value{}, nil) }},
		},
	}
	cases := []struct{ name, program, want string }{
		{"two arguments", `return await kv.args("k", {a: [1, 2]})`, `["k",{"a":[1,2]}]`},
		{"no argument", `return await kv.args()`, `[]`},
		{"undefined is null", `return await kv.args("k", undefined)`, `["k",null]`},
		{"undefined resolves", `const v = await kv.nothing("k"); return [typeof v, v === undefined]`, `["undefined",true]`},
		{"bad argument names its place", `try { await kv.args("k", 1n) } catch (e) { return e.message }`, `"binding arguments cannot be converted to JSON: arguments[1]: BigInt, which JSON cannot hold (convert it with String() or Number())"`},
	}
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{})
			defer rt.Close()
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					res, err := rt.Run(context.Background(), jsruntime.Request{Program: c.program, Bindings: []jsruntime.Namespace{ns}})
					if err != nil {
						t.Fatal(err)
					}
					if res.Error != nil {
						t.Fatalf("run failed: %s: %s", res.Error.Kind, res.Error.Message)
					}
					if got := res.Value.String(); got != c.want {
						t.Errorf("got %s, want %s", got, c.want)
					}
				})
			}
		})
	}
}
