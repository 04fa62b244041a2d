package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// examples/trace: the commands its program's header and docs/tracing.md show trace it, draw its
// waterfall and replay it, and the replay prints what the traced run printed.
func TestExampleTraceViewReplay(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	dir := t.TempDir()
	trace := filepath.Join(dir, "wordstats.jsonl")
	program := filepath.Join("examples", "trace", "wordstats.ts")
	header, err := os.ReadFile(program)
	if err != nil {
		t.Fatal(err)
	}
	pages := docSections(t, repo, "Debugging and tracing")
	for _, cmd := range []string{"run --tools examples/tools/tools.json --workspace . --max-parallel 4 --trace wordstats.jsonl examples/trace/wordstats.ts",
		"trace view wordstats.jsonl", "run --replay wordstats.jsonl examples/trace/wordstats.ts"} {
		if !strings.Contains(string(header), "go run ./cmd/runcode "+cmd) {
			t.Errorf("the example's header does not show %q", cmd)
		}
		for page, section := range pages {
			if !strings.Contains(section, "\ngo run ./cmd/runcode "+cmd) {
				t.Errorf("%s: Debugging and tracing does not show %q", page, cmd)
			}
		}
	}

	code, traced, errOut := invoke(t, "", "run", "--isolation", "inprocess", "--tools", "examples/tools/tools.json", "--workspace", ".", "--max-parallel", "4", "--trace", trace, program)
	if code != exitOK || !strings.Contains(traced, "expected failure: cannot read \"NO-SUCH-FILE.md\"") || !strings.Contains(traced, `"largest": `) {
		t.Fatalf("traced run: exit %d, stdout %q, stderr %q", code, traced, errOut)
	}
	if code, out, errOut := invoke(t, "", "trace", "view", trace); code != exitOK || out != "" || errOut != "" {
		t.Fatalf("trace view: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	page, err := os.ReadFile(filepath.Join(dir, "wordstats.html"))
	if err != nil {
		t.Fatal(err)
	}
	files := len(regexp.MustCompile(`(?m)^[^ ]+\.md: \d+ words`).FindAllString(traced, -1))
	// glob, a read and a count per file, the opening line, the failing read.
	if rows := strings.Count(string(page), `<details class="row `); rows != 2*files+3 {
		t.Errorf("%d rows for %d files, want %d", rows, files, 2*files+3)
	}
	if failed := strings.Count(string(page), `<details class="row failed"`); failed != 1 {
		t.Errorf("%d failed rows, want 1", failed)
	}
	code, replayed, errOut := invoke(t, "", "run", "--isolation", "inprocess", "--replay", trace, program)
	if code != exitOK || replayed != traced || errOut != "" {
		t.Errorf("replay: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, replayed, traced)
	}
}

func TestTraceViewCommand(t *testing.T) {
	dir := fixture(t, map[string]string{
		"t.jsonl": `{"type":"code-dispatch-start","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:1","name":"x","arguments":{"q":"<b>"},"time":"2026-12-01T10:00:00.000000000Z"}
{"type":"code-dispatch","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:1","name":"x","arguments":{"q":"<b>"},"isError":true,"content":[{"type":"text","text":"Error: no"}],"time":"2026-12-01T10:00:00.003000000Z","durationMs":3,"errorMessage":"no"}
`,
		"bad.jsonl":  `{"type":"code-dispatch","rootCallId":"r","parentCallId":"r","subCallId":"r:code:1","name":"x","arguments":{},"isError":false,"content":[]}` + "\n",
		"page.html":  "not a trace",
		"trace.html": "{}\n",
	})
	in := filepath.Join(dir, "t.jsonl")
	code, out, errOut := invoke(t, "", "trace", "view", in, "-o", "-")
	if code != exitOK || errOut != "" || !strings.Contains(out, `data-failed="1"`) || !strings.Contains(out, `&lt;b&gt;`) || !strings.Contains(out, "3.0 ms") {
		t.Fatalf("trace view -o -: exit %d, stderr %q, stdout %.300q", code, errOut, out)
	}
	other := filepath.Join(dir, "other.html")
	if code, _, errOut := invoke(t, "", "trace", "view", "-o", other, in); code != exitOK {
		t.Fatalf("-o before FILE: exit %d, stderr %q", code, errOut)
	}
	if data, err := os.ReadFile(other); err != nil || string(data) != out {
		t.Errorf("-o FILE differs from -o -: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"trace"}, "runcode: trace needs a subcommand: runcode trace view FILE [-o FILE.html]"},
		{[]string{"trace", "view"}, "runcode: trace view takes exactly one FILE, a --trace file"},
		{[]string{"trace", "view", filepath.Join(dir, "bad.jsonl")}, "runcode: " + filepath.Join(dir, "bad.jsonl") + ": event 1: sub-call r:code:1 settles without a start event"},
		{[]string{"trace", "view", filepath.Join(dir, "page.html"), "-o", "-"}, "runcode: " + filepath.Join(dir, "page.html") + ": line 1: not JSON"},
		{[]string{"trace", "view", filepath.Join(dir, "trace.html")}, "runcode: trace view would overwrite the trace " + filepath.Join(dir, "trace.html") + "; name another page with -o"},
		{[]string{"trace", "view", filepath.Join(dir, "missing.jsonl")}, "runcode: cannot read trace: open " + filepath.Join(dir, "missing.jsonl")},
	} {
		code, out, errOut := invoke(t, "", c.args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, c.want) {
			t.Errorf("runcode %s: exit %d, stdout %.100q, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
}
