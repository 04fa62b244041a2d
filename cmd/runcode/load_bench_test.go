package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// manifestOfTools writes a manifest of n command tools with distinct parameter and output
// schemas (the shape of a generated manifest of real tools) and returns its path.
func manifestOfTools(b *testing.B, n int) string {
	var m strings.Builder
	m.WriteString(`{"tools": [`)
	for i := range n {
		if i > 0 {
			m.WriteByte(',')
		}
		fmt.Fprintf(&m, `{"name": "tool_%d", "description": "Tool number %d.",
		"parameters": {"type": "object", "properties": {"path": {"type": "string", "description": "path for %d"},
			"count_%d": {"type": "integer", "minimum": 0}, "tags": {"type": "array", "items": {"type": "string"}},
			"mode": {"enum": ["a", "b", "m%d"]}}, "required": ["path"], "additionalProperties": false},
		"output": {"type": "object", "properties": {"ok": {"type": "boolean"}, "n%d": {"type": "number"}}},
		"command": ["true"]}`, i, i, i, i, i, i)
	}
	m.WriteString(`]}`)
	path := filepath.Join(b.TempDir(), "tools.json")
	if err := os.WriteFile(path, []byte(m.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkCLILoadManifest runs `runcode tools --tools FILE` as a process (this test binary as
// the CLI), process start included, for a manifest of 10 and of 5,000 tools. Besides wall time
// it reports the process's CPU time (user+sys), which a busy machine disturbs less.
func BenchmarkCLILoadManifest(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 5000} {
		path := manifestOfTools(b, n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(exe, "tools", "--tools", path)
				cmd.Env = append(os.Environ(), cliEnv+"=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
