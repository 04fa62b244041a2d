package mcptools_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

// syncTool is a tool named name that answers with its description.
func syncTool(name, description string) registry.Tool {
	return registry.Tool{
		Name:        name,
		Description: description,
		Parameters:  jsonv.MustParse(`{"type":"object"}`),
		Output:      registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue(description), nil
		},
	}
}

// registered lists which of names reg has.
func registered(reg *registry.Registry, names ...string) string {
	var have []string
	for _, n := range names {
		if t, ok := reg.Get(n, nil); ok {
			have = append(have, n+"="+t.Description)
		}
	}
	return strings.Join(have, ",")
}

// A change that arrives before the first registration (the server announced one while Connect
// listed its tools) is not lost and does not fail: the newer set is the one registered. The
// recipe mcptools' doc gave before Sync called its nil unregister function here.
func TestSyncTakesAChangeThatArrivesBeforeRegister(t *testing.T) {
	reg := registry.New()
	s := mcptools.NewSync(reg)
	s.Update([]registry.Tool{syncTool("a", "new"), syncTool("b", "new")}, nil)
	if err := s.Register("x", []registry.Tool{syncTool("a", "old")}); err != nil {
		t.Fatal(err)
	}
	if got := registered(reg, "a", "b"); got != "a=new,b=new" {
		t.Fatalf("registered %q, want the newer set a=new,b=new", got)
	}
	s.Update([]registry.Tool{syncTool("b", "newest")}, nil)
	if got := registered(reg, "a", "b"); got != "b=newest" {
		t.Fatalf("after a change: %q, want b=newest", got)
	}
	if err := s.Register("x", nil); err == nil {
		t.Fatal("a second Register succeeded")
	}
}

// Register, changes and calls of the tools race freely (run with -race): the recipe mcptools'
// doc gave before Sync wrote its unregister variable on the host's goroutine and on the
// Server's unsynchronized. Once the changes stop, the last set is the one registered, and
// every call meanwhile either ran one of the sets' tools or found the tool absent.
func TestSyncRacesRegisterChangesAndCalls(t *testing.T) {
	reg := registry.New()
	s := mcptools.NewSync(reg)
	sets := [][]registry.Tool{
		{syncTool("a", "one")},
		{syncTool("a", "two"), syncTool("b", "two")},
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 200 {
			s.Update(sets[i%2], nil)
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: "a", Arguments: jsonv.MustParse(`{}`)})
			if !res.IsError && res.Value.AsString() != "one" && res.Value.AsString() != "two" {
				t.Errorf("call of a: %+v", res)
			}
		}
	}()
	if err := s.Register("x", sets[0]); err != nil {
		t.Error(err)
	}
	time.Sleep(10 * time.Millisecond)
	close(stop)
	wg.Wait()
	s.Update(sets[1], nil)
	if got := registered(reg, "a", "b"); got != "a=two,b=two" {
		t.Fatalf("registered %q after the changes, want a=two,b=two", got)
	}
}

// Over a real session: a server that adds a tool after Connect has it registered by Sync.
func TestSyncKeepsAServersToolsLive(t *testing.T) {
	srv, url := httpServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	reg := registry.New()
	s := mcptools.NewSync(reg)
	server, err := mcptools.Connect(ctx, mcptools.Source{URL: url, Name: "http-test", OnToolsChanged: s.Update})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	if err := s.Register("http-test", server.Tools()); err != nil {
		t.Fatal(err)
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "whisper", Description: "Lower-case a text."},
		func(_ context.Context, _ *mcp.CallToolRequest, a httpEchoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToLower(a.Text)}}}, nil, nil
		})
	for {
		if res := callTool(reg, "whisper", `{"text":"HI"}`); !res.IsError {
			if res.Value.AsString() != "hi" {
				t.Fatalf("whisper: %+v", res)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the added tool was never registered")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if res := callTool(reg, "shout", `{"text":"hi"}`); res.IsError || res.Value.AsString() != "HI" {
		t.Fatalf("shout after the change: %+v", res)
	}
}

// A changed tool list replaces the server's registrations; one that changes nothing and a
// failed refresh keep them (moved from cmd/runcode's liveTools).
func TestSyncReplacesTheRegistration(t *testing.T) {
	reg := registry.New()
	s := mcptools.NewSync(reg)
	if err := s.Register(`MCP server "x"`, []registry.Tool{syncTool("a", ""), syncTool("b", "")}); err != nil {
		t.Fatal(err)
	}
	s.Update([]registry.Tool{syncTool("a", ""), syncTool("b", "")}, nil) // an announcement that changes nothing
	s.Update([]registry.Tool{syncTool("b", ""), syncTool("c", "")}, nil)
	var names []string
	for _, schema := range reg.SDKSchemas(nil) {
		names = append(names, schema.Name)
	}
	if strings.Join(names, ",") != "b,c" {
		t.Fatalf("after the change: %v", names)
	}
	s.Update(nil, errors.New("server gone")) // logged, registrations kept
	if len(reg.SDKSchemas(nil)) != 2 {
		t.Fatal("a failed refresh dropped the tools")
	}
}
