package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/jsruntime"
)

// sleepTwoManifest is a manifest tool that sleeps for 2 s: a tool a program awaits without using CPU.
const sleepTwoManifest = `{"tools": [{"name": "nap", "description": "Sleep for two seconds.",
  "output": {"type": "string"}, "concurrencySafe": true, "timeout": "30s",
  "command": ["sh", "-c", "sleep 2; echo '\"rested\"'"]}]}`

// Sixteen clients whose programs each await a tool that sleeps 2 s all finish within 4.5 s
// under the default process isolation: a run waiting on a tool holds a worker but no CPU, and
// the pool grows to --workers. (With the fixed pool of two workers the same took 17 s.)
func TestServeRunsWaitingOnToolsInParallel(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(manifest, []byte(sleepTwoManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	const clients = 16
	args := []string{"--tools", manifest}
	if jsruntime.DefaultMaxWorkers(defaultMemory) < clients {
		args = append(args, "--workers", "16") // a machine smaller than the one the default targets
	}
	base := startTimedServe(t, args...)
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = connectClient(t, base+"/mcp", "")
	}
	// A replica in service has its workers started: start them all at once first, so that what
	// is timed is how runs waiting on tools share the pool, not how fast processes start.
	var warm sync.WaitGroup
	for _, cs := range sessions {
		warm.Go(func() {
			callRunCode(t, cs, map[string]any{"code": `return 1`, "description": "warm up"})
		})
	}
	warm.Wait()
	// One warm-up call per session so that the timing below is the runs', not the sessions'.
	start := time.Now()
	var wg sync.WaitGroup
	elapsed := make([]time.Duration, clients)
	for i, cs := range sessions {
		wg.Go(func() {
			res := callRunCode(t, cs, map[string]any{"code": `return await tools.nap({})`, "description": "nap"})
			if res.IsError || outcomeKind(t, res) != "" {
				t.Errorf("client %d: %s", i, textOfResult(res))
			}
			elapsed[i] = time.Since(start)
		})
	}
	wg.Wait()
	sort.Slice(elapsed, func(a, b int) bool { return elapsed[a] < elapsed[b] })
	t.Logf("16 runs awaiting a 2 s tool finished after %v … %v", elapsed[0], elapsed[clients-1])
	if last := elapsed[clients-1]; last > 4500*time.Millisecond {
		t.Fatalf("the last of 16 runs awaiting a 2 s tool finished after %v, want ≤ 4.5 s (all: %v)", last, elapsed)
	}
}

// While 64 clients run trivial programs at once, /healthz keeps answering promptly: the
// server's own endpoints do not queue behind the runs.
func TestServeHealthzAnswersUnderLoad(t *testing.T) {
	base := startTimedServe(t, "--workspace", t.TempDir())
	const clients = 64
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = connectClient(t, base+"/mcp", "")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for _, cs := range sessions {
		wg.Go(func() {
			for ctx.Err() == nil {
				_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"code": `let s = 0; for (let i = 0; i < 1e5; i++) s += i; return s`, "description": "sum"}})
			}
		})
	}
	time.Sleep(500 * time.Millisecond) // the load is on
	var worst time.Duration
	for range 20 {
		t0 := time.Now()
		resp, err := http.Get(base + "/healthz")
		d := time.Since(t0)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("/healthz under load: %v %v", resp, err)
		}
		resp.Body.Close()
		worst = max(worst, d)
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	const limit = 100 * time.Millisecond
	t.Logf("/healthz under 64 clients: worst of 20 answers %v", worst)
	if worst > limit {
		t.Fatalf("/healthz took up to %v under 64 concurrent runs, want ≤ %v", worst, limit)
	}
}

// textOfResult is the text of a tool result's content.
func textOfResult(res *mcp.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			s += tc.Text
		}
	}
	return s
}

// startTimedServe starts `runcode serve --http 127.0.0.1:0` with args as a real process for a
// test that times it, and returns its base URL. Under -race (the README's test command) it
// serves from a CLI built without the race detector, which slows a server and its workers
// several times over: the times checked are the CLI's, as users run it.
func startTimedServe(t *testing.T, args ...string) string {
	t.Helper()
	if !raceBuild {
		_, base := startServeProcess(t, args...)
		return base
	}
	exe := filepath.Join(t.TempDir(), "runcode")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	p := startExecutable(t, exe, os.Environ(), append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	return waitForServeAddress(t, p)
}
