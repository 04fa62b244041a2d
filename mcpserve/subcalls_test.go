package mcpserve_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/registry"
)

// RunReport.SubCalls counts the program's tool calls of this call alone, through the call's
// own trace: calls of another run at the same time are not counted, and a call the run gave up
// on when it ended (its body ignores cancellation) counts, as it settles then, as a failure; a
// call still queued then never started and does not count.
// Counted by registry-wide result observers, that call was missing: its result came after the
// report.
func TestRunReportCountsTheSubCallsOfItsOwnRun(t *testing.T) {
	reg := registry.New()
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	tools := []registry.Tool{
		registry.MustDefine(registry.TypedTool[srvAddIn, srvAddOut]{
			Name: "add", Description: "Add two integers.",
			Execute: func(_ context.Context, _ *registry.Invocation, in srvAddIn) (srvAddOut, error) {
				return srvAddOut{Sum: in.A + in.B}, nil
			},
		}),
		registry.MustDefine(registry.TypedTool[struct{}, string]{
			Name: "deaf", Description: "Block until the test ends, whatever the context says.",
			Execute: func(context.Context, *registry.Invocation, struct{}) (string, error) {
				select {
				case started <- struct{}{}:
				default:
				}
				<-release
				return "late", nil
			},
		}),
	}
	if _, err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	installCodeMode(t, reg, jsruntime.Config{}, codemode.Options{DrainGrace: 50 * time.Millisecond})
	t.Cleanup(func() { close(release) })
	var mu sync.Mutex
	reports := map[string]mcpserve.RunReport{}
	cs := srvConnect(t, reg, mcpserve.ServerOptions{OnRun: func(r mcpserve.RunReport) {
		mu.Lock()
		defer mu.Unlock()
		reports[r.Description] = r
	}}, nil)
	call := func(description, code string) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code",
			Arguments: map[string]any{"description": description, "code": code}})
		if err != nil || res.IsError {
			t.Errorf("%s: %v %v", description, err, srvTexts(res))
		}
	}
	var wg sync.WaitGroup
	for _, c := range []struct{ description, code string }{
		{"three adds", `for (let i = 0; i < 3; i++) await tools.add({ a: i, b: 1 }); return 1`},
		{"five adds", `for (let i = 0; i < 5; i++) await tools.add({ a: i, b: 1 }); return 1`},
	} {
		wg.Go(func() { call(c.description, c.code) })
	}
	wg.Wait()
	call("one add, one abandoned", `await tools.add({ a: 1, b: 1 }); tools.deaf({}); await new Promise(r => setTimeout(r, 20)); return 1`)
	select {
	case <-started:
	default:
		t.Fatal("deaf never started")
	}
	// add waits behind deaf (neither is concurrency-safe): still queued when the run ends, it
	// never starts and is not counted.
	call("one abandoned, one never started", `tools.deaf({}); tools.add({ a: 1, b: 1 }); await new Promise(r => setTimeout(r, 20)); return 1`)
	mu.Lock()
	defer mu.Unlock()
	for description, want := range map[string]int{"three adds": 3, "five adds": 5, "one add, one abandoned": 2, "one abandoned, one never started": 1} {
		if got := reports[description].SubCalls; got != want {
			t.Errorf("%s: SubCalls %d, want %d", description, got, want)
		}
	}
}
