package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type urlShoutArgs struct {
	Text string `json:"text"`
}

// --mcp-url imports a streamable HTTP server's tools, for run as for tools.
func TestMCPURLSource(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "url-test", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "shout", Description: "Upper-case a text."},
		func(_ context.Context, _ *mcp.CallToolRequest, a urlShoutArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(a.Text)}}}, nil, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()

	code, out, errOut := invoke(t, "", "tools", "--mcp-url", hs.URL)
	if code != exitOK || !strings.HasPrefix(out, "shout  Upper-case a text.") {
		t.Fatalf("tools: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = invoke(t, `return await tools.shout({ text: "over http" })`, "run", "--mcp-url", hs.URL, "-")
	if code != exitOK || out != "OVER HTTP\n" {
		t.Fatalf("run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
