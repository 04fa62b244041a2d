package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// The program calls both typed tools; a nil slice crossed as [] (p.tags.length works), and the
// prompt declares it string[], not string[] | null.
func TestEmbeddedRunCallsBothGoTools(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	main()
	os.Stdout = stdout
	w.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	want := "\n\napple: 12 in stock, 1 tags\npear: 0 in stock, 0 tags\nno product named \"kiwi\"\n"
	if !strings.HasSuffix(out, want) {
		t.Fatalf("output ends:\n%s\nwant:\n%s", out[max(0, len(out)-200):], want)
	}
	for _, s := range []string{
		"`run_code` is the only tool you can call directly",
		"get_product(args: { /** Product name. */ name: string }): Promise<{ stock: number; tags: string[] }>;",
		"list_products(args?: Record<string, never>): Promise<string[]>;",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("the prompt lacks %q:\n%s", s, out)
		}
	}
}

// The example stays the short embedding it is meant to be: at most 45 lines of code (neither
// blank nor comment lines).
func TestEmbedIsShort(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(src), "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "//") {
			n++
		}
	}
	if n > 45 {
		t.Errorf("examples/embed/main.go has %d lines of code, more than 45", n)
	}
}

// The embedding sample of the README and of docs/embedding.md (each under the heading
// "Embedding from Go") is this example's setup, line for line.
func TestReadmeShowsThisSetup(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	code := func(line string) string {
		line, _, _ = strings.Cut(line, "//")
		return strings.TrimSpace(line)
	}
	_, body, _ := strings.Cut(string(src), "func main() {\n")
	for _, page := range []string{"../../README.md", "../../docs/embedding.md"} {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		_, section, ok := strings.Cut(string(text), "\n## Embedding from Go\n")
		if !ok {
			_, section, ok = strings.Cut(string(text), "# Embedding from Go\n")
		}
		if !ok {
			t.Errorf(`%s has no section "Embedding from Go"`, page)
			continue
		}
		section, _, _ = strings.Cut(section, "\n## ")
		sample := map[string]bool{}
		for _, l := range strings.Split(section, "\n") {
			sample[code(l)] = true
		}
		for _, l := range strings.Split(body, "\n") {
			if l := code(l); l != "" && !sample[l] {
				t.Errorf("the embedding sample of %s lacks %q", page, l)
			}
		}
	}
}
