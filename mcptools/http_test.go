package mcptools_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

type httpEchoArgs struct {
	Text string `json:"text"`
}

// httpServer serves an MCP server with one tool over streamable HTTP on loopback.
func httpServer(t *testing.T) (*mcp.Server, string) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "http-test", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "shout", Description: "Upper-case a text."},
		func(_ context.Context, _ *mcp.CallToolRequest, a httpEchoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(a.Text)}}}, nil, nil
		})
	return srv, serveStreamable(t, srv)
}

// serveStreamable serves srv over streamable HTTP on loopback until the test ends, and returns
// its URL.
func serveStreamable(t *testing.T, srv *mcp.Server) string {
	t.Helper()
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

// Streamable HTTP servers import like stdio ones, and a server that announces a changed tool
// list hands the new set to OnToolsChanged.
func TestStreamableHTTPAndToolListChanges(t *testing.T) {
	srv, url := httpServer(t)
	changed := make(chan []string, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	server, err := mcptools.Connect(ctx, mcptools.Source{URL: url, Name: "http-test", OnToolsChanged: func(tools []registry.Tool, err error) {
		if err != nil {
			t.Errorf("refresh: %v", err)
			return
		}
		var names []string
		for _, tool := range tools {
			names = append(names, tool.Name)
		}
		sort.Strings(names)
		changed <- names
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	reg := registry.New()
	if _, err := reg.Register(server.Tools()...); err != nil {
		t.Fatal(err)
	}
	if res := callTool(reg, "shout", `{"text":"hi"}`); res.IsError || res.Value.AsString() != "HI" {
		t.Fatalf("shout over HTTP: %+v", res)
	}

	mcp.AddTool(srv, &mcp.Tool{Name: "whisper", Description: "Lower-case a text."},
		func(_ context.Context, _ *mcp.CallToolRequest, a httpEchoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToLower(a.Text)}}}, nil, nil
		})
	select {
	case names := <-changed:
		if strings.Join(names, ",") != "shout,whisper" {
			t.Fatalf("tools after the change: %v", names)
		}
	case <-ctx.Done():
		t.Fatal("no tools/list_changed refresh arrived")
	}
}

// contractServer serves tools whose results test the declaration rule (DECISIONS row 16): a
// tool without an outputSchema whose text is JSON, split over two blocks; and a tool that
// declares an outputSchema but returns only text.
func contractServer(t *testing.T) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "contract-test", Version: "v0"}, nil)
	object := json.RawMessage(`{"type":"object"}`)
	srv.AddTool(&mcp.Tool{Name: "json_text", InputSchema: object},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"a":`}, &mcp.TextContent{Text: `1}`}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "unstructured", InputSchema: object, OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"n":1}`}}}, nil
		})
	return serveStreamable(t, srv)
}

// Through a real session and a Code Mode program: JSON text from a tool without an
// outputSchema arrives as one string (blocks joined by a newline); a tool that declares an
// outputSchema but sends no structuredContent fails with a ToolCallError saying so.
func TestResultFollowsTheDeclarationOverHTTP(t *testing.T) {
	_, reg := importServer(t, mcptools.Source{URL: contractServer(t), Name: "contract"})
	res := runProgram(t, reg, `const text = await tools.json_text({});
let failure = "";
try { await tools.unstructured({}); } catch (e) { failure = e.name + " " + e.toolName + ": " + e.message; }
return { kind: typeof text, text, failure };`)
	if res.IsError {
		t.Fatal(res.Err)
	}
	got := res.Value.Lookup("result")
	if got.Lookup("kind").AsString() != "string" || got.Lookup("text").AsString() != "{\"a\":\n1}" {
		t.Errorf("json_text gave %s", jsonv.AppendJSON(nil, got))
	}
	if f := got.Lookup("failure").AsString(); f != `ToolCallError unstructured: tool "unstructured" returned invalid output: it declares an outputSchema but returned no structuredContent; its text: {"n":1}` {
		t.Errorf("unstructured: %q", f)
	}
}

// Issue 24: a value a ${VAR} put in a URL's path is a secret in every message of the server,
// a failed call's too (the server's label quoted the URL).
func TestURLPathSecretNotInCallErrors(t *testing.T) {
	_, url := httpServer(t)
	const secret = "path-secret-7f3a9c"
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	server, err := mcptools.Connect(ctx, mcptools.Source{URL: url + "/mcp/" + secret, Name: "remote", Secrets: []string{secret}})
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	if _, err := reg.Register(server.Tools()...); err != nil {
		t.Fatal(err)
	}
	server.Close()
	res := reg.Execute(ctx, registry.Call{CallID: "c1", Name: "shout", Arguments: jsonv.MustParse(`{"text":"x"}`)})
	if !res.IsError || res.Err == nil || strings.Contains(res.Err.Error(), secret) || !strings.Contains(res.Err.Error(), `MCP server "remote"`) {
		t.Fatalf("result = %+v, %v", res, res.Err)
	}
}
