package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkConfigStartup measures `runcode tools --config` over 1 and 3 MCP servers that each
// take 300 ms to start (a shell sleep before the memory server): started in parallel, three cost
// about what one does; started one after another they would cost 0.6 s more.
func BenchmarkConfigStartup(b *testing.B) {
	if _, err := exec.LookPath("mcp-server-memory"); err != nil {
		b.Skip("mcp-server-memory not on PATH (npm install -g @modelcontextprotocol/server-memory)")
	}
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			var entries []string
			for i := range n {
				entries = append(entries, fmt.Sprintf(`"s%d": {"command": "sh", "args": ["-c", "sleep 0.3; exec mcp-server-memory"], "env": {"MEMORY_FILE_PATH": %q}}`,
					i, filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))))
			}
			config := filepath.Join(dir, "mcp.json")
			if err := os.WriteFile(config, []byte(`{"mcpServers": {`+strings.Join(entries, ",")+`}}`), 0o644); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				var out, errOut bytes.Buffer
				if code := run(context.Background(), []string{"tools", "--config", config}, strings.NewReader(""), &out, &errOut); code != exitOK {
					b.Fatalf("exit %d: %s", code, errOut.String())
				}
			}
		})
	}
}
