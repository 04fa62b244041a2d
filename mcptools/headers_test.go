package mcptools_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

const secretToken = "s3cr3t-token-value"

// tokenServer serves an MCP server over streamable HTTP on loopback that answers only requests
// carrying "Authorization: Bearer <secretToken>" and "X-Team: blue" (401 quoting the received
// authorization otherwise, as careless servers do), and whose tool echoes the authorization
// header it received. seen records every Authorization value.
func tokenServer(t *testing.T) (url string, seen func() []string) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "token-test", Version: "v0"}, nil)
	var mu sync.Mutex
	var got []string
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "Echo the authorization header."},
		func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			auth := req.Extra.Header.Get("Authorization")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "you sent " + auth}}}, nil, nil
		})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer "+secretToken || r.Header.Get("X-Team") != "blue" {
			http.Error(w, "unauthorized: "+r.Header.Get("Authorization"), http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

// Configured headers reach the server on every request, and the secret never comes back: not
// in a tool's result, not in an error.
func TestHeadersReachTheServerAndStaySecret(t *testing.T) {
	url, seen := tokenServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	server, err := mcptools.Connect(ctx, mcptools.Source{URL: url, Name: "remote", Namespace: "remote",
		Headers: map[string]string{"Authorization": "Bearer " + secretToken, "X-Team": "blue"}})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	for _, a := range seen() {
		if a != "Bearer "+secretToken {
			t.Fatalf("a request arrived with Authorization %q", a)
		}
	}
	reg := registry.New()
	if _, err := reg.Register(server.Tools()...); err != nil {
		t.Fatal(err)
	}
	tool, ok := reg.Get("remote.whoami", nil)
	if !ok || tool.Namespace != "remote" || tool.Member() != "whoami" {
		t.Fatalf("tool = %+v, %v", tool, ok)
	}
	res := reg.Execute(ctx, registry.Call{CallID: "c1", Name: "remote.whoami", Arguments: jsonv.MustParse(`{}`)})
	if res.IsError || res.Value.AsString() != "you sent "+mcptools.Redacted {
		t.Fatalf("result = %+v", res)
	}
}

func TestAWrongTokenIsAnErrorWithoutTheToken(t *testing.T) {
	url, _ := tokenServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	wrong := "wrong-token-1234"
	_, err := mcptools.Connect(ctx, mcptools.Source{URL: url, Name: "remote",
		Headers: map[string]string{"Authorization": "Bearer " + wrong, "X-Team": "blue"}})
	if err == nil {
		t.Fatal("connected with a wrong token")
	}
	for e := error(err); e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), wrong) {
			t.Fatalf("error (or its cause) shows the token: %v", e)
		}
	}
	if !strings.Contains(err.Error(), `MCP server "remote"`) {
		t.Fatalf("error does not name the server: %v", err)
	}
	t.Log(err)
}

// A server that fails to start is an error with the tail of its stderr, which must not show the
// environment values it was given, nor may the error's causes.
func TestStartFailureDoesNotShowEnvValues(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := mcptools.Connect(ctx, mcptools.Source{Name: "leaky",
		Command: []string{"sh", "-c", `echo "starting with token $API_TOKEN in $PWD" >&2; exit 3`},
		Env:     map[string]string{"API_TOKEN": secretToken, "DEBUG": "1"}, Dir: t.TempDir()})
	if err == nil {
		t.Fatal("a failing server connected")
	}
	if !strings.Contains(err.Error(), "starting with token "+mcptools.Redacted+" in ") {
		t.Fatalf("error lacks the redacted stderr: %v", err)
	}
	for e := error(err); e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), secretToken) {
			t.Fatalf("error (or its cause) shows the secret: %v", e)
		}
	}
}
