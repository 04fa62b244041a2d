package mcpserve_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/mcpserve"
)

// A Go SDK client over streamable HTTP that cancels its run_code call stops the run on the
// server at once (its sub-call's context ends), and the session serves the next call: with
// sessions by the client's notifications/cancelled, without (Stateless) by the end of the POST
// that carried the call (before, a stateless run went on until its timeout).
func TestHTTPClientCancellationStopsTheRun(t *testing.T) {
	for _, opts := range []mcpserve.HTTPOptions{{}, {MaxSessions: 3}, {Stateless: true}} {
		name := fmt.Sprintf("%+v", opts)
		f := newSrvFixture(t)
		gate := mcpserve.NewRunGate()
		_, url := serveFixture(t, f, gate, opts)
		t.Cleanup(func() { // a run left going (the test failed) ends before the server closes
			expired, cancel := context.WithCancel(context.Background())
			cancel()
			gate.Drain(expired)
		})
		cs := connectHTTP(t, url)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := srvCallRunCode(ctx, cs, `return await tools.wait({ millis: 0 });`)
			done <- err
		}()
		select {
		case <-f.started:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the wait tool never started", name)
		}
		start := time.Now()
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: CallTool err = %v, want context.Canceled", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: CallTool did not return after cancellation", name)
		}
		select {
		case err := <-f.stopped:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: the tool's ctx ended with %v", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the running sub-call was not cancelled", name)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%s: cancellation took %s", name, d)
		}
		res, err := srvCallRunCode(context.Background(), cs, `return (await tools.add({ a: 1, b: 2 })).sum;`)
		if err != nil || res.IsError || strings.Join(srvTexts(res), "") != "3" {
			t.Fatalf("%s: call after cancellation = %v, %v", name, res, err)
		}
	}
}
