package command

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// writeFile writes content to dir/name with the given mode and returns the path.
func writeFile(t *testing.T, dir, name, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// newRegistry returns a new registry holding tools.
func newRegistry(t *testing.T, tools ...registry.Tool) *registry.Registry {
	t.Helper()
	reg := registry.New()
	if _, err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	return reg
}

// loadRegistry loads the manifest at path and returns a new registry holding its tools.
func loadRegistry(t *testing.T, path string) *registry.Registry {
	t.Helper()
	tools, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return newRegistry(t, tools...)
}

func TestManifestErrors(t *testing.T) {
	tests := []struct {
		name     string
		format   string
		manifest string
		tool     string // want ManifestError.Tool
		key      string // want ManifestError.Key
		want     string // want Error()
	}{
		{"not an object", "json", `[]`, "", "",
			`tools.json: the manifest must be an object with a "tools" array, got array`},
		{"invalid JSON", "json", `{"tools": [`, "", "",
			`tools.json: invalid JSON: unexpected EOF`},
		{"unknown top-level key", "json", `{"tools": [], "tool": []}`, "", "tool",
			`tools.json: unknown key "tool" (the manifest has only "tools")`},
		{"missing tools", "json", `{}`, "", "tools",
			`tools.json: missing "tools"`},
		{"tools not an array", "json", `{"tools": {}}`, "", "tools",
			`tools.json: "tools" must be an array, got object`},
		{"tool not an object", "json", `{"tools": [{"name": "a", "command": ["x"]}, "b"]}`, "#2", "",
			`tools.json: tool #2: must be an object, got string`},
		{"unknown tool key", "json", `{"tools": [{"name": "add", "comand": ["x"]}]}`, "add", "comand",
			`tools.json: tool "add": unknown key "comand"`},
		{"unknown key before name", "json", `{"tools": [{"x": 1, "name": "add", "command": ["x"]}]}`, "add", "x",
			`tools.json: tool "add": unknown key "x"`},
		{"missing name", "json", `{"tools": [{"name": "a", "command": ["x"]}, {"command": ["x"]}]}`, "#2", "name",
			`tools.json: tool #2: missing "name"`},
		{"name not a string", "json", `{"tools": [{"name": 7, "command": ["x"]}]}`, "#1", "name",
			`tools.json: tool #1: "name" must be a string, got number`},
		{"empty name", "json", `{"tools": [{"name": "", "command": ["x"]}]}`, "#1", "name",
			`tools.json: tool #1: "name" must not be empty`},
		{"reserved name", "json", `{"tools": [{"name": "run_code", "command": ["x"]}]}`, "run_code", "name",
			`tools.json: tool "run_code": "name" "run_code" is reserved for the Code Mode transport`},
		{"duplicate name", "json", `{"tools": [{"name": "a", "command": ["x"]}, {"name": "a", "command": ["y"]}]}`, "a", "name",
			`tools.json: tool "a": duplicate name "a" (tool #1 has it too)`},
		{"missing command", "json", `{"tools": [{"name": "add"}]}`, "add", "command",
			`tools.json: tool "add": missing "command"`},
		{"command not an array", "json", `{"tools": [{"name": "add", "command": "python3 add.py"}]}`, "add", "command",
			`tools.json: tool "add": "command" must be an array of strings (program and arguments), got string`},
		{"empty command", "json", `{"tools": [{"name": "add", "command": []}]}`, "add", "command",
			`tools.json: tool "add": "command" must not be empty`},
		{"non-string command element", "json", `{"tools": [{"name": "add", "command": ["python3", 1]}]}`, "add", "command",
			`tools.json: tool "add": "command"[1] must be a string, got number`},
		{"empty program", "json", `{"tools": [{"name": "add", "command": [""]}]}`, "add", "command",
			`tools.json: tool "add": "command"[0] (the program) must not be empty`},
		{"description not a string", "json", `{"tools": [{"name": "add", "command": ["x"], "description": 1}]}`, "add", "description",
			`tools.json: tool "add": "description" must be a string, got number`},
		{"concurrencySafe not a boolean", "json", `{"tools": [{"name": "add", "command": ["x"], "concurrencySafe": "yes"}]}`, "add", "concurrencySafe",
			`tools.json: tool "add": "concurrencySafe" must be a boolean, got string`},
		{"approval not required or none", "json", `{"tools": [{"name": "add", "command": ["x"], "approval": "always"}]}`, "add", "approval",
			`tools.json: tool "add": "approval" must be "required" or "none", got "always"`},
		{"bad duration", "json", `{"tools": [{"name": "add", "command": ["x"], "timeout": "5 seconds"}]}`, "add", "timeout",
			`tools.json: tool "add": "timeout" "5 seconds" is not a duration like "5s" or "1m30s"`},
		{"numeric timeout", "json", `{"tools": [{"name": "add", "command": ["x"], "timeout": 5}]}`, "add", "timeout",
			`tools.json: tool "add": "timeout" must be a duration string like "5s" or "1m30s", got number`},
		{"zero timeout", "json", `{"tools": [{"name": "add", "command": ["x"], "timeout": "0s"}]}`, "add", "timeout",
			`tools.json: tool "add": "timeout" "0s" must be positive`},
		{"parameters not a schema", "json", `{"tools": [{"name": "add", "command": ["x"], "parameters": "object"}]}`, "add", "parameters",
			`tools.json: tool "add": invalid "parameters" schema: must be a JSON object or boolean, got string`},
		{"parameters invalid against metaschema", "json", `{"tools": [{"name": "add", "command": ["x"], "parameters": {"type": 5}}]}`, "add", "parameters",
			`tools.json: tool "add": invalid "parameters" schema: `},
		{"parameters external ref", "json", `{"tools": [{"name": "add", "command": ["x"], "parameters": {"$ref": "https://example.com/s.json"}}]}`, "add", "parameters",
			`tools.json: tool "add": invalid "parameters" schema: `},
		{"output invalid", "json", `{"tools": [{"name": "add", "command": ["x"], "output": {"type": "num"}}]}`, "add", "output",
			`tools.json: tool "add": invalid "output" schema: `},
		{"output null", "json", `{"tools": [{"name": "add", "command": ["x"], "output": null}]}`, "add", "output",
			`tools.json: tool "add": invalid "output" schema: must be a JSON object or boolean, got null`},
		{"unknown format", "toml", `x = 1`, "", "",
			`tools.json: unknown manifest format "toml" (want "json" or "yaml")`},
		{"YAML syntax error", "yaml", "tools: [", "", "",
			`tools.json: invalid YAML: line 1: did not find expected node content`},
		{"YAML empty", "yaml", "", "", "",
			`tools.json: invalid YAML: the document is empty`},
		{"YAML unknown key", "yaml", "tools:\n  - name: add\n    comand: [x]\n", "add", "comand",
			`tools.json: tool "add": unknown key "comand"`},
		{"YAML missing name", "yaml", "tools:\n  - command: [x]\n", "#1", "name",
			`tools.json: tool #1: missing "name"`},
		{"YAML duplicate key", "yaml", "tools:\n  - name: add\n    name: sub\n", "", "",
			`tools.json: invalid YAML: line 3: duplicate key "name"`},
		{"YAML custom tag", "yaml", "tools:\n  - name: add\n    command: !cmd [x]\n", "", "",
			`tools.json: invalid YAML: line 3: unsupported tag "!cmd" on a sequence`},
		{"YAML infinity", "yaml", "tools:\n  - name: add\n    command: [x]\n    parameters: {maximum: .inf}\n", "", "",
			`tools.json: invalid YAML: line 4: .inf is not a JSON number`},
		{"YAML self-containing anchor", "yaml", "a: &a [*a]\n", "", "",
			`tools.json: invalid YAML: line 1: anchor &a contains itself`},
		{"YAML non-scalar key", "yaml", "? [a]\n: 1\n", "", "",
			`tools.json: invalid YAML: line 1: a mapping key must be a scalar`},
		{"inheritEnv not a list", "json", `{"tools": [{"name": "add", "command": ["x"], "inheritEnv": "PATH"}]}`, "add", "inheritEnv",
			`tools.json: tool "add": "inheritEnv" must be true, false or an array of variable names ("NAME", "PREFIX_*"), got string`},
		{"inheritEnv element not a string", "json", `{"tools": [{"name": "add", "command": ["x"], "inheritEnv": ["A", 1]}]}`, "add", "inheritEnv",
			`tools.json: tool "add": "inheritEnv"[1] must be a string, got number`},
		{"inheritEnv bad name", "yaml", "tools:\n  - name: add\n    command: [x]\n    inheritEnv: [A, B-C]\n", "add", "inheritEnv",
			`tools.json: tool "add": "inheritEnv"[1]: "B-C" is not a variable name or a "PREFIX_*" pattern`},
		{"YAML command element not a string", "yaml", "tools:\n  - name: add\n    command: [x, 1]\n", "add", "command",
			`tools.json: tool "add": "command"[1] must be a string, got number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := Parse([]byte(tt.manifest), tt.format, t.TempDir(), "tools.json")
			if err == nil {
				t.Fatalf("Parse succeeded with %d tools, want error %q", len(tools), tt.want)
			}
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("error %T %q is not a *ManifestError", err, err)
			}
			if me.File != "tools.json" || me.Tool != tt.tool || me.Key != tt.key {
				t.Errorf("File, Tool, Key = %q, %q, %q; want %q, %q, %q", me.File, me.Tool, me.Key, "tools.json", tt.tool, tt.key)
			}
			// Schema compiler messages are long; for those, check the prefix.
			if strings.HasSuffix(tt.want, "schema: ") {
				if !strings.HasPrefix(err.Error(), tt.want) || len(err.Error()) == len(tt.want) {
					t.Errorf("error = %q, want it to start with %q and say why", err, tt.want)
				}
			} else if err.Error() != tt.want {
				t.Errorf("error = %q\nwant    %q", err, tt.want)
			}
		})
	}
}

func TestManifestErrorFormat(t *testing.T) {
	tests := []struct {
		err  ManifestError
		want string
	}{
		{ManifestError{File: "tools.json", Tool: "add", Key: "comand", Message: `unknown key "comand"`}, `tools.json: tool "add": unknown key "comand"`},
		{ManifestError{File: "tools.json", Tool: "#2", Key: "name", Message: `missing "name"`}, `tools.json: tool #2: missing "name"`},
		{ManifestError{File: "tools.json", Message: `missing "tools"`}, `tools.json: missing "tools"`},
		{ManifestError{Tool: "a b", Message: "m"}, `tool "a b": m`},
		{ManifestError{Tool: "#x", Message: "m"}, `tool "#x": m`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestParseFields(t *testing.T) {
	dir := t.TempDir()
	tools, err := Parse([]byte(`{"tools": [
		{"name": "add", "description": "Add two numbers.",
		 "parameters": {"type": "object", "properties": {"b": {"type": "number"}, "a": {"type": "number"}}, "required": ["b", "a"]},
		 "output": {"type": "number"}, "command": ["python3", "add.py"], "concurrencySafe": true, "timeout": "1m30s", "approval": "required"},
		{"name": "plain", "command": ["true"], "approval": "none"},
		{"name": "unsafe", "command": ["true"], "concurrencySafe": false}
	]}`), "json", dir, "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 3 {
		t.Fatalf("got %d tools, want 3", len(tools))
	}
	add := tools[0]
	if add.Name != "add" || add.Description != "Add two numbers." {
		t.Errorf("name, description = %q, %q", add.Name, add.Description)
	}
	if got, want := add.Parameters.String(), `{"type":"object","properties":{"b":{"type":"number"},"a":{"type":"number"}},"required":["b","a"]}`; got != want {
		t.Errorf("parameters = %s, want %s (key order kept)", got, want)
	}
	if got := add.Output.Schema.String(); got != `{"type":"number"}` {
		t.Errorf("output = %s", got)
	}
	if add.ConcurrencySafe == nil || !add.ConcurrencySafe(jsonv.MustParse(`{}`)) {
		t.Error("concurrencySafe: true did not give an always-true classifier")
	}
	if !add.RequiresApproval {
		t.Error(`"approval": "required" did not make the tool require approval`)
	}
	plain := tools[1]
	if plain.RequiresApproval {
		t.Error(`"approval": "none" made the tool require approval`)
	}
	if plain.Parameters.IsDefined() || plain.Output.Schema.String() != "{}" || plain.ConcurrencySafe != nil || plain.Description != "" {
		t.Errorf("plain tool has unexpected fields: %+v", plain)
	}
	if tools[2].ConcurrencySafe != nil {
		t.Error("concurrencySafe: false gave a classifier")
	}

	reg := newRegistry(t, tools...)
	if got := reg.Schemas(nil)[1].Parameters.String(); got != `{"type":"object"}` {
		t.Errorf("default parameters = %s, want an open object", got)
	}
	call := registry.Call{Name: "add", Arguments: jsonv.MustParse(`{"a":1,"b":2}`)}
	if got := reg.ExecutionMode(call); got != registry.Parallel {
		t.Errorf("ExecutionMode(add) = %s, want parallel", got)
	}
	call.Name = "plain"
	if got := reg.ExecutionMode(call); got != registry.Exclusive {
		t.Errorf("ExecutionMode(plain) = %s, want exclusive", got)
	}
	specs, err := parseSpecs([]byte(`{"tools": [{"name": "add", "command": ["python3", "add.py"], "timeout": "1m30s"}]}`), "json", dir, "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	if spec := specs[0]; spec.timeout != 90*time.Second || spec.dir != dir || strings.Join(spec.argv, " ") != "python3 add.py" {
		t.Errorf("spec = %+v", specs[0])
	}
}

func TestYAMLMatchesJSON(t *testing.T) {
	const jsonManifest = `{"tools": [{
		"name": "add",
		"description": "Add two numbers.",
		"parameters": {"type": "object", "properties": {"zeta": {"type": "number"}, "alpha": {"type": "integer", "minimum": -3, "maximum": 1.5}, "flag": {"type": "boolean", "default": true}, "note": {"type": ["string", "null"], "default": null, "examples": ["yes", "0x10", "1.0"]}}, "required": ["zeta", "alpha"]},
		"output": {"type": "number"},
		"command": ["python3", "add.py"],
		"concurrencySafe": true,
		"timeout": "5s"
	}]}`
	const yamlManifest = `
tools:
  - name: add
    description: Add two numbers.
    parameters:
      type: object
      properties:
        zeta: {type: number}
        alpha:
          type: integer
          minimum: -3
          maximum: 1.5
        flag: {type: boolean, default: true}
        note:
          type: [string, "null"]
          default: ~
          examples: ["yes", "0x10", "1.0"]
      required: [zeta, alpha]
    output: {type: number}
    command: [python3, add.py]
    concurrencySafe: true
    timeout: 5s
`
	dir := t.TempDir()
	jp := writeFile(t, dir, "tools.json", jsonManifest, 0o644)
	yp := writeFile(t, dir, "tools.yaml", yamlManifest, 0o644)
	ymlp := writeFile(t, dir, "tools.YML", yamlManifest, 0o644)
	jt, err := Load(jp)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{yp, ymlp} {
		yt, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(yt) != 1 || len(jt) != 1 {
			t.Fatalf("got %d and %d tools", len(yt), len(jt))
		}
		j, y := jt[0], yt[0]
		if j.Name != y.Name || j.Description != y.Description {
			t.Errorf("name/description differ: %q %q vs %q %q", j.Name, j.Description, y.Name, y.Description)
		}
		if j.Parameters.String() != y.Parameters.String() {
			t.Errorf("parameters differ:\njson %s\nyaml %s", j.Parameters, y.Parameters)
		}
		if j.Output.Schema.String() != y.Output.Schema.String() {
			t.Errorf("output differs: %s vs %s", j.Output.Schema, y.Output.Schema)
		}
		jsp, err := os.ReadFile(jp)
		if err != nil {
			t.Fatal(err)
		}
		ysp, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		jss, err1 := parseSpecs(jsp, "json", dir, jp)
		yss, err2 := parseSpecs(ysp, "yaml", dir, p)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		js, ys := jss[0], yss[0]
		if js.timeout != ys.timeout || strings.Join(js.argv, "\x00") != strings.Join(ys.argv, "\x00") || js.dir != ys.dir || (j.ConcurrencySafe == nil) != (y.ConcurrencySafe == nil) {
			t.Errorf("specs differ: %+v vs %+v", js, ys)
		}
	}
	keys := func(v jsonv.Value) []string {
		var out []string
		for _, m := range v.Members() {
			out = append(out, m.Key)
		}
		return out
	}
	yt, _ := Load(yp)
	if got := strings.Join(keys(yt[0].Parameters.Lookup("properties")), ","); got != "zeta,alpha,flag,note" {
		t.Errorf("YAML property order = %s, want zeta,alpha,flag,note", got)
	}
}

func TestYAMLScalarsAndAliases(t *testing.T) {
	tests := []struct {
		yaml string
		want string
	}{
		{"a: 1\nb: 1.5\nc: true\nd: null\ne: hello\nf: '1'\ng: ~\nh: -0.0\ni: 0x1F\nj: 1e3\nk: 2001-12-14\nl: !!str 12\nm: no", `{"a":1,"b":1.5,"c":true,"d":null,"e":"hello","f":"1","g":null,"h":0,"i":31,"j":1000,"k":"2001-12-14","l":"12","m":"no"}`},
		{"z: 1\ny: 2\nx: {c: 1, b: 2, a: 3}", `{"z":1,"y":2,"x":{"c":1,"b":2,"a":3}}`},
		{"base: &b {p: 1, q: 2}\nuse: {<<: *b, q: 3, r: 4}", `{"base":{"p":1,"q":2},"use":{"p":1,"q":3,"r":4}}`},
		{"a: &x [1, 2]\nb: *x", `{"a":[1,2],"b":[1,2]}`},
		{"a: []\nb: {}", `{"a":[],"b":{}}`},
		{"- 1\n- two", `[1,"two"]`},
		{"big: 12345678901234567890", `{"big":12345678901234567000}`},
	}
	for _, tt := range tests {
		v, err := parseYAML([]byte(tt.yaml))
		if err != nil {
			t.Errorf("parseYAML(%q): %v", tt.yaml, err)
			continue
		}
		if got := v.String(); got != tt.want {
			t.Errorf("parseYAML(%q) = %s, want %s", tt.yaml, got, tt.want)
		}
	}
}

func TestYAMLAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	_, err := parseYAML([]byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("alias bomb: err = %v, want an expansion limit error", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(filepath.Join(dir, "missing.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want a not-exist error", err)
	}
	p := writeFile(t, dir, "bad.yml", "tools:\n  - name: add\n    command: []\n", 0o644)
	_, err = Load(p)
	var me *ManifestError
	if !errors.As(err, &me) || me.File != p || me.Key != "command" {
		t.Errorf("Load(bad.yml) = %v, want a ManifestError for %s naming command", err, p)
	}
	// A file that is not .yaml/.yml is JSON.
	p = writeFile(t, dir, "tools.txt", "tools: []\n", 0o644)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Errorf("Load(tools.txt) = %v, want invalid JSON", err)
	}
}

func TestEmptyToolList(t *testing.T) {
	tools, err := Parse([]byte(`{"tools": []}`), "json", ".", "tools.json")
	if err != nil || len(tools) != 0 {
		t.Errorf("Parse(empty) = %v, %v", tools, err)
	}
}
