package mcptools

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Issue 24: VS Code's JSONC (comments, trailing commas) is what users have.
func TestParseConfigJSONC(t *testing.T) {
	data := `// VS Code's .vscode/mcp.json
{
  /* the servers */
  "servers": {
    "a": {"command": "/bin/a", "args": ["//not a comment", "/* nor this */",],}, // trailing commas
  },
  "inputs": [{"type": "promptString", "id": "tok", "description": "API token", "password": true},],
}`
	cfg, err := ParseConfig("mcp.json", []byte(data), testEnv)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Sources) != 1 || strings.Join(cfg.Sources[0].Command, " ") != "/bin/a //not a comment /* nor this */" {
		t.Fatalf("got %+v", cfg.Sources)
	}
	cfg, err = ParseConfig("mcp.json", []byte("\ufeff{\"servers\": {\"b\": {\"command\": \"/bin/b\"}}}"), testEnv)
	if err != nil || len(cfg.Sources) != 1 {
		t.Fatalf("a byte order mark: %+v, %v", cfg, err)
	}
	_, err = ParseConfig("mcp.json", []byte(`{"servers": {"b": {"command": "/bin/b", "args": ["${workspaceFolder}/x"]}}}`), testEnv)
	if err == nil || !strings.Contains(err.Error(), `"args[0]": ${workspaceFolder} is a VS Code variable, which runcode does not know: write the value`) {
		t.Fatalf("VS Code's own variable: %v", err)
	}
	_, err = ParseConfig("mcp.json", []byte("{\"servers\": {}} /* open"), testEnv)
	if err == nil || err.Error() != "config mcp.json: not valid JSON: a /* comment on line 1 has no closing */" {
		t.Fatalf("unterminated comment: %v", err)
	}
}

// Issue 24: a server name given twice dropped the first silently; so did any key given twice
// in an entry.
func TestParseConfigDuplicateKeys(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`{"mcpServers": {"a": {"command": "/bin/first"}, "b": {"command": "/bin/b"}, "a": {"command": "/bin/second"}}}`,
			`config dup.json: server "a": defined twice in "mcpServers": a server name must be given once`},
		{`{"servers": {"a": {"command": "/bin/a"}}, "servers": {"b": {"command": "/bin/b"}}}`,
			`config dup.json: "servers": given twice`},
		{`{"mcpServers": {"a": {"command": "/bin/a", "args": [], "command": "/bin/b"}}}`,
			`config dup.json: server "a": "command": given twice`},
		{`{"mcpServers": {"a": {"command": "/bin/a", "env": {"K": "1", "\u004b": "2"}}}}`,
			`config dup.json: server "a": "env": "K" is given twice`},
		{"{\"mcpServers\": {\"a\": {\"command\": \"/bin/a\"}, // JSONC too\n \"a\": {\"command\": \"/bin/a\"},}}",
			`server "a": defined twice`},
	} {
		_, err := ParseConfig("dup.json", []byte(c.data), testEnv)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant …%s…", c.data, err, c.want)
		}
	}
	// The client's own settings are its business.
	cfg, err := ParseConfig("c.json", []byte(`{"theme": 1, "theme": 2, "mcpServers": {"a": {"command": "/bin/a", "args": ["x", "x"]}}}`), testEnv)
	if err != nil || len(cfg.Sources) != 1 {
		t.Fatalf("got %+v, %v", cfg, err)
	}
}

// Issue 24: ${A:-${B}} gave the literal "${B}".
func TestExpandNested(t *testing.T) {
	for in, want := range map[string]string{
		"${NOPE:-${HOME}}/x":              "/home/u/x",
		"${NOPE:-${NOPE2:-${HOME}}}":      "/home/u",
		"${NOPE:-a${HOME}b}c}":            "a/home/ubc}",
		"${HOME:-${UNSET_IS_FINE}}":       "/home/u", // an unused default needs no variable
		"${NOPE:-}x":                      "x",
		"${env:NOPE:-${env:TOKEN}}":       "tok-secret-123",
		"}${NOPE:-{}}":                    "}{}",
		"${NOPE:-${NOPE2:-d}}${EMPTY:-e}": "d",
	} {
		if got, err := Expand(in, testEnv); err != nil || got != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"${NOPE:-${NOPE2}}":    "environment variable NOPE2 is not set (referred to as ${NOPE2})",
		"${NOPE:-${HOME}":      "a ${ without its closing }",
		"${HOME:-${bad name}}": "${bad name} is not a supported reference",
		"${A:-${B:-${C:-${D:-${E:-${F:-${G:-${H:-${I}}}}}}}}}": "references nested more than 8 deep",
		"${HOME-x}": "${HOME-x} is not a supported reference",
	} {
		if _, err := Expand(in, testEnv); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Expand(%q): %v; want …%s…", in, err, want)
		}
	}
}

