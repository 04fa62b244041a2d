package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Go SDK client that cancels its run_code call over HTTP frees the run's worker at once, with
// sessions and with --stateless (where the run used to go on to its --timeout): /metrics shows
// no run in flight and no busy worker within seconds, and the next call runs.
func TestServeHTTPClientCancellationFreesTheWorker(t *testing.T) {
	for _, mode := range [][]string{nil, {"--stateless"}} {
		dir := fixture(t, nil)
		ctx, cancel := context.WithCancel(context.Background())
		var stderr lockedBuffer
		exited := make(chan int, 1)
		args := append([]string{"serve", "--http", "127.0.0.1:0", "--isolation", "process", "--timeout", "5m", "--workspace", dir}, mode...)
		go func() { exited <- run(ctx, args, strings.NewReader(""), io.Discard, &stderr) }()
		t.Cleanup(func() {
			cancel()
			select {
			case <-exited:
			case <-time.After(20 * time.Second):
				t.Errorf("%v: serve did not return", mode)
			}
		})
		endpoint := waitForEndpoint(t, &stderr, exited)
		base := strings.TrimSuffix(endpoint, "/mcp")
		cs := connectClient(t, endpoint, "")

		callCtx, cancelCall := context.WithCancel(context.Background())
		called := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
				"description": "Spin", "code": workspaceMarker + `for (;;) {}`}})
			called <- err
		}()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%v: the run did not start", mode)
			}
		}
		cancelCall()
		if err := <-called; !errors.Is(err, context.Canceled) {
			t.Fatalf("%v: CallTool returned %v, want context.Canceled", mode, err)
		}
		start := time.Now()
		for {
			_, metrics := getURL(t, base+"/metrics", "")
			if metricValue(t, metrics, "runcode_runs_in_flight") == 0 && metricValue(t, metrics, "runcode_workers_busy") == 0 {
				break
			}
			if time.Since(start) > 10*time.Second {
				t.Fatalf("%v: 10s after the client cancelled, the run still holds its worker:\n%s", mode, metrics)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("%v: worker freed %s after the cancellation", mode, time.Since(start).Round(time.Millisecond))
		res := callRunCode(t, cs, map[string]any{"description": "After", "code": "return 1 + 1"})
		if res.IsError {
			t.Fatalf("%v: the call after the cancellation failed: %+v", mode, res)
		}
		cs.Close()
	}
}
