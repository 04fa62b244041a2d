package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// --stateless is for --http, and refuses the session flags it makes meaningless.
func TestServeStatelessFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--stdio", "--stateless"}, "--stateless applies to --http only"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--stateless", "--max-sessions", "5"}, "--max-sessions does not apply with --stateless"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--session-timeout", "1m", "--stateless"}, "--session-timeout does not apply with --stateless"},
	} {
		code, stdout, stderr := invoke(t, "", append(c.args, "--workspace", dir)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
}

// serve --http --stateless answers a run_code call that comes without initialize or session,
// names no session, and says it is stateless when it starts.
func TestServeHTTPStateless(t *testing.T) {
	dir := fixture(t, map[string]string{"notes.txt": "alpha\n"})
	endpoint, _, _, stderr := startServeHTTPControlled(t, "--stateless", "--workspace", dir)
	if !strings.Contains(stderr.String(), "; stateless)") {
		t.Errorf("stderr = %q", stderr.String())
	}
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_code","arguments":{"description":"read","code":"return (await tools.read_file({ path: \"notes.txt\" })).content.trim()"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	_, err = io.Copy(&body, resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") != "" || !strings.Contains(body.String(), `"text":"alpha"`) {
		t.Fatalf("%s (session %q): %q %v", resp.Status, resp.Header.Get("Mcp-Session-Id"), body.String(), err)
	}
}
