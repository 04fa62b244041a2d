package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/mcpserve"
)

// linesProgram prints n lines of 1,000 bytes, then returns "the end".
func linesProgram(n int) string {
	return `const line = "x".repeat(1000); for (let i = 0; i < ` + strings.TrimSpace(itoaJSON(n)) + `; i++) console.log(line); return "the end";`
}

func itoaJSON(n int) string { b, _ := json.Marshal(n); return string(b) }

// Over serve --stdio, ~6 MB of output used to travel twice (text and structuredContent) in a
// 12 MB line that the TypeScript SDK's stdio reader (10 MiB) rejects, ending its session. By
// default (--structured auto) a large reply is text only, and no reply line exceeds
// --max-reply: 12 MB of output is cut, start and end kept, with a marker (issue 24, item 15).
// The model's output budget is off here (--output-budget 0), so that the replies are this large.
func TestServeStdioBoundsLargeReplies(t *testing.T) {
	p := startCLI(t, "serve", "--stdio", "--isolation", "inprocess", "--workspace", t.TempDir(), "--output-budget", "0")
	p.initialize()
	for i, c := range []struct {
		lines int
		cut   bool
	}{{6000, false}, {12000, true}} {
		id := i + 2
		p.callRunCode(id, linesProgram(c.lines))
		m, line := p.recvID(itoaJSON(id), 2*time.Minute)
		if len(line) > mcpserve.DefaultMaxReplyBytes {
			t.Fatalf("%d lines: the reply line takes %d bytes, over %d", c.lines, len(line), mcpserve.DefaultMaxReplyBytes)
		}
		if strings.Contains(line, `"structuredContent"`) {
			t.Errorf("%d lines: a %d-byte reply carries structuredContent under --structured auto", c.lines, len(line))
		}
		text, isError := resultText(t, m, line, id)
		if isError || !strings.HasSuffix(text, "\nthe end") {
			t.Fatalf("%d lines: isError %v, text ends %q", c.lines, isError, text[max(len(text)-50, 0):])
		}
		if cut := strings.Contains(text, " bytes cut here …]"); cut != c.cut {
			t.Errorf("%d lines: cut %v, want %v (%d bytes of text)", c.lines, cut, c.cut, len(text))
		}
		if c.cut && !strings.Contains(line, "this reply was cut to fit one MCP message of at most 8388608 bytes") {
			t.Errorf("%d lines: no note saying the reply was cut", c.lines)
		}
	}
}

func TestServeStructuredFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--structured", "sometimes"}, `--structured "sometimes": want auto, always or never`},
		{[]string{"--max-reply", "1KiB"}, "--max-reply must be at least 16KiB"},
		{[]string{"--output-budget", "1KiB"}, "--output-budget must be 0 (off) or at least 2048 bytes"},
	} {
		code, _, stderr := invoke(t, "", append([]string{"serve", "--stdio", "--workspace", t.TempDir()}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
	}
}

// bigOutputProgram prints about 5 MB of logs (50,000 lines of 100 bytes) and returns 20,000
// records and a 1 MB string beside a small summary.
const bigOutputProgram = `
for (let i = 0; i < 50000; i++) console.log("line " + i + " " + "x".repeat(90));
const rows = [];
for (let i = 0; i < 20000; i++) rows.push({id: i, name: "record " + i});
return {summary: {count: rows.length, ok: true}, rows, text: "y".repeat(1 << 20)};`

// Issue 23, observation 6, over serve and the official TypeScript client's stdio transport:
// ~5 MB of output is a reply within the model's output budget in both of its forms, text and
// structuredContent (which it now carries under --structured auto too, being small), each
// valid, of the outcome's shape, with markers and a note on how to get the rest; the session
// goes on. Before the budget, the reply was cut to --max-reply (8 MiB) at best.
func TestServeStdioOfficialClientOutputBudget(t *testing.T) {
	node, sdk := officialMCPSDK(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	programFile := filepath.Join(t.TempDir(), "big.ts")
	if err := os.WriteFile(programFile, []byte(bigOutputProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		flags  []string
		budget int
	}{
		{"default", nil, codemode.DefaultOutputBudget},
		{"always", []string{"--structured", "always", "--output-budget", "8KiB"}, 8 << 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			args := append([]string{filepath.Join("testdata", "tsstdioclient.cjs"), sdk, programFile, exe, "serve", "--stdio", "--isolation", "inprocess", "--workspace", t.TempDir()}, c.flags...)
			cmd := exec.CommandContext(ctx, node, args...)
			cmd.Env = append(os.Environ(), cliEnv+"=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the client: %v\n%.2000s", err, out)
			}
			type step struct {
				Step, Text, Error string
				OK, IsError       bool
				Structured        *string
			}
			steps := map[string]step{}
			for line := range strings.Lines(string(out)) {
				var s step
				if err := json.Unmarshal([]byte(line), &s); err != nil {
					t.Fatalf("the client printed %.300q: %v", line, err)
				}
				steps[s.Step] = s
			}
			if s, ok := steps["transport-error"]; ok {
				t.Fatalf("the client's transport failed: %s", s.Error)
			}
			big := steps["big"]
			if !big.OK || big.IsError {
				t.Fatalf("the big call: ok %v, isError %v, error %q, text %.300q", big.OK, big.IsError, big.Error, big.Text)
			}
			if len(big.Text) > c.budget {
				t.Errorf("the text takes %d bytes, over the budget of %d", len(big.Text), c.budget)
			}
			for _, w := range []string{"line 0 ", "line 49999 ", " more lines", `"summary": {`, " more items", " characters cut]…", "output budget", "tools.write_file"} {
				if !strings.Contains(big.Text, w) {
					t.Errorf("the text lacks %q", w)
				}
			}
			if big.Structured == nil {
				t.Fatalf("no structuredContent in a reply of %d bytes of text", len(big.Text))
			}
			if len(*big.Structured) > c.budget {
				t.Errorf("structuredContent takes %d bytes, over the budget of %d", len(*big.Structured), c.budget)
			}
			var outcome struct {
				Logs   []string
				Result struct {
					Summary struct{ Count int }
					Rows    []json.RawMessage
					Text    string
				}
				Notes []string
			}
			if err := json.Unmarshal([]byte(*big.Structured), &outcome); err != nil {
				t.Fatalf("structuredContent: %v: %.300s", err, *big.Structured)
			}
			if len(outcome.Logs) < 2 || outcome.Result.Summary.Count != 20000 || len(outcome.Result.Rows) < 2 ||
				!strings.Contains(outcome.Result.Text, " characters cut]…") || len(outcome.Notes) == 0 {
				t.Errorf("structuredContent lost the outcome's shape: %.600s", *big.Structured)
			}
			if s := steps["after"]; !s.OK || s.Text != "2" {
				t.Errorf("the call after it: %+v", s)
			}
		})
	}
}

// Issue 23, observation 6, through `runcode run` in both isolations: a program printing ~5 MB
// of logs and returning a huge result succeeds, and what it prints — the model's text, and the
// canonical outcome of --json — is within the output budget, of the same shape, with markers
// and a note; --output-budget 0 prints it all; --max-output still fails a run over it.
func TestRunOutputBudget(t *testing.T) {
	ws := t.TempDir()
	for _, iso := range []string{"inprocess", "process"} {
		t.Run(iso, func(t *testing.T) {
			code, out, stderr := invoke(t, bigOutputProgram, "run", "--isolation", iso, "--workspace", ws, "-")
			if code != exitOK {
				t.Fatalf("exit %d: %s\n%.300s", code, stderr, out)
			}
			if len(out) > codemode.DefaultOutputBudget+1 { // the newline after the text
				t.Errorf("run printed %d bytes, over the budget of %d", len(out), codemode.DefaultOutputBudget)
			}
			for _, w := range []string{"line 0 ", "line 49999 ", " more lines\n", " more items\"", " characters cut]…", "output budget of 40,000 bytes", "tools.write_file"} {
				if !strings.Contains(out, w) {
					t.Errorf("the text lacks %q", w)
				}
			}
			code, out, stderr = invoke(t, bigOutputProgram, "run", "--json", "--isolation", iso, "--workspace", ws, "--output-budget", "4KiB", "-")
			if code != exitOK || len(out) > 4<<10+1 || !json.Valid([]byte(out)) {
				t.Fatalf("--json: exit %d, %d bytes: %s\n%.300s", code, len(out), stderr, out)
			}
			var outcome struct {
				Logs   []string
				Result struct{ Summary struct{ Count int } }
				Notes  []string
			}
			if err := json.Unmarshal([]byte(out), &outcome); err != nil || len(outcome.Logs) < 2 || outcome.Result.Summary.Count != 20000 || len(outcome.Notes) != 1 {
				t.Errorf("--json: %v: %.500s", err, out)
			}
			code, out, _ = invoke(t, bigOutputProgram, "run", "--isolation", iso, "--workspace", ws, "--output-budget", "0", "-")
			if code != exitOK || len(out) < 5<<20 {
				t.Errorf("--output-budget 0: exit %d, %d bytes, want all of the output", code, len(out))
			}
			code, out, _ = invoke(t, bigOutputProgram, "run", "--isolation", iso, "--workspace", ws, "--max-output", "1MiB", "-")
			if code != exitFailed || !strings.HasPrefix(out, "Error: code run failed (output-limit)") || len(out) > codemode.DefaultOutputBudget+1 {
				t.Errorf("--max-output 1MiB: exit %d, %d bytes: %.200s", code, len(out), out)
			}
		})
	}
}
