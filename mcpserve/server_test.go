package mcpserve_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

type srvAddIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type srvAddOut struct {
	Sum int `json:"sum"`
}

type srvGreetIn struct {
	Name string `json:"name"`
}

type srvWaitIn struct {
	Millis int `json:"millis"`
}

// srvFixture is a registry with Go-defined tools and run_code installed, presented as code.
type srvFixture struct {
	reg     *registry.Registry
	started chan struct{} // receives when the wait tool starts
	stopped chan error    // receives the wait tool's ctx error when it is cancelled
}

func newSrvFixture(t *testing.T) *srvFixture {
	t.Helper()
	f := &srvFixture{reg: registry.New(), started: make(chan struct{}, 10), stopped: make(chan error, 10)}
	tools := []registry.Tool{
		registry.MustDefine(registry.TypedTool[srvAddIn, srvAddOut]{
			Name:        "add",
			Description: "Add two integers.",
			Execute: func(_ context.Context, _ *registry.Invocation, in srvAddIn) (srvAddOut, error) {
				return srvAddOut{Sum: in.A + in.B}, nil
			},
		}),
		registry.MustDefine(registry.TypedTool[srvGreetIn, string]{
			Name:        "greet",
			Description: "Greet someone.",
			Execute: func(_ context.Context, _ *registry.Invocation, in srvGreetIn) (string, error) {
				return "hello " + in.Name, nil
			},
		}),
		registry.MustDefine(registry.TypedTool[struct{}, string]{
			Name:        "screenshot",
			Description: "Take a screenshot.",
			Execute: func(context.Context, *registry.Invocation, struct{}) (string, error) {
				return "shot.png", nil
			},
			Render: func(_ struct{}, out string) []registry.Content {
				return []registry.Content{
					registry.TextContent("a screenshot: " + out),
					{Type: "image", Data: "iVBORw0KGgo=", MimeType: "image/png"},
				}
			},
		}),
		registry.MustDefine(registry.TypedTool[srvWaitIn, string]{
			Name:        "wait",
			Description: "Wait for a number of milliseconds (0: until cancelled).",
			Execute: func(ctx context.Context, _ *registry.Invocation, in srvWaitIn) (string, error) {
				f.started <- struct{}{}
				var timeout <-chan time.Time
				if in.Millis > 0 {
					timeout = time.After(time.Duration(in.Millis) * time.Millisecond)
				}
				select {
				case <-timeout:
					return "waited", nil
				case <-ctx.Done():
					f.stopped <- ctx.Err()
					return "", ctx.Err()
				}
			},
		}),
	}
	if _, err := f.reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	installCodeMode(t, f.reg, jsruntime.Config{}, codemode.Options{})
	return f
}

// installCodeMode installs run_code in reg, with opts on a new in-process runtime with cfg
// (closed when the test ends), and presents code.
func installCodeMode(t *testing.T, reg *registry.Registry, cfg jsruntime.Config, opts codemode.Options) {
	t.Helper()
	rt, err := jsruntime.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	opts.Runtime = rt
	if err := codemode.Install(reg, opts); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
}

// srvConnect serves reg over in-memory transports and returns a connected client session.
func srvConnect(t *testing.T, reg *registry.Registry, opts mcpserve.ServerOptions, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserve.NewServer(reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, copts)
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		cancel()
	})
	return cs
}

func srvCallRunCode(ctx context.Context, cs *mcp.ClientSession, code string) (*mcp.CallToolResult, error) {
	return cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      "run_code",
		Arguments: map[string]any{"code": code, "description": "Run a test program"},
	})
}

func srvTexts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

func TestServerListsOnlyRunCodeWithTheSDK(t *testing.T) {
	f := newSrvFixture(t)
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{}, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "run_code" {
		t.Fatalf("tools = %+v, want exactly run_code", res.Tools)
	}
	tool := res.Tools[0]
	runCode, _ := f.reg.Get(registry.ReservedName, nil)
	wantDesc := runCode.Description + "\n\n" + codemode.PromptSectionFor(f.reg, codemode.Options{})
	if tool.Description != wantDesc {
		t.Fatalf("description:\n%s\n\nwant:\n%s", tool.Description, wantDesc)
	}
	for _, name := range []string{"add", "greet", "screenshot", "wait"} {
		if !strings.Contains(tool.Description, name) {
			t.Errorf("description does not mention %s", name)
		}
	}
	schema, ok := tool.InputSchema.(map[string]any)
	if !ok || fmt.Sprint(schema["required"]) != "[code description]" {
		t.Fatalf("input schema = %#v", tool.InputSchema)
	}
}

