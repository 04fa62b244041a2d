package mcptools_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return srv, hs.URL
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
