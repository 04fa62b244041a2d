package mcpserve_test

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/mcpserve"
)

// Serve over HTTP drains when its context ends: the run in flight finishes and is answered, a
// run that starts later is refused with ShuttingDown, the drain is reported, and Serve returns
// nil once the server is shut down.
func TestServeDrainsHTTPWhenItsContextEnds(t *testing.T) {
	f := newSrvFixture(t)
	gate := mcpserve.NewRunGate()
	srv, err := mcpserve.NewServer(f.reg, mcpserve.ServerOptions{Gate: gate})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := mcpserve.NewHTTPHandler(srv, mcpserve.HTTPOptions{Gate: gate})
	ctx, stop := context.WithCancel(context.Background())
	var mu sync.Mutex
	var notices []mcpserve.DrainNotice
	served := make(chan error, 1)
	go func() {
		served <- mcpserve.Serve(ctx, srv, mcpserve.ServeOptions{Listener: ln, HTTP: h, Gate: gate, DrainTimeout: 10 * time.Second,
			OnDrain: func(n mcpserve.DrainNotice) { mu.Lock(); notices = append(notices, n); mu.Unlock() }})
	}()
	// Without the standalone stream: the sessions' close at the end of the drain ends it, and
	// the SDK's client may fail the call for that before it reads the answer already written.
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String(), MaxRetries: -1,
		DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	answered := make(chan []string, 1)
	go func() {
		res, err := srvCallRunCode(context.Background(), cs, `return await tools.wait({ millis: 300 })`)
		if err != nil {
			answered <- []string{err.Error()}
			return
		}
		answered <- srvTexts(res)
	}()
	<-f.started
	stop()
	for !gate.Draining() {
		time.Sleep(time.Millisecond)
	}
	if res, err := srvCallRunCode(context.Background(), cs, `return 1`); err != nil || !strings.Contains(strings.Join(srvTexts(res), ""), mcpserve.ShuttingDown) {
		t.Errorf("a run during the drain: %v %+v", err, res)
	}
	if got := <-answered; strings.Join(got, "") != "waited" {
		t.Errorf("the run in flight answered %q", got)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the drain")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notices) != 1 || notices[0].Stage != mcpserve.DrainWaiting || notices[0].Running != 1 ||
		notices[0].String() != "shutting down: waiting up to 10s for 1 run(s) in flight" {
		t.Fatalf("notices %+v", notices)
	}
}

// Serve over stdio ends cleanly at the end of its input, and refuses options that name no
// transport or no gate.
func TestServeStdioEndsWithItsInput(t *testing.T) {
	f := newSrvFixture(t)
	gate := mcpserve.NewRunGate()
	srv, err := mcpserve.NewServer(f.reg, mcpserve.ServerOptions{Gate: gate})
	if err != nil {
		t.Fatal(err)
	}
	in := io.NopCloser(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"))
	var out strings.Builder
	err = mcpserve.Serve(context.Background(), srv, mcpserve.ServeOptions{Gate: gate, Stdio: &mcpserve.LineTransport{Reader: in, Writer: nopCloser{&out}}})
	if err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for _, opts := range []mcpserve.ServeOptions{{Gate: gate}, {Stdio: &mcpserve.LineTransport{}}} {
		if err := mcpserve.Serve(context.Background(), srv, opts); err == nil || errors.Is(err, mcpserve.ErrRunsAbandoned) {
			t.Errorf("Serve(%+v) = %v, want a usage error", opts, err)
		}
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