// run_code has a title and honest annotations: it is not read-only, may be destructive, is not
// idempotent and reaches an open world (the tools a program calls do).
func TestServerRunCodeHasATitleAndAnnotations(t *testing.T) {
	f := newSrvFixture(t)
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{}, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tool := res.Tools[0]
	if tool.Title != "Run code" {
		t.Errorf("title = %q, want %q", tool.Title, "Run code")
	}
	a := tool.Annotations
	if a == nil {
		t.Fatal("no annotations")
	}
	if a.Title != "Run code" || a.ReadOnlyHint || a.IdempotentHint || a.DestructiveHint == nil || !*a.DestructiveHint || a.OpenWorldHint == nil || !*a.OpenWorldHint {
		t.Errorf("annotations = %+v (destructive %v, open world %v)", a, a.DestructiveHint, a.OpenWorldHint)
	}
}

func TestServerCompactSDKAboveTheThreshold(t *testing.T) {
	f := newSrvFixture(t)
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{CompactAbove: 10}, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := codemode.PromptSectionFor(f.reg, codemode.Options{CompactAbove: 10})
	if !strings.HasSuffix(res.Tools[0].Description, "\n\n"+want) || !strings.Contains(want, "catalog") {
		t.Fatalf("description:\n%s", res.Tools[0].Description)
	}
}

func TestServerRunsAProgramAgainstTheTools(t *testing.T) {
	f := newSrvFixture(t)
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{}, nil)
	res, err := srvCallRunCode(context.Background(), cs, `const { sum } = await tools.add({ a: 2, b: 3 });
const hi: string = await tools.greet({ name: "mcp" });
console.log(hi);
return { sum };`)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !slices.Equal(srvTexts(res), []string{"hello mcp\n{\n  \"sum\": 5\n}"}) || len(res.Content) != 1 {
		t.Fatalf("result = %v (isError %v)", srvTexts(res), res.IsError)
	}
}

func TestServerReportsAFailedProgramAsAnError(t *testing.T) {
	f := newSrvFixture(t)
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{}, nil)
	res, err := srvCallRunCode(context.Background(), cs, `console.log("before"); throw new Error("boom");`)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(srvTexts(res), "\n")
	if !res.IsError || !strings.Contains(got, "code run failed (exception)") || !strings.Contains(got, "boom") || !strings.Contains(got, "before") {
		t.Fatalf("result = %q (isError %v)", got, res.IsError)
	}
}

func TestServerRefusesMissingArguments(t *testing.T) {
	f := newSrvFixture(t)
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{}, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"code": "return 1"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(strings.Join(srvTexts(res), "\n"), "description") {
		t.Fatalf("result = %v (isError %v)", srvTexts(res), res.IsError)
	}
}

func TestServerAppendsSubCallImages(t *testing.T) {
	f := newSrvFixture(t)
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{}, nil)
	res, err := srvCallRunCode(context.Background(), cs, `const name = await tools.screenshot({}); return "took " + name;`)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 3 {
		t.Fatalf("result = %#v", res.Content)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "took shot.png" {
		t.Fatalf("first block = %#v, want the program's result", res.Content[0])
	}
	if tc, ok := res.Content[1].(*mcp.TextContent); !ok || tc.Text != "a screenshot: shot.png" {
		t.Fatalf("second block = %#v, want the sub-call's text", res.Content[1])
	}
	img, ok := res.Content[2].(*mcp.ImageContent)
	if !ok || img.MIMEType != "image/png" || string(img.Data) != "\x89PNG\r\n\x1a\n" {
		t.Fatalf("third block = %#v, want the PNG image", res.Content[2])
	}
}

func TestServerSendsProgressToAClientThatAsks(t *testing.T) {
	f := newSrvFixture(t)
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{ProgressInterval: 20 * time.Millisecond}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, req.Params)
		},
	})
	params := &mcp.CallToolParams{
		Name: "run_code",
		Arguments: map[string]any{"description": "Wait a little",
			"code": `await tools.add({ a: 1, b: 1 }); return await tools.wait({ millis: 300 });`},
	}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || strings.Join(srvTexts(res), "") != "waited" {
		t.Fatalf("result = %v", srvTexts(res))
	}
	// The notifications precede the response on the connection, but the client may hand them
	// to the handler concurrently: wait briefly for them.
	deadline := time.Now().Add(2 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) < 3 {
		t.Fatalf("got %d progress notifications, want at least 3", len(got))
	}
	sawSubCall := false
	for i, p := range got {
		if p.ProgressToken != "tok-1" {
			t.Fatalf("notification %d has token %v", i, p.ProgressToken)
		}
		if i > 0 && p.Progress <= got[i-1].Progress {
			t.Fatalf("progress does not increase: %v then %v", got[i-1].Progress, p.Progress)
		}
		if strings.Contains(p.Message, "1 sub-call(s) settled, last: add") {
			sawSubCall = true
		}
	}
	if !sawSubCall {
		t.Fatalf("no notification reports the settled add sub-call: %+v", got[len(got)-1])
	}
}

