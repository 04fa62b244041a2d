package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cliEnv makes this test binary run main (TestMain), so that tests can start the runcode CLI
// as a real process: its own signal handling, exit statuses and stdin/stdout. Its workers are
// this binary again, without cliEnv.
const cliEnv = "RUNCODE_TEST_AS_CLI"

// cliProcess is a runcode CLI started as a subprocess.
type cliProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	lines  *bufio.Reader
	stderr *lockedBuffer
	early  []string      // responses read while looking for another id, in order
	exited chan struct{} // closed when the process has been reaped
	err    error         // the wait error, set before exited is closed
}

// startCLI starts the CLI with args in its own process group (so that signalling the group is
// what a terminal's Ctrl-C does, without reaching the test).
func startCLI(t *testing.T, args ...string) *cliProcess {
	t.Helper()
	return startCLIWithEnv(t, append(os.Environ(), cliEnv+"=1"), args...)
}

// startCLIWithEnv is startCLI with env as the whole environment (which must set cliEnv).
func startCLIWithEnv(t *testing.T, env []string, args ...string) *cliProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return startExecutable(t, exe, env, args...)
}

// startExecutable starts exe (a CLI binary) with env and args, as startCLI does.
func startExecutable(t *testing.T, exe string, env []string, args ...string) *cliProcess {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = env
	var err error
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &cliProcess{t: t, cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	p.stdout, p.lines = r, bufio.NewReaderSize(r, 1<<20)
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-p.exited
		r.Close()
	})
	return p
}

// signal sends sig to the CLI process only.
func (p *cliProcess) signal(sig syscall.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatal(err)
	}
}

// wait waits up to limit for the CLI to exit and returns its exit status (-1 and the signal's
// number when a signal ended it).
func (p *cliProcess) wait(limit time.Duration) int {
	p.t.Helper()
	select {
	case <-p.exited:
	case <-time.After(limit):
		p.t.Fatalf("the CLI did not exit within %s; stderr:\n%s", limit, p.stderr.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// send writes one line to the CLI's stdin.
func (p *cliProcess) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("writing to the CLI: %v; stderr:\n%s", err, p.stderr.String())
	}
}

// rpcMessage is a JSON-RPC message from the server.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result *struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// recv returns the next response (skipping the server's notifications), failing the test when
// none comes within limit.
func (p *cliProcess) recv(limit time.Duration) (rpcMessage, string) {
	p.t.Helper()
	if len(p.early) > 0 {
		line := p.early[0]
		p.early = p.early[1:]
		var m rpcMessage
		json.Unmarshal([]byte(line), &m)
		return m, line
	}
	return p.read(limit)
}

// recvID returns the response with the given id (raw JSON), keeping the others for recv.
func (p *cliProcess) recvID(id string, limit time.Duration) (rpcMessage, string) {
	p.t.Helper()
	for i, line := range p.early {
		var m rpcMessage
		if json.Unmarshal([]byte(line), &m); string(m.ID) == id {
			p.early = append(p.early[:i], p.early[i+1:]...)
			return m, line
		}
	}
	for {
		m, line := p.read(limit)
		if string(m.ID) == id {
			return m, line
		}
		p.early = append(p.early, line)
	}
}

func (p *cliProcess) read(limit time.Duration) (rpcMessage, string) {
	p.t.Helper()
	p.stdout.SetReadDeadline(time.Now().Add(limit))
	for {
		line, err := p.lines.ReadString('\n')
		if err != nil {
			select {
			case <-p.exited:
				p.t.Fatalf("reading a response: %v (got %q); the CLI exited: %v; stderr:\n%s", err, line, p.err, p.stderr.String())
			case <-time.After(2 * time.Second):
			}
			p.t.Fatalf("reading a response: %v (got %q); stderr:\n%s", err, line, p.stderr.String())
		}
		var m rpcMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			p.t.Fatalf("the server wrote %q: %v", line, err)
		}
		if m.Method != "" && m.ID == nil {
			continue // a notification
		}
		return m, line
	}
}

