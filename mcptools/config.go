package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/internal/childenv"
	"github.com/runcode-dev/runcode/jsonv"

	"github.com/runcode-dev/runcode/internal/readlimit"
)

// ConfigError is a problem with an MCP client configuration file. Its message names the file,
// the server and the key; it never contains a header or env value.
type ConfigError struct {
	File    string // the file, as given
	Server  string // the server's name; "" for the file as a whole
	Key     string // the entry's key; "" for the entry as a whole
	Message string
}

// Error returns "config FILE: server "S": key "K": message".
func (e *ConfigError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "config %s: ", e.File)
	if e.Server != "" {
		fmt.Fprintf(&b, "server %q: ", e.Server)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, "%q: ", e.Key)
	}
	b.WriteString(e.Message)
	return b.String()
}

// maxConfigBytes bounds a configuration file.
const maxConfigBytes = 16 << 20

// The bounds of "maxMessageBytes" in a configuration file.
const (
	minMaxMessageBytes = 1 << 10
	maxMaxMessageBytes = 1 << 30
)

// Config is what ParseConfig read from a configuration file.
type Config struct {
	// Sources are the servers to start or dial, in file order.
	Sources []Source
	// Disabled names the servers the file marks "disabled": true, in file order; they are not
	// among Sources.
	Disabled []string
	// Notes are what a host shows its user once, one line each naming the file: the servers
	// skipped as disabled, and keys runcode accepts but does not act on yet.
	Notes []string
}

// LoadConfig reads an MCP client configuration file (ParseConfig) with ${VAR} taken from the
// process environment.
func LoadConfig(file string) (*Config, error) {
	data, err := readlimit.File(file, maxConfigBytes)
	if _, ok := errors.AsType[*readlimit.TooLargeError](err); ok {
		return nil, &ConfigError{File: file, Message: fmt.Sprintf("larger than %d bytes", maxConfigBytes)}
	}
	if err != nil {
		return nil, &ConfigError{File: file, Message: err.Error()}
	}
	return ParseConfig(file, data, os.LookupEnv)
}

