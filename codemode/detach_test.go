package codemode_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/internal/leakcheck"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// A tool body that ignores cancellation cannot keep a run alive: a program awaiting it ends
// within its timeout plus the drain grace with kind timeout, or, when the caller aborts, within
// the grace with kind abort, in both isolations. When the body is finally released its
// goroutine ends. Before the fix the run waited for the body forever (in serve, the call never
// answered; in run, Ctrl-C was ignored). As a run's second call, under process isolation, the
// body runs on the goroutine that reads the worker's frames (jsruntime.Function.Inline): the
// same holds.
func TestRunEndsDespiteBodyIgnoringCancellation(t *testing.T) {
	const (
		wall  = 300 * time.Millisecond
		grace = 200 * time.Millisecond
	)
	for _, isolation := range []string{"inprocess", "process"} {
		for _, kind := range []jsruntime.FailureKind{jsruntime.KindTimeout, jsruntime.KindAbort} {
			for _, second := range []bool{false, true} {
				name := isolation + "/" + string(kind)
				before := ""
				if second {
					name, before = name+"/second-call", "await tools.echo({});"
				}
				t.Run(name, func(t *testing.T) {
					leakcheck.Check(t)
					started, release := make(chan struct{}, 1), make(chan struct{})
					var released bool
					defer func() {
						if !released {
							close(release)
						}
					}()
					deaf := registry.Tool{Name: "deaf", Output: registry.AnyOutput(),
						Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
							started <- struct{}{}
							<-release
							return jsonv.StringValue("late"), nil
						}}
					echo := registry.Tool{Name: "echo", Output: registry.AnyOutput(), ConcurrencySafe: func(jsonv.Value) bool { return true },
						Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return inv.Arguments, nil }}
					rt, err := jsruntime.Open(isolation, 256<<20, jsruntime.Config{WallCeiling: wall})
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { rt.Close() })
					reg := installOn(t, rt, codemode.Options{DrainGrace: grace}, deaf, echo)
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					if kind == jsruntime.KindAbort {
						go func() {
							<-started
							time.Sleep(20 * time.Millisecond)
							cancel()
						}()
					}
					begin := time.Now()
					done := make(chan registry.Result, 1)
					go func() {
						done <- subRun(ctx, reg, before+`console.log("calling"); await tools.deaf({}); return "unreachable";`)
					}()
					var res registry.Result
					select {
					case res = <-done:
					case <-time.After(10 * time.Second):
						close(release)
						released = true
						<-done
						t.Fatal("the run waited for a body that ignores cancellation")
					}
					took := time.Since(begin)
					limit := wall + grace + time.Second // scheduling slack on a shared machine
					if kind == jsruntime.KindAbort {
						limit = grace + time.Second
					}
					if took > limit {
						t.Errorf("the run took %v, want at most %v", took, limit)
					}
					var f *codemode.RunFailure
					if !res.IsError || res.Err == nil || !errors.As(res.Err, &f) || f.Kind != kind {
						t.Fatalf("result %+v, want a run failure of kind %s", res.Err, kind)
					}
					if len(f.Logs) != 1 || f.Logs[0] != "calling" {
						t.Errorf("logs %q, want the output before the call", f.Logs)
					}
					close(release) // the body returns; its goroutine ends (checked by leakcheck)
					released = true
				})
			}
		}
	}
}
