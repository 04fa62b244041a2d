package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docSections returns, from README.md and every page under docs/, each section whose heading
// (at any level) is title: from its heading to the next heading of the same or a higher level.
// It fails the test when there is none.
func docSections(t *testing.T, repo, title string) map[string]string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	start := regexp.MustCompile(`(?m)^(#{1,6}) ` + regexp.QuoteMeta(title) + `\n`)
	for _, page := range append([]string{filepath.Join(repo, "README.md")}, pages...) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		m := start.FindStringSubmatchIndex(text)
		if m == nil {
			continue
		}
		level := m[3] - m[2]
		section := text[m[0]:]
		end := regexp.MustCompile(`(?m)^#{1,` + strconv.Itoa(level) + `} `)
		if e := end.FindStringIndex(section[m[1]-m[0]:]); e != nil {
			section = section[:m[1]-m[0]+e[0]]
		}
		rel, _ := filepath.Rel(repo, page)
		found[rel] = section
	}
	if len(found) == 0 {
		t.Fatalf("neither README.md nor docs/*.md has a section %q", title)
	}
	return found
}

// The shell session of docs/cli.md ("Values cross as JSON.stringify gives them"), command for
// command and output for output: a program from standard input, then a failing program as text
// and as --json, with the exit status.
func TestCommandLineTranscript(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(fixture(t, map[string]string{"go.mod": "module example\n"}))
	stdin := `const r = await tools.stat({path: "go.mod"}); console.log(r.type); return r.size > 0`
	boom := "interface P { x: number }\nconst p: P = { x: 1 };\nconsole.log(\"before\");\nthrow new Error(\"boom \" + p.x);\n"
	if err := os.WriteFile("boom.ts", []byte(boom), 0o644); err != nil {
		t.Fatal(err)
	}
	var session strings.Builder
	code, out, errOut := invoke(t, stdin, "run", "-")
	if code != exitOK || out != "file\ntrue\n" {
		t.Fatalf("run -: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	session.WriteString("$ echo '" + stdin + "' \\\n    | go run ./cmd/runcode run -\n" + out)
	session.WriteString(`$ printf '` + strings.ReplaceAll(boom, "\n", `\n`) + "' > boom.ts\n")
	code, out, _ = invoke(t, "", "run", "boom.ts")
	if code != exitFailed || !strings.HasPrefix(out, "Error: code run failed (exception): Error: boom 1\n") {
		t.Fatalf("run boom.ts: exit %d, stdout %q", code, out)
	}
	session.WriteString("$ go run ./cmd/runcode run boom.ts; echo \"exit $?\"\n" + out + "exit " + strconv.Itoa(code) + "\n")
	code, out, _ = invoke(t, "", "run", "--json", "boom.ts")
	if code != exitFailed {
		t.Fatalf("run --json boom.ts: exit %d, stdout %q", code, out)
	}
	session.WriteString("$ go run ./cmd/runcode run --json boom.ts\n" + out)

	for page, section := range docSections(t, repo, "The command line") {
		if !strings.Contains(section, "```sh\n"+session.String()+"```\n") {
			t.Errorf("%s: The command line lacks this shell block:\n%s", page, session.String())
		}
	}
}
