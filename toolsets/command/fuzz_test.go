package command

import (
	"errors"
	"testing"

	"github.com/runcode-dev/runcode/registry"
)

// FuzzParse checks that no manifest bytes make Parse panic, that every failure is a
// *ManifestError, and that every success is a set of tools a registry accepts.
func FuzzParse(f *testing.F) {
	seeds := []struct {
		data string
		yaml bool
	}{
		{`{"tools": [{"name": "add", "description": "Add.", "parameters": {"type": "object", "properties": {"a": {"type": "number"}}}, "output": {"type": "number"}, "command": ["python3", "add.py"], "concurrencySafe": true, "timeout": "5s"}]}`, false},
		{`{"tools": []}`, false},
		{`{"tools": [{"name": "a", "command": []}]}`, false},
		{`{"tools": [{"name": "a", "command": ["x"], "timeout": "-1s"}]}`, false},
		{`{"tools": [{"name": "a", "command": ["x"], "parameters": {"$ref": "#/$defs/x", "$defs": {"x": {"type": "object"}}}}]}`, false},
		{`{"tools": [{"name": "a", "command": ["x"], "parameters": {"$ref": "#"}}]}`, false},
		{`{"tools": [1, null, {"name": "a"}]}`, false},
		{`[`, false},
		{"tools:\n  - name: add\n    command: [sh, -c, 'echo 1']\n    parameters: {type: object}\n", true},
		{"a: &a [*a]\n", true},
		{"a: &a {<<: *a}\n", true},
		{"b: &b {x: 1}\nc: {<<: [*b, *b], y: .nan}\n", true},
		{"tools: [{name: x, command: [a], output: !!binary aGk=}]\n", true},
		{"? [a]\n: 1\n", true},
		{"--- \n...\n", true},
		{"tools: !!set {a, b}\n", true},
	}
	for _, s := range seeds {
		f.Add([]byte(s.data), s.yaml)
	}
	f.Fuzz(func(t *testing.T, data []byte, isYAML bool) {
		format := "json"
		if isYAML {
			format = "yaml"
		}
		tools, err := Parse(data, format, "/nonexistent", "fuzz")
		if err != nil {
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("error %T %v is not a *ManifestError", err, err)
			}
			if me.File != "fuzz" {
				t.Fatalf("error names file %q, want fuzz", me.File)
			}
			return
		}
		if _, err := registry.New().Register(tools...); err != nil {
			t.Fatalf("a registry refused parsed tools: %v", err)
		}
	})
}
