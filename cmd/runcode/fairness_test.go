package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// One session cannot keep the others waiting: with the one worker busy and two runs of session
// A queued, a run of session B queued after them gets the worker first (serve hands each MCP
// session to the pool as its fairness key).
func TestServeSharesWorkersFairlyAcrossSessions(t *testing.T) {
	dir := fixture(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var stderr lockedBuffer
	exited := make(chan int, 1)
	go func() {
		exited <- run(ctx, []string{"serve", "--http", "127.0.0.1:0", "--isolation", "process", "--workers", "1", "--max-queued", "8", "--timeout", "2m", "--workspace", dir}, strings.NewReader(""), io.Discard, &stderr)
	}()
	var wg sync.WaitGroup
	t.Cleanup(func() {
		os.WriteFile(filepath.Join(dir, "go"), nil, 0o644) // a run left waiting (the test failed) ends
		wg.Wait()
		cancel()
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			t.Error("serve did not return")
		}
	})
	endpoint := waitForEndpoint(t, &stderr, exited)
	base := strings.TrimSuffix(endpoint, "/mcp")
	a, b := connectClient(t, endpoint, ""), connectClient(t, endpoint, "")
	queued := func(n float64) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			_, metrics := getURL(t, base+"/metrics", "")
			if metricValue(t, metrics, "runcode_runs_queued") == n && metricValue(t, metrics, "runcode_workers_busy") == 1 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("never %v runs queued behind a busy worker:\n%s", n, metrics)
			}
		}
	}
	// Each run records its place in the order the runs got the worker: the number of runs that
	// got it before (runs on one worker come one after another).
	call := func(cs *mcp.ClientSession, name, code string) {
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
				"description": name,
				"code": `const { matches } = await tools.glob({ pattern: "start-*" }); ` +
					`await tools.write_file({ path: "start-` + name + `", content: String(matches.length) }); ` + code,
			}})
			if err != nil || res.IsError {
				t.Errorf("%s: %v %+v", name, err, res)
			}
		})
	}
	// a1 holds the worker, awaiting its tool calls, until the file "go" exists.
	call(a, "a1", `for (;;) { try { await tools.read_file({ path: "go" }); break; } catch { await new Promise((r) => setTimeout(r, 20)); } }`)
	queued(0)
	call(a, "a2", "")
	queued(1)
	call(a, "a3", "")
	queued(2)
	call(b, "b1", "")
	queued(3)
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	started := map[string]int64{}
	for _, name := range []string{"a1", "a2", "a3", "b1"} {
		data, err := os.ReadFile(filepath.Join(dir, "start-"+name))
		if err != nil {
			t.Fatal(err)
		}
		started[name], _ = strconv.ParseInt(string(data), 10, 64)
	}
	if started["a1"] != 0 || started["b1"] != 1 {
		t.Fatalf("the runs got the worker in the places %v; want a1 then b1, before a2 and a3", started)
	}
}
