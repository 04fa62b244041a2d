package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
