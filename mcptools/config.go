package mcptools

import (
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

// LoadConfig reads an MCP client configuration file (ParseConfig) with ${VAR} taken from the
// process environment.
func LoadConfig(file string) ([]Source, error) {
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
// The servers are the members of the top-level object "mcpServers" and of "servers" (both may
// be present; a name in both is an error); other top-level keys are the client's own and are
// ignored. An entry has:
//
//   - "type": "stdio", "http" or "streamable-http" (optional: the keys say which); "sse", the
//     older HTTP+SSE transport, is not supported;
//   - stdio: "command" (required), "args" (strings), "env" (an object of strings), "cwd",
//     "inheritEnv" (true, false, or variable names and "PREFIX_*" patterns: see
//     Source.InheritEnv; the command gets a minimal environment plus "env" otherwise);
//   - streamable HTTP: "url" (required), "headers" (an object of strings);
//   - runcode's own: "namespace" (true, the default: the server's name; false: its tools at
//     the top level; a string: that namespace), "include" and "exclude" (tool names),
//     "timeout" (per call, a Go duration such as "30s"), "concurrencySafe" (tool names),
//     "maxMessageBytes" (Source.MaxMessageBytes: a whole number from 1 KiB to 1 GiB).
//
// Any other key is an error naming the server and the key. In every string value, ${VAR},
// ${env:VAR} and ${VAR:-default} are replaced from lookup; an unset variable without a default
// is an error naming it. No error shows the value of a variable, an env value or a header
// value.
func ParseConfig(file string, data []byte, lookup func(string) (string, bool)) ([]Source, error) {
	fail := func(server, key, format string, args ...any) error {
		return &ConfigError{File: file, Server: server, Key: key, Message: fmt.Sprintf(format, args...)}
	}
	root, err := jsonv.Parse(data)
	if err != nil {
		return nil, fail("", "", "not valid JSON: %s", strings.TrimPrefix(err.Error(), "jsonv: "))
	}
	if root.Kind() != jsonv.Object {
		return nil, fail("", "", "must be a JSON object, not %s", root.Kind())
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
	dir := filepath.Dir(file)
	sources := make([]Source, 0, len(entries))
	for _, e := range entries {
		src, err := parseEntry(e.Key, e.Value, dir, lookup)
		if err != nil {
			err.File = file
			return nil, err
		}
		sources = append(sources, src)
	}
	return sources, nil
}

// parseEntry parses one server entry; the error's File is the caller's to set.
func parseEntry(name string, v jsonv.Value, dir string, lookup func(string) (string, bool)) (Source, *ConfigError) {
	fail := func(key, format string, args ...any) *ConfigError {
		return &ConfigError{Server: name, Key: key, Message: fmt.Sprintf(format, args...)}
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
		s, err := Expand(x.AsString(), lookup)
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
			s, err := Expand(m.Value.AsString(), lookup)
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
		case "timeout":
			var s string
			if s, err = str(m.Key, m.Value); err == nil {
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
			err = fail(m.Key, "unknown key (known: type, command, args, env, inheritEnv, cwd, url, headers, namespace, include, exclude, timeout, concurrencySafe, maxMessageBytes)")
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
	if command != "" {
		if strings.ContainsRune(command, '/') && !filepath.IsAbs(command) {
			command = filepath.Join(dir, command) // "./server.sh" is next to the file
		}
		src.Command = append([]string{command}, args...)
	}
	return src, nil
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
// values from lookup. A variable that is not set, and has no default, is an error naming it;
// so is a "${" without its "}". A "$" not followed by "{" is kept.
func Expand(s string, lookup func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i+2:], '}')
		if end < 0 {
			return "", errors.New("a ${ without its closing }") // the text may be a secret: not quoted
		}
		ref := s[i+2 : i+2+end]
		s = s[i+2+end+1:]
		name, def, hasDefault := strings.Cut(ref, ":-")
		name = strings.TrimPrefix(name, "env:")
		if !validVarName(name) {
			return "", fmt.Errorf("${%s} is not a supported reference (use ${VAR}, ${env:VAR} or ${VAR:-default})", ref)
		}
		v, ok := lookup(name)
		switch {
		case ok:
		case hasDefault:
			v = def
		default:
			return "", fmt.Errorf("environment variable %s is not set (referred to as ${%s})", name, ref)
		}
		b.WriteString(v)
	}
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
