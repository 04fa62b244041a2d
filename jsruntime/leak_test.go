package jsruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/internal/leakcheck"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// leakNamespace has echo (settles from another goroutine) and hang (settles only when its
// run's context ends).
func leakNamespace() jsruntime.Namespace {
	return jsruntime.Namespace{Global: "tools", Functions: []jsruntime.Function{
		{Name: "echo", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
			go settle(args, nil)
		}},
		{Name: "hang", Call: func(ctx context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
			go func() {
				<-ctx.Done()
				settle(jsonv.Value{}, context.Cause(ctx))
			}()
		}},
	}}
}

// A runtime that has run programs to success, timeout and abort, and has been closed, leaves
// no goroutine behind: not its loops, not the watchdog, not its host functions' goroutines.
func TestRunsLeaveNoGoroutines(t *testing.T) {
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			leakcheck.Check(t)
			rt := iso.new(t, jsruntime.Config{ComputeBudget: 200 * time.Millisecond, WallCeiling: 2 * time.Second})
			defer rt.Close()
			ns := []jsruntime.Namespace{leakNamespace()}
			run := func(ctx context.Context, program string) *jsruntime.Failure {
				t.Helper()
				res, err := rt.Run(ctx, jsruntime.Request{Program: program, Bindings: ns})
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				return res.Error
			}
			for range 3 {
				if f := run(context.Background(), `const r = await tools.echo({x: 1}); return r`); f != nil {
					t.Fatalf("echo run failed: %+v", f)
				}
			}
			if f := run(context.Background(), `for (;;) {}`); f == nil || f.Kind != jsruntime.KindTimeout {
				t.Fatalf("infinite loop: failure %+v, want timeout", f)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			if f := run(ctx, `await Promise.all([tools.hang({}), tools.echo({})]); return 1`); f == nil || f.Kind != jsruntime.KindAbort {
				t.Fatalf("cancelled run: failure %+v, want abort", f)
			}
			if err := rt.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
