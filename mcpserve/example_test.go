package mcpserve_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/registry"
)

// Serving a registry's run_code to an MCP client, here over in-memory transports; a host serves
// it with Serve over stdio or HTTP.
func ExampleNewServer() {
	reg := registry.New()
	cm, err := codemode.New(reg, codemode.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer cm.Close()
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		log.Fatal(err)
	}
	srv, err := mcpserve.NewServer(reg, mcpserve.ServerOptions{})
	if err != nil {
		log.Fatal(err)
	}
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), serverT, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0"}, nil).Connect(context.Background(), clientT, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code",
		Arguments: map[string]any{"description": "Add", "code": "console.log('adding'); return 1 + 2"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// adding
	// 3
}