// Issue 24: the common keys "disabled" and "autoApprove" were refused.
func TestParseConfigCommonKeys(t *testing.T) {
	data := `{"mcpServers": {
	  "a": {"command": "/bin/a", "disabled": true, "env": {"K": "${UNSET_BUT_DISABLED}"}, "whatever": 1},
	  "b": {"command": "/bin/b", "autoApprove": ["x", "y"], "alwaysAllow": ["y", "z"], "disabled": false},
	  "c": {"url": "http://h/mcp", "alwaysAllow": []}
	}}`
	cfg, err := ParseConfig("c.json", []byte(data), testEnv)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Sources) != 2 || cfg.Sources[0].Name != "b" || cfg.Sources[1].Name != "c" {
		t.Fatalf("sources %+v", cfg.Sources)
	}
	if !reflect.DeepEqual(cfg.Sources[0].AutoApprove, []string{"x", "y", "z"}) || cfg.Sources[1].AutoApprove == nil {
		t.Fatalf("autoApprove %q, %q", cfg.Sources[0].AutoApprove, cfg.Sources[1].AutoApprove)
	}
	wantNotes := []string{
		`config c.json: server "a" is disabled ("disabled": true); skipped`,
	}
	if !reflect.DeepEqual(cfg.Disabled, []string{"a"}) || !reflect.DeepEqual(cfg.Notes, wantNotes) {
		t.Fatalf("disabled %q, notes %q", cfg.Disabled, cfg.Notes)
	}
	for _, c := range []struct{ data, want string }{
		{`{"mcpServers": {"m": {"command": "x", "disabled": "yes"}}}`, `server "m": "disabled": must be true or false, not string`},
		{`{"mcpServers": {"m": {"command": "x", "autoApprove": "all"}}}`, `server "m": "autoApprove": must be an array of strings, not string`},
		{`{"mcpServers": {"m": {"command": "x", "alwaysAllow": [1]}}}`, `server "m": "alwaysAllow[0]": must be a string, not number`},
		{`{"mcpServers": {"m": {"command": "x", "timeout": 60}}}`, `server "m": "timeout": must be a duration with its unit, such as "30s", not a number`},
		{`{"mcpServers": {"m": {"command": "x", "envFile": ".env"}}}`, `server "m": "envFile": not supported: runcode does not read env files: put the variables in "env"`},
		{`{"mcpServers": {"m": {"command": "x", "disabledTools": ["a"]}}}`, `server "m": "disabledTools": not supported: use "exclude"`},
		{`{"mcpServers": {"m": {"command": "x", "bogus": 1}}}`, `server "m": "bogus": unknown key (known: type, command, args, env, inheritEnv, cwd, url, headers, namespace, include, exclude, timeout, concurrencySafe, maxMessageBytes, disabled, approval, approve, requireApproval, autoApprove, alwaysAllow)`},
		// VS Code's prompts cannot be answered: the error names the input and what to do.
		{`{"servers": {"m": {"url": "http://x", "headers": {"A": "Bearer ${input:tok}"}}}, "inputs": [{"type": "promptString", "id": "tok", "description": "API token"}]}`,
			`server "m": "headers": "A": ${input:tok} is a value VS Code prompts for ("API token"), and runcode cannot prompt: set an environment variable and write ${env:NAME}, or mark the server "disabled": true`},
	} {
		_, err := ParseConfig("c.json", []byte(c.data), testEnv)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant …%s…", c.data, err, c.want)
		}
	}
}

// Issue 24: a ${VAR} in a URL's path was shown in connect errors: every value taken from the
// environment is one of the server's secrets.
func TestExpandedValuesAreSecrets(t *testing.T) {
	cfg, err := ParseConfig("c.json", []byte(`{"mcpServers": {
	  "r": {"url": "http://127.0.0.1:1/mcp/${TOKEN}/x"},
	  "f": {"url": "ftp://h/${TOKEN}"},
	  "s": {"command": "/nonexistent/srv", "args": ["--token", "${TOKEN}"]}
	}}`), testEnv)
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range cfg.Sources {
		if !reflect.DeepEqual(src.Secrets, []string{"tok-secret-123"}) {
			t.Errorf("%s: secrets %q", src.Name, src.Secrets)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = Connect(ctx, src)
		cancel()
		if err == nil || strings.Contains(err.Error(), "tok-secret-123") || !strings.Contains(err.Error(), `MCP server "`+src.Name+`"`) {
			t.Errorf("%s: connect error shows the expanded value: %v", src.Name, err)
		}
	}
	// A secret a URL escapes is found escaped too.
	s := newSecrets(Source{URL: "http://h/", Secrets: []string{"tok secret/123"}})
	if got := s.text(`Post "http://h/tok%20secret%2F123": refused; q=tok+secret%2F123`); got != `Post "http://h/[redacted]": refused; q=[redacted]` {
		t.Errorf("escaped: %s", got)
	}
}
