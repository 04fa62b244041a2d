// Package command loads command-backed tools from a tool manifest (JSON, or YAML when the file
// name ends in .yaml/.yml) and turns each entry into a registry.Tool.
//
//	tools, err := command.Load("tools.json")
//	_, err = reg.Register(tools...)
//
// [Load] reads a manifest file; [Parse] reads manifest text already in memory.
//
// A manifest looks like:
//
//	{"tools": [{
//	  "name": "add",
//	  "description": "Add two numbers.",
//	  "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}},
//	  "output": {"type": "number"},
//	  "command": ["python3", "add.py"],
//	  "concurrencySafe": true,
//	  "timeout": "5s",
//	  "approval": "required"
//	}]}
//
// A call runs the command with the manifest's directory as working directory (a relative
// program path such as ./add.sh is resolved against that directory; a bare name is looked up in
// PATH), writes the arguments to its stdin as one line of JSON and takes its stdout, which must
// be one JSON value, as the result. The command's environment is minimal: the host's PATH,
// HOME, USER, LOGNAME, SHELL, TERM, locale (LANG, LANGUAGE, LC_*), TZ and TMPDIR, plus the
// variables the entry's "inheritEnv" names ("NAME", "PREFIX_*"; true passes the whole
// environment), so secrets the host holds for MCP servers do not reach it. A non-zero exit is a
// tool failure whose message is the trimmed stderr, or "exit status N" when stderr is empty.
// Each call runs in its own process group; when the tool's timeout elapses or the caller
// cancels, the whole group is killed.
//
// Schemas keep their key order: JSON is decoded with jsonv, YAML through yaml.Node, so what the
// model and the generated SDK see is what the manifest says, in the order it says it.
package command

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/internal/childenv"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"

	"github.com/runcode-dev/runcode/internal/readlimit"
)

// maxOutput is the most a command may print on stdout, and separately on stderr.
const maxOutput = 64 << 20

// ManifestError is a problem with a tool manifest. It names the file, the tool and the key at
// fault; Error renders it as, for example,
//
//	tools.json: tool "add": unknown key "comand"
//	tools.json: tool #2: missing "name"
type ManifestError struct {
	// File labels the manifest, usually its path.
	File string
	// Tool is the offending tool's name, or "#N" (its 1-based position in "tools") when it has
	// no usable name. Empty for a problem outside any tool.
	Tool string
	// Key is the manifest key at fault ("command", "timeout", …); empty when no single key is.
	Key string
	// Message describes the problem; it mentions the key itself.
	Message string
}

