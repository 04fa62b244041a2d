package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
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

// A changed MCP tool list replaces the server's registrations in the registry.
func TestLiveToolsReplaceTheRegistration(t *testing.T) {
	tool := func(name string) registry.Tool {
		return registry.Tool{Name: name, Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			return jsonv.NullValue(), nil
		}}
	}
	reg := registry.New()
	unregister, err := reg.Register(tool("a"), tool("b"))
	if err != nil {
		t.Fatal(err)
	}
	live := &liveTools{label: "MCP server \"x\""}
	live.update([]registry.Tool{tool("ignored")}, nil) // before attach: nothing to replace yet
	live.attach(reg, unregister, []registry.Tool{tool("a"), tool("b")})
	live.update([]registry.Tool{tool("a"), tool("b")}, nil) // an announcement that changes nothing
	live.update([]registry.Tool{tool("b"), tool("c")}, nil)
	var names []string
	for _, s := range reg.SDKSchemas(nil) {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "b,c" {
		t.Fatalf("after the change: %v", names)
	}
	live.update(nil, errors.New("server gone")) // logged, registrations kept
	if len(reg.SDKSchemas(nil)) != 2 {
		t.Fatal("a failed refresh dropped the tools")
	}
}
