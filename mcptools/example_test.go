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

// Reading the servers of an MCP client configuration: each becomes a Source whose tools live in
// a namespace named after the server, unless the entry says "namespace": false.
func ExampleParseConfig() {
	config := []byte(`{
	  "mcpServers": {
	    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
	               "env": {"MEMORY_FILE_PATH": "${HOME}/memory.json"}},
	    "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${REMOTE_TOKEN}"},
	               "include": ["search"], "timeout": "20s", "namespace": false}
	  }
	}`)
	env := map[string]string{"HOME": "/home/ada", "REMOTE_TOKEN": "t0ken"}
	cfg, err := mcptools.ParseConfig("/etc/mcp.json", config, func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range cfg.Sources {
		fmt.Printf("%s: namespace %q, command %q, url %q, include %q, timeout %v\n", s.Name, s.Namespace, s.Command, s.URL, s.Include, s.CallTimeout)
	}
	_, err = mcptools.ParseConfig("/etc/mcp.json", config, func(string) (string, bool) { return "", false })
	fmt.Println(err)
	// Output:
	// memory: namespace "memory", command ["npx" "-y" "@modelcontextprotocol/server-memory"], url "", include [], timeout 0s
	// remote: namespace "", command [], url "https://example.com/mcp", include ["search"], timeout 20s
	// config /etc/mcp.json: server "memory": "env": "MEMORY_FILE_PATH": environment variable HOME is not set (referred to as ${HOME})
}
