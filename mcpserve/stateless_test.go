package mcpserve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/mcpserve"
)

// callBody is a run_code tools/call request.
func callBody(id int, code string) string {
	args, _ := json.Marshal(map[string]any{"name": "run_code", "arguments": map[string]string{"description": "test", "code": code}})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, args)
}

// A stateless handler keeps no session: a call needs no initialize before it, no response names
// a session, concurrent clients are not held to MaxSessions, nothing is left once they are
// answered, and GET (the standalone stream, which needs a session) is 405. Cross-origin
// protection and MaxMessageBytes apply as with sessions.
func TestStatelessHandlerKeepsNoSessions(t *testing.T) {
	f := newSrvFixture(t)
	h, url := serveFixture(t, f, mcpserve.NewRunGate(), mcpserve.HTTPOptions{Stateless: true, MaxSessions: 1, SessionTimeout: time.Millisecond, MaxMessageBytes: 4096})

	resp, body := post(t, url, callBody(7, `return (await tools.add({ a: 2, b: 3 })).sum`), map[string]string{"Mcp-Protocol-Version": "2025-06-18"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") != "" || !strings.Contains(body, `"text":"5"`) {
		t.Fatalf("a call without initialize: %s (session %q) %q", resp.Status, resp.Header.Get("Mcp-Session-Id"), body)
	}
	if resp, body := post(t, url, initializeBody, nil); resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("initialize: %s (session %q) %q", resp.Status, resp.Header.Get("Mcp-Session-Id"), body)
	}

	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for i := range 3 {
		wg.Go(func() {
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
			if err != nil {
				errs <- err
				return
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
				"description": "add", "code": fmt.Sprintf(`return (await tools.add({ a: %d, b: 1 })).sum`, i),
			}})
			if err != nil {
				errs <- err
				return
			}
			if tc, ok := res.Content[0].(*mcp.TextContent); res.IsError || !ok || tc.Text != fmt.Sprint(i+1) {
				errs <- fmt.Errorf("client %d: %+v", i, res.Content[0])
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Each request's session ends as its handler returns, just after the answer is written.
	for deadline := time.Now().Add(10 * time.Second); h.LiveSessions() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions live 10s after every request was answered", h.LiveSessions())
		}
	}

	// Cross-origin protection and the message cap hold as with sessions.
	if resp, body := post(t, url, callBody(8, `return 1`), map[string]string{"Sec-Fetch-Site": "cross-site"}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a cross-origin request: %s %q, want 403", resp.Status, body)
	}
	if resp, body := post(t, url, callBody(9, "return 1 // "+strings.Repeat("x", 4096)), nil); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a request over MaxMessageBytes: %s %q, want 413", resp.Status, body)
	}

	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	get, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	get.Body.Close()
	if get.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %s, want 405", get.Status)
	}
}

// Once the gate drains, a stateless handler answers every request 503 with Retry-After and
// closes the connection, while the run in flight finishes and is answered; a stateful handler
// goes on answering (its sessions live on this server), and run_code refuses with
// ShuttingDown.
func TestStatelessHandlerRefusesWhileDraining(t *testing.T) {
	f := newSrvFixture(t)
	gate := mcpserve.NewRunGate()
	_, url := serveFixture(t, f, gate, mcpserve.HTTPOptions{Stateless: true, Token: "tok"})
	auth := map[string]string{"Authorization": "Bearer tok", "Mcp-Protocol-Version": "2025-06-18"}

	inFlight := make(chan string, 1)
	go func() {
		_, body := post(t, url, callBody(1, `return await tools.wait({ millis: 300 })`), auth)
		inFlight <- body
	}()
	<-f.started
	drained := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		drained <- gate.Drain(ctx)
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		resp, body := post(t, url, callBody(2, `return 1`), auth)
		if resp.StatusCode == http.StatusServiceUnavailable {
			if body != mcpserve.StatelessDraining+"\n" || resp.Header.Get("Retry-After") != "1" || !resp.Close {
				t.Errorf("503: body %q, Retry-After %q, closes the connection: %v", body, resp.Header.Get("Retry-After"), resp.Close)
			}
			break
		}
		// Until Drain has closed the gate, the call runs.
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"text":"1"`) || time.Now().After(deadline) {
			t.Fatalf("a call before the drain: %s %q", resp.Status, body)
		}
	}
	if resp, body := post(t, url, callBody(3, `return 1`), map[string]string{"Mcp-Protocol-Version": "2025-06-18"}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token while draining: %s %q, want 401 first", resp.Status, body)
	}
	if body := <-inFlight; !strings.Contains(body, `"text":"waited"`) || strings.Contains(body, `"isError":true`) {
		t.Fatalf("the call in flight: %q", body)
	}
	if err := <-drained; err != nil {
		t.Fatalf("Drain: %v", err)
	}

	stateful := newSrvFixture(t)
	statefulGate := mcpserve.NewRunGate()
	_, statefulURL := serveFixture(t, stateful, statefulGate, mcpserve.HTTPOptions{})
	session := openSession(t, statefulURL, nil)
	if err := statefulGate.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	resp, body := post(t, statefulURL, callBody(2, `return 1`), sessionHeader(session))
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "shutting down") || !strings.Contains(body, `"isError":true`) {
		t.Fatalf("stateful, draining: %s %q", resp.Status, body)
	}
}
