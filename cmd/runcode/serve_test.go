package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedBuffer is a bytes.Buffer safe for a writer and a concurrent reader.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// checkServedTools lists the tools of cs (exactly run_code, describing read_file) and runs a
// program that reads notes.txt through read_file.
func checkServedTools(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "run_code" || !strings.Contains(list.Tools[0].Description, "read_file") {
		t.Fatalf("tools = %+v", list.Tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
		"description": "Read the notes",
		"code":        `const { content } = await tools.read_file({ path: "notes.txt" }); console.log("read"); return content.trim();`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("content = %+v", res.Content)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); res.IsError || !ok || tc.Text != "read\nalpha\nbeta" {
		t.Fatalf("result = %+v (isError %v)", res.Content[0], res.IsError)
	}
}

func TestServeStdio(t *testing.T) {
	t.Run("inprocess", func(t *testing.T) { testServeStdio(t, "--isolation", "inprocess") })
	// The default isolation of serve is process: this test binary is the worker (TestMain).
	t.Run("process", func(t *testing.T) { testServeStdio(t) })
}

// connectServeStdio runs `runcode serve --stdio` with args in-process and connects an MCP
// client to it (bounded by ctx). Closing the client ends serve's stdin; exit then receives
// serve's exit status.
func connectServeStdio(ctx context.Context, args ...string) (cs *mcp.ClientSession, exit <-chan int, stderr *lockedBuffer, err error) {
	return connectServeStdioWith(ctx, nil, args...)
}

// connectServeStdioWith is connectServeStdio with the client's options.
func connectServeStdioWith(ctx context.Context, copts *mcp.ClientOptions, args ...string) (cs *mcp.ClientSession, exit <-chan int, stderr *lockedBuffer, err error) {
	inR, inW := io.Pipe()   // client → serve's stdin
	outR, outW := io.Pipe() // serve's stdout → client
	stderr = &lockedBuffer{}
	exited := make(chan int, 1)
	go func() {
		code := run(context.Background(), append([]string{"serve", "--stdio"}, args...), inR, outW, stderr)
		outW.Close()
		exited <- code
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, copts)
	cs, err = client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	return cs, exited, stderr, err
}

func testServeStdio(t *testing.T, flags ...string) {
	dir := fixture(t, map[string]string{"notes.txt": "alpha\nbeta\n"})
	cs, exit, stderr, err := connectServeStdio(context.Background(), append([]string{"--workspace", dir}, flags...)...)
	if err != nil {
		t.Fatal(err)
	}
	checkServedTools(t, cs)
	// Closing the client closes its writer: serve sees the end of stdin and exits cleanly.
	cs.Close()
	select {
	case code := <-exit:
		if code != exitOK {
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after stdin closed")
	}
	if !strings.Contains(stderr.String(), "serving run_code") {
		t.Fatalf("stderr = %q", stderr.String())
	}
}

// A tool from an upstream MCP server that reports progress (server-everything's
// trigger-long-running-operation) has its progress passed on to a client that asked for progress
// on its run_code call: notifications on the client's token, the message naming the tool, the
// progress still increasing.
func TestServeForwardsUpstreamProgress(t *testing.T) {
	needMCP(t, "mcp-server-everything")
	for _, isolation := range []string{"inprocess", "process"} {
		t.Run(isolation, func(t *testing.T) {
			var mu sync.Mutex
			var got []*mcp.ProgressNotificationParams
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cs, exit, stderr, err := connectServeStdioWith(ctx, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					defer mu.Unlock()
					got = append(got, req.Params)
				},
			}, "--isolation", isolation, "--mcp", "mcp-server-everything")
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				cs.Close()
				<-exit
			}()
			params := &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
				"description": "a long operation",
				"code":        `return await tools["trigger-long-running-operation"]({ duration: 1, steps: 4 });`,
			}}
			params.SetProgressToken("run-1")
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				t.Fatalf("%v; stderr:\n%s", err, stderr.String())
			}
			if res.IsError {
				t.Fatalf("the run failed: %+v", res.Content)
			}
			step := regexp.MustCompile(`^trigger-long-running-operation: [1-4]/4$`)
			forwarded := func() (n int) {
				mu.Lock()
				defer mu.Unlock()
				for _, p := range got {
					if step.MatchString(p.Message) {
						n++
					}
				}
				return n
			}
			// Notifications precede the result on the wire; the handler may still run them.
			for deadline := time.Now().Add(2 * time.Second); forwarded() < 2 && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			n := forwarded()
			mu.Lock()
			defer mu.Unlock()
			if n < 2 {
				t.Fatalf("%d forwarded progress notifications, want at least 2 of the 4 steps: %+v", n, got)
			}
			for i, p := range got {
				t.Logf("progress %v: %q", p.Progress, p.Message)
				if p.ProgressToken != "run-1" {
					t.Errorf("notification %d has token %v", i, p.ProgressToken)
				}
				if i > 0 && p.Progress <= got[i-1].Progress {
					t.Errorf("progress does not increase: %v then %v", got[i-1].Progress, p.Progress)
				}
			}
		})
	}
}

