package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/mcptools"
)

// envServerArg, as this test binary's first argument, makes it an MCP server over stdio
// (TestMain, in bounds_test.go) with one tool, "environment", whose result is its environment, one
// "NAME=value" per line.
const envServerArg = "mcptools-test-env-server"

// serveEnvironment serves the "environment" tool on stdin/stdout until the client leaves.
func serveEnvironment() int {
	srv := mcp.NewServer(&mcp.Implementation{Name: "env", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "environment", Description: "The server's environment."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(os.Environ(), "\n")}}}, nil, nil
		})
	// The environment as a JSON object in a text block, as encoding/json writes it.
	mcp.AddTool(srv, &mcp.Tool{Name: "environment-json", Description: "The server's environment as JSON."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			env := map[string]string{}
			for _, kv := range os.Environ() {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
			data, err := json.Marshal(env)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil, err
		})
	// A tool whose definition shows the server's A_TOKEN, as a careless server might.
	token := os.Getenv("A_TOKEN")
	srv.AddTool(&mcp.Tool{Name: "describe", Description: "Calls the API as " + token + ".",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"token": map[string]any{"type": "string", "default": token, "description": "defaults to " + token}}}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	// A tool whose very name shows the server's NAMED_TOKEN.
	if named := os.Getenv("NAMED_TOKEN"); named != "" {
		mcp.AddTool(srv, &mcp.Tool{Name: "lookup-" + named, Description: "Named after a token."},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
			})
	}
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// environmentOf starts this test binary as an env server from src and returns its environment.
func environmentOf(t *testing.T, src mcptools.Source) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	src.Command = []string{exe, envServerArg}
	_, reg := importServer(t, src)
	res := callTool(reg, src.Prefix+"environment", `{}`)
	if res.IsError {
		t.Fatalf("%s: environment: %+v", src.Name, res)
	}
	return strings.Split(res.Value.AsString(), "\n")
}

// A stdio server gets a minimal environment plus its own entry's: never the host's other
// variables, so a token one server's entry expands from ${VAR} (and so must be set in the
// host's environment) does not reach another server, whose results are not redacted for it.
func TestStdioServersGetMinimalEnvironments(t *testing.T) {
	const secret = "tok-A-4f9c1e7b22"
	t.Setenv("RUNCODE_TEST_SECRET_A", secret)
	t.Setenv("RUNCODE_TEST_KEEP_ONE", "kept-7f3a9c")
	t.Setenv("HOME", "/home/runcode-test")
	a := environmentOf(t, mcptools.Source{Name: "a", Env: map[string]string{"A_TOKEN": secret}})
	if !slices.Contains(a, "A_TOKEN="+mcptools.Redacted) {
		t.Errorf("server a lacks its own env (redacted in its result): %q", a)
	}
	for _, src := range []mcptools.Source{
		{Name: "b-with-env", Env: map[string]string{"B_SETTING": "on"}},
		{Name: "b-without-env"},
		{Name: "b-inheriting", InheritEnv: []string{"RUNCODE_TEST_KEEP_*"}},
	} {
		env := environmentOf(t, src)
		joined := strings.Join(env, "\n")
		if strings.Contains(joined, secret) || strings.Contains(joined, "RUNCODE_TEST_SECRET_A") || strings.Contains(joined, "A_TOKEN") {
			t.Errorf("%s sees server a's secret: %q", src.Name, env)
		}
		if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "PATH=") && len(kv) > len("PATH=") }) ||
			!slices.Contains(env, "HOME=/home/runcode-test") {
			t.Errorf("%s lacks PATH or HOME: %q", src.Name, env)
		}
		if src.Env != nil && !slices.Contains(env, "B_SETTING=on") {
			t.Errorf("%s lacks its own env: %q", src.Name, env)
		}
		// A variable inherited by name is passed like an env value: a secret of the server.
		if inherits := src.InheritEnv != nil; slices.Contains(env, "RUNCODE_TEST_KEEP_ONE="+mcptools.Redacted) != inherits || strings.Contains(joined, "kept-7f3a9c") {
			t.Errorf("%s: inherits RUNCODE_TEST_KEEP_ONE: %v, want %v, redacted: %q", src.Name, !inherits, inherits, env)
		}
	}
	// The opt-in to the whole environment.
	if env := environmentOf(t, mcptools.Source{Name: "all", InheritEnv: []string{"*"}}); !slices.Contains(env, "RUNCODE_TEST_SECRET_A="+secret) {
		t.Errorf(`InheritEnv ["*"] does not pass the whole environment: %q`, env)
	}
}

func TestBadInheritEnvPattern(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := mcptools.Connect(ctx, mcptools.Source{Name: "x", Command: []string{"true"}, InheritEnv: []string{"A-B"}})
	if err == nil || !strings.Contains(err.Error(), `"A-B" is not a variable name`) {
		t.Fatalf("err = %v", err)
	}
}

// A server's secrets are redacted wherever they are serialised: in its tool definitions (which
// reach the model's prompt), and JSON-escaped inside a text result; a value that is a common
// word is no secret and leaves unrelated text alone.
func TestServerSecretsRedactedInDefinitionsAndEscapedJSON(t *testing.T) {
	const secret = `q"uo\te<tok>-7f3a`
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv, reg := importServer(t, mcptools.Source{Name: "a", Command: []string{exe, envServerArg},
		Env: map[string]string{"A_TOKEN": secret, "DEPLOY_ENV": "production", "NAMED_TOKEN": "tok7f3a9c2e1b"}})
	leaks := func(s string) bool { return strings.Contains(s, "7f3a") || strings.Contains(s, "uo") }
	for _, tool := range srv.Tools() {
		if strings.HasPrefix(tool.Name, "lookup-") { // it is called by that name: left out, not renamed
			t.Errorf("the tool whose name shows a secret is listed as %q", tool.Name)
		}
		if tool.Name != "describe" {
			continue
		}
		if leaks(tool.Description) || leaks(tool.Parameters.String()) || !strings.Contains(tool.Description, mcptools.Redacted) {
			t.Errorf("the definition shows the secret: %q %s", tool.Description, tool.Parameters)
		}
	}
	res := callTool(reg, "environment-json", `{}`)
	if text := res.Value.AsString(); res.IsError || leaks(text) || !strings.Contains(text, `"A_TOKEN":"[redacted]"`) {
		t.Errorf("environment-json: %+v", res)
	}
	res = callTool(reg, "environment", `{}`)
	if text := res.Value.AsString(); res.IsError || !strings.Contains(text, "\nDEPLOY_ENV=production") || leaks(text) {
		t.Errorf("environment: %+v", res)
	}
}
