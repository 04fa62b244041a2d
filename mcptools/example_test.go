package mcptools_test

import (
	"context"
	"fmt"
	"log"

	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

// Importing the tools of an MCP server started as a subprocess. (This example needs
// mcp-server-memory on PATH: npm install -g @modelcontextprotocol/server-memory.)
func Example() {
	srv, err := mcptools.Connect(context.Background(), mcptools.Source{
		Command: []string{"mcp-server-memory"},
		Prefix:  "memory.",
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	reg := registry.New()
	if _, err := reg.Register(srv.Tools()...); err != nil {
		log.Fatal(err)
	}
	for _, s := range reg.Schemas(nil) {
		fmt.Println(s.Name)
	}
}