// ParseConfig turns the JSON of an MCP client configuration (the shape desktop apps, editors
// and agent CLIs keep their servers in) into one Source per server, in file order. file names
// the file in errors, and its directory is where a relative cwd or command path ("./server")
// is resolved. lookup gives the variables ${VAR} refers to.
//
// The text may be JSONC, as VS Code writes it: "//" and "/* */" comments and trailing commas
// are allowed. A key given twice in the servers' part of the file (a server's name, an entry's
// key, an env or header name) is an error naming it: JSON parsers keep only one of the two.
//
// The servers are the members of the top-level object "mcpServers" and of "servers" (both may
// be present; a name in both is an error); other top-level keys are the client's own and are
// ignored (VS Code's "inputs" among them: see below). An entry has:
//
//   - "type": "stdio", "http" or "streamable-http" (optional: the keys say which); "sse", the
//     older HTTP+SSE transport, is not supported;
//   - stdio: "command" (required), "args" (strings), "env" (an object of strings), "cwd",
//     "inheritEnv" (true, false, or variable names and "PREFIX_*" patterns: see
//     Source.InheritEnv; the command gets a minimal environment plus "env" otherwise);
//   - streamable HTTP: "url" (required), "headers" (an object of strings);
//   - "disabled" (a boolean, as Cline, Roo Code and Windsurf write it): true skips the server,
//     listed in Config.Disabled and Config.Notes; nothing else in a disabled entry is read;
//   - approvals (see Source.Approval): "approval" ("required": every tool of the server needs
//     approval; "none": none does, whatever its annotations), "approve" and "requireApproval"
//     (tool names that need approval, beside those annotated destructiveHint: true), and
//     "autoApprove" and "alwaysAllow" (tool names that never need approval: the lists of Cline
//     and Roo Code); a name both needing approval and auto-approved is an error;
//   - runcode's own: "namespace" (true, the default: the server's name; false: its tools at
//     the top level; a string: that namespace), "include" and "exclude" (tool names),
//     "timeout" (per call, a Go duration such as "30s"), "concurrencySafe" (tool names),
//     "maxMessageBytes" (Source.MaxMessageBytes: a whole number from 1 KiB to 1 GiB).
//
// Any other key is an error naming the server and the key. In every string value, ${VAR},
// ${env:VAR} and ${VAR:-default} are replaced from lookup (see Expand; a default may hold
// references itself); an unset variable without a default is an error naming it, and so is
// ${input:ID}, a VS Code prompt, which runcode cannot answer. Every value taken from lookup is
// also put in the Source's Secrets. No error shows the value of a variable, an env value or a
// header value.
func ParseConfig(file string, data []byte, lookup func(string) (string, bool)) (*Config, error) {
	fail := func(server, key, format string, args ...any) error {
		return &ConfigError{File: file, Server: server, Key: key, Message: fmt.Sprintf(format, args...)}
	}
	// A byte order mark, as some Windows editors write one, is not part of the JSON.
	data, err := stripJSONC(bytes.TrimPrefix(data, []byte("\ufeff")))
	if err != nil {
		return nil, fail("", "", "not valid JSON: %v", err)
	}
	root, err := jsonv.Parse(data)
	if err != nil {
		return nil, fail("", "", "not valid JSON: %s", strings.TrimPrefix(err.Error(), "jsonv: "))
	}
	if root.Kind() != jsonv.Object {
		return nil, fail("", "", "must be a JSON object, not %s", root.Kind())
	}
	if path := duplicateKey(data); path != nil {
		return nil, duplicateError(file, path)
	}
	var entries []jsonv.Member
	found := false
	for _, top := range [...]string{"mcpServers", "servers"} {
		v, ok := root.Get(top)
		if !ok {
			continue
		}
		found = true
		if v.Kind() != jsonv.Object {
			return nil, fail("", top, "must be an object of servers by name, not %s", v.Kind())
		}
		for _, m := range v.Members() {
			if slices.ContainsFunc(entries, func(e jsonv.Member) bool { return e.Key == m.Key }) {
				return nil, fail(m.Key, "", "defined in both \"mcpServers\" and \"servers\"")
			}
			entries = append(entries, m)
		}
	}
	if !found {
		return nil, fail("", "", `has no "mcpServers" or "servers" object`)
	}
	p := entryParser{dir: filepath.Dir(file), lookup: lookup, inputs: vsCodeInputs(root)}
	cfg := &Config{Sources: make([]Source, 0, len(entries))}
	for _, e := range entries {
		if d, ok := e.Value.Get("disabled"); ok && e.Value.Kind() == jsonv.Object {
			if d.Kind() != jsonv.Bool {
				return nil, fail(e.Key, "disabled", "must be true or false, not %s", d.Kind())
			}
			if d.AsBool() {
				cfg.Disabled = append(cfg.Disabled, e.Key)
				cfg.Notes = append(cfg.Notes, fmt.Sprintf("config %s: server %q is disabled (\"disabled\": true); skipped", file, e.Key))
				continue
			}
		}
		src, err := p.parse(e.Key, e.Value)
		if err != nil {
			err.File = file
			return nil, err
		}
		cfg.Sources = append(cfg.Sources, src)
	}
	return cfg, nil
}

// vsCodeInputs returns the descriptions of the prompts a VS Code mcp.json declares in its
// top-level "inputs" ([{"id": …, "type": "promptString", "description": …}]) by id, for the
// error of a server that refers to one. Anything else there is the client's business.
func vsCodeInputs(root jsonv.Value) map[string]string {
	inputs := map[string]string{}
	for _, in := range root.Lookup("inputs").Items() {
		if id := in.Lookup("id"); id.Kind() == jsonv.String {
			inputs[id.AsString()] = in.Lookup("description").AsString()
		}
	}
	return inputs
}

// duplicateKey returns the path to the first key given twice in an object of the servers'
// part of data (a top-level "mcpServers" or "servers" and everything in them), or nil. data is
// JSON that jsonv.Parse accepted.
func duplicateKey(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	// walk reads one value; in says whether its keys count.
	var walk func(path []string, in bool) []string
	walk = func(path []string, in bool) []string {
		tok, err := dec.Token()
		if err != nil {
			return nil // cannot happen for text jsonv.Parse accepted
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				tok, err := dec.Token()
				if err != nil {
					return nil
				}
				key, _ := tok.(string)
				counts := in || len(path) == 0 && (key == "mcpServers" || key == "servers")
				if counts && seen[key] {
					return append(path, key)
				}
				seen[key] = true
				if dup := walk(append(path[:len(path):len(path)], key), counts); dup != nil {
					return dup
				}
			}
			dec.Token() // }
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if dup := walk(append(path[:len(path):len(path)], fmt.Sprintf("[%d]", i)), in); dup != nil {
					return dup
				}
			}
			dec.Token() // ]
		}
		return nil
	}
	return walk(nil, false)
}

