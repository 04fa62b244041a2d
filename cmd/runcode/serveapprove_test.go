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
)

// approvalManifest is a manifest whose one tool, note, needs approval and appends its text to
// notes.log beside the manifest: each line there is one call that ran.
const approvalManifest = `{"tools": [{
  "name": "note",
  "description": "Append a note.",
  "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
  "command": ["sh", "-c", "cat >> notes.log; echo >> notes.log; echo '\"noted\"'"],
  "approval": "required"
}]}`

// approvalProgram calls note and reports whether it ran or how it was denied.
const approvalProgram = `try {
  const r = await tools.note({ text: "hello" });
  return "ran: " + r;
} catch (e) {
  return "denied: " + e.message;
}`

// serve asks the person behind the official TypeScript client (which declared
// elicitation) before a tool that needs approval runs: accept runs it once; decline and cancel
// deny it with APPROVAL_DENIED, which the program catches; a client without the capability is
// denied at once, with how to approve instead; nobody answering is denied after the approval
// timeout (three quarters of --timeout); a client that cancels its call withdraws the question
// and the tool does not run; the wait is wall time only, not --cpu. The session goes on. Over
// --http too.
func TestServeApprovalsOfficialClient(t *testing.T) {
	node, sdk := officialMCPSDK(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mode    string
		flags   []string
		want    string // in the run's text
		ran     int    // lines in notes.log
		asked   bool
		minMs   int // the run took at least this long
		maxMs   int // and at most this long
		callErr bool
		http    bool // serve --http instead of --stdio
	}{
		{mode: "accept", want: "ran: noted", ran: 1, asked: true},
		{mode: "decline", want: `denied: the user declined tool "note"`, asked: true},
		{mode: "cancel", want: `denied: approval for tool "note" was cancelled by the user`, asked: true},
		{mode: "none", want: `denied: tool "note" requires approval, but this MCP client cannot ask a person (it did not declare the elicitation capability, or it speaks a protocol older than 2026-07-28 to a stateless server, which cannot send it requests); approve it where runcode serve runs instead: --approve note, or --yes`, maxMs: 5000},
		{mode: "silent", flags: []string{"--timeout", "4s"}, want: `denied: tool "note" was denied: nobody answered the approval request within 3s`, asked: true, minMs: 3000},
		{mode: "slow:3000", flags: []string{"--cpu", "1s"}, want: "ran: noted", ran: 1, asked: true, minMs: 3000},
		{mode: "slow:3000", flags: []string{"--cpu", "1s", "--isolation", "inprocess"}, want: "ran: noted", ran: 1, asked: true, minMs: 3000},
		{mode: "abort", asked: true, callErr: true},
		{mode: "accept", want: "ran: noted", ran: 1, asked: true, http: true},
		// Over HTTP the SDK sends the question's cancellation asynchronously and drops it once the
		// call's answer has closed its stream: process isolation, the default, ends a cancelled
		// run later than that (DECISIONS row 95).
		{mode: "abort", asked: true, callErr: true, http: true, flags: []string{"--isolation", "process"}},
	} {
		name := strings.Split(c.mode, ":")[0]
		if c.http {
			name += " over HTTP"
		}
		if strings.Contains(strings.Join(c.flags, " "), "inprocess") {
			name += " in-process"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			manifest := filepath.Join(dir, "tools.json")
			program := filepath.Join(dir, "program.ts")
			if err := os.WriteFile(manifest, []byte(approvalManifest), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(program, []byte(approvalProgram), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			args := append([]string{filepath.Join("testdata", "tselicit.cjs"), sdk, c.mode, program, exe, "serve", "--stdio", "--tools", manifest, "--workspace", t.TempDir()}, c.flags...)
			if c.http {
				endpoint := startServeHTTP(t, append([]string{"--tools", manifest, "--workspace", t.TempDir()}, c.flags...)...)
				args = []string{filepath.Join("testdata", "tselicit.cjs"), sdk, c.mode, program, endpoint}
			}
			cmd := exec.CommandContext(ctx, node, args...)
			cmd.Env = append(os.Environ(), cliEnv+"=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the client: %v\n%.3000s", err, out)
			}
			type step struct {
				Step, Text, Error string
				OK, IsError       bool
				Ms                int
			}
			steps := map[string]step{}
			order := map[string]int{} // the line of each step's first appearance
			for line := range strings.Lines(string(out)) {
				var s step
				if err := json.Unmarshal([]byte(line), &s); err != nil {
					t.Fatalf("the client printed %.300q: %v", line, err)
				}
				if _, seen := steps[s.Step]; !seen {
					order[s.Step] = len(order)
				}
				steps[s.Step] = s
			}
			// The SDK still answers a call its client cancelled (the MCP specification says it
			// should not); the TypeScript client reports that answer as an unknown id.
			if s, ok := steps["transport-error"]; ok && !(c.callErr && strings.Contains(s.Error, "unknown message ID")) {
				t.Fatalf("the client's transport failed: %s", s.Error)
			}
			asked, wasAsked := steps["asked"]
			if wasAsked != c.asked {
				t.Fatalf("asked the person: %v, want %v\n%s", wasAsked, c.asked, out)
			}
			if c.asked {
				for _, w := range []string{`tool "note"`, "Program: write a note", `"text": "hello"`} {
					if !strings.Contains(asked.Text, w) {
						t.Errorf("the question %q lacks %q", asked.Text, w)
					}
				}
			}
			got := steps["run"]
			switch {
			case c.callErr:
				if got.OK {
					t.Errorf("the cancelled call answered: %+v", got)
				}
				// Before the next call: withdrawn by the server (notifications/cancelled), not by
				// the client closing at the end.
				if w, ok := order["question-withdrawn"]; !ok || w > order["after"] {
					t.Errorf("the question was not withdrawn when the call was cancelled\n%s", out)
				}
			case !got.OK || got.IsError || !strings.Contains(got.Text, c.want):
				t.Errorf("the run: %+v\nwant text with %q", got, c.want)
			}
			if c.minMs > 0 && got.Ms < c.minMs || c.maxMs > 0 && got.Ms > c.maxMs {
				t.Errorf("the run took %dms, want between %d and %d", got.Ms, c.minMs, c.maxMs)
			}
			if after := steps["after"]; !after.OK || after.Text != "2" {
				t.Errorf("the next call on the session: %+v", after)
			}
			notes, _ := os.ReadFile(filepath.Join(dir, "notes.log"))
			if n := strings.Count(string(notes), "hello"); n != c.ran {
				t.Errorf("the tool ran %d times, want %d (notes.log: %q)", n, c.ran, notes)
			}
		})
	}
}
