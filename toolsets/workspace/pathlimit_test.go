package workspace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// pathArgs is a call of each tool that takes a path, with p as that path; write_file creates
// the missing directories when createDirs.
func pathArgs(p string, createDirs bool) map[string]string {
	q := fmt.Sprintf("%q", p)
	return map[string]string{
		"read_file":  `{"path": ` + q + `}`,
		"write_file": fmt.Sprintf(`{"path": %s, "content": "x", "createDirs": %v}`, q, createDirs),
		"list_dir":   `{"path": ` + q + `}`,
		"stat":       `{"path": ` + q + `}`,
		"glob":       `{"pattern": "*", "path": ` + q + `}`,
		"grep":       `{"pattern": "x", "path": ` + q + `}`,
	}
}

// A path over the OS limits (4096 bytes in all, 255 bytes a name) is refused by every tool at
// once, before it touches the file system, with an error saying which limit. Before, write_file
// walked "e/" repeated 20,000 times component by component, creating directories, for longer
// than the run's wall ceiling, and a name over 255 bytes got the OS's "file name too long".
func TestOverlongPathsAreRefused(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		name, path, want string
	}{
		{"long path", strings.Repeat("e/", maxPathBytes/2) + "f", fmt.Sprintf(`is %d bytes, over the limit of 4096 bytes for a path`, maxPathBytes+1)},
		{"long name", "dir/" + strings.Repeat("n", maxNameBytes+1) + "/f", `has a name of 256 bytes, over the limit of 255 bytes for one name`},
		{"long name at the end", strings.Repeat("n", 300), `has a name of 300 bytes, over the limit of 255 bytes for one name`},
		{"20,000 components", strings.Repeat("e/", 20000), `is 40000 bytes, over the limit of 4096 bytes for a path`},
	} {
		for tool, args := range pathArgs(c.path, true) {
			start := time.Now()
			res := f.call(t, tool, args)
			if !res.IsError || !strings.Contains(res.Err.Message, c.want) || !strings.HasPrefix(res.Err.Message, "path too long: ") {
				t.Fatalf("%s, %s: got %v, want an error containing %q", c.name, tool, res.Err, c.want)
			}
			if len(res.Err.Message) > 300 {
				t.Errorf("%s, %s: the error quotes the whole path (%d bytes)", c.name, tool, len(res.Err.Message))
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("%s, %s: the refusal took %v", c.name, tool, d)
			}
		}
	}
	if entries, _ := f.ws.root.Open("e"); entries != nil {
		entries.Close()
		t.Fatal("a refused write_file created directories")
	}
	// Errors match ErrPathTooLong.
	if _, err := cleanPath(strings.Repeat("n", 256)); !errors.Is(err, ErrPathTooLong) {
		t.Fatalf("cleanPath error %v does not match ErrPathTooLong", err)
	}

	// At the limits, paths are used (this one names nothing: its first directory is missing).
	name := strings.Repeat("n", maxNameBytes)
	if res := f.call(t, "write_file", `{"path": "`+name+`", "content": "x"}`); res.IsError {
		t.Fatalf("a name of 255 bytes: %v", res.Err)
	}
	long := strings.Repeat("d/", maxPathBytes/2-1) + "ff"
	for tool, args := range pathArgs(long, false) {
		res := f.callIn(context.Background(), tool, args)
		if !res.IsError || strings.Contains(res.Err.Message, "too long") || !strings.Contains(res.Err.Message, `"d/d/d/`) {
			t.Fatalf("%s of a path of 4096 bytes: got %v, want an error naming the missing file", tool, res.Err)
		}
	}
}