// duplicateError names a key duplicateKey found: the section, the server, or the key within
// the server's entry.
func duplicateError(file string, path []string) error {
	const lost = "given twice (JSON keeps only one of them: remove or rename the other)"
	e := &ConfigError{File: file}
	switch len(path) {
	case 1:
		e.Key, e.Message = path[0], lost
	case 2:
		e.Server, e.Message = path[1], fmt.Sprintf("defined twice in %q: a server name must be given once", path[0])
	default:
		e.Server, e.Key = path[1], path[2]
		e.Message = lost
		if len(path) > 3 {
			e.Message = fmt.Sprintf("%q is %s", strings.Join(path[3:], "."), lost)
		}
	}
	return e
}

// entryParser parses the server entries of one file.
type entryParser struct {
	dir    string // the file's directory
	lookup func(string) (string, bool)
	inputs map[string]string // VS Code's prompts: description by id
}

// foreignKeyHint says what to write instead of a key other clients take and runcode does not.
func foreignKeyHint(key string) (string, bool) {
	switch key {
	case "envFile": // VS Code, Cursor
		return `runcode does not read env files: put the variables in "env"`, true
	case "disabledTools": // Roo Code, Windsurf
		return `use "exclude" (tool names)`, true
	case "transportType": // Cline
		return `use "type"`, true
	case "httpUrl": // Gemini CLI
		return `use "url"`, true
	}
	return "", false
}