func TestServerSendsNoProgressWithoutAToken(t *testing.T) {
	f := newSrvFixture(t)
	var mu sync.Mutex
	n := 0
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{ProgressInterval: 10 * time.Millisecond}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			n++
		},
	})
	if _, err := srvCallRunCode(context.Background(), cs, `return await tools.wait({ millis: 100 });`); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n != 0 {
		t.Fatalf("got %d progress notifications without a progress token", n)
	}
}

func TestServerCancellationStopsTheProgram(t *testing.T) {
	f := newSrvFixture(t)
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := srvCallRunCode(ctx, cs, `return await tools.wait({ millis: 0 });`)
		done <- err
	}()
	select {
	case <-f.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the wait tool never started")
	}
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("CallTool err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("CallTool did not return after cancellation")
	}
	// The client's notifications/cancelled reaches the server, which cancels the run.
	select {
	case err := <-f.stopped:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the tool's ctx ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the running sub-call was not cancelled")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("cancellation took %s", d)
	}
	// The session still serves calls afterwards.
	res, err := srvCallRunCode(context.Background(), cs, `return (await tools.add({ a: 1, b: 2 })).sum;`)
	if err != nil || res.IsError || strings.Join(srvTexts(res), "") != "3" {
		t.Fatalf("call after cancellation = %v, %v", res, err)
	}
}

func TestNewServerRequiresRunCode(t *testing.T) {
	reg := registry.New()
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpserve.NewServer(reg, mcpserve.ServerOptions{}); err == nil || !strings.Contains(err.Error(), "codemode.New") {
		t.Fatalf("err = %v", err)
	}
	f := newSrvFixture(t)
	if err := f.reg.SetDefaultPresentation(registry.PresentNative); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpserve.NewServer(f.reg, mcpserve.ServerOptions{}); err == nil || !strings.Contains(err.Error(), "native") {
		t.Fatalf("err = %v", err)
	}
}

// The progress an upstream MCP tool reports while a program calls it reaches the client of
// run_code as progress of its call, the message naming the tool; the upstream call carries a
// progress token only when the client's call did.
func TestServerForwardsUpstreamProgress(t *testing.T) {
	tokens := make(chan any, 2)
	up := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "v0"}, nil)
	mcp.AddTool(up, &mcp.Tool{Name: "steps", Description: "Report progress, then finish."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			token := req.Params.GetProgressToken()
			tokens <- token
			if token != nil {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Total: 2, Message: "fetching"})
				time.Sleep(300 * time.Millisecond) // the run goes on while the client is told
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	server, err := mcptools.Connect(ctx, mcptools.Source{URL: serveStreamable(t, up), Name: "up"})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	reg := registry.New()
	if _, err := reg.Register(server.Tools()...); err != nil {
		t.Fatal(err)
	}
	installCodeMode(t, reg, jsruntime.Config{}, codemode.Options{})
	got := make(chan *mcp.ProgressNotificationParams, 10)
	cs := srvConnect(t, reg, mcpserve.ServerOptions{ProgressInterval: -1}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { got <- req.Params },
	})
	params := &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"description": "steps", "code": `return await tools.steps({});`}}
	params.SetProgressToken("tok-up")
	if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
		t.Fatalf("%v %v", res, err)
	}
	if token := <-tokens; token == nil {
		t.Fatal("the upstream call carried no progress token")
	}
	// The notification precedes the result on the wire; the handler may still be running it.
	var msgs []string
	for forwarded := false; !forwarded; {
		select {
		case p := <-got:
			if p.ProgressToken != "tok-up" {
				t.Fatalf("token %v", p.ProgressToken)
			}
			msgs = append(msgs, p.Message)
			forwarded = p.Message == "steps: fetching (1/2)"
		case <-time.After(5 * time.Second):
			t.Fatalf("no forwarded progress; messages %q", msgs)
		}
	}
	if res, err := srvCallRunCode(ctx, cs, `return await tools.steps({});`); err != nil || res.IsError {
		t.Fatalf("%v %v", res, err)
	}
	if token := <-tokens; token != nil {
		t.Fatalf("without a client token, the upstream call carried %v", token)
	}
}

// serveStreamable serves srv over streamable HTTP on loopback until the test ends, and returns
// its URL.
func serveStreamable(t *testing.T, srv *mcp.Server) string {
	t.Helper()
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

// NewServer refuses a request-state key too short to sign with and a negative approval timeout.
func TestNewServerApprovalOptions(t *testing.T) {
	reg := registry.New()
	installCodeMode(t, reg, jsruntime.Config{}, codemode.Options{})
	for _, c := range []struct {
		opts mcpserve.ServerOptions
		want string
	}{
		{mcpserve.ServerOptions{RequestStateKey: []byte("short")}, "RequestStateKey must be at least 16 bytes, got 5"},
		{mcpserve.ServerOptions{ApprovalTimeout: -time.Second}, "ApprovalTimeout must not be negative"},
	} {
		if _, err := mcpserve.NewServer(reg, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewServer(%+v): %v, want %q", c.opts, err, c.want)
		}
	}
}