func TestServeStdioStopsOnCancel(t *testing.T) {
	dir := fixture(t, map[string]string{"notes.txt": "alpha\n"})
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr lockedBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"serve", "--stdio", "--isolation", "inprocess", "--workspace", dir}, inR, io.Discard, &stderr)
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case code := <-exit:
		if code != exitOK {
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after cancellation")
	}
}

func TestServeHTTP(t *testing.T) {
	dir := fixture(t, map[string]string{"notes.txt": "alpha\nbeta\n"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"serve", "--http", "127.0.0.1:0", "--isolation", "inprocess", "--workspace", dir}, strings.NewReader(""), &stdout, &stderr)
	}()
	endpoint := waitForEndpoint(t, &stderr, exit)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkServedTools(t, cs)
	cs.Close()
	cancel()
	select {
	case code := <-exit:
		if code != exitOK {
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after cancellation")
	}
	if stdout.String() != "" {
		t.Fatalf("stdout = %q, want nothing", stdout.String())
	}
}

func TestServeNeedsExactlyOneTransport(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"serve", "--workspace", dir},
		{"serve", "--stdio", "--http", "127.0.0.1:0", "--workspace", dir},
		{"serve", "--stdio", "--workspace", dir, "extra"},
		{"serve", "--stdio", "--isolation", "thread", "--workspace", dir},
	} {
		code, stdout, stderr := invoke(t, "", args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "runcode: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// startServeHTTP runs `serve --http 127.0.0.1:0` in-process with extra args until the test
// ends, and returns its endpoint.
func startServeHTTP(t *testing.T, args ...string) string {
	t.Helper()
	endpoint, _, _, _ := startServeHTTPControlled(t, args...)
	return endpoint
}

// waitForEndpoint waits for serve --http to report its endpoint on stderr, failing the test when
// serve exits first or takes longer than 10s.
func waitForEndpoint(t *testing.T, stderr *lockedBuffer, exited <-chan int) string {
	t.Helper()
	addr := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/mcp)`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if m := addr.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		select {
		case code := <-exited:
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not report its address; stderr:\n%s", stderr.String())
		}
	}
}

// startServeHTTPControlled is startServeHTTP that also returns the function that stands for the
// first signal, the exit status channel and stderr.
func startServeHTTPControlled(t *testing.T, args ...string) (endpoint string, signal func(), exit <-chan int, stderr *lockedBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stderr = &lockedBuffer{}
	exited := make(chan int, 1)
	done := make(chan struct{})
	go func() {
		exited <- run(ctx, append([]string{"serve", "--http", "127.0.0.1:0", "--isolation", "inprocess"}, args...), strings.NewReader(""), io.Discard, stderr)
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("serve did not return after cancellation")
		}
	})
	return waitForEndpoint(t, stderr, exited), cancel, exited, stderr
}

// postInitialize sends an MCP initialize with the given Authorization header (none when empty)
// and returns the status and the new session's id.
func postInitialize(t *testing.T, endpoint, authorization string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("401 without WWW-Authenticate: Bearer: %q", resp.Header.Get("WWW-Authenticate"))
	}
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(body)
}

// --auth-token-file (or $RUNCODE_AUTH_TOKEN) makes /mcp need the bearer token; /healthz does not.
func TestServeHTTPAuthToken(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte("file-token\n"), 0o600)
	t.Setenv(authTokenEnv, "env-token")
	for _, c := range []struct {
		name  string
		args  []string
		token string
	}{
		{"file", []string{"--auth-token-file", tokenFile}, "file-token"}, // the file wins over the environment
		{"environment", nil, "env-token"},
	} {
		t.Run(c.name, func(t *testing.T) {
			endpoint := startServeHTTP(t, append(c.args, "--workspace", t.TempDir())...)
			for _, auth := range []string{"", "Bearer nope", "Bearer " + c.token + "x"} {
				if code, _, body := postInitialize(t, endpoint, auth); code != http.StatusUnauthorized {
					t.Errorf("Authorization %q: %d %q", auth, code, body)
				}
			}
			if code, id, body := postInitialize(t, endpoint, "Bearer "+c.token); code != http.StatusOK || id == "" {
				t.Fatalf("with the token: %d %q", code, body)
			}
			resp, err := http.Get(strings.TrimSuffix(endpoint, "/mcp") + "/healthz")
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("/healthz: %v %v", resp, err)
			}
			resp.Body.Close()
		})
	}
}

// Without a token, serve refuses an address that is not loopback (exit 2) before binding it.
func TestServeHTTPRefusesNonLoopbackWithoutToken(t *testing.T) {
	t.Setenv(authTokenEnv, "")
	dir := t.TempDir()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		code, stdout, stderr := invoke(t, "", "serve", "--http", addr, "--workspace", dir)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "refusing to serve "+addr+" without authentication") || !strings.Contains(stderr, "--auth-token-file") || !strings.Contains(stderr, "--insecure-no-auth") {
			t.Errorf("%s: exit %d, stderr %q", addr, code, stderr)
		}
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--http", "127.0.0.1:0", "--auth-token-file", empty}, "holds no token"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--auth-token-file", filepath.Join(dir, "missing")}, "--auth-token-file"},
		{[]string{"serve", "--stdio", "--max-sessions", "3"}, "--max-sessions applies to --http only"},
		{[]string{"serve", "--stdio", "--max-message", "10"}, "--max-message must be at least 1KiB"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--session-timeout", "-1s"}, "--session-timeout must not be negative"},
	} {
		code, _, stderr := invoke(t, "", append(c.args, "--workspace", dir)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
}

// --max-sessions: a new session over the cap ends the session idle the longest, whose id then
// gets 404 (idle sessions do not lock new clients out); --session-timeout ends idle sessions,
// whose ids get 404 too.
func TestServeHTTPSessionLimits(t *testing.T) {
	endpoint := startServeHTTP(t, "--max-sessions", "1", "--session-timeout", "500ms", "--workspace", t.TempDir())
	code, first, body := postInitialize(t, endpoint, "")
	if code != http.StatusOK || first == "" {
		t.Fatalf("first session: %d %q", code, body)
	}
	code, second, body := postInitialize(t, endpoint, "")
	if code != http.StatusOK || second == "" {
		t.Fatalf("second session at the cap: %d %q", code, body)
	}
	if got := postPing(t, endpoint, first); got != http.StatusNotFound {
		t.Fatalf("the evicted session: %d, want 404", got)
	}
	if got := postPing(t, endpoint, second); got != http.StatusOK {
		t.Fatalf("the new session: %d", got)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		got := postPing(t, endpoint, second)
		if got == http.StatusNotFound {
			break
		}
		if got != http.StatusOK || time.Now().After(deadline) {
			t.Fatalf("after the idle timeout: %d", got)
		}
		time.Sleep(time.Second) // idle for longer than the timeout
	}
}

// postPing sends a ping on a session and returns the status.
func postPing(t *testing.T, endpoint, session string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// postCall sends a run_code tools/call on a session and returns the whole response body.
func postCall(t *testing.T, endpoint, session string, id int, code string) string {
	args, _ := json.Marshal(map[string]any{"name": "run_code", "arguments": map[string]string{"description": "test", "code": code}})
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, args)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s %v", resp.StatusCode, body, err)
}

// The first signal drains HTTP too: a call in flight finishes and its answer arrives, a new
// call fails with a clear error, then serve exits 0.
func TestServeHTTPDrains(t *testing.T) {
	dir := t.TempDir()
	endpoint, signal, exit, stderr := startServeHTTPControlled(t, "--drain-timeout", "1m", "--workspace", dir)
	code, session, body := postInitialize(t, endpoint, "")
	if code != http.StatusOK {
		t.Fatalf("initialize: %d %s", code, body)
	}
	postInitialized(t, endpoint, session)
	inFlight := make(chan string, 1)
	go func() {
		inFlight <- postCall(t, endpoint, session, 2, workspaceMarker+`const t = Date.now(); while (Date.now() - t < 1500) {} return "done";`)
	}()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run did not start")
		}
	}
	signal()
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(stderr.String(), "shutting down"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no drain; stderr:\n%s", stderr.String())
		}
	}
	if late := postCall(t, endpoint, session, 3, "return 1"); !strings.HasPrefix(late, "200 ") || !strings.Contains(late, "shutting down") || !strings.Contains(late, `"isError":true`) {
		t.Fatalf("a call while draining: %s", late)
	}
	if got := <-inFlight; !strings.HasPrefix(got, "200 ") || !strings.Contains(got, `"text":"done"`) {
		t.Fatalf("the call in flight: %s", got)
	}
	select {
	case code := <-exit:
		if code != exitOK {
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not exit after draining; stderr:\n%s", stderr.String())
	}
}

// postInitialized completes the handshake of a session.
func postInitialized(t *testing.T, endpoint, session string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %s", resp.Status)
	}
}

// officialMCPSDK returns node and the directory of the official TypeScript MCP SDK package
// (@modelcontextprotocol/sdk), or skips the test (fails it when RUNCODE_REQUIRE_MCP_SDK is set).
// It looks at $RUNCODE_MCP_SDK (an npm prefix holding node_modules/@modelcontextprotocol/sdk, or
// the package directory), then at the global npm packages.
func officialMCPSDK(t *testing.T) (node, dir string) {
	t.Helper()
	missing := func(why string) {
		t.Helper()
		if os.Getenv("RUNCODE_REQUIRE_MCP_SDK") != "" {
			t.Fatalf("%s (RUNCODE_REQUIRE_MCP_SDK is set)", why)
		}
		t.Skip(why)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node not on PATH")
	}
	var candidates []string
	if d := os.Getenv("RUNCODE_MCP_SDK"); d != "" {
		candidates = append(candidates, filepath.Join(d, "node_modules", "@modelcontextprotocol", "sdk"), d)
	}
	if out, err := exec.Command("npm", "root", "-g").Output(); err == nil {
		candidates = append(candidates, filepath.Join(strings.TrimSpace(string(out)), "@modelcontextprotocol", "sdk"))
	}
	for _, c := range candidates {
		data, err := os.ReadFile(filepath.Join(c, "package.json"))
		var pkg struct{ Name string }
		if err == nil && json.Unmarshal(data, &pkg) == nil && pkg.Name == "@modelcontextprotocol/sdk" {
			return node, c
		}
	}
	missing("@modelcontextprotocol/sdk not found: npm i --prefix DIR @modelcontextprotocol/sdk and set RUNCODE_MCP_SDK=DIR (.ci/run does)")
	return "", ""
}

// The official TypeScript client, once its session ended (--session-timeout, or evicted at
// --max-sessions by a newer client), gets 404 "session not found" on every call and does not
// start a new session by itself; closing it and connecting it to a new transport (what
// docs/serving.md tells client code to do) starts a new session and the call succeeds.
func TestServeHTTPOfficialClientAfterSessionEnds(t *testing.T) {
	node, sdk := officialMCPSDK(t)
	for _, c := range []struct {
		name   string
		flags  []string
		waitMs string
	}{
		{"timeout", []string{"--session-timeout", "1s"}, "1500"},
		{"evicted", []string{"--max-sessions", "1"}, "0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			endpoint := startServeHTTP(t, append(c.flags, "--workspace", t.TempDir())...)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, node, filepath.Join("testdata", "tsclient.cjs"), sdk, endpoint, c.waitMs).CombinedOutput()
			if err != nil {
				t.Fatalf("the client: %v\n%s", err, out)
			}
			type step struct {
				Step string
				OK   bool
				Code int
				Text string
			}
			steps := map[string]step{}
			for line := range strings.Lines(string(out)) {
				var s step
				if err := json.Unmarshal([]byte(line), &s); err != nil {
					t.Fatalf("the client printed %q: %v\n%s", line, err, out)
				}
				steps[s.Step] = s
			}
			if s := steps["first"]; !s.OK || s.Text != "2" {
				t.Errorf("the first call: %+v", s)
			}
			for _, step := range []string{"stale", "again"} {
				if s := steps[step]; s.OK || s.Code != http.StatusNotFound {
					t.Errorf("the %s call on the ended session: %+v, want 404", step, s)
				}
			}
			if s := steps["recovered"]; !s.OK || s.Text != "8" {
				t.Errorf("the call after reconnecting: %+v\n%s", s, out)
			}
		})
	}
}