// initialize runs the MCP handshake over stdio.
func (p *cliProcess) initialize() {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`)
	if m, line := p.recv(30 * time.Second); string(m.ID) != "1" || m.Error != nil {
		p.t.Fatalf("initialize: %s", line)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// callRunCode sends a tools/call of run_code with id and code.
func (p *cliProcess) callRunCode(id int, code string) {
	p.t.Helper()
	args, _ := json.Marshal(map[string]any{"name": "run_code", "arguments": map[string]string{"description": "test", "code": code}})
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, args))
}

// resultText returns the text of a tools/call response with the given id.
func resultText(t *testing.T, m rpcMessage, line string, id int) (string, bool) {
	t.Helper()
	if string(m.ID) != fmt.Sprint(id) || m.Result == nil || len(m.Result.Content) == 0 {
		t.Fatalf("response to call %d: %s", id, line)
	}
	return m.Result.Content[0].Text, m.Result.IsError
}

// Each line that used to end `serve --stdio` (exit 1, every run of the client lost) gets a
// JSON-RPC error response now; the run in flight meanwhile finishes, and the server still runs
// programs afterwards.
func TestServeStdioSurvivesBadLines(t *testing.T) {
	dir := fixture(t, map[string]string{"notes.txt": "alpha\n"})
	p := startCLI(t, "serve", "--stdio", "--workspace", dir, "--max-message", "64KiB")
	p.initialize()
	p.callRunCode(2, workspaceMarker+`const t = Date.now(); while (Date.now() - t < 2000) {} return "still here";`)
	waitForFile(t, filepath.Join(dir, "started"), p)
	huge := `{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"` + strings.Repeat("x", 1<<20) + `"}}}`
	for _, c := range []struct {
		line string
		id   string
		code int
	}{
		{"not json", "null", -32700},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/list"`, "null", -32700},
		{"[]", "null", -32600},
		{`[{"jsonrpc":"2.0","id":6,"method":"ping"}]`, "null", -32600},
		{"null", "null", -32600},
		{"42", "null", -32600},
		{`{}`, "null", -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", -32600},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, "null", -32600},
		{`{"jsonrpc":"1.0","id":8,"method":"ping"}`, "8", -32600},
		{`{"jsonrpc":"2.0","result":{}}`, "null", -32600},
		{strings.Repeat("[", 60000), "null", -32700},
		{huge, "77", -32600},
		// Valid messages the SDK answers itself.
		{`{"jsonrpc":"2.0","id":50,"method":"no/such/method"}`, "50", -32601},
		{`{"jsonrpc":"2.0","id":51,"method":"tools/call","params":"x"}`, "51", 0},
	} {
		p.send(c.line)
		var m rpcMessage
		var line string
		for {
			if m, line = p.read(30 * time.Second); string(m.ID) != "2" {
				break
			}
			p.early = append(p.early, line) // the run in flight answers in between
		}
		if string(m.ID) != c.id || m.Error == nil || (c.code != 0 && m.Error.Code != c.code) {
			t.Errorf("%.50s: response %.300s; want an error %d with id %s", c.line, line, c.code, c.id)
		}
	}
	// Messages that get no response: a response to nothing, an unknown notification, blank lines.
	p.send(`{"jsonrpc":"2.0","id":999,"result":{}}`)
	p.send(`{"jsonrpc":"2.0","method":"notifications/no-such-thing"}`)
	p.send("   ")
	if m, line := p.recvID("2", 60*time.Second); m.Result == nil || m.Result.IsError || m.Result.Content[0].Text != "still here" {
		t.Fatalf("the run in flight during the bad lines: %s", line)
	}
	p.callRunCode(100, `const { content } = await tools.read_file({ path: "notes.txt" }); return content.trim() + " " + 6 * 7;`)
	m, line := p.recv(60 * time.Second)
	if text, isError := resultText(t, m, line, 100); isError || text != "alpha 42" {
		t.Fatalf("run_code after the bad lines: %s", line)
	}
	p.stdin.Close()
	if code := p.wait(20 * time.Second); code != exitOK {
		t.Fatalf("serve exited %d at the end of stdin; stderr:\n%s", code, p.stderr.String())
	}
}

// workspaceMarker is a program prefix that writes the file "started" in the workspace, so that a
// test knows the program runs before it sends a signal.
const workspaceMarker = `await tools.write_file({ path: "started", content: "1" }); `

func waitForFile(t *testing.T, path string, p *cliProcess) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		select {
		case <-p.exited:
			t.Fatalf("the CLI exited before %s appeared; stderr:\n%s", path, p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear; stderr:\n%s", path, p.stderr.String())
		}
	}
}

