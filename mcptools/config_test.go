package mcptools

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func testEnv(name string) (string, bool) {
	v, ok := map[string]string{"HOME": "/home/u", "TOKEN": "tok-secret-123", "EMPTY": ""}[name]
	return v, ok
}

func TestParseConfigShapes(t *testing.T) {
	data := `{
	  "globalShortcut": "ignored: the client's own setting",
	  "mcpServers": {
	    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
	               "env": {"MEMORY_FILE_PATH": "${HOME}/memory.json"}, "cwd": "work",
	               "include": ["read_graph"], "timeout": "5s", "concurrencySafe": ["read_graph"]},
	    "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${env:TOKEN}"}, "maxMessageBytes": 1048576},
	    "flat": {"command": "./srv.sh", "namespace": false, "exclude": ["x"], "inheritEnv": ["NODE_OPTIONS", "AWS_*"]}
	  },
	  "servers": {
	    "named": {"type": "stdio", "command": "/bin/srv", "namespace": "other", "inheritEnv": true},
	    "none": {"command": "/bin/srv", "inheritEnv": false},
	    "dflt": {"type": "streamable-http", "url": "http://h/${MISSING:-mcp}${EMPTY}"}
	  }
	}`
	cfg, err := ParseConfig("/etc/cfg/mcp.json", []byte(data), testEnv)
	if err != nil {
		t.Fatal(err)
	}
	got := cfg.Sources
	want := []Source{
		{Name: "memory", Namespace: "memory", Command: []string{"npx", "-y", "@modelcontextprotocol/server-memory"},
			Env: map[string]string{"MEMORY_FILE_PATH": "/home/u/memory.json"}, Dir: "/etc/cfg/work", Secrets: []string{"/home/u"},
			Include: []string{"read_graph"}, CallTimeout: 5 * time.Second, ConcurrencySafe: []string{"read_graph"}},
		{Name: "remote", Namespace: "remote", URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer tok-secret-123"}, MaxMessageBytes: 1 << 20, Secrets: []string{"tok-secret-123"}},
		{Name: "flat", Command: []string{filepath.Join("/etc/cfg", "srv.sh")}, Exclude: []string{"x"}, InheritEnv: []string{"NODE_OPTIONS", "AWS_*"}},
		{Name: "named", Namespace: "other", Command: []string{"/bin/srv"}, InheritEnv: []string{"*"}},
		{Name: "none", Namespace: "none", Command: []string{"/bin/srv"}},
		{Name: "dflt", Namespace: "dflt", URL: "http://h/mcp"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestParseConfigErrors(t *testing.T) {
	cases := []struct{ data, want string }{
		{`[]`, `config c.json: must be a JSON object, not array`},
		{`{"x": 1`, `config c.json: not valid JSON`},
		{`{"other": {}}`, `config c.json: has no "mcpServers" or "servers" object`},
		{`{"mcpServers": []}`, `config c.json: "mcpServers": must be an object of servers by name, not array`},
		{`{"mcpServers": {"a": {"command": "x"}}, "servers": {"a": {"command": "y"}}}`, `server "a": defined in both`},
		{`{"mcpServers": {"m": {"command": "x", "bogus": 1}}}`, `config c.json: server "m": "bogus": unknown key`},
		{`{"mcpServers": {"m": {"command": "x", "envFile": ".env"}}}`, `server "m": "envFile": not supported`},
		{`{"mcpServers": {"m": {"url": "http://x", "type": "sse"}}}`, `server "m": "type": "sse" (the older HTTP+SSE transport) is not supported`},
		{`{"mcpServers": {"m": {"url": "http://x", "type": "ws"}}}`, `server "m": "type": must be "stdio" or "http", not "ws"`},
		{`{"mcpServers": {"m": {}}}`, `server "m": needs "command"`},
		{`{"mcpServers": {"m": {"command": "x", "url": "http://x"}}}`, `server "m": has both "command" and "url"`},
		{`{"mcpServers": {"m": {"command": "x", "type": "http"}}}`, `server "m": "type": is "http" but the entry has a "command"`},
		{`{"mcpServers": {"m": {"url": "http://x", "type": "stdio"}}}`, `"type": is "stdio" but the entry has a "url"`},
		{`{"mcpServers": {"m": {"command": "x", "headers": {"A": "b"}}}}`, `server "m": "headers": need a "url"`},
		{`{"mcpServers": {"m": {"url": "http://x", "env": {"A": "b"}}}}`, `"args", "env", "inheritEnv" and "cwd" need a "command"`},
		{`{"mcpServers": {"m": {"url": "http://x", "inheritEnv": ["A"]}}}`, `"args", "env", "inheritEnv" and "cwd" need a "command"`},
		{`{"mcpServers": {"m": {"command": "x", "inheritEnv": "PATH"}}}`, `server "m": "inheritEnv": must be true, false or an array of variable names`},
		{`{"mcpServers": {"m": {"command": "x", "inheritEnv": ["A", 1]}}}`, `"inheritEnv": [1] must be a string, not number`},
		{`{"mcpServers": {"m": {"command": "x", "inheritEnv": ["A", "B-C"]}}}`, `"inheritEnv": [1]: "B-C" is not a variable name or a "PREFIX_*" pattern`},
		{`{"mcpServers": {"m": {"command": "x", "inheritEnv": ["*_KEY"]}}}`, `"inheritEnv": [0]: "*_KEY": a "*" may only end a pattern`},
		{`{"mcpServers": {"m": {"command": "x", "args": "a b"}}}`, `"args": must be an array of strings, not string`},
		{`{"mcpServers": {"m": {"command": "x", "args": ["a", 2]}}}`, `"args[1]": must be a string, not number`},
		{`{"mcpServers": {"m": {"command": "x", "env": {"K": 1}}}}`, `"env": "K" must be a string, not number`},
		{`{"mcpServers": {"m": {"command": "x", "env": {"K": "${NOPE}"}}}}`, `server "m": "env": "K": environment variable NOPE is not set`},
		{`{"mcpServers": {"m": {"command": "${NOPE2}/bin"}}}`, `"command": environment variable NOPE2 is not set`},
		{`{"mcpServers": {"m": {"url": "http://x", "headers": {"A": "Bearer ${input:tok}"}}}}`, `"headers": "A": ${input:tok} is a value VS Code prompts for, and runcode cannot prompt`},
		{`{"mcpServers": {"m": {"url": "http://x", "headers": {"A": "literal-secret ${"}}}}`, `"headers": "A": a ${ without its closing }`},
		{`{"mcpServers": {"m": {"url": "http://x", "headers": {"Bad Name": "v"}}}}`, `"headers": "Bad Name" is not a valid header name`},
		// Of several bad names, the first in name order, every time (it was the map's order).
		{`{"mcpServers": {"m": {"url": "http://x", "headers": {"Z z": "v", "B b": "v", "Y y": "v", "C c": "v"}}}}`, `"headers": "B b" is not a valid header name`},
		{`{"mcpServers": {"m": {"command": "x", "timeout": "soon"}}}`, `"timeout": "soon" is not a duration`},
		{`{"mcpServers": {"m": {"command": "x", "timeout": "-1s"}}}`, `"timeout": must be positive`},
		{`{"mcpServers": {"m": {"command": "x", "maxMessageBytes": "64MiB"}}}`, `"maxMessageBytes": must be a number of bytes, not string`},
		{`{"mcpServers": {"m": {"command": "x", "maxMessageBytes": 2e9}}}`, `"maxMessageBytes": must be between 1024 (1 KiB) and 1073741824 (1 GiB) bytes`},
		{`{"mcpServers": {"m": {"command": "x", "maxMessageBytes": 2048.5}}}`, `"maxMessageBytes": must be a whole number of bytes`},
		{`{"mcpServers": {"m": {"command": "x", "maxMessageBytes": 100}}}`, `"maxMessageBytes": must be between 1024 (1 KiB) and 1073741824 (1 GiB) bytes`},
		{`{"mcpServers": {"m": {"command": "x", "namespace": ""}}}`, `"namespace": must not be empty`},
		{`{"mcpServers": {"m": {"command": "x", "namespace": 1}}}`, `"namespace": must be true, false or a name, not number`},
		{`{"mcpServers": {"": {"command": "x"}}}`, `a server needs a non-empty name`},
		{`{"mcpServers": {"m": "npx server"}}`, `server "m": must be an object, not string`},
	}
	for _, c := range cases {
		_, err := ParseConfig("c.json", []byte(c.data), testEnv)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant …%s…", c.data, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "literal-secret") {
			t.Errorf("%s: the error shows a header value: %v", c.data, err)
		}
	}
}

func TestExpand(t *testing.T) {
	for in, want := range map[string]string{
		"plain $HOME":          "plain $HOME",
		"${HOME}/x":            "/home/u/x",
		"${env:HOME}${HOME}":   "/home/u/home/u",
		"${NOPE:-d}":           "d",
		"${EMPTY:-d}":          "",
		"$${HOME}":             "$/home/u",
		"a${TOKEN}b":           "atok-secret-123b",
		"${NOPE:-${HOME}}tail": "/home/utail", // a default may hold references (issue 24)
	} {
		if got, err := Expand(in, testEnv); err != nil || got != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// FuzzParseConfig: any input gives sources or a ConfigError, never a panic, and an error never
// contains the value of a variable it expanded.
func FuzzParseConfig(f *testing.F) {
	for _, seed := range []string{
		`{"mcpServers": {"m": {"command": "npx", "args": ["-y", "x"], "env": {"K": "${TOKEN}"}}}}`,
		`{"servers": {"r": {"type": "http", "url": "https://x/${TOKEN}", "headers": {"Authorization": "Bearer ${TOKEN}"}}}}`,
		`{"mcpServers": {"m": {"command": "x", "namespace": false, "include": ["a"], "timeout": "1s", "concurrencySafe": []}}}`,
		`{"mcpServers": {"m": {"command": "x", "env": {"K": "${TOKEN"}}}}`,
		`{"mcpServers": {"m": {"url": "http://x", "headers": {"A": "${TOKEN} ${NOPE}"}}}}`,
		`{"mcpServers": {"m": {"command": "x", "bogus": "${TOKEN}"}}}`,
		`{}`, `null`, `{"mcpServers": {"": {}}}`,
		"// c\n{\"servers\": {\"a\": {\"command\": \"x\",}, /* c */ \"b\": {\"url\": \"http://h/${TOKEN}\", \"disabled\": true},},}",
		`{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`,
		`{"mcpServers": {"a": {"command": "x", "env": {"K": "${NOPE:-${TOKEN:-d}}"}, "autoApprove": ["t"], "alwaysAllow": []}}}`,
		`{"servers": {"a": {"url": "http://x", "headers": {"A": "${input:t}"}}}, "inputs": [{"id": "t", "description": "T"}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig("f.json", data, testEnv)
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error is not a ConfigError: %v", err)
			}
			if strings.Contains(err.Error(), "tok-secret-123") {
				t.Fatalf("error shows an expanded value: %v", err)
			}
			return
		}
		for _, s := range cfg.Sources {
			if s.Name == "" || (len(s.Command) == 0) == (s.URL == "") || slices.Contains(cfg.Disabled, s.Name) {
				t.Fatalf("invalid source %+v", s)
			}
		}
	})
}

// FuzzExpand: any text expands or fails without a panic; an error never shows a value; text
// without "${" comes back as it is; every value used is reported.
func FuzzExpand(f *testing.F) {
	for _, seed := range []string{"${HOME}", "${NOPE:-${TOKEN}}", "${A:-${B:-${C:-x}}}y}", "${", "${:-}", "$${}}", "${env:TOKEN:-${NOPE}}", "${input:x}"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, used, err := expand(s, testEnv)
		if err != nil {
			if strings.Contains(err.Error(), "tok-secret-123") && !strings.Contains(s, "tok-secret-123") {
				t.Fatalf("error shows a value: %v", err)
			}
			return
		}
		if !strings.Contains(s, "${") && out != s {
			t.Fatalf("%q → %q", s, out)
		}
		for _, u := range used {
			if !strings.Contains(out, u) {
				t.Fatalf("%q: used %q, not in %q", s, u, out)
			}
		}
	})
}

func TestConfigErrorsDoNotShowExpandedValues(t *testing.T) {
	for _, data := range []string{
		`{"mcpServers": {"m": {"url": "http://x", "type": "${TOKEN}"}}}`,
		`{"mcpServers": {"m": {"command": "x", "timeout": "${TOKEN}"}}}`,
		`{"mcpServers": {"m": {"command": "x", "type": "${TOKEN:-http}"}}}`,
	} {
		_, err := ParseConfig("c.json", []byte(data), testEnv)
		if err == nil || strings.Contains(err.Error(), "tok-secret-123") {
			t.Errorf("%s: %v", data, err)
		}
	}
}
