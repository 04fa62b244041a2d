package mcptools_test

import (
	"context"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/internal/leakcheck"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

// Connecting to a server, calling a tool and closing leaves no goroutine behind (the loopback
// HTTP test server is closed by an earlier cleanup, before leakcheck's runs).
func TestConnectCallCloseLeavesNoGoroutines(t *testing.T) {
	leakcheck.Check(t)
	_, url := httpServer(t)
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		server, err := mcptools.Connect(ctx, mcptools.Source{URL: url, Name: "leak-test"})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		reg := registry.New()
		if _, err := reg.Register(server.Tools()...); err != nil {
			t.Fatal(err)
		}
		if res := callTool(reg, "shout", `{"text":"hi"}`); res.IsError || res.Value.AsString() != "HI" {
			t.Fatalf("shout: %+v", res)
		}
		if err := server.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
