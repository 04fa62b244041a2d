package suggest

import (
	"fmt"
	"strconv"
	"testing"
)

var workspaceTools = []string{"read_file", "write_file", "list_dir", "glob", "grep", "stat"}

func TestClosest(t *testing.T) {
	for _, c := range []struct {
		name       string
		candidates []string
		want       []string
	}{
		{"red_file", workspaceTools, []string{"read_file"}},
		{"readFile", workspaceTools, []string{"read_file"}},
		{"wirte_file", workspaceTools, []string{"write_file"}},
		{"read", workspaceTools, []string{"read_file"}},
		{"list", workspaceTools, []string{"list_dir"}},
		{"gerp", workspaceTools, []string{"grep"}},
		{"glop", workspaceTools, []string{"glob"}}, // grep is two edits away, over the limit for 4 letters
		{"frobnicate", workspaceTools, nil},
		{"ls", workspaceTools, nil},
		{"read_file", workspaceTools, nil}, // never the name itself
		{"file", []string{"file_a", "file_b", "file_c", "file_d"}, []string{"file_a", "file_b", "file_c"}},
		{"timout", []string{"timeout", "tools", "trace", "cpu"}, []string{"timeout"}},
		{"max-ouput", []string{"max-output", "max-parallel", "max-write", "memory"}, []string{"max-output"}},
		{"", workspaceTools, nil},
	} {
		if got := Closest(c.name, c.candidates); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("Closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestPhrase(t *testing.T) {
	for n, want := range []string{"", " (did you mean \"a\"?)", " (did you mean \"a\" or \"b\"?)", " (did you mean \"a\", \"b\" or \"c\"?)"} {
		if got := Phrase([]string{"a", "b", "c"}[:n], strconv.Quote); got != want {
			t.Errorf("Phrase of %d names = %q, want %q", n, got, want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"abc", "acb", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}} {
		if got := distance([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func FuzzClosest(f *testing.F) {
	f.Add("red_file", "read_file")
	f.Add("", "")
	f.Add("ÄÖü", "äöü_")
	f.Fuzz(func(t *testing.T, name, candidate string) {
		got := Closest(name, []string{candidate, candidate, name})
		if len(got) > 1 || (len(got) == 1 && got[0] != candidate) {
			t.Fatalf("Closest(%q, %q) = %q", name, candidate, got)
		}
		if d := distance([]rune(name), []rune(candidate)); d != distance([]rune(candidate), []rune(name)) {
			t.Fatalf("distance is not symmetric for %q, %q", name, candidate)
		}
	})
}
