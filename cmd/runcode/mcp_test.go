package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needMCP skips the test when an MCP server's bin is not on PATH (.ci/run installs them).
func needMCP(t *testing.T, bin string) {
	t.Helper()
	if _, err := exec.LookPath(bin); err != nil {
		t.Skipf("%s not on PATH (npm install -g @modelcontextprotocol/server-%s)", bin, strings.TrimPrefix(bin, "mcp-server-"))
	}
}

// invokeWithin is invoke bounded by a deadline: an MCP test must never hang.
func invokeWithin(t *testing.T, d time.Duration, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var out, errOut bytes.Buffer
	code := run(ctx, args, strings.NewReader(""), &out, &errOut)
	if ctx.Err() != nil {
		t.Fatalf("runcode %v did not finish within %v", args, d)
	}
	return code, out.String(), errOut.String()
}

func TestMCPServerThatDoesNotStart(t *testing.T) {
	code, out, errOut := invoke(t, "return 1", "run", "--mcp", "no-such-server --flag", "-")
	if code != exitUsage || !strings.Contains(errOut, `MCP server "no-such-server"`) || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = invoke(t, "", "tools", "--mcp", `unterminated 'quote`)
	if code != exitUsage || !strings.Contains(errOut, "unterminated single quote") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// With --mcp only, the default workspace tools are not added.
func TestMCPToolsWithoutWorkspace(t *testing.T) {
	needMCP(t, "mcp-server-memory")
	code, out, errOut := invokeWithin(t, 30*time.Second, "tools", "--mcp", "env MEMORY_FILE_PATH="+filepath.Join(t.TempDir(), "m.jsonl")+" mcp-server-memory")
	if code != exitOK || !strings.Contains(out, "create_entities") || strings.Contains(out, "list_dir") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

func TestMCPMemoryExample(t *testing.T) {
	needMCP(t, "mcp-server-memory")
	mem := filepath.Join(t.TempDir(), "m.jsonl")
	code, out, errOut := invokeWithin(t, 30*time.Second, "run", "--json", "--mcp", "env 'MEMORY_FILE_PATH="+mem+"' mcp-server-memory", "../../examples/mcp/memory-graph.ts")
	want := `{"logs":["reviews: Linus","works_on: Ada, Grace"],"result":{"entities":4,"relations":4,"team":["Ada","Grace","Linus"],"knowsGo":["Ada"]}}` + "\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

func TestMCPFilesystemExample(t *testing.T) {
	needMCP(t, "mcp-server-filesystem")
	root := fixture(t, map[string]string{"a.txt": "one\ntwo\n", "README.md": "# hi\n", "sub/deep.md": "x", "sub/skip.go": "package x"})
	code, out, errOut := invokeWithin(t, 30*time.Second, "run", "--json", "--mcp", "mcp-server-filesystem "+strconv.Quote(root), "../../examples/mcp/fs-summary.ts")
	want := `{"logs":["2 files in ` + root + `"],"result":{"lines":{"README.md":2,"a.txt":3},"markdown":["README.md","sub/deep.md"]}}` + "\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
	}
}

// The SDK of server-everything, and the MCP examples against their servers' SDKs, typecheck.
func TestMCPSDKTypechecks(t *testing.T) {
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Skip("tsc not installed; CI installs typescript")
	}
	needMCP(t, "mcp-server-everything")
	needMCP(t, "mcp-server-memory")
	needMCP(t, "mcp-server-filesystem")
	dir := t.TempDir()
	check := func(name, mcp, example string) {
		sub := filepath.Join(dir, name)
		os.Mkdir(sub, 0o755)
		code, _, errOut := invokeWithin(t, 30*time.Second, "sdk", "--mcp", mcp, "-o", filepath.Join(sub, "tools.d.ts"))
		if code != exitOK {
			t.Fatalf("sdk %s: %s", mcp, errOut)
		}
		files := []string{filepath.Join(sub, "tools.d.ts")}
		if example != "" {
			body, err := os.ReadFile(example)
			if err != nil {
				t.Fatal(err)
			}
			wrapped := "export {};\nasync function program(): Promise<unknown> {\n" + string(body) + "\n}\nvoid program;\n"
			p := filepath.Join(sub, "program.ts")
			os.WriteFile(p, []byte(wrapped), 0o644)
			files = append(files, p)
		}
		out, err := exec.Command(tsc, append([]string{"--strict", "--noEmit", "--target", "es2022", "--lib", "es2022"}, files...)...).CombinedOutput()
		if err != nil {
			t.Errorf("tsc %s: %v\n%s", name, err, out)
		}
	}
	check("everything", "mcp-server-everything", "")
	check("memory", "env MEMORY_FILE_PATH="+filepath.Join(dir, "m.jsonl")+" mcp-server-memory", "../../examples/mcp/memory-graph.ts")
	check("fs", "mcp-server-filesystem "+dir, "../../examples/mcp/fs-summary.ts")
}

// A server killed in the middle of a run fails the pending call with a message naming it; the
// run ends with exit status 1 and nothing hangs.
func TestMCPServerKilledMidRun(t *testing.T) {
	needMCP(t, "mcp-server-everything")
	dir := t.TempDir()
	pidfile, tracefile := filepath.Join(dir, "pid"), filepath.Join(dir, "trace.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		// Kill the server once the trace shows the long call started (a fixed delay after the
		// server's start raced with its initialization on a loaded machine).
		for ctx.Err() == nil {
			data, err := os.ReadFile(pidfile)
			trace, _ := os.ReadFile(tracefile)
			if pid, _ := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 && bytes.Contains(trace, []byte("trigger-long-running-operation")) {
				time.Sleep(200 * time.Millisecond) // let the request reach the server
				syscall.Kill(pid, syscall.SIGKILL)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	defer func() { <-killed }()
	var out, errOut bytes.Buffer
	program := `await tools["trigger-long-running-operation"]({duration: 20, steps: 2}); return "finished";`
	mcpCmd := "sh -c 'echo $$ > \"$0\"; exec mcp-server-everything' " + strconv.Quote(pidfile)
	start := time.Now()
	code := run(ctx, []string{"run", "--mcp", mcpCmd, "--trace", tracefile, "-"}, strings.NewReader(program), &out, &errOut)
	if ctx.Err() != nil {
		t.Fatal("the run did not end after the server was killed")
	}
	if code != exitFailed || !strings.Contains(out.String(), `MCP server "sh"`) || !strings.Contains(out.String(), "connection closed") {
		t.Errorf("exit %d after %v, stderr %q, stdout:\n%s", code, time.Since(start), errOut.String(), out.String())
	}
}

func TestSplitWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  a  b\tc\n", []string{"a", "b", "c"}},
		{`npx -y @modelcontextprotocol/server-memory`, []string{"npx", "-y", "@modelcontextprotocol/server-memory"}},
		{`a 'b c' "d e"`, []string{"a", "b c", "d e"}},
		{`'it''s' "say \"hi\" \$x \n" a\ b`, []string{"its", `say "hi" $x \n`, "a b"}},
		{`''`, []string{""}},
		{`x="a b"c`, []string{"x=a bc"}},
		{"a\\\nb", []string{"ab"}},
	}
	for _, c := range cases {
		got, err := splitWords(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`'open`, `"open`, `trailing\`} {
		if _, err := splitWords(bad); err == nil {
			t.Errorf("splitWords(%q) should fail", bad)
		}
	}
}

// FuzzSplitWords checks that splitting never panics, and that words quoted back with single
// quotes split to the same words.
func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{"", "a b", `'a b' "c\"d" e\ f`, `'`, `"\`, "a\\\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitWords(s)
		if err != nil {
			return
		}
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
		}
		again, err := splitWords(strings.Join(quoted, " "))
		if err != nil || !reflect.DeepEqual(again, words) {
			t.Fatalf("%q: words %q, requoted %q, %v", s, words, again, err)
		}
	})
}
