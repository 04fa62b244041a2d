package mcpserve_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/registry"
)

// With SessionState, each MCP session has its own state, the description declares state, and
// a session's values are dropped once it has ended.
func TestSessionStateIsPerSessionAndDropped(t *testing.T) {
	store := codemode.NewMemoryStore(0)
	reg := registry.New()
	installCodeMode(t, reg, jsruntime.Config{}, codemode.Options{State: store})
	srv, err := mcpserve.NewServer(reg, mcpserve.ServerOptions{SessionState: store})
	if err != nil {
		t.Fatal(err)
	}
	h := mcpserve.NewHTTPHandler(srv, mcpserve.HTTPOptions{})
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		h.CloseSessions()
		hs.Close()
	})
	call := func(cs *mcp.ClientSession, code string) string {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": code, "description": "use state"}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	a, b := connectHTTP(t, hs.URL), connectHTTP(t, hs.URL)
	tools, err := a.ListTools(context.Background(), nil)
	if err != nil || !strings.Contains(tools.Tools[0].Description, "declare const state: {") {
		t.Fatalf("the description does not declare state: %v", err)
	}
	if got := call(a, `await state.set("who", "a"); return "ok"`); got != "ok" {
		t.Fatal(got)
	}
	if got := call(b, `return JSON.stringify(await state.keys())`); got != "[]" {
		t.Fatalf("b sees %s", got)
	}
	if keys, _ := store.Keys(context.Background(), a.ID()); len(keys) != 1 {
		t.Fatalf("a's scope holds %q", keys)
	}
	a.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		call(b, `return 1`) // a call of any session drops the state of ended ones
		if keys, _ := store.Keys(context.Background(), a.ID()); len(keys) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the ended session's state was not dropped")
		}
	}
}
