//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The approvals example (examples/approvals): append_note needs approval ("approval":
// "required") and appends to notes.txt next to the manifest; save-notes.ts calls it twice and
// prints "APPROVAL_DENIED: <message>" for a denied call (the program reads e.code).

// approvalExample copies examples/approvals into a new directory (the tool writes next to its
// manifest) and returns it.
func approvalExample(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"tools.json", "append_note.py", "read_notes.py", "save-notes.ts"} {
		data, err := os.ReadFile(filepath.Join("../../examples/approvals", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// notes returns what the tool wrote, "" when it wrote nothing.
func notes(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// cliCommand is the runcode binary (this test binary as the CLI, see TestMain) running args in
// dir, with stdin from /dev/null and stdout and stderr not terminals.
func cliCommand(t *testing.T, ctx context.Context, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	return cmd
}

// runCLI runs the binary to its end (at most a minute) and returns its status, stdout and stderr.
func runCLI(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := cliCommand(t, ctx, dir, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

const deniedLine = `APPROVAL_DENIED: tool "append_note" requires approval, but no approval channel is available: there is no terminal to ask on; approve it with --approve append_note, or every call that needs approval with --yes`

// Without a terminal and without an approving flag, a call that needs approval is denied at
// once, in both isolations: the program catches a ToolCallError whose code is APPROVAL_DENIED
// and whose message names the tool and the flags, and the tool wrote nothing.
func TestApprovalDeniedWithoutATerminal(t *testing.T) {
	for _, iso := range []string{"process", "inprocess"} {
		t.Run(iso, func(t *testing.T) {
			dir := approvalExample(t)
			start := time.Now()
			code, out, errOut := runCLI(t, dir, "run", "--isolation", iso, "--tools", "tools.json", "save-notes.ts")
			if code != exitOK || strings.Count(out, deniedLine) != 2 {
				t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
			}
			if n := notes(t, dir); n != "" {
				t.Fatalf("the tool wrote %q", n)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Fatalf("the run took %v", d)
			}
		})
	}
}

// --approve NAME (a name or a * pattern) and --yes approve without asking; --no-approvals makes
// the tool need no approval at all.
func TestApprovalFlagsApproveWithoutAsking(t *testing.T) {
	for _, flags := range [][]string{{"--approve", "append_note"}, {"--approve", "other", "--approve", "append_*"}, {"--yes"}, {"--no-approvals"}} {
		t.Run(strings.Join(flags, " "), func(t *testing.T) {
			dir := approvalExample(t)
			args := append(append([]string{"run", "--tools", "tools.json"}, flags...), "save-notes.ts")
			code, out, errOut := runCLI(t, dir, args...)
			if code != exitOK || !strings.Contains(out, "appended: buy milk\nappended: call Ada\n") || strings.Contains(out, "APPROVAL_DENIED") {
				t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
			}
			if n := notes(t, dir); n != "buy milk\ncall Ada\n" {
				t.Fatalf("notes %q", n)
			}
		})
	}
	code, _, errOut := runCLI(t, t.TempDir(), "run", "--approve", "", "-")
	if code != exitUsage || !strings.Contains(errOut, `--approve "": an approval pattern needs a tool name`) {
		t.Fatalf("an empty --approve: exit %d, stderr %q", code, errOut)
	}
}

// onTerminal is the CLI running on a pseudo-terminal: stdin, stdout and stderr are the
// terminal, as when a person runs it.
type onTerminal struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	mu   sync.Mutex
	seen bytes.Buffer // everything the terminal showed
	more chan struct{}
	done chan struct{}
}

func startOnTerminal(t *testing.T, dir string, args ...string) *onTerminal {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd := cliCommand(t, ctx, dir, args...)
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term := &onTerminal{t: t, cmd: cmd, ptmx: ptmx, more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(term.done)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			term.mu.Lock()
			term.seen.Write(buf[:n])
			term.mu.Unlock()
			select {
			case term.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		ptmx.Close()
		<-term.done
	})
	return term
}

func (o *onTerminal) output() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.seen.String()
}

// waitForCount waits until the terminal has shown s n times.
func (o *onTerminal) waitForCount(s string, n int) {
	o.t.Helper()
	deadline := time.After(30 * time.Second)
	for strings.Count(o.output(), s) < n {
		select {
		case <-o.more:
		case <-o.done:
			if strings.Count(o.output(), s) >= n {
				return
			}
			o.t.Fatalf("the terminal closed before showing %q %d times:\n%s", s, n, o.output())
		case <-deadline:
			o.t.Fatalf("the terminal did not show %q %d times:\n%s", s, n, o.output())
		}
	}
}

func (o *onTerminal) answer(line string) {
	o.t.Helper()
	if _, err := io.WriteString(o.ptmx, line+"\n"); err != nil {
		o.t.Fatal(err)
	}
}

// wait waits for the CLI to exit and returns its status and everything the terminal showed.
func (o *onTerminal) wait() (int, string) {
	o.t.Helper()
	err := o.cmd.Wait()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		o.t.Fatal(err)
	}
	select {
	case <-o.done:
	case <-time.After(10 * time.Second):
	}
	return o.cmd.ProcessState.ExitCode(), o.output()
}

const question = "a = always for this tool: "

// On a terminal, run asks about each call, showing the tool, the program's description and the
// arguments: y runs the call once, n denies it (APPROVAL_DENIED in the program), and a approves
// the later calls of the tool without asking again.
func TestApprovalPromptOnATerminal(t *testing.T) {
	t.Run("yes then no", func(t *testing.T) {
		dir := approvalExample(t)
		term := startOnTerminal(t, dir, "run", "--tools", "tools.json", "save-notes.ts")
		term.waitForCount(question, 1)
		shown := term.output()
		for _, want := range []string{"runcode: the program wants to call tool append_note, which needs approval.", "program: Run save-notes.ts", `"text": "buy milk"`} {
			if !strings.Contains(shown, want) {
				t.Fatalf("the question lacks %q:\n%s", want, shown)
			}
		}
		term.answer("y")
		term.waitForCount(question, 2)
		if !strings.Contains(term.output(), `"text": "call Ada"`) {
			t.Fatalf("the second question:\n%s", term.output())
		}
		term.answer("n")
		code, shown := term.wait()
		if code != exitOK || !strings.Contains(shown, "appended: buy milk") || !strings.Contains(shown, `APPROVAL_DENIED: the user rejected tool "append_note"`) {
			t.Fatalf("exit %d:\n%s", code, shown)
		}
		if n := notes(t, dir); n != "buy milk\n" {
			t.Fatalf("notes %q", n)
		}
	})
	t.Run("always", func(t *testing.T) {
		dir := approvalExample(t)
		term := startOnTerminal(t, dir, "run", "--tools", "tools.json", "save-notes.ts")
		term.waitForCount(question, 1)
		term.answer("a")
		code, shown := term.wait()
		if code != exitOK || strings.Count(shown, question) != 1 || !strings.Contains(shown, "appended: call Ada") {
			t.Fatalf("exit %d, %d questions:\n%s", code, strings.Count(shown, question), shown)
		}
		if n := notes(t, dir); n != "buy milk\ncall Ada\n" {
			t.Fatalf("notes %q", n)
		}
	})
}

// A run waiting for a person spends no compute budget: waiting longer than --cpu does not fail
// the run, in either isolation (--cpu counts the time the program runs JavaScript). The wait is
// bounded by the run's wall time instead: with nobody answering, --timeout ends the run.
func TestApprovalWaitSpendsWallTimeNotCPU(t *testing.T) {
	for _, iso := range []string{"process", "inprocess"} {
		t.Run(iso, func(t *testing.T) {
			dir := approvalExample(t)
			term := startOnTerminal(t, dir, "run", "--isolation", iso, "--cpu", "300ms", "--tools", "tools.json", "--approve", "nothing", "save-notes.ts")
			term.waitForCount(question, 1)
			time.Sleep(time.Second)
			term.answer("a")
			code, shown := term.wait()
			if code != exitOK || !strings.Contains(shown, "appended: call Ada") {
				t.Fatalf("exit %d:\n%s", code, shown)
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		dir := approvalExample(t)
		start := time.Now()
		term := startOnTerminal(t, dir, "run", "--timeout", "1s", "--tools", "tools.json", "save-notes.ts")
		term.waitForCount(question, 1)
		code, shown := term.wait()
		if code != exitFailed || !strings.Contains(shown, "timeout") || time.Since(start) > 20*time.Second {
			t.Fatalf("exit %d after %v:\n%s", code, time.Since(start), shown)
		}
		if n := notes(t, dir); n != "" {
			t.Fatalf("the tool wrote %q", n)
		}
	})
}

// MCP tools annotated destructiveHint: true need approval by default (the reference filesystem
// server's write_file); a --config entry's "approve" list adds tools (create_directory, which is
// not destructive); --no-approvals lifts both.
func TestMCPApprovalDefaults(t *testing.T) {
	needMCP(t, "mcp-server-filesystem")
	root := t.TempDir()
	program := filepath.Join(t.TempDir(), "write.ts")
	os.WriteFile(program, []byte(`const root = `+strconv.Quote(root)+`;
const out: string[] = [];
for (const [name, call] of [
  ["write_file", () => tools.fs.write_file({ path: root + "/a.txt", content: "hi" })],
  ["create_directory", () => tools.fs.create_directory({ path: root + "/d" })],
  ["list_allowed_directories", () => tools.fs.list_allowed_directories({})],
] as const) {
  try { await call(); out.push(name + ": ok") } catch (e) { out.push(name + ": " + (e as ToolCallError).code) }
}
return out.join(", ")`), 0o644)
	config := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(config, []byte(`{"mcpServers": {"fs": {"command": "mcp-server-filesystem", "args": [`+strconv.Quote(root)+`], "approve": ["create_directory"]}}}`), 0o644)

	code, out, errOut := runCLI(t, root, "run", "--config", config, program)
	if code != exitOK || !strings.Contains(out, "write_file: APPROVAL_DENIED, create_directory: APPROVAL_DENIED, list_allowed_directories: ok") {
		t.Fatalf("default: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	if _, err := os.Stat(filepath.Join(root, "a.txt")); err == nil {
		t.Fatal("write_file wrote without approval")
	}
	code, out, errOut = runCLI(t, root, "run", "--config", config, "--no-approvals", program)
	if code != exitOK || !strings.Contains(out, "write_file: ok, create_directory: ok") {
		t.Fatalf("--no-approvals: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	if data, err := os.ReadFile(filepath.Join(root, "a.txt")); err != nil || string(data) != "hi" {
		t.Fatalf("write_file with --no-approvals: %q, %v", data, err)
	}
}

// The trace records a denied call's code (errorCode), and a replay of it gives the program the
// same ToolCallError, code included, without running the tool.
func TestReplayOfADeniedCallKeepsItsCode(t *testing.T) {
	dir := approvalExample(t)
	code, out, errOut := runCLI(t, dir, "run", "--tools", "tools.json", "--trace", "t.jsonl", "save-notes.ts")
	if code != exitOK || strings.Count(out, deniedLine) != 2 {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	trace, err := os.ReadFile(filepath.Join(dir, "t.jsonl"))
	if err != nil || !strings.Contains(string(trace), `"errorCode":"APPROVAL_DENIED"`) {
		t.Fatalf("trace (%v):\n%s", err, trace)
	}
	code, replayed, errOut := runCLI(t, dir, "run", "--replay", "t.jsonl", "save-notes.ts")
	if code != exitOK || replayed != out {
		t.Fatalf("replay: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, replayed, out)
	}
}

// serve takes the same flags: without them (and with a client that cannot ask a person) a call
// that needs approval is denied at once, the message saying how to approve it on the server;
// --approve lets it run without asking the client.
func TestServeApprovalFlags(t *testing.T) {
	for _, c := range []struct {
		flags []string
		want  string
		notes string
	}{
		{nil, `APPROVAL_DENIED: tool "append_note" requires approval, but this MCP client cannot ask a person`, ""},
		{[]string{"--approve", "append_note"}, "appended: call Ada", "buy milk\ncall Ada\n"},
	} {
		t.Run(strings.Join(c.flags, " "), func(t *testing.T) {
			dir := approvalExample(t)
			program, err := os.ReadFile(filepath.Join(dir, "save-notes.ts"))
			if err != nil {
				t.Fatal(err)
			}
			p := startCLI(t, append([]string{"serve", "--stdio", "--tools", filepath.Join(dir, "tools.json")}, c.flags...)...)
			p.initialize()
			p.callRunCode(2, string(program))
			m, line := p.recv(30 * time.Second)
			text, isErr := resultText(t, m, line, 2)
			if isErr || !strings.Contains(text, c.want) || c.notes == "" && !strings.Contains(text, "--approve append_note, or --yes") {
				t.Fatalf("result (isError %v):\n%s", isErr, text)
			}
			if n := notes(t, dir); n != c.notes {
				t.Fatalf("notes %q, want %q", n, c.notes)
			}
		})
	}
}

// The example typechecks against its SDK, e.code included (ToolCallError declares code?: string).
func TestApprovalExampleTypechecks(t *testing.T) {
	if _, err := exec.LookPath("tsc"); err != nil {
		t.Skip("tsc not installed; CI installs typescript")
	}
	dir := approvalExample(t)
	if code, out, errOut := runCLI(t, dir, "check", "--tools", "tools.json", "save-notes.ts"); code != exitOK {
		t.Fatalf("check: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
