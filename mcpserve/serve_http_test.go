package mcpserve_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/internal/leakcheck"
	"github.com/runcode-dev/runcode/mcpserve"
)

// serveHTTPHandler serves the fixture's run_code through NewHTTPHandler on loopback.
func serveHTTPHandler(t *testing.T, opts mcpserve.HTTPOptions) (*mcpserve.HTTPHandler, string) {
	t.Helper()
	return serveFixture(t, newSrvFixture(t), nil, opts)
}

// serveFixture serves f's run_code through NewHTTPHandler on loopback, its server and handler
// sharing gate (nil: none).
func serveFixture(t *testing.T, f *srvFixture, gate *mcpserve.RunGate, opts mcpserve.HTTPOptions) (*mcpserve.HTTPHandler, string) {
	t.Helper()
	srv, err := mcpserve.NewServer(f.reg, mcpserve.ServerOptions{Gate: gate})
	if err != nil {
		t.Fatal(err)
	}
	opts.Gate = gate
	h := mcpserve.NewHTTPHandler(srv, opts)
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		h.CloseSessions()
		hs.Close()
	})
	return h, hs.URL
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`

// post sends one MCP message; header adds or replaces request headers.
func post(t *testing.T, url, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(data)
}

// openSession initializes a session and returns its id.
func openSession(t *testing.T, url string, header map[string]string) string {
	t.Helper()
	resp, body := post(t, url, initializeBody, header)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %s %q", resp.Status, body)
	}
	return id
}

func sessionHeader(id string) map[string]string {
	return map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"}
}

func TestHTTPHandlerBearerToken(t *testing.T) {
	_, url := serveHTTPHandler(t, mcpserve.HTTPOptions{Token: "s3cret-token"})
	for _, auth := range []string{"", "Bearer wrong", "Bearer s3cret-toke", "Bearer s3cret-token-and-more", "Basic s3cret-token", "s3cret-token"} {
		resp, body := post(t, url, initializeBody, map[string]string{"Authorization": auth})
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") || !strings.Contains(body, "Bearer") {
			t.Errorf("Authorization %q: %s %q, WWW-Authenticate %q", auth, resp.Status, body, resp.Header.Get("WWW-Authenticate"))
		}
	}
	id := openSession(t, url, map[string]string{"Authorization": "Bearer s3cret-token"})
	// Every later request needs the token too, not just the one that opened the session.
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if resp, _ := post(t, url, list, sessionHeader(id)); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a session request without the token: %s", resp.Status)
	}
	h := sessionHeader(id)
	h["Authorization"] = "bearer s3cret-token" // the scheme is case-insensitive
	if resp, body := post(t, url, list, h); resp.StatusCode != http.StatusOK || !strings.Contains(body, "run_code") {
		t.Fatalf("tools/list with the token: %s %q", resp.Status, body)
	}

	// An SDK client that sends the token works end to end.
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{"s3cret-token"}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := srvCallRunCode(context.Background(), cs, `return (await tools.add({ a: 2, b: 3 })).sum`)
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "5" {
		t.Fatalf("run_code: %+v %v", res, err)
	}
}

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// A browser's cross-origin request is refused before the token is even looked at; so is a
// request for a non-loopback Host on a loopback listener (DNS rebinding). Same-origin and
// non-browser requests pass.
func TestHTTPHandlerRefusesCrossOriginRequests(t *testing.T) {
	_, url := serveHTTPHandler(t, mcpserve.HTTPOptions{})
	host := strings.TrimPrefix(url, "http://")
	for _, c := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"Sec-Fetch-Site cross-site", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"Sec-Fetch-Site same-site", map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"foreign Origin", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"foreign Host", map[string]string{"Host": "evil.example"}, http.StatusForbidden},
		{"same origin", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://" + host}, http.StatusOK},
		{"user-initiated", map[string]string{"Sec-Fetch-Site": "none"}, http.StatusOK},
		{"not a browser", nil, http.StatusOK},
	} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range c.header {
			if k == "Host" {
				req.Host = v
				continue
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: %s, want %d", c.name, resp.Status, c.want)
		}
	}
}

// Idle sessions end after SessionTimeout and are gone from the server (LiveSessions), so the
// memory of abandoned sessions is returned; a request with an expired id gets 404.
func TestHTTPHandlerExpiresIdleSessions(t *testing.T) {
	h, url := serveHTTPHandler(t, mcpserve.HTTPOptions{SessionTimeout: 500 * time.Millisecond})
	const n = 200
	ids := make([]string, n)
	for i := range ids {
		ids[i] = openSession(t, url, nil)
	}
	// (Early ones may have expired already on a slow machine.)
	if got := h.LiveSessions(); got < 1 || got > n {
		t.Fatalf("%d live sessions after opening %d", got, n)
	}
	// A session in use stays: requests restart its idle clock.
	kept := ids[n-1]
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	deadline := time.Now().Add(20 * time.Second)
	for h.LiveSessions() > 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions still live", h.LiveSessions())
		}
		if resp, _ := post(t, url, list, sessionHeader(kept)); resp.StatusCode != http.StatusOK {
			t.Fatalf("the session in use expired: %s", resp.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if resp, _ := post(t, url, list, sessionHeader(ids[0])); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("an expired session: %s, want 404", resp.Status)
	}
	for h.LiveSessions() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions still live", h.LiveSessions())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// connectHTTP connects the SDK's client to url; the session closes when the test ends.
func connectHTTP(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// runUntilAborted starts a run_code call on cs that waits until it is aborted and returns once
// the run is in flight; when the test ends, gate (the server's) aborts it.
func runUntilAborted(t *testing.T, f *srvFixture, gate *mcpserve.RunGate, cs *mcp.ClientSession) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		srvCallRunCode(context.Background(), cs, `return await tools.wait({ millis: 0 });`)
	}()
	t.Cleanup(func() {
		// (Its client never cancels the call; the gate's abort ends it.)
		expired, cancel := context.WithCancel(context.Background())
		cancel()
		gate.Drain(expired)
		<-done
	})
	select {
	case <-f.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not start")
	}
}

// At MaxSessions, a new session takes the place of the session idle the longest (whose id then
// gets 404, as after a timeout): idle sessions never lock new clients out. A session with a
// call in flight is never the one ended, however long ago it was opened.
func TestHTTPHandlerEvictsTheLongestIdleSession(t *testing.T) {
	f := newSrvFixture(t)
	gate := mcpserve.NewRunGate()
	h, url := serveFixture(t, f, gate, mcpserve.HTTPOptions{MaxSessions: 3})
	busy := connectHTTP(t, url)
	runUntilAborted(t, f, gate, busy)
	a, b := openSession(t, url, nil), openSession(t, url, nil)
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if resp, _ := post(t, url, list, sessionHeader(a)); resp.StatusCode != http.StatusOK {
		t.Fatalf("tools/list: %s", resp.Status)
	}
	// b is now the longest idle: busy is older but has a call in flight, a was used after b.
	c := openSession(t, url, nil)
	if resp, body := post(t, url, list, sessionHeader(b)); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("the evicted session: %s %q, want 404", resp.Status, body)
	}
	for _, id := range []string{a, c} {
		if resp, _ := post(t, url, list, sessionHeader(id)); resp.StatusCode != http.StatusOK {
			t.Fatalf("a session that was not evicted: %s", resp.Status)
		}
	}
	if got := h.LiveSessions(); got != 3 {
		t.Fatalf("%d live sessions, want 3", got)
	}
	// c was used after a: a goes next; the run in flight goes on.
	openSession(t, url, nil)
	if resp, _ := post(t, url, list, sessionHeader(a)); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("the second evicted session: %s, want 404", resp.Status)
	}
	if err := busy.Ping(t.Context(), nil); err != nil {
		t.Fatalf("the busy session: %v", err)
	}
}

// When every session has a call in flight, a new session over MaxSessions gets 503 with a
// message saying so.
func TestHTTPHandlerRefusesANewSessionWhenEveryOneIsBusy(t *testing.T) {
	f := newSrvFixture(t)
	gate := mcpserve.NewRunGate()
	h, url := serveFixture(t, f, gate, mcpserve.HTTPOptions{MaxSessions: 2})
	first, second := connectHTTP(t, url), connectHTTP(t, url)
	// A session just created counts once, not also as being created: the second did not
	// evict the first.
	if err := first.Ping(t.Context(), nil); err != nil {
		t.Fatalf("the first session: %v", err)
	}
	runUntilAborted(t, f, gate, first)
	runUntilAborted(t, f, gate, second)
	resp, body := post(t, url, initializeBody, nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "maximum of 2 live MCP sessions") || !strings.Contains(body, "in flight") {
		t.Fatalf("a session over the cap: %s %q", resp.Status, body)
	}
	if got := h.LiveSessions(); got != 2 {
		t.Fatalf("%d live sessions, want 2", got)
	}
}

// A request body over MaxMessageBytes gets 413; the default is far above the SDK's 4 MiB, so a
// large program arrives.
func TestHTTPHandlerMessageSize(t *testing.T) {
	_, url := serveHTTPHandler(t, mcpserve.HTTPOptions{MaxMessageBytes: 1 << 20})
	big := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"` + strings.Repeat("y", 2<<20) + `"}}`
	if resp, _ := post(t, url, big, nil); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 2 MiB body with a 1 MiB cap: %s", resp.Status)
	}
	_, url = serveHTTPHandler(t, mcpserve.HTTPOptions{})
	id := openSession(t, url, nil)
	code := `return "` + strings.Repeat("z", 6<<20) + `".length`
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_code","arguments":{"description":"big","code":` + `"` + strings.ReplaceAll(code, `"`, `\"`) + `"}}}`
	resp, body := post(t, url, call, sessionHeader(id))
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"text":"6291456"`) {
		t.Fatalf("a 6 MiB program: %s %.300q", resp.Status, body)
	}
}

