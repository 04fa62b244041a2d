package jsruntime_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestURLMatchesNode evaluates each expression of testdata/url_cases.json (URL parsing,
// serialization, setters, URLSearchParams) in a run and compares the value with Node 22's. With
// RUNCODE_NODE set to a node binary it first checks that the file is what that node prints.
func TestURLMatchesNode(t *testing.T) {
	data, err := os.ReadFile("testdata/url_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	if node := os.Getenv("RUNCODE_NODE"); node != "" {
		out, err := exec.Command(node, "testdata/url_cases.js").Output()
		if err != nil {
			t.Fatalf("%s testdata/url_cases.js: %v", node, err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("testdata/url_cases.json is not what %s prints now: regenerate it (see testdata/url_cases.js)", node)
		}
	}
	var cases []struct {
		Expr string          `json:"expr"`
		Node json.RawMessage `json:"node"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{})
			defer rt.Close()
			for _, c := range cases {
				t.Run(c.Expr, func(t *testing.T) {
					program := `const parts = (u) => [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash];
let value;
try {
	value = ` + c.Expr + `;
	if (value instanceof URL || value instanceof URLSearchParams) value = String(value);
} catch (e) {
	value = {error: [e.name, e.code, e.message]};
}
return JSON.parse(JSON.stringify(value === undefined ? null : value))`
					res, err := rt.Run(t.Context(), jsruntime.Request{Program: program})
					if err != nil {
						t.Fatal(err)
					}
					if res.Error != nil {
						t.Fatalf("%s: %s", res.Error.Kind, res.Error.Message)
					}
					if got, want := canonicalJSON(t, []byte(res.Value.String())), canonicalJSON(t, c.Node); got != want {
						t.Errorf("got  %s\nwant %s (Node 22)", got, want)
					}
				})
			}
		})
	}
}

func canonicalJSON(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}
