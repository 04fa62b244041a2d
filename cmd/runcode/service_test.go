package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// getURL fetches url with an optional bearer token and returns the status and body.
func getURL(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// metricValue returns the value of one series in a Prometheus text exposition, given as it is
// printed (`name{label="v",…}`, labels in alphabetical order), failing the test when it is
// absent.
func metricValue(t *testing.T, exposition, series string) float64 {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(exposition))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if ok && name == series {
			v, err := strconv.ParseFloat(value, 64)
			if err != nil {
				t.Fatalf("%s: %v", sc.Text(), err)
			}
			return v
		}
	}
	t.Fatalf("no series %s in the metrics:\n%s", series, exposition)
	return 0
}

// connectClient connects the official SDK client to endpoint with an optional bearer token.
// The tests only make calls, so the client opens no standalone SSE stream: with retries off, a
// server that closes that stream as it shuts down would otherwise fail the session's pending
// call before its answer (sent on the call's own stream) is read.
func connectClient(t *testing.T, endpoint, token string) *mcp.ClientSession {
	t.Helper()
	var hc *http.Client
	if token != "" {
		hc = &http.Client{Transport: bearerTransport{token: token}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// bearerTransport adds a bearer token to every request, then sends it with base
// (http.DefaultTransport when nil).
type bearerTransport struct {
	token string
	base  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	if b.base == nil {
		return http.DefaultTransport.RoundTrip(r)
	}
	return b.base.RoundTrip(r)
}

func callRunCode(t *testing.T, cs *mcp.ClientSession, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// outcomeKind returns the error kind of a structuredContent, "" for a success.
func outcomeKind(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("structuredContent = %#v", res.StructuredContent)
	}
	e, _ := m["error"].(map[string]any)
	kind, _ := e["kind"].(string)
	return kind
}

// After known runs, /metrics reports them: runs by outcome, the duration histogram's count,
// sub-calls by tool and outcome, runs in flight and busy workers while a run goes on, and the
// pool's size; /metrics needs the token, /healthz and /readyz do not. The official SDK client
// reads each result's structuredContent, a worker-exit included.
func TestServeHTTPMetricsAfterKnownRuns(t *testing.T) {
	const token = "metrics-token"
	t.Setenv(authTokenEnv, token)
	dir := fixture(t, map[string]string{"notes.txt": "alpha\n"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr lockedBuffer
	exited := make(chan int, 1)
	go func() {
		exited <- run(ctx, []string{"serve", "--http", "127.0.0.1:0", "--isolation", "process", "--memory", "256MiB", "--workspace", dir}, strings.NewReader(""), io.Discard, &stderr)
	}()
	endpoint := waitForEndpoint(t, &stderr, exited)
	base := strings.TrimSuffix(endpoint, "/mcp")
	defer func() {
		cancel()
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			t.Error("serve did not return")
		}
	}()

	for _, path := range []string{"/healthz", "/readyz"} {
		if code, body := getURL(t, base+path, ""); code != http.StatusOK {
			t.Fatalf("%s without a token: %d %q", path, code, body)
		}
	}
	if code, _ := getURL(t, base+"/metrics", ""); code != http.StatusUnauthorized {
		t.Fatalf("/metrics without the token: %d", code)
	}
	if code, _ := getURL(t, base+"/metrics", "wrong"); code != http.StatusUnauthorized {
		t.Fatalf("/metrics with a wrong token: %d", code)
	}

	cs := connectClient(t, endpoint, token)
	read := `const { content } = await tools.read_file({ path: "notes.txt" }); return content.trim();`
	for range 2 {
		res := callRunCode(t, cs, map[string]any{"description": "Read the notes", "code": read})
		if res.IsError || outcomeKind(t, res) != "" || res.StructuredContent.(map[string]any)["result"] != "alpha" {
			t.Fatalf("read: %+v", res.StructuredContent)
		}
	}
	res := callRunCode(t, cs, map[string]any{"description": "Read a missing file", "code": `try { await tools.read_file({ path: "missing.txt" }); } catch {} throw new Error("boom");`})
	if kind := outcomeKind(t, res); kind != "exception" {
		t.Fatalf("exception run: kind %q", kind)
	}
	res = callRunCode(t, cs, map[string]any{"code": "return 1"})
	if kind := outcomeKind(t, res); kind != "invalid-arguments" {
		t.Fatalf("call without a description: kind %q", kind)
	}
	res = callRunCode(t, cs, map[string]any{"description": "Exhaust memory", "code": `console.log("before"); let s = "x"; for (;;) s += s;`})
	if kind := outcomeKind(t, res); kind != "worker-exit" && kind != "exception" {
		// The worker dies at its OS limit (worker-exit) or its heap watchdog fails the run
		// first (exception: out of memory); either way the outcome is structured.
		t.Fatalf("memory bomb: kind %q, %+v", kind, res.StructuredContent)
	}
	bombKind := outcomeKind(t, res)
	t.Logf("memory bomb: %s", bombKind)

	// A run in flight shows in the gauges.
	inFlight := make(chan *mcp.CallToolResult, 1)
	go func() {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
			"description": "Wait", "code": workspaceMarker + `const t = Date.now(); while (Date.now() - t < 1500) {} return "done";`}})
		if err != nil {
			t.Error(err)
		}
		inFlight <- r
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run did not start")
		}
	}
	_, metrics := getURL(t, base+"/metrics", token)
	if v := metricValue(t, metrics, "runcode_runs_in_flight"); v != 1 {
		t.Errorf("runs in flight during a run = %v", v)
	}
	if v := metricValue(t, metrics, "runcode_workers_busy"); v != 1 {
		t.Errorf("busy workers during a run = %v", v)
	}
	if r := <-inFlight; r == nil || r.IsError {
		t.Fatalf("the run in flight: %+v", r)
	}

	code, metrics := getURL(t, base+"/metrics", token)
	if code != http.StatusOK {
		t.Fatalf("/metrics with the token: %d", code)
	}
	for series, want := range map[string]float64{
		`runcode_runs_total{outcome="ok"}`:                         3,
		`runcode_runs_total{outcome="exception"}`:                  1 + b2f(bombKind == "exception"),
		`runcode_runs_total{outcome="worker-exit"}`:                b2f(bombKind == "worker-exit"),
		`runcode_runs_total{outcome="invalid-arguments"}`:          1,
		`runcode_runs_total{outcome="timeout"}`:                    0,
		`runcode_run_duration_seconds_count`:                       6,
		`runcode_subcalls_total{outcome="ok",tool="read_file"}`:    2,
		`runcode_subcalls_total{outcome="error",tool="read_file"}`: 1,
		`runcode_subcalls_total{outcome="ok",tool="write_file"}`:   1,
		`runcode_runs_in_flight`:                                   0,
		`runcode_workers`:                                          2,
		`runcode_workers_busy`:                                     0,
		`runcode_run_duration_seconds_bucket{le="+Inf"}`:           6,
	} {
		if got := metricValue(t, metrics, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
	if !strings.Contains(metrics, "# TYPE runcode_run_duration_seconds histogram") || !strings.Contains(metrics, "go_goroutines") {
		t.Errorf("metrics:\n%s", metrics)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Every call is logged with its id, description, outcome, duration and sub-call count, and never
// its code or result unless --log-programs is given; --log-format json makes every stderr line
// a JSON object, the lifecycle messages too.
func TestServeLogsEveryRun(t *testing.T) {
	const secretCode, secretResult = "CODE-SECRET-7731", "RESULT-SECRET-4409"
	program := `const { content } = await tools.read_file({ path: "notes.txt" }); console.log("LOG-SECRET-" + "1234"); const marker = "` + secretCode + `"; return "RESULT-" + "SECRET-4409";`
	for _, c := range []struct {
		name     string
		args     []string
		programs bool
	}{
		{"text", nil, false},
		{"json", []string{"--log-format", "json"}, false},
		{"json with programs", []string{"--log-format", "json", "--log-programs"}, true},
		{"text with programs", []string{"--log-programs"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := fixture(t, map[string]string{"notes.txt": "alpha\n"})
			endpoint, signal, exit, stderr := startServeHTTPControlled(t, append(c.args, "--workspace", dir)...)
			cs := connectClient(t, endpoint, "")
			res := callRunCode(t, cs, map[string]any{"description": "Read the notes", "code": program})
			if res.IsError {
				t.Fatalf("run: %+v", res.Content)
			}
			callRunCode(t, cs, map[string]any{"description": "Fail on purpose", "code": `throw new Error("` + secretResult + `")`})
			cs.Close()
			signal()
			<-exit
			logs := stderr.String()
			for _, secret := range []string{secretCode, secretResult, "LOG-SECRET-1234"} {
				if strings.Contains(logs, secret) != c.programs {
					t.Errorf("%s in the logs: %v, want %v; logs:\n%s", secret, !c.programs, c.programs, logs)
				}
			}
			if !strings.Contains(c.name, "json") {
				for _, want := range []string{`msg=run_code call_id=mcp-1 description="Read the notes" outcome=ok duration_ms=`, ` sub_calls=1`, `call_id=mcp-2 description="Fail on purpose" outcome=exception`} {
					if !strings.Contains(logs, want) {
						t.Errorf("no %q in the logs:\n%s", want, logs)
					}
				}
				return
			}
			var runs []map[string]any
			for line := range strings.Lines(logs) {
				var rec map[string]any
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("a stderr line that is not JSON: %q", line)
				}
				if rec["msg"] == "run_code" {
					runs = append(runs, rec)
				}
			}
			if len(runs) != 2 {
				t.Fatalf("run records: %v; logs:\n%s", runs, logs)
			}
			r := runs[0]
			if r["call_id"] != "mcp-1" || r["description"] != "Read the notes" || r["outcome"] != "ok" || r["sub_calls"] != 1.0 || r["level"] != "INFO" {
				t.Fatalf("record: %v", r)
			}
			if d, ok := r["duration_ms"].(float64); !ok || d <= 0 {
				t.Fatalf("duration_ms: %v", r["duration_ms"])
			}
			if runs[1]["outcome"] != "exception" || runs[1]["sub_calls"] != 0.0 {
				t.Fatalf("second record: %v", runs[1])
			}
			if c.programs {
				result, _ := r["result"].(map[string]any)
				if r["program"] != program || result["result"] != secretResult {
					t.Fatalf("record with --log-programs: %v", r)
				}
			}
		})
	}
}

// startServeProcess starts `runcode serve --http 127.0.0.1:0` as a real process with args and
// returns it and its base URL.
func startServeProcess(t *testing.T, args ...string) (*cliProcess, string) {
	t.Helper()
	p := startCLI(t, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	return p, waitForServeAddress(t, p)
}

// SIGTERM to a real `serve --http` process: /readyz turns 503 at once, a new call is refused
// with kind shutting-down, and the run in flight either finishes inside --drain-timeout (its
// result delivered) or is aborted when the window ends (kind abort, with its logs); either way
// serve then exits 0.
func TestServeHTTPProcessDrainsOnSIGTERM(t *testing.T) {
	for _, c := range []struct {
		name, drain, code string
		want              map[string]any
	}{
		{"finishes inside the window", "1m", `const t = Date.now(); while (Date.now() - t < 2000) {} return "done";`,
			map[string]any{"logs": []any{"before"}, "result": "done"}},
		{"aborted after the window", "700ms", `for (;;) {}`,
			map[string]any{"logs": []any{"before"}, "error": map[string]any{"kind": "abort", "message": "the server shut down before the run finished"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p, base := startServeProcess(t, "--workspace", dir, "--cpu", "10m", "--timeout", "10m", "--drain-timeout", c.drain)
			cs := connectClient(t, base+"/mcp", "")
			inFlight := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
					"description": "Run until drained", "code": `console.log("before"); ` + workspaceMarker + c.code}})
				if err != nil {
					t.Error(err)
				}
				inFlight <- res
			}()
			waitForFile(t, filepath.Join(dir, "started"), p)
			if code, _ := getURL(t, base+"/readyz", ""); code != http.StatusOK {
				t.Fatalf("/readyz before the signal: %d", code)
			}
			signalled := time.Now()
			p.signal(syscall.SIGTERM)
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				code, body := getURL(t, base+"/readyz", "")
				if code == http.StatusServiceUnavailable && strings.Contains(body, "draining") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("/readyz during the drain: %d %q", code, body)
				}
			}
			if code, _ := getURL(t, base+"/healthz", ""); code != http.StatusOK {
				t.Fatalf("/healthz during the drain: %d", code)
			}
			refused := callRunCode(t, cs, map[string]any{"description": "Too late", "code": "return 1"})
			if kind := outcomeKind(t, refused); !refused.IsError || kind != "shutting-down" {
				t.Fatalf("a call during the drain: %+v", refused.StructuredContent)
			}
			var res *mcp.CallToolResult
			select {
			case res = <-inFlight:
			case <-time.After(60 * time.Second):
				t.Fatalf("the run in flight got no answer; stderr:\n%s", p.stderr.String())
			}
			if res == nil || !reflect.DeepEqual(res.StructuredContent, c.want) {
				t.Fatalf("the run in flight: %+v", res)
			}
			if _, failed := c.want["error"]; res.IsError != failed {
				t.Fatalf("isError = %v", res.IsError)
			}
			if code := p.wait(30 * time.Second); code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
			}
			took := time.Since(signalled)
			if drain, _ := time.ParseDuration(c.drain); c.want["error"] != nil && took < drain {
				t.Fatalf("serve exited %s after the signal, inside the drain window %s", took, drain)
			}
			t.Logf("exited %s after SIGTERM", took)
		})
	}
}