// Over LineTransport, the SDK's server answers a bad line's error and a valid request on the
// same session; the end of the input ends the session, and cancelling ends it while its reader
// is blocked; neither leaves a goroutine behind.
func TestLineTransportServesAndEndsCleanly(t *testing.T) {
	leakcheck.Check(t)
	srv, err := mcpserve.NewServer(newSrvFixture(t).reg, mcpserve.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, end := range []string{"eof", "cancel"} {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.Run(ctx, &mcpserve.LineTransport{Reader: inR, Writer: outW}) }()
		lines := bufio.NewReader(outR)
		go io.WriteString(inW, "not json\n"+initializeBody+"\n")
		for _, want := range []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,`, `{"jsonrpc":"2.0","id":1,"result":{`} {
			line, err := lines.ReadString('\n')
			if err != nil || !strings.HasPrefix(line, want) {
				t.Fatalf("%s: got %q (%v), want %s…", end, line, err, want)
			}
		}
		if end == "eof" {
			inW.Close()
		} else {
			cancel()
		}
		select {
		case err := <-done:
			if end == "cancel" && !errors.Is(err, context.Canceled) {
				t.Fatalf("cancel: Run returned %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Run did not return", end)
		}
		cancel()
		inW.Close()
		outR.Close()
	}
}
