// Package docs holds the documentation pages the README links to, and the tests that keep
// their links and references valid.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// pages returns README.md, DECISIONS.md, BENCHMARKS.md and every docs/*.md, as paths relative
// to the repository root, which must be the working directory.
func pages(t *testing.T) []string {
	t.Helper()
	list := []string{"README.md", "DECISIONS.md", "BENCHMARKS.md"}
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append(list, docs...)
}

var (
	fence      = regexp.MustCompile("(?ms)^[ \t]*```.*?^[ \t]*```[^\n]*$")
	inlineCode = regexp.MustCompile("`[^`\n]*`")
	link       = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	heading    = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t#]*$`)
)

// prose is the text of a Markdown page without its code: fenced blocks and code spans, where
// brackets are not links.
func prose(text string) string {
	text = fence.ReplaceAllString(text, "")
	return inlineCode.ReplaceAllString(text, "")
}

// slug is the anchor GitHub gives a heading: lower case, letters, digits, '-' and '_' kept,
// spaces turned into '-', everything else dropped.
func slug(h string) string {
	h = strings.ReplaceAll(h, "`", "")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchors returns the heading anchors of a Markdown page, repeated headings numbered as GitHub
// numbers them (x, x-1, x-2, …).
func anchors(text string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// Every relative link in the README and the docs pages names a file of the repository and,
// when it has a fragment, a heading of that file.
func TestRelativeLinksResolve(t *testing.T) {
	t.Chdir("..")
	checked := 0
	for _, page := range pages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(prose(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			file, fragment, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Errorf("%s: link %q: %v", page, target, err)
				continue
			}
			if fragment == "" {
				continue
			}
			if info.IsDir() || !strings.HasSuffix(path, ".md") {
				t.Errorf("%s: link %q: a fragment into something that is not a Markdown page", page, target)
				continue
			}
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors(string(text))[fragment] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", page, target, path, fragment)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d relative links found: the link pattern no longer matches the pages", checked)
	}
}

// The README stays the short front door it is meant to be.
func TestReadmeIsShort(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 300 {
		t.Errorf("README.md has %d lines, more than 300: move the detail to a page under docs/", n)
	}
	for _, d := range []string{"cli.md", "config.md", "serving.md", "editors.md", "embedding.md", "programs.md",
		"security.md", "tracing.md", "architecture.md", "performance.md"} {
		if !strings.Contains(string(data), "(docs/"+d+")") {
			t.Errorf("README.md's map of docs/ does not link docs/%s", d)
		}
	}
}

var (
	// A reference to DECISIONS rows, in prose or across the lines of a comment: "DECISIONS
	// row 8", "DECISIONS.md rows 61, 62, 83", "DECISIONS row 77 —".
	decisionsRef = regexp.MustCompile(`DECISIONS(?:\.md)?\s+rows?\s+(\d+(?:\s*(?:,|and|–|-)\s*\d+)*)`)
	// Inside DECISIONS.md, one row citing another: "(refines 17)", "(revised by 86)",
	// "(corrects row 1's …)", "counted by row 38", "refines 24, 36 and 54".
	rowRef      = regexp.MustCompile(`(?:\brows?|refines|revised by|corrects|replaces)\s+(\d+(?:\s*(?:,|and)\s*\d+)*)`)
	commentLead = regexp.MustCompile(`\n[ \t]*(?://+|#+|\*)?[ \t]*`)
	number      = regexp.MustCompile(`\d+`)
	tableRow    = regexp.MustCompile(`(?m)^\| (\d+) \|`)
)

// The former table outside the repository, as files used to cite it (split so that this file
// does not cite it).
const (
	outsideTable = "shared/" + "DECISIONS"
	outsideRow   = "shared " + "row"
)

// rows returns the numbers of DECISIONS.md's table rows, failing on a number given twice.
func rows(t *testing.T, text string) map[int]bool {
	t.Helper()
	out := map[int]bool{}
	for _, m := range tableRow.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		if out[n] {
			t.Errorf("DECISIONS.md has row %d twice", n)
		}
		out[n] = true
	}
	return out
}

// DECISIONS.md is self-contained: its rows are numbered 1, 2, 3, … without a gap, and every
// reference to a row, in any Go, Markdown, TypeScript or text file of the repository and
// between the rows themselves, names a row it has. Nothing points at a table outside the
// repository.
func TestDecisionRowsExist(t *testing.T) {
	t.Chdir("..")
	data, err := os.ReadFile("DECISIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	have := rows(t, string(data))
	if len(have) < 80 {
		t.Fatalf("DECISIONS.md has %d rows; the table's format no longer matches `| N |`", len(have))
	}
	for n := 1; n <= len(have); n++ {
		if !have[n] {
			t.Errorf("DECISIONS.md has no row %d, though it has %d rows", n, len(have))
		}
	}
	refs := 0
	check := func(file string, re *regexp.Regexp, text string) {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			for _, num := range number.FindAllString(m[1], -1) {
				n, _ := strconv.Atoi(num)
				refs++
				if !have[n] {
					t.Errorf("%s: %q names DECISIONS row %d, which DECISIONS.md does not have", file, m[0], n)
				}
			}
		}
	}
	var outside []string
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !slices.Contains([]string{".go", ".md", ".ts", ".txt"}, filepath.Ext(path)) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := commentLead.ReplaceAllString(string(b), " ")
		check(path, decisionsRef, text)
		if path == "DECISIONS.md" {
			check(path, rowRef, text)
		}
		if strings.Contains(text, outsideTable) || strings.Contains(text, outsideRow) {
			outside = append(outside, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if refs < 30 {
		t.Fatalf("only %d references to DECISIONS rows found: the patterns no longer match", refs)
	}
	for _, f := range outside {
		t.Errorf("%s points at a decisions table outside the repository", f)
	}
}
