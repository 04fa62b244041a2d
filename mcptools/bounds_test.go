package mcptools_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

// TestMain runs the test binary as one of the tests' MCP servers when asked to: bigServer's,
// or the environment server of childenv_test.go.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == envServerArg {
		os.Exit(serveEnvironment())
	}
	if os.Getenv(bigServerEnv) == "1" {
		if err := runBigServer(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const bigServerEnv = "RUNCODE_TEST_BIG_SERVER"

// bigServer returns a Source running this test binary as an MCP server over stdio whose tool
// "big" answers with a text of the given number of bytes, its response's id first or (as the
// TypeScript SDK writes it) last, and whose tool "noisy" writes stray output, a notification
// of the given size and a line that is not a message before its answer. "small" answers "ok".
func bigServer(t *testing.T) mcptools.Source {
	t.Helper()
	return mcptools.Source{Command: []string{os.Args[0]}, HostEnv: map[string]string{bigServerEnv: "1"}, Name: "big"}
}

// runBigServer is bigServer's MCP server.
func runBigServer(in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	send := func(parts ...string) error {
		for _, p := range parts {
			w.WriteString(p)
		}
		w.WriteByte('\n')
		return w.Flush()
	}
	lines := bufio.NewScanner(in)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
				Arguments       struct {
					Bytes   int  `json:"bytes"`
					IDFirst bool `json:"idFirst"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			return err
		}
		id, args := string(m.ID), m.Params.Arguments
		var err error
		switch {
		case m.ID == nil: // a notification
		case m.Method == "initialize":
			err = send(`{"jsonrpc":"2.0","id":`, id, `,"result":{"protocolVersion":"`, m.Params.ProtocolVersion,
				`","capabilities":{"tools":{}},"serverInfo":{"name":"big","version":"1"}}}`)
		case m.Method == "tools/list":
			err = send(`{"jsonrpc":"2.0","id":`, id, `,"result":{"tools":[{"name":"big","inputSchema":{"type":"object"}},`,
				`{"name":"noisy","inputSchema":{"type":"object"}},{"name":"small","inputSchema":{"type":"object"}}]}}`)
		case m.Method == "tools/call" && m.Params.Name == "big":
			result := `{"content":[{"type":"text","text":"` + strings.Repeat("x", args.Bytes) + `"}]}`
			if args.IDFirst {
				err = send(`{"jsonrpc":"2.0","id":`, id, `,"result":`, result, `}`)
			} else {
				err = send(`{"result":`, result, `,"jsonrpc":"2.0","id":`, id, `}`)
			}
		case m.Method == "tools/call" && m.Params.Name == "noisy":
			err = errors.Join(send("starting up..."),
				send(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`, strings.Repeat("y", args.Bytes), `"}}`),
				send(`{"jsonrpc":"2.0","id":`, id, `,"result":{"content":[{"type":"text","text":"noisy ok"}]}}`))
		case m.Method == "tools/call":
			err = send(`{"jsonrpc":"2.0","id":`, id, `,"result":{"content":[{"type":"text","text":"ok"}]}}`)
		default:
			err = send(`{"jsonrpc":"2.0","id":`, id, `,"error":{"code":-32601,"message":"no such method"}}`)
		}
		if err != nil {
			return err
		}
	}
	return lines.Err()
}

// wantOK checks that res succeeded with a string value of n bytes, or equal to text.
func wantOK(t *testing.T, what string, res registry.Result, text string, n int) {
	t.Helper()
	if res.IsError {
		t.Fatalf("%s: failed: %v", what, res.Err)
	}
	got := res.Value.AsString()
	if (text != "" && got != text) || (text == "" && len(got) != n) {
		t.Fatalf("%s: value of %d bytes %.40q", what, len(got), got)
	}
}

// wantTooLarge checks that res failed with MessageTooLargeError naming limit.
func wantTooLarge(t *testing.T, what string, res registry.Result, limit int) {
	t.Helper()
	if !res.IsError || res.Err == nil {
		t.Fatalf("%s: succeeded, want a failure naming the cap", what)
	}
	var tooLarge *mcptools.MessageTooLargeError
	if !errors.As(res.Err, &tooLarge) || tooLarge.Limit != limit {
		t.Fatalf("%s: error %v (%T), want MessageTooLargeError of %d", what, res.Err, res.Err.Err, limit)
	}
	if want := fmt.Sprintf("longer than the maximum of %d bytes", limit); !strings.Contains(res.Err.Message, want) {
		t.Fatalf("%s: message %q does not say %q", what, res.Err.Message, want)
	}
}

// A result over the SDK's 16 MiB line limit used to end the stdio connection for every later
// call; under the default cap (64 MiB) it is a result like another.
func TestStdioResultOverSDKLineLimit(t *testing.T) {
	src := bigServer(t)
	src.CallTimeout = 5 * time.Minute // 17 MiB through the race detector on a loaded machine
	_, reg := importServer(t, src)
	const n = 17 << 20
	wantOK(t, "17 MiB result", callTool(reg, "big", fmt.Sprintf(`{"bytes":%d}`, n)), "", n)
	wantOK(t, "the call after it", callTool(reg, "small", `{}`), "ok", 0)
}

// A result over MaxMessageBytes fails its call only, with an error naming the cap, wherever
// the response's id is; stray output, an oversized notification and a line that is not a
// message are dropped; the server answers every later call.
func TestStdioOversizedResultFailsOnlyItsCall(t *testing.T) {
	const limit = 1 << 20
	src := bigServer(t)
	src.MaxMessageBytes = limit
	_, reg := importServer(t, src)
	wantTooLarge(t, "id last", callTool(reg, "big", `{"bytes":2000000}`), limit)
	wantOK(t, "after id last", callTool(reg, "small", `{}`), "ok", 0)
	wantTooLarge(t, "id first", callTool(reg, "big", `{"bytes":3000000,"idFirst":true}`), limit)
	wantOK(t, "after id first", callTool(reg, "small", `{}`), "ok", 0)
	wantOK(t, "within the cap", callTool(reg, "big", `{"bytes":1000000}`), "", 1000000)
	wantOK(t, "noisy", callTool(reg, "noisy", `{"bytes":2000000}`), "noisy ok", 0)
	wantOK(t, "after noisy", callTool(reg, "small", `{}`), "ok", 0)
}

// fakeHTTPServer is a streamable HTTP MCP server written by hand, so that its answers can be
// anything: the tool "endless" answers with a result that does not end (in a JSON body or in a
// server-sent event, by mode), up to 256 MiB; "loud" sends, on the call's event stream, a
// notification over any cap and then its answer; "small" answers "ok". written counts the
// bytes of "endless" answers the client took.
type fakeHTTPServer struct {
	mode    string // "json" or "sse"
	written atomic.Int64
}

const endlessBytes = 256 << 20

func (f *fakeHTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		if r.Method == http.MethodDelete {
			return
		}
		http.Error(w, "no", http.StatusMethodNotAllowed)
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name            string `json:"name"`
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	reply := func(result string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	}
	switch {
	case m.Method == "initialize":
		reply(fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}`, m.Params.ProtocolVersion))
	case m.Method == "tools/list":
		reply(`{"tools":[{"name":"endless","inputSchema":{"type":"object"}},{"name":"loud","inputSchema":{"type":"object"}},{"name":"small","inputSchema":{"type":"object"}}]}`)
	case m.Method == "tools/call" && m.Params.Name == "endless":
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, m.ID)
		if f.mode == "sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			head = "event: message\ndata: " + head
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		if _, err := io.WriteString(w, head); err != nil {
			return
		}
		chunk := []byte(strings.Repeat("x", 64<<10))
		for f.written.Load() < endlessBytes {
			n, err := w.Write(chunk)
			f.written.Add(int64(n))
			if err != nil {
				return
			}
		}
	case m.Method == "tools/call" && m.Params.Name == "loud":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"%s\"}}\n\n", strings.Repeat("y", 3<<20))
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"loud ok\"}]}}\n\n", m.ID)
	case m.Method == "tools/call":
		reply(`{"content":[{"type":"text","text":"ok"}]}`)
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}`, m.ID)
	}
}

// An MCP result over streamable HTTP that never ends used to be read without bound (8.8 GB of
// host memory in 25 s); it is cut at MaxMessageBytes, fails its call only, with an error naming
// the cap, and the session goes on.
func TestHTTPEndlessResultIsCut(t *testing.T) {
	const limit = 1 << 20
	// What the server could write beyond what the client read: the sockets' buffers.
	const slack = 32 << 20
	for _, mode := range []string{"json", "sse"} {
		t.Run(mode, func(t *testing.T) {
			fake := &fakeHTTPServer{mode: mode}
			hs := httptest.NewServer(fake)
			defer hs.Close()
			_, reg := importServer(t, mcptools.Source{URL: hs.URL, Name: "fake", MaxMessageBytes: limit})
			wantTooLarge(t, "endless", callTool(reg, "endless", `{}`), limit)
			w := fake.written.Load()
			if w > limit+slack {
				t.Fatalf("the server wrote %d bytes of the endless result: not cut at the cap", w)
			}
			t.Logf("the server wrote %d bytes of the endless result before the client cut it", w)
			wantOK(t, "after endless", callTool(reg, "small", `{}`), "ok", 0)
			if mode == "sse" {
				wantOK(t, "a notification over the cap, then the answer", callTool(reg, "loud", `{}`), "loud ok", 0)
				wantOK(t, "after loud", callTool(reg, "small", `{}`), "ok", 0)
			}
		})
	}
}

// headerRecorder records the headers of every request it gets.
type headerRecorder struct {
	mu   sync.Mutex
	seen []http.Header
}

func (h *headerRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.seen = append(h.seen, r.Header.Clone())
	h.mu.Unlock()
	http.Error(w, "not here", http.StatusNotFound)
}

// A server that redirects to another origin does not get the source's credentials sent there:
// the redirect is refused, with an error naming it, and the other origin sees no request.
func TestRedirectToAnotherOriginIsRefused(t *testing.T) {
	other := &headerRecorder{}
	otherServer := httptest.NewServer(other)
	defer otherServer.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, otherServer.URL+"/mcp", code)
		}))
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		server, err := mcptools.Connect(ctx, mcptools.Source{URL: redirector.URL + "/mcp", Name: "redirecting",
			Headers: map[string]string{"Authorization": "Bearer " + secretToken, "X-Api-Key": "key-" + secretToken}})
		cancel()
		redirector.Close()
		if err == nil {
			server.Close()
			t.Fatalf("%d: connected through a redirect to another origin", code)
		}
		var refused *mcptools.CrossOriginRedirectError
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), "refused a redirect") || !strings.Contains(err.Error(), otherServer.URL) {
			t.Errorf("%d: error %v, want CrossOriginRedirectError naming %s", code, err, otherServer.URL)
		}
		if strings.Contains(err.Error(), secretToken) {
			t.Errorf("%d: error shows the secret: %v", code, err)
		}
	}
	other.mu.Lock()
	defer other.mu.Unlock()
	for _, h := range other.seen {
		for k, vs := range h {
			for _, v := range vs {
				if strings.Contains(v, secretToken) {
					t.Errorf("the other origin got %s: %s", k, v)
				}
			}
		}
	}
	if len(other.seen) > 0 {
		t.Errorf("the other origin got %d requests", len(other.seen))
	}
}

// A redirect within the source's origin is followed, headers and all.
func TestRedirectWithinTheOriginIsFollowed(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "moved", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "Say whether the X-Team header arrived."},
		func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("team header: %v", req.Extra.Header.Get("X-Team") == "blue")}}}, nil, nil
		})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var redirected atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			redirected.Add(1)
			http.Redirect(w, r, "/mcp", http.StatusPermanentRedirect)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+secretToken || r.Header.Get("X-Team") != "blue" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close) // after the session's close, which importServer registers later
	_, reg := importServer(t, mcptools.Source{URL: hs.URL + "/old", Name: "moved",
		Headers: map[string]string{"Authorization": "Bearer " + secretToken, "X-Team": "blue"}})
	wantOK(t, "call through a same-origin redirect", callTool(reg, "whoami", `{}`), "team header: true", 0)
	if redirected.Load() == 0 {
		t.Fatal("no request was redirected")
	}
}
