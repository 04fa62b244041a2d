package mcptools

import (
	"errors"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

func TestSecretsInValues(t *testing.T) {
	s := newSecrets(Source{Headers: map[string]string{"Authorization": `Bearer q"uo\te-tok`}, Env: map[string]string{"DEBUG": "1", "K": "plain-secret-42"}})
	v := jsonv.MustParse(`{"a":["x","has q\"uo\\te-tok inside"],"plain-secret-42":{"n":1,"s":"1 and plain-secret-42"},"keep":"1"}`)
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
	_, err := Connect(t.Context(), Source{URL: "http://user:pa55word@127.0.0.1:1/mcp?api_key=key-in-query-77&x=1", Name: "q"})
	if err == nil || strings.Contains(err.Error(), "pa55word") || strings.Contains(err.Error(), "key-in-query-77") ||
		!strings.Contains(err.Error(), `MCP server "q" (http://127.0.0.1:1/mcp?…)`) {
		t.Fatalf("err = %v", err)
	}
	for e := error(err); e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), "key-in-query-77") || strings.Contains(e.Error(), "pa55word") {
			t.Fatalf("cause shows a credential: %v", e)
		}
	}
}

// A secret is found in the forms JSON encoders write it in (JavaScript's JSON.stringify,
// encoding/json with its HTML escapes, Python's ensure_ascii, PHP's escaped slashes, and JSON
// quoted inside JSON), in results and in messages alike.
func TestSecretsInEscapedForms(t *testing.T) {
	const secret = "q\"uo\\te</tok>&\t€-7f3a"
	s := newSecrets(Source{Env: map[string]string{"K": secret}})
	for _, form := range []string{
		secret,
		`q\"uo\\te</tok>&\t€-7f3a`, // JSON.stringify
		`q\"uo\\te\u003c/tok\u003e\u0026\t€-7f3a`,       // encoding/json
		`q\"uo\\te</tok>&\t\u20ac-7f3a`,                 // json.dumps
		`q\"uo\\te<\/tok>&\t€-7f3a`,                     // json_encode
		`q\\\"uo\\\\te</tok>&\\t€-7f3a`,                 // JSON text quoted in JSON
		`q\"uo\\te\u003c\/tok\u003e\u0026\t\u20ac-7f3a`, // all of them
	} {
		v := jsonv.StringValue("before " + form + " after")
		if got := s.value(v).AsString(); got != "before "+Redacted+" after" {
			t.Errorf("value: %q became %q", form, got)
		}
		if got := s.cause(errors.New(form)).Error(); got != Redacted {
			t.Errorf("cause: %q became %q", form, got)
		}
	}
}

// Only values that could be credentials are secrets: at least 8 bytes, and at least 16 or
// mixing letters, digits and symbols. A common word ("production") or a number would blank
// unrelated text wherever it occurs.
func TestWhichValuesAreSecrets(t *testing.T) {
	for v, want := range map[string]bool{
		"1": false, "true": false, "8080": false, "debug": false, "hunter2": false,
		"production": false, "Production": false, "my-service": false, "12345678": false,
		"pa55word": true, "tok-7f3a9c": true, "s3cr3t-token-value": true, "p@ssword": true,
		"correcthorsebatterystaple": true, "1234567890123456": true, "abcdefghij-secret": true,
	} {
		s := newSecrets(Source{Env: map[string]string{"K": v}})
		if got := s.in("x " + v + " y"); got != want {
			t.Errorf("%q is a secret: %v, want %v", v, got, want)
		}
	}
	// The credential after an authorization scheme is one when it passes the rule.
	s := newSecrets(Source{Headers: map[string]string{"Authorization": "Bearer tok-7f3a9c", "X-Mode": "Basic production"}})
	if !s.in("tok-7f3a9c") || s.in("production") {
		t.Errorf("header credentials: %q", s.values)
	}
}
