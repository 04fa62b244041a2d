package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inBandManifest has stamp, which needs no approval and appends a line to stamps.log (it
// returns how many lines there are), and note, which needs approval and appends to notes.log.
const inBandManifest = `{"tools": [{
  "name": "stamp",
  "description": "Stamp once.",
  "parameters": {"type": "object", "properties": {}},
  "command": ["sh", "-c", "cat > /dev/null; echo stamp >> stamps.log; wc -l < stamps.log"]
}, {
  "name": "note",
  "description": "Append a note.",
  "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
  "command": ["sh", "-c", "cat >> notes.log; echo >> notes.log; echo '\"noted\"'"],
  "approval": "required"
}]}`

// inBandProgram makes a call that needs no approval, then one that does.
const inBandProgram = `const s = await tools.stamp({});
try {
  const n = await tools.note({ text: "hello" });
  return "stamp " + s + ", " + n;
} catch (e) {
  return "stamp " + s + ", denied: " + e.message;
}`

// splitFleet is two stateless replicas behind a proxy that sends a call carrying a requestState
// (a retry) to the replica that did not serve the first call: every retry lands on the other
// replica.
type splitFleet struct {
	replicas [2]*replica
	proxy    *httptest.Server
	mu       sync.Mutex
	served   []string // "first@N" or "retry@N", per tools/call
}

func startSplitFleet(t *testing.T, dir string, flags ...string) *splitFleet {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f := &splitFleet{}
	addr := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+)/mcp`)
	for i := range f.replicas {
		r := startReplica(t, i, exe, dir, flags)
		for deadline := time.Now().Add(60 * time.Second); r.target == nil; time.Sleep(10 * time.Millisecond) {
			if m := addr.FindStringSubmatch(r.stderr.String()); m != nil {
				r.target, _ = url.Parse(m[1])
			}
			if time.Now().After(deadline) {
				t.Fatalf("replica %d did not report its address; stderr:\n%s", i, r.stderr.String())
			}
		}
		f.replicas[i] = r
	}
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(pr.In.Context().Value(replicaKey{}).(*replica).target)
	}}
	f.proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		r := f.replicas[0]
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			kind := "first"
			if bytes.Contains(body, []byte(`"requestState"`)) {
				kind, r = "retry", f.replicas[1]
			}
			f.mu.Lock()
			f.served = append(f.served, kind+"@"+string(rune('0'+r.index)))
			f.mu.Unlock()
		}
		rp.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), replicaKey{}, r)))
	}))
	t.Cleanup(f.proxy.Close)
	return f
}

// connect returns a session of the Go SDK's client (protocol 2026-07-28: multi round-trip
// requests) that answers approval questions with answer; retries false disables the SDK's
// automatic retry, so the test sees the input_required result itself.
func (f *splitFleet) connect(t *testing.T, answer string, retries bool, asked *[]string) *mcp.ClientSession {
	t.Helper()
	var mu sync.Mutex
	client := mcp.NewClient(&mcp.Implementation{Name: "inband-test", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			*asked = append(*asked, req.Params.Message)
			mu.Unlock()
			return &mcp.ElicitResult{Action: answer, Content: map[string]any{}}, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: !retries},
	})
	transport := &http.Transport{}
	t.Cleanup(transport.CloseIdleConnections)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:   f.proxy.URL + httpPath,
		HTTPClient: &http.Client{Transport: bearerTransport{token: fleetToken, base: transport}},
		MaxRetries: -1,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func inBandDir(t *testing.T) (dir, manifest string) {
	t.Helper()
	dir = t.TempDir()
	manifest = filepath.Join(dir, "tools.json")
	if err := os.WriteFile(manifest, []byte(inBandManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, manifest
}

func lines(t *testing.T, path string, word string) int {
	t.Helper()
	data, _ := os.ReadFile(path)
	return strings.Count(string(data), word)
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// With a client on protocol 2026-07-28 (the Go SDK's, which retries input_required calls by
// itself), two --stateless replicas that share $RUNCODE_REQUEST_STATE_KEY approve in-band: the
// first replica stops the run at note and answers input_required with the question and a signed
// request state; the person accepts; the retry, on the other replica, replays stamp from the
// record (it does not run again) and runs note for real, once. A decline is denied as
// APPROVAL_DENIED, caught by the program.
func TestServeStatelessInBandApproval(t *testing.T) {
	for _, c := range []struct {
		answer, want string
		notes        int
	}{
		{"accept", "stamp 1, noted", 1},
		{"decline", `stamp 1, denied: the user declined tool "note"`, 0},
	} {
		t.Run(c.answer, func(t *testing.T) {
			dir, manifest := inBandDir(t)
			t.Setenv(requestStateKeyEnv, "a key shared by the replicas of this test")
			f := startSplitFleet(t, t.TempDir(), "--tools", manifest)
			var asked []string
			cs := f.connect(t, c.answer, true, &asked)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"description": "stamp and note", "code": inBandProgram}})
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(res); res.IsError || got != c.want {
				t.Fatalf("the run: isError %v, text %q, want %q", res.IsError, got, c.want)
			}
			if len(asked) != 1 || !strings.Contains(asked[0], `tool "note"`) || !strings.Contains(asked[0], `"text": "hello"`) || !strings.Contains(asked[0], "Program: stamp and note") {
				t.Errorf("the questions: %q", asked)
			}
			if got := strings.Join(f.served, " "); got != "first@0 retry@1" {
				t.Errorf("the calls were served as %q, want the retry on the other replica", got)
			}
			if n := lines(t, filepath.Join(dir, "stamps.log"), "stamp"); n != 1 {
				t.Errorf("stamp ran %d times, want once (replayed from the record on the retry)", n)
			}
			if n := lines(t, filepath.Join(dir, "notes.log"), "hello"); n != c.notes {
				t.Errorf("note ran %d times, want %d", n, c.notes)
			}
		})
	}
}

// A retry whose request state was changed is refused before any program runs, and so is one
// signed by a replica with another key (no shared $RUNCODE_REQUEST_STATE_KEY: each replica has
// a random key, and says so at start).
func TestServeStatelessInBandRefusesForeignState(t *testing.T) {
	for _, c := range []struct {
		name, key string
		tamper    bool
		want      string
	}{
		{"tampered", "a key shared by the replicas of this test", true, "its signature does not match, so it was changed after this server issued it"},
		{"no shared key", "", false, "issued by a server with another key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, manifest := inBandDir(t)
			t.Setenv(requestStateKeyEnv, c.key)
			f := startSplitFleet(t, t.TempDir(), "--tools", manifest)
			if c.key == "" && !strings.Contains(f.replicas[0].stderr.String(), "$"+requestStateKeyEnv+" is not set") {
				t.Errorf("a replica without a key did not warn; stderr:\n%s", f.replicas[0].stderr.String())
			}
			var asked []string
			cs := f.connect(t, "accept", false, &asked)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			params := &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"description": "stamp and note", "code": inBandProgram}}
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				t.Fatal(err)
			}
			if !res.NeedsInput() || res.RequestState == "" {
				t.Fatalf("the first call did not ask for input: %+v", res)
			}
			ask, ok := res.InputRequests["approval"].(*mcp.ElicitParams)
			if !ok || !strings.Contains(ask.Message, `tool "note"`) {
				t.Fatalf("the input requests: %+v", res.InputRequests)
			}
			state := res.RequestState
			if c.tamper { // the recorded result of stamp, 1, becomes 7
				payload, sig, _ := strings.Cut(state, ".")
				raw, err := base64.RawURLEncoding.DecodeString(payload)
				if err != nil {
					t.Fatal(err)
				}
				changed := bytes.Replace(raw, []byte(`"value":1`), []byte(`"value":7`), 1)
				if bytes.Equal(changed, raw) {
					t.Fatalf("no recorded value to change in %s", raw)
				}
				state = base64.RawURLEncoding.EncodeToString(changed) + "." + sig
			}
			retry := *params
			retry.RequestState = state
			retry.InputResponses = mcp.InputResponseMap{"approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}}
			res, err = cs.CallTool(ctx, &retry)
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(res); !res.IsError || !strings.Contains(got, "invalid requestState") || !strings.Contains(got, c.want) {
				t.Fatalf("the retry: isError %v, text %q, want a refusal with %q", res.IsError, got, c.want)
			}
			if n := lines(t, filepath.Join(dir, "notes.log"), "hello"); n != 0 {
				t.Errorf("note ran %d times on a refused retry", n)
			}
			if n := lines(t, filepath.Join(dir, "stamps.log"), "stamp"); n != 1 {
				t.Errorf("stamp ran %d times, want once (the refused retry runs nothing)", n)
			}
		})
	}
}

// A program whose calls change between the run the person answered and its replay cannot use
// the answer: here the note's text is random, so the retry asks for another call than the one
// approved. The retry fails saying so, and note never runs.
func TestServeStatelessInBandDivergedProgram(t *testing.T) {
	dir, manifest := inBandDir(t)
	t.Setenv(requestStateKeyEnv, "a key shared by the replicas of this test")
	f := startSplitFleet(t, t.TempDir(), "--tools", manifest)
	var asked []string
	cs := f.connect(t, "accept", true, &asked)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := `await tools.stamp({}); return await tools.note({ text: "hello " + Math.random() });`
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"description": "a random note", "code": code}})
	if err != nil {
		t.Fatal(err)
	}
	want := `the program diverged from the run the person answered: it asked to call tool "note" with arguments {"text":"hello 0.`
	if got := textOf(res); !res.IsError || !strings.Contains(got, want) {
		t.Fatalf("the run: isError %v, text %q, want %q", res.IsError, got, want)
	}
	if len(asked) != 1 {
		t.Errorf("asked %d times, want once", len(asked))
	}
	if n := lines(t, filepath.Join(dir, "notes.log"), "hello"); n != 0 {
		t.Errorf("note ran %d times", n)
	}
}

// stateCountingProgram counts its runs in state, then makes two calls that need approval (three
// rounds), and counts again after them.
const stateCountingProgram = `const n = ((await state.get("n")) ?? 0) + 1;
await state.set("n", n);
let a, b;
try { a = await tools.note({ text: "first" }); } catch (e) { a = e.code; }
try { b = await tools.note({ text: "second" }); } catch (e) { b = e.code; }
const after = ((await state.get("after")) ?? 0) + 1;
await state.set("after", after);
return n + " " + after + " " + a + " " + b;`

// Two --stateless replicas sharing --state DIR: a run that takes three rounds, each retry on the
// other replica, changes state as one run does — the counter before the approvals and the one
// after them both end at 1, whether the person accepts or declines — and a second run counts 2.
func TestServeStatelessInBandStateChangedOnce(t *testing.T) {
	for _, c := range []struct {
		answer, want string
		notes        int
	}{
		{"accept", `1 1 noted noted`, 2},
		{"decline", `1 1 APPROVAL_DENIED APPROVAL_DENIED`, 0},
	} {
		t.Run(c.answer, func(t *testing.T) {
			dir, manifest := inBandDir(t)
			t.Setenv(requestStateKeyEnv, "a key shared by the replicas of this test")
			f := startSplitFleet(t, t.TempDir(), "--tools", manifest, "--state", filepath.Join(t.TempDir(), "state"))
			var asked []string
			cs := f.connect(t, c.answer, true, &asked)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			call := &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"description": "count and note", "code": stateCountingProgram}}
			res, err := cs.CallTool(ctx, call)
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(res); res.IsError || got != c.want {
				t.Fatalf("the run: isError %v, text %q, want %q", res.IsError, got, c.want)
			}
			if got := strings.Join(f.served, " "); len(asked) != 2 || got != "first@0 retry@1 retry@1" {
				t.Errorf("asked %d times (want 2); the calls were served as %q", len(asked), got)
			}
			if n := lines(t, filepath.Join(dir, "notes.log"), "first") + lines(t, filepath.Join(dir, "notes.log"), "second"); n != c.notes {
				t.Errorf("note ran %d times, want %d", n, c.notes)
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"description": "read the counters", "code": `return [await state.get("n"), await state.get("after")];`}})
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(res); res.IsError || got != "[\n  1,\n  1\n]" && got != "[1,1]" {
				t.Errorf("state after one run of three rounds: isError %v, %q, want n and after 1", res.IsError, got)
			}
		})
	}
}