// parse parses one server entry; the error's File is the caller's to set.
func (p *entryParser) parse(name string, v jsonv.Value) (Source, *ConfigError) {
	dir := p.dir
	fail := func(key, format string, args ...any) *ConfigError {
		return &ConfigError{Server: name, Key: key, Message: fmt.Sprintf(format, args...)}
	}
	// expand expands the references in s, keeping every value it took from the environment
	// as one of the server's secrets.
	var secrets []string
	expand := func(s string) (string, error) {
		out, used, err := expand(s, p.lookup)
		if err != nil {
			var ie *inputRefError
			if errors.As(err, &ie) {
				return "", p.inputError(ie)
			}
			return "", err
		}
		for _, u := range used {
			if u != "" && !slices.Contains(secrets, u) {
				secrets = append(secrets, u)
			}
		}
		return out, nil
	}
	if name == "" {
		return Source{}, fail("", "a server needs a non-empty name")
	}
	if v.Kind() != jsonv.Object {
		return Source{}, fail("", "must be an object, not %s", v.Kind())
	}
	src := Source{Name: name, Namespace: name}
	str := func(key string, x jsonv.Value) (string, *ConfigError) {
		if x.Kind() != jsonv.String {
			return "", fail(key, "must be a string, not %s", x.Kind())
		}
		s, err := expand(x.AsString())
		if err != nil {
			return "", fail(key, "%v", err)
		}
		return s, nil
	}
	strs := func(key string, x jsonv.Value) ([]string, *ConfigError) {
		if x.Kind() != jsonv.Array {
			return nil, fail(key, "must be an array of strings, not %s", x.Kind())
		}
		out := make([]string, 0, x.Len())
		for i, item := range x.Items() {
			s, err := str(fmt.Sprintf("%s[%d]", key, i), item)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	}
	// secretMap reads env or headers; its errors name the member, never its value.
	secretMap := func(key string, x jsonv.Value) (map[string]string, *ConfigError) {
		if x.Kind() != jsonv.Object {
			return nil, fail(key, "must be an object of strings, not %s", x.Kind())
		}
		out := make(map[string]string, x.Len())
		for _, m := range x.Members() {
			if m.Value.Kind() != jsonv.String {
				return nil, fail(key, "%q must be a string, not %s", m.Key, m.Value.Kind())
			}
			s, err := expand(m.Value.AsString())
			if err != nil {
				return nil, fail(key, "%q: %v", m.Key, err)
			}
			out[m.Key] = s
		}
		return out, nil
	}
	var typ, command string
	var args []string
	var err *ConfigError
	for _, m := range v.Members() {
		switch m.Key {
		case "type":
			if typ, err = str(m.Key, m.Value); err == nil {
				switch typ {
				case "stdio", "http", "streamable-http", "streamableHttp":
				case "sse":
					err = fail(m.Key, `"sse" (the older HTTP+SSE transport) is not supported: use the server's streamable HTTP endpoint with "type": "http"`)
				default: // quoted as written: an expanded variable is not shown
					err = fail(m.Key, `must be "stdio" or "http", not %q`, m.Value.AsString())
				}
			}
		case "command":
			command, err = str(m.Key, m.Value)
			if err == nil && command == "" {
				err = fail(m.Key, "must not be empty")
			}
		case "args":
			args, err = strs(m.Key, m.Value)
		case "env":
			src.Env, err = secretMap(m.Key, m.Value)
		case "inheritEnv":
			src.InheritEnv, err = inheritEnv(m.Value, fail)
		case "cwd":
			if src.Dir, err = str(m.Key, m.Value); err == nil && src.Dir != "" && !filepath.IsAbs(src.Dir) {
				src.Dir = filepath.Join(dir, src.Dir)
			}
		case "url":
			src.URL, err = str(m.Key, m.Value)
			if err == nil && src.URL == "" {
				err = fail(m.Key, "must not be empty")
			}
		case "headers":
			src.Headers, err = secretMap(m.Key, m.Value)
			if err == nil {
				// In name order, so that of several bad names the error always names the same.
				for _, h := range slices.Sorted(maps.Keys(src.Headers)) {
					if !ValidHeaderName(h) {
						err = fail(m.Key, "%q is not a valid header name", h)
						break
					}
				}
			}
		case "namespace":
			switch m.Value.Kind() {
			case jsonv.Bool:
				if !m.Value.AsBool() {
					src.Namespace = ""
				}
			case jsonv.String:
				if src.Namespace, err = str(m.Key, m.Value); err == nil && src.Namespace == "" {
					err = fail(m.Key, "must not be empty (false puts the tools at the top level)")
				}
			default:
				err = fail(m.Key, "must be true, false or a name, not %s", m.Value.Kind())
			}
		case "include":
			src.Include, err = strs(m.Key, m.Value)
		case "exclude":
			src.Exclude, err = strs(m.Key, m.Value)
		case "concurrencySafe":
			src.ConcurrencySafe, err = strs(m.Key, m.Value)
		case "disabled": // false: ParseConfig skipped the entry when true
			if m.Value.Kind() != jsonv.Bool {
				err = fail(m.Key, "must be true or false, not %s", m.Value.Kind())
			}
		case "autoApprove", "alwaysAllow":
			var names []string
			if names, err = strs(m.Key, m.Value); err == nil {
				if src.AutoApprove == nil {
					src.AutoApprove = []string{}
				}
				for _, n := range names {
					if !slices.Contains(src.AutoApprove, n) {
						src.AutoApprove = append(src.AutoApprove, n)
					}
				}
			}
		case "approval":
			var policy string
			if policy, err = str(m.Key, m.Value); err == nil {
				switch ApprovalPolicy(policy) {
				case ApprovalRequired, ApprovalNone:
					src.Approval = ApprovalPolicy(policy)
				default:
					err = fail(m.Key, `must be "required" or "none", not %q`, m.Value.AsString())
				}
			}
		case "approve", "requireApproval":
			var names []string
			if names, err = strs(m.Key, m.Value); err == nil {
				for _, n := range names {
					if !slices.Contains(src.RequireApproval, n) {
						src.RequireApproval = append(src.RequireApproval, n)
					}
				}
			}
		case "timeout":
			var s string
			if m.Value.Kind() == jsonv.Number {
				// Cline and Roo Code write seconds, Gemini CLI milliseconds.
				err = fail(m.Key, "must be a duration with its unit, such as \"30s\", not a number (clients disagree on a number's unit)")
			} else if s, err = str(m.Key, m.Value); err == nil {
				d, perr := time.ParseDuration(s)
				switch {
				case perr != nil:
					err = fail(m.Key, "%q is not a duration (use Go syntax such as \"30s\")", m.Value.AsString())
				case d <= 0:
					err = fail(m.Key, "must be positive, not %q", m.Value.AsString())
				default:
					src.CallTimeout = d
				}
			}
		case "maxMessageBytes":
			n := m.Value.AsNumber()
			switch {
			case m.Value.Kind() != jsonv.Number:
				err = fail(m.Key, "must be a number of bytes, not %s", m.Value.Kind())
			case n != math.Trunc(n):
				err = fail(m.Key, "must be a whole number of bytes")
			case n < minMaxMessageBytes || n > maxMaxMessageBytes:
				err = fail(m.Key, "must be between %d (1 KiB) and %d (1 GiB) bytes", minMaxMessageBytes, maxMaxMessageBytes)
			default:
				src.MaxMessageBytes = int(n)
			}
		default:
			if hint, ok := foreignKeyHint(m.Key); ok {
				err = fail(m.Key, "not supported: %s", hint)
			} else {
				err = fail(m.Key, "unknown key (known: type, command, args, env, inheritEnv, cwd, url, headers, namespace, include, exclude, timeout, concurrencySafe, maxMessageBytes, disabled, approval, approve, requireApproval, autoApprove, alwaysAllow)")
			}
		}
		if err != nil {
			return Source{}, err
		}
	}
	switch {
	case command != "" && src.URL != "":
		return Source{}, fail("", `has both "command" and "url": a server is either started (stdio) or dialled (http)`)
	case command == "" && src.URL == "":
		return Source{}, fail("", `needs "command" (a server started over stdio) or "url" (a streamable HTTP server)`)
	case command != "" && typ != "" && typ != "stdio":
		return Source{}, fail("type", "is %q but the entry has a \"command\"", v.Lookup("type").AsString())
	case src.URL != "" && typ == "stdio":
		return Source{}, fail("type", `is "stdio" but the entry has a "url"`)
	case command != "" && len(src.Headers) > 0:
		return Source{}, fail("headers", `need a "url"; a stdio server takes "env"`)
	case src.URL != "" && (len(src.Env) > 0 || src.Dir != "" || args != nil || src.InheritEnv != nil):
		return Source{}, fail("", `"args", "env", "inheritEnv" and "cwd" need a "command", not a "url"`)
	}
	for _, n := range src.RequireApproval {
		if slices.Contains(src.AutoApprove, n) {
			return Source{}, fail("autoApprove", "names tool %q, which the entry also says needs approval: keep it in one list", n)
		}
	}
	if command != "" {
		if strings.ContainsRune(command, '/') && !filepath.IsAbs(command) {
			command = filepath.Join(dir, command) // "./server.sh" is next to the file
		}
		src.Command = append([]string{command}, args...)
	}
	src.Secrets = secrets
	return src, nil
}

// inputError explains a ${input:ID}: a value VS Code asks its user for when it starts the
// server, which runcode, started without a user to ask, cannot do.
func (p *entryParser) inputError(e *inputRefError) error {
	what := fmt.Sprintf("${input:%s} is a value VS Code prompts for", e.id)
	if desc, ok := p.inputs[e.id]; ok && desc != "" {
		what += fmt.Sprintf(" (%q)", desc)
	}
	return fmt.Errorf("%s, and runcode cannot prompt: set an environment variable and write ${env:NAME}, or mark the server \"disabled\": true", what)
}

// inheritEnv reads an entry's "inheritEnv": true (the whole environment), false (none beyond
// the minimal one), or an array of variable names and "PREFIX_*" patterns.
func inheritEnv(v jsonv.Value, fail func(key, format string, args ...any) *ConfigError) ([]string, *ConfigError) {
	const key = "inheritEnv"
	switch v.Kind() {
	case jsonv.Bool:
		if v.AsBool() {
			return []string{childenv.All}, nil
		}
		return nil, nil
	case jsonv.Array:
		out := make([]string, 0, v.Len())
		for i, item := range v.Items() {
			if item.Kind() != jsonv.String {
				return nil, fail(key, "[%d] must be a string, not %s", i, item.Kind())
			}
			if err := childenv.CheckPattern(item.AsString()); err != nil {
				return nil, fail(key, "[%d]: %v", i, err)
			}
			out = append(out, item.AsString())
		}
		return out, nil
	}
	return nil, fail(key, `must be true, false or an array of variable names ("NAME", "PREFIX_*"), not %s`, v.Kind())
}

// ValidHeaderName reports whether h is an HTTP header field name (an RFC 9110 token).
func ValidHeaderName(h string) bool {
	if h == "" {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// Expand replaces ${VAR}, ${env:VAR} (as editors write it) and ${VAR:-default} in s with
// values from lookup. A default is used when the variable is not set (an empty value is a
// value), and may itself hold references: ${A:-${B:-x}} is A, else B, else "x"; only the
// references it uses must be set. A variable that is not set and has no default is an error
// naming it; so is a "${" without its "}", a reference nested more than maxRefDepth deep, and
// any other form (${input:ID}, ${workspaceFolder:x}, ${A-b}). A "$" not followed by "{" is kept,
// and so is a "}" outside a reference.
func Expand(s string, lookup func(string) (string, bool)) (string, error) {
	out, _, err := expand(s, lookup)
	return out, err
}

// maxRefDepth bounds the nesting of references in defaults.
const maxRefDepth = 8

// inputRefError is a ${input:ID} reference: a VS Code prompt.
type inputRefError struct{ id string }

func (e *inputRefError) Error() string {
	return fmt.Sprintf("${input:%s} is a VS Code prompt, which runcode cannot answer (use ${env:NAME})", e.id)
}

// expand is Expand that also returns the values it took from lookup (in order, repeats
// included), which are the caller's secrets.
func expand(s string, lookup func(string) (string, bool)) (string, []string, error) {
	if !strings.Contains(s, "${") {
		return s, nil, nil
	}
	x := expander{lookup: lookup}
	out, _, err := x.text(s, 0, true)
	return out, x.used, err
}

// expander expands references; its errors show a reference's name, never a value.
type expander struct {
	lookup func(string) (string, bool)
	used   []string
}

// text expands s: at depth 0 all of it; inside a default (depth > 0) up to the "}" that closes
// the reference around it, returning what follows that "}". With eval false (a default that
// is not used) references are checked but not looked up.
func (x *expander) text(s string, depth int, eval bool) (out, rest string, err error) {
	var b strings.Builder
	for {
		open := strings.Index(s, "${")
		if depth > 0 {
			if end := strings.IndexByte(s, '}'); end >= 0 && (open < 0 || end < open) {
				b.WriteString(s[:end])
				return b.String(), s[end+1:], nil
			}
		}
		if open < 0 {
			if depth > 0 {
				return "", "", errors.New("a ${ without its closing }") // the text may be a secret: not quoted
			}
			b.WriteString(s)
			return b.String(), "", nil
		}
		b.WriteString(s[:open])
		v, after, err := x.ref(s[open+2:], depth+1, eval)
		if err != nil {
			return "", "", err
		}
		b.WriteString(v)
		s = after
	}
}

// ref expands one reference, s being the text after its "${", and returns what follows it.
func (x *expander) ref(s string, depth int, eval bool) (value, rest string, err error) {
	if depth > maxRefDepth {
		return "", "", fmt.Errorf("references nested more than %d deep", maxRefDepth)
	}
	prefix := ""
	if strings.HasPrefix(s, "env:") {
		prefix = "env:"
	}
	n := len(prefix)
	for n < len(s) && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9') {
		n++
	}
	name := s[len(prefix):n]
	after := s[n:]
	if !validVarName(name) || !strings.HasPrefix(after, "}") && !strings.HasPrefix(after, ":-") {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", "", errors.New("a ${ without its closing }") // the text may be a secret: not quoted
		}
		if id, ok := strings.CutPrefix(s[:end], "input:"); ok {
			return "", "", &inputRefError{id: id}
		}
		return "", "", fmt.Errorf("${%s} is not a supported reference (use ${VAR}, ${env:VAR} or ${VAR:-default})", s[:end])
	}
	v, set := x.lookup(name)
	if after[0] == '}' {
		switch {
		case !eval:
			return "", after[1:], nil
		case !set && vsCodeVariable(name):
			return "", "", fmt.Errorf("${%s} is a VS Code variable, which runcode does not know: write the value, or set an environment variable %s", name, name)
		case !set:
			return "", "", fmt.Errorf("environment variable %s is not set (referred to as ${%s%s})", name, prefix, name)
		}
		x.used = append(x.used, v)
		return v, after[1:], nil
	}
	// The default is read even when it is not used: a malformed one is an error either way.
	def, rest, err := x.text(after[2:], depth, eval && !set)
	if err != nil || !eval {
		return "", rest, err
	}
	if !set {
		return def, rest, nil
	}
	x.used = append(x.used, v)
	return v, rest, nil
}

// vsCodeVariable reports whether name is one of the variables VS Code itself substitutes in
// its mcp.json (its "predefined variables").
func vsCodeVariable(name string) bool {
	switch name {
	case "workspaceFolder", "workspaceFolderBasename", "userHome", "cwd", "pathSeparator", "file", "fileDirname", "relativeFile", "execPath":
		return true
	}
	return false
}

// validVarName reports whether name is an environment variable name: [A-Za-z_][A-Za-z0-9_]*.
func validVarName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
