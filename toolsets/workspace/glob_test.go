package workspace

import (
	"strings"
	"testing"
)

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"a.txt", "a.txt", true},
		{"a.txt", "b.txt", false},
		{"*.go", "main.go", true},
		{"*.go", "src/main.go", false},
		{"*/*.go", "src/main.go", true},
		{"**/*.go", "main.go", true},
		{"**/*.go", "src/main.go", true},
		{"**/*.go", "a/b/c/main.go", true},
		{"**/*.go", "a/b/c/main.rs", false},
		{"src/**", "src", true},
		{"src/**", "src/a/b", true},
		{"src/**", "srcx/a", false},
		{"src/**/*.go", "src/x.go", true},
		{"src/**/*.go", "src/a/b/x.go", true},
		{"src/**/*.go", "lib/a/x.go", false},
		{"**", "anything/at/all", true},
		{"**/**/x", "x", true},
		{"**/**/x", "a/b/x", true},
		{"a/**/b/**/c", "a/b/c", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"a/**/b/**/c", "a/x/y/c", false},
		{"?.txt", "a.txt", true},
		{"?.txt", "ab.txt", false},
		{"[abc].txt", "b.txt", true},
		{"[^abc].txt", "b.txt", false},
		{`\*.txt`, "*.txt", true},
		{`\*.txt`, "a.txt", false},
		{"a**b", "axxb", true},   // ** inside a segment is just *
		{"a**b", "ax/xb", false}, // and does not cross /
		{"[a", "[a", false},      // malformed: matches nothing
		{"", "", true},
		{"a", "", false},
	} {
		if got := matchGlob(tc.pattern, tc.name); got != tc.want {
			t.Errorf("matchGlob(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestMayMatchUnder(t *testing.T) {
	for _, tc := range []struct {
		pattern, dir string
		want         bool
	}{
		{"src/*.go", "src", true},
		{"src/*.go", "lib", false},
		{"src/*.go", "src/a", false},
		{"**/*.go", "a/b/c", true},
		{"src/**/*.go", "src/a/b", true},
		{"src/**/*.go", "lib/a", false},
		{"*", "a", false},
		{"*/*", "a", true},
		{"a/**", "a", true},
	} {
		g, err := parseGlob(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.mayMatchUnder(tc.dir); got != tc.want {
			t.Errorf("mayMatchUnder(%q, %q) = %v, want %v", tc.pattern, tc.dir, got, tc.want)
		}
	}
}

func TestParseGlob(t *testing.T) {
	for _, tc := range []struct {
		pattern, segs, err string
	}{
		{pattern: "**/*.go", segs: "**|*.go"},
		{pattern: "./src//x/", segs: "src|x"},
		{pattern: "", err: "must not be empty"},
		{pattern: ".", err: "matches nothing but the search directory"},
		{pattern: "/x", err: "must be relative"},
		{pattern: "a/../b", err: "escapes the search directory"},
		{pattern: "a/[b", err: `malformed segment "[b"`},
		{pattern: `a\`, err: "malformed segment"},
	} {
		g, err := parseGlob(tc.pattern)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseGlob(%q) error = %v, want %q", tc.pattern, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseGlob(%q): %v", tc.pattern, err)
			continue
		}
		if got := strings.Join(g.segs, "|"); got != tc.segs {
			t.Errorf("parseGlob(%q) segments %q, want %q", tc.pattern, got, tc.segs)
		}
	}
}

func FuzzGlobMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"**/*.go", "a/b/c.go"}, {"src/**", "src"}, {"a", "a"}, {"[a-", "x"}, {`\`, `\`},
		{"a/**/b/**/c", "a/x/b/y/c"}, {"?*", "é"}, {"", ""}, {"a//b", "a//b"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		got := matchGlob(pattern, name) // must not panic
		if !strings.ContainsAny(pattern, `*?[\`) {
			if want := pattern == name; got != want {
				t.Fatalf("literal pattern %q vs %q: match = %v, want %v", pattern, name, got, want)
			}
			if !matchGlob(pattern, pattern) {
				t.Fatalf("literal pattern %q does not match itself", pattern)
			}
		}
		// Whenever a path matches, a walk must not prune any directory above it.
		if got {
			segs := strings.Split(name, "/")
			p := strings.Split(pattern, "/")
			for i := 1; i < len(segs); i++ {
				if !mayMatchUnder(p, segs[:i]) {
					t.Fatalf("%q matches %q but mayMatchUnder(%q) is false", pattern, name, strings.Join(segs[:i], "/"))
				}
			}
		}
		if g, err := parseGlob(pattern); err == nil {
			_ = g.match(name) // must not panic
			_ = g.mayMatchUnder(name)
		}
	})
}
