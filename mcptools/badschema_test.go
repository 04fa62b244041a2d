package mcptools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

// badSchemaServer serves one good tool and two a registry refuses: one whose inputSchema is
// invalid JSON Schema, one whose inputSchema nests far beyond registry.MaxSchemaDepth (outside
// the upstream subset: minLength; a subset schema loads at any depth).
func badSchemaServer(t *testing.T) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "bad-schemas", Version: "v0"}, nil)
	reply := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	}
	srv.AddTool(&mcp.Tool{Name: "good", InputSchema: json.RawMessage(`{"type":"object"}`)}, reply)
	srv.AddTool(&mcp.Tool{Name: "invalid", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":5}}}`)}, reply)
	const levels = 300 // 603 JSON levels: within the 1,000 the MCP SDK's JSON takes, far past the schema limit
	deep := `{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"object","properties":{"a":`, levels) + `{"type":"string","minLength":1}` + strings.Repeat(`}}`, levels) + `}}`
	srv.AddTool(&mcp.Tool{Name: "deep", InputSchema: json.RawMessage(deep)}, reply)
	return serveStreamable(t, srv)
}

// One tool's bad schema does not cost the server its other tools: the import leaves it out
// with a warning naming the server, the tool and the problem.
func TestImportSkipsToolsWithBadSchemas(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	srv, reg := importServer(t, mcptools.Source{URL: badSchemaServer(t), Name: "bad"})
	var names []string
	for _, tool := range srv.Tools() {
		names = append(names, tool.Name)
	}
	if len(names) != 1 || names[0] != "good" {
		t.Fatalf("imported tools = %q, want only \"good\"", names)
	}
	if res := callTool(reg, "good", `{}`); res.IsError {
		t.Fatalf("good: %v", res.Err)
	}
	out := logs.String()
	for _, want := range []string{"tool=invalid", "tool=deep", "nests 603 levels deep", fmt.Sprintf("limit of %d", registry.MaxSchemaDepth), `server="MCP server \"bad\"`} {
		if !strings.Contains(out, want) {
			t.Errorf("warnings lack %q:\n%s", want, out)
		}
	}
	if _, ok := reg.Get("deep", nil); ok {
		t.Error("the deep tool is registered")
	}
}
