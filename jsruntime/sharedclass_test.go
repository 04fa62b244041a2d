package jsruntime_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// Two namespaces may declare the same error class (name and member property): the program sees
// one class, and the rejections of both are instances of it. codemode's tools and programs
// globals share ToolCallError so.
func TestNamespacesShareAnErrorClass(t *testing.T) {
	fail := func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		settle(jsonv.Value{}, errors.New("no"))
	}
	class := &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"}
	req := jsruntime.Request{
		Program: `const out = [];
for (const f of [() => tools.a({}), () => programs.b({})]) {
  try { await f(); } catch (e) { out.push(e instanceof ToolCallError, e.toolName); }
}
return out;`,
		Bindings: []jsruntime.Namespace{
			{Global: "tools", ErrorClass: class, Functions: []jsruntime.Function{{Name: "a", Call: fail}}},
			{Global: "programs", ErrorClass: &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"}, Functions: []jsruntime.Function{{Name: "b", Call: fail}}},
		},
	}
	inprocess, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer inprocess.Close()
	pool, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for name, rt := range map[string]jsruntime.Runtime{"inprocess": inprocess, "process": pool} {
		res, err := rt.Run(context.Background(), req)
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %v %+v", name, err, res.Error)
		}
		if got := string(jsonv.AppendJSON(nil, res.Value)); got != `[true,"a",true,"b"]` {
			t.Errorf("%s: %s", name, got)
		}
	}
}

// A nested run (WithNestedRun) runs in a worker of its own without taking a place: with one
// place held by a run that waits for its nested run, the nested run still runs.
func TestNestedRunTakesNoWorkerPlace(t *testing.T) {
	pool, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{MaxWorkers: 1, Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	nested := func(ctx context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		go func() {
			res, err := pool.Run(jsruntime.WithNestedRun(ctx), jsruntime.Request{Program: "return 6 * 7"})
			if err != nil {
				settle(jsonv.Value{}, err)
				return
			}
			if res.Error != nil {
				settle(jsonv.Value{}, errors.New(res.Error.Message))
				return
			}
			settle(res.Value, nil)
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := pool.Run(ctx, jsruntime.Request{Program: "return await host.nested({})",
		Bindings: []jsruntime.Namespace{{Global: "host", Functions: []jsruntime.Function{{Name: "nested", Call: nested}}}}})
	if err != nil || res.Error != nil || string(jsonv.AppendJSON(nil, res.Value)) != "42" {
		t.Fatalf("err %v, failure %+v, value %s", err, res.Error, jsonv.AppendJSON(nil, res.Value))
	}
}