// A first SIGTERM or SIGINT ends a busy run as aborted, with the output so far, under both
// isolations; SIGINT sent to the whole process group, as a terminal's Ctrl-C is, reaches the
// worker too and must not turn the abort into a worker crash.
func TestRunEndsAsAbortOnFirstSignal(t *testing.T) {
	for _, c := range []struct {
		name      string
		isolation string
		sig       syscall.Signal
		group     bool
	}{
		{"SIGTERM/process", "process", syscall.SIGTERM, false},
		{"SIGTERM/inprocess", "inprocess", syscall.SIGTERM, false},
		{"SIGINT to the group/process", "process", syscall.SIGINT, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			prog := filepath.Join(dir, "busy.ts")
			os.WriteFile(prog, []byte(`console.log("before"); `+workspaceMarker+`for (;;) {}`), 0o644)
			p := startCLI(t, "run", "--isolation", c.isolation, "--cpu", "10m", "--timeout", "10m", "--workspace", dir, prog)
			waitForFile(t, filepath.Join(dir, "started"), p)
			if c.group {
				syscall.Kill(-p.cmd.Process.Pid, c.sig)
			} else {
				p.signal(c.sig)
			}
			code := p.wait(20 * time.Second)
			out, _ := io.ReadAll(p.lines)
			name := map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT"}[c.sig]
			if code != exitFailed || string(out) != "Error: code run failed (abort): runcode received "+name+"\nCaptured output:\nbefore\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, p.stderr.String())
			}
		})
	}
}

// serve drains on the first signal: new calls fail with a clear error, the run in flight may
// finish; a second signal exits at once with 128 + the signal's number.
func TestServeDrainsThenSecondSignalExitsAtOnce(t *testing.T) {
	dir := t.TempDir()
	p := startCLI(t, "serve", "--stdio", "--workspace", dir, "--cpu", "10m", "--timeout", "10m", "--drain-timeout", "10m")
	p.initialize()
	p.callRunCode(2, workspaceMarker+`for (;;) {}`)
	waitForFile(t, filepath.Join(dir, "started"), p)
	p.signal(syscall.SIGTERM)
	// The busy run goes on; a new call is refused.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(p.stderr.String(), "shutting down") {
		if time.Now().After(deadline) {
			t.Fatalf("no drain message; stderr:\n%s", p.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.callRunCode(3, `return 1`)
	m, line := p.recv(20 * time.Second)
	if text, isError := resultText(t, m, line, 3); !isError || !strings.Contains(text, "shutting down") {
		t.Fatalf("a call while draining: %s", line)
	}
	start := time.Now()
	p.signal(syscall.SIGTERM)
	if code := p.wait(5 * time.Second); code != 128+int(syscall.SIGTERM) {
		t.Fatalf("exit %d after the second SIGTERM; stderr:\n%s", code, p.stderr.String())
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the second signal took %s to end the CLI", took)
	}
	if !strings.Contains(p.stderr.String(), "SIGTERM again: exiting at once") {
		t.Fatalf("stderr:\n%s", p.stderr.String())
	}
}

// A run that finishes within --drain-timeout answers, one that does not is aborted with its
// output so far; then serve exits 0. The signal is SIGINT to the whole process group, as a
// terminal's Ctrl-C: the workers must outlive it for the run to finish.
func TestServeDrainLetsRunsFinishThenAborts(t *testing.T) {
	for _, c := range []struct {
		name, drain, code string
		want              string
		isError           bool
	}{
		{"finishes", "1m", `const t = Date.now(); while (Date.now() - t < 1000) {} return "done";`, "before\ndone", false},
		{"aborted", "300ms", `for (;;) {}`, "Error: code run failed (abort): the server shut down before the run finished\nCaptured output:\nbefore", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := startCLI(t, "serve", "--stdio", "--workspace", dir, "--cpu", "10m", "--timeout", "10m", "--drain-timeout", c.drain)
			p.initialize()
			p.callRunCode(2, `console.log("before"); `+workspaceMarker+c.code)
			waitForFile(t, filepath.Join(dir, "started"), p)
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGINT)
			m, line := p.recv(30 * time.Second)
			if text, isError := resultText(t, m, line, 2); isError != c.isError || text != c.want {
				t.Fatalf("the run in flight: %s", line)
			}
			if code := p.wait(20 * time.Second); code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
			}
		})
	}
}
