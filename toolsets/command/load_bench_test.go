package command

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/registry"
)

// benchManifest returns a manifest of n tools with distinct parameter and output schemas, the
// shape a generated manifest of real tools has.
func benchManifest(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"tools": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name": "tool_%d", "description": "Tool number %d.",
		"parameters": {"type": "object", "properties": {"path": {"type": "string", "description": "path for %d"},
			"count_%d": {"type": "integer", "minimum": 0}, "tags": {"type": "array", "items": {"type": "string"}},
			"mode": {"enum": ["a", "b", "m%d"]}}, "required": ["path"], "additionalProperties": false},
		"output": {"type": "object", "properties": {"ok": {"type": "boolean"}, "n%d": {"type": "number"}}},
		"command": ["true"]}`, i, i, i, i, i, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkLoadManifest measures what the CLI does with a manifest before it can list or run
// anything: parse and check it, then register its tools in a registry.
func BenchmarkLoadManifest(b *testing.B) {
	for _, n := range []int{10, 5000} {
		data := benchManifest(n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tools, err := Parse(data, "json", b.TempDir(), "bench.json")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := registry.New().Register(tools...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
