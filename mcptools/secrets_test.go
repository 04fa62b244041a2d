package mcptools

import (
	"errors"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

func TestSecretsInValues(t *testing.T) {
	s := newSecrets(Source{Headers: map[string]string{"Authorization": `Bearer q"uo\te-tok`}, Env: map[string]string{"DEBUG": "1", "K": "plain-secret"}})
	v := jsonv.MustParse(`{"a":["x","has q\"uo\\te-tok inside"],"plain-secret":{"n":1,"s":"1 and plain-secret"},"keep":"1"}`)
	got := string(jsonv.AppendJSON(nil, s.value(v)))
	want := `{"a":["x","has [redacted] inside"],"[redacted]":{"n":1,"s":"1 and [redacted]"},"keep":"1"}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	clean := jsonv.MustParse(`{"a":[1,"two"]}`)
	if s.value(clean) != clean {
		t.Fatal("a value without secrets was copied")
	}
}

func TestSecretCutByTheStderrTail(t *testing.T) {
	s := newSecrets(Source{Env: map[string]string{"K": "abcdefghij-secret"}})
	if got := s.tail("ghij-secret rest"); got != Redacted+" rest" {
		t.Fatalf("tail = %q", got)
	}
	if got := s.tail("et rest"); got != "et rest" { // 2 bytes say nothing
		t.Fatalf("tail = %q", got)
	}
	// A failing server whose stderr tail (the last 2048 bytes) starts inside the secret:
	// 17 bytes of secret, then 2040 bytes, so the tail keeps its last 8 bytes.
	src := Source{Name: "noisy", Env: map[string]string{"TOKEN": "abcdefghij-secret"},
		Command: []string{"sh", "-c", `printf '%s' "$TOKEN" >&2; head -c 2040 /dev/zero | tr '\0' x >&2; exit 1`}}
	_, err := Connect(t.Context(), src)
	if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "stderr: "+Redacted+"xxx") {
		t.Fatalf("err = %v", err)
	}
}

func TestURLCredentialsAreSecrets(t *testing.T) {
	_, err := Connect(t.Context(), Source{URL: "http://user:pa55word@127.0.0.1:1/mcp?api_key=key-in-query&x=1", Name: "q"})
	if err == nil || strings.Contains(err.Error(), "pa55word") || strings.Contains(err.Error(), "key-in-query") ||
		!strings.Contains(err.Error(), `MCP server "q" (http://127.0.0.1:1/mcp?…)`) {
		t.Fatalf("err = %v", err)
	}
	for e := error(err); e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), "key-in-query") || strings.Contains(e.Error(), "pa55word") {
			t.Fatalf("cause shows a credential: %v", e)
		}
	}
}
