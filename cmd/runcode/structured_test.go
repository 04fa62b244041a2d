package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/mcptools"
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
func TestServeStdioBoundsLargeReplies(t *testing.T) {
	p := startCLI(t, "serve", "--stdio", "--isolation", "inprocess", "--workspace", t.TempDir())
	p.initialize()
	for i, c := range []struct {
		lines int
		cut   bool
	}{{6000, false}, {12000, true}} {
		id := i + 2
		p.callRunCode(id, linesProgram(c.lines))
		m, line := p.recvID(itoaJSON(id), 2*time.Minute)
		if len(line) > mcptools.DefaultMaxReplyBytes {
			t.Fatalf("%d lines: the reply line takes %d bytes, over %d", c.lines, len(line), mcptools.DefaultMaxReplyBytes)
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
	} {
		code, _, stderr := invoke(t, "", append([]string{"serve", "--stdio", "--workspace", t.TempDir()}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
	}
}