// Error returns "<file>: tool <name or #N>: <message>", leaving out the parts that are empty.
func (e *ManifestError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Tool != "" {
		b.WriteString("tool ")
		if isIndexLabel(e.Tool) {
			b.WriteString(e.Tool)
		} else {
			b.WriteString(strconv.Quote(e.Tool))
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// isIndexLabel reports whether label is "#N", a tool named by position.
func isIndexLabel(label string) bool {
	if len(label) < 2 || label[0] != '#' {
		return false
	}
	for _, c := range label[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// maxManifestBytes bounds a manifest file (a FIFO or /dev/zero is cut there, not read forever).
const maxManifestBytes = 16 << 20

// Load reads the manifest at path and returns its tools. The manifest is YAML when the file
// name ends in .yaml or .yml (in any case), JSON otherwise. Commands run in the manifest's
// directory. Problems with the manifest's content are *ManifestError values naming path.
func Load(path string) ([]registry.Tool, error) {
	data, err := readlimit.File(path, maxManifestBytes)
	if err != nil {
		return nil, fmt.Errorf("tool manifest: %w", err)
	}
	format := "json"
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		format = "yaml"
	}
	return Parse(data, format, filepath.Dir(path), path)
}

// Parse parses manifest data and returns its tools in manifest order. format is "json" or
// "yaml"; dir is the manifest's directory, where commands run and against which relative program
// paths resolve (a relative dir is made absolute against the current directory now); name labels
// errors, usually the manifest's path. Every error is a *ManifestError.
func Parse(data []byte, format, dir, name string) ([]registry.Tool, error) {
	specs, err := parseSpecs(data, format, dir, name)
	if err != nil {
		return nil, err
	}
	tools := make([]registry.Tool, len(specs))
	for i, s := range specs {
		tools[i] = s.compiled
	}
	return tools, nil
}

// parseSpecs decodes and checks a manifest; see Parse.
func parseSpecs(data []byte, format, dir, name string) ([]*spec, error) {
	var doc jsonv.Value
	switch format {
	case "json":
		v, err := jsonv.Parse(data)
		if err != nil {
			return nil, &ManifestError{File: name, Message: "invalid JSON: " + strings.TrimPrefix(err.Error(), "jsonv: invalid JSON: ")}
		}
		doc = v
	case "yaml", "yml":
		v, err := parseYAML(data)
		if err != nil {
			return nil, &ManifestError{File: name, Message: "invalid YAML: " + err.Error()}
		}
		doc = v
	default:
		return nil, &ManifestError{File: name, Message: fmt.Sprintf("unknown manifest format %q (want \"json\" or \"yaml\")", format)}
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, &ManifestError{File: name, Message: fmt.Sprintf("manifest directory %q: %v", dir, err)}
	}
	specs, err := parseManifest(doc, name, registry.NewCompiler())
	if err != nil {
		return nil, err
	}
	for _, s := range specs {
		s.dir = absDir
	}
	return specs, nil
}

// spec is one parsed manifest entry.
type spec struct {
	name            string
	description     string
	parameters      jsonv.Value
	output          jsonv.Value
	argv            []string
	concurrencySafe bool
	needsApproval   bool          // "approval": "required"
	timeout         time.Duration // 0: none
	dir             string        // absolute
	maxOutput       int           // per stream; 0 means the package default
	inheritEnv      []string      // the host's variables the command gets beside childenv's defaults
	// compiled is tool() as the registry's Compiler checked it, carrying its compiled
	// schemas so that registering it compiles nothing again.
	compiled registry.Tool
}

// tool returns the registry.Tool that runs s.
func (s *spec) tool() registry.Tool {
	output := registry.AnyOutput()
	if s.output.IsDefined() {
		output = registry.OutputOf(s.output)
	}
	t := registry.Tool{
		Name:        s.name,
		Description: s.description,
		Parameters:  s.parameters,
		Output:      output,
		Execute:     s.execute,

		RequiresApproval: s.needsApproval,
	}
	if s.concurrencySafe {
		t.ConcurrencySafe = func(jsonv.Value) bool { return true }
	}
	return t
}

// parseManifest walks the decoded manifest.
func parseManifest(doc jsonv.Value, file string, compiler *registry.Compiler) ([]*spec, error) {
	if doc.Kind() != jsonv.Object {
		return nil, &ManifestError{File: file, Message: fmt.Sprintf("the manifest must be an object with a \"tools\" array, got %s", doc.Kind())}
	}
	var toolsV jsonv.Value
	for _, m := range doc.Members() {
		if m.Key != "tools" {
			return nil, &ManifestError{File: file, Key: m.Key, Message: fmt.Sprintf("unknown key %q (the manifest has only \"tools\")", m.Key)}
		}
		toolsV = m.Value
	}
	if !toolsV.IsDefined() {
		return nil, &ManifestError{File: file, Key: "tools", Message: `missing "tools"`}
	}
	if toolsV.Kind() != jsonv.Array {
		return nil, &ManifestError{File: file, Key: "tools", Message: fmt.Sprintf(`"tools" must be an array, got %s`, toolsV.Kind())}
	}
	items := toolsV.Items()
	specs := make([]*spec, 0, len(items))
	firstAt := map[string]int{}
	for i, item := range items {
		s, err := parseTool(item, i, file, compiler)
		if err != nil {
			return nil, err
		}
		if prev, dup := firstAt[s.name]; dup {
			return nil, &ManifestError{File: file, Tool: s.name, Key: "name", Message: fmt.Sprintf("duplicate name %q (tool #%d has it too)", s.name, prev+1)}
		}
		firstAt[s.name] = i
		specs = append(specs, s)
	}
	return specs, nil
}

// parseTool parses tools[index].
func parseTool(v jsonv.Value, index int, file string, compiler *registry.Compiler) (*spec, error) {
	label := "#" + strconv.Itoa(index+1)
	fail := func(key, format string, args ...any) error {
		return &ManifestError{File: file, Tool: label, Key: key, Message: fmt.Sprintf(format, args...)}
	}
	if v.Kind() != jsonv.Object {
		return nil, fail("", "must be an object, got %s", v.Kind())
	}
	// Name the tool by its name in every later message, when it has a usable one.
	if n := v.Lookup("name"); n.Kind() == jsonv.String && n.AsString() != "" {
		label = n.AsString()
	}
	s := &spec{}
	var haveName, haveCommand bool
	for i := range v.Len() {
		m := v.Member(i)
		val := m.Value
		switch m.Key {
		case "name":
			if val.Kind() != jsonv.String {
				return nil, fail("name", `"name" must be a string, got %s`, val.Kind())
			}
			if val.AsString() == "" {
				return nil, fail("name", `"name" must not be empty`)
			}
			if val.AsString() == registry.ReservedName {
				return nil, fail("name", `"name" %q is reserved for the Code Mode transport`, registry.ReservedName)
			}
			s.name, haveName = val.AsString(), true
		case "description":
			if val.Kind() != jsonv.String {
				return nil, fail("description", `"description" must be a string, got %s`, val.Kind())
			}
			s.description = val.AsString()
		case "parameters":
			s.parameters = val
		case "output":
			s.output = val
		case "command":
			if val.Kind() != jsonv.Array {
				return nil, fail("command", `"command" must be an array of strings (program and arguments), got %s`, val.Kind())
			}
			if val.Len() == 0 {
				return nil, fail("command", `"command" must not be empty`)
			}
			argv := make([]string, val.Len())
			for j, a := range val.Items() {
				if a.Kind() != jsonv.String {
					return nil, fail("command", `"command"[%d] must be a string, got %s`, j, a.Kind())
				}
				argv[j] = a.AsString()
			}
			if argv[0] == "" {
				return nil, fail("command", `"command"[0] (the program) must not be empty`)
			}
			if strings.IndexByte(strings.Join(argv, ""), 0) >= 0 {
				return nil, fail("command", `"command" must not contain NUL characters`)
			}
			s.argv, haveCommand = argv, true
		case "inheritEnv":
			switch val.Kind() {
			case jsonv.Bool:
				s.inheritEnv = nil
				if val.AsBool() {
					s.inheritEnv = []string{childenv.All}
				}
			case jsonv.Array:
				s.inheritEnv = make([]string, 0, val.Len())
				for j, p := range val.Items() {
					if p.Kind() != jsonv.String {
						return nil, fail("inheritEnv", `"inheritEnv"[%d] must be a string, got %s`, j, p.Kind())
					}
					if err := childenv.CheckPattern(p.AsString()); err != nil {
						return nil, fail("inheritEnv", `"inheritEnv"[%d]: %v`, j, err)
					}
					s.inheritEnv = append(s.inheritEnv, p.AsString())
				}
			default:
				return nil, fail("inheritEnv", `"inheritEnv" must be true, false or an array of variable names ("NAME", "PREFIX_*"), got %s`, val.Kind())
			}
		case "concurrencySafe":
			if val.Kind() != jsonv.Bool {
				return nil, fail("concurrencySafe", `"concurrencySafe" must be a boolean, got %s`, val.Kind())
			}
			s.concurrencySafe = val.AsBool()
		case "timeout":
			if val.Kind() != jsonv.String {
				return nil, fail("timeout", `"timeout" must be a duration string like "5s" or "1m30s", got %s`, val.Kind())
			}
			d, err := time.ParseDuration(val.AsString())
			if err != nil {
				return nil, fail("timeout", `"timeout" %q is not a duration like "5s" or "1m30s"`, val.AsString())
			}
			if d <= 0 {
				return nil, fail("timeout", `"timeout" %q must be positive`, val.AsString())
			}
			s.timeout = d
		case "approval":
			switch {
			case val.Kind() == jsonv.String && val.AsString() == "required":
				s.needsApproval = true
			case val.Kind() == jsonv.String && val.AsString() == "none":
			default:
				return nil, fail("approval", `"approval" must be "required" or "none", got %s`, val)
			}
		default:
			return nil, fail(m.Key, "unknown key %q", m.Key)
		}
	}
	if !haveName {
		return nil, fail("name", `missing "name"`)
	}
	if !haveCommand {
		return nil, fail("command", `missing "command"`)
	}
	// One compile per distinct schema, kept with the tool for its registration.
	compiled, err := compiler.Compile(context.Background(), s.tool())
	if err != nil {
		key, msg := schemaComplaint(s.name, err)
		return nil, fail(key, "%s", msg)
	}
	s.compiled = compiled
	return s, nil
}

// schemaComplaint rephrases the registry's complaint about a tool's schema to name the
// manifest key at fault: invalid "parameters" schema: <why>.
func schemaComplaint(name string, err error) (key, msg string) {
	msg = err.Error()
	var re *registry.Error
	if errors.As(err, &re) {
		msg = re.Message
	}
	msg = strings.TrimPrefix(msg, fmt.Sprintf("tool %q: ", name))
	for _, role := range []string{"parameters", "output"} {
		if rest, ok := strings.CutPrefix(msg, role+" schema"); ok {
			return role, fmt.Sprintf("invalid %q schema: %s", role, strings.TrimLeft(rest, ": "))
		}
	}
	return "", msg
}
