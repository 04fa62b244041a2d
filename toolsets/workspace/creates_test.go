package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every file and directory write_file creates counts createCost against the run's write
// budget, so a program cannot create millions of empty files and directories: before, the
// budget counted content bytes only, and empty files cost nothing. Replacing a file creates
// nothing and costs its content only.
func TestWriteBudgetCountsCreatedFilesAndDirectories(t *testing.T) {
	f := newFixtureWith(t, Options{MaxWriteBytes: 3 * createCost})
	f.program(t)
	runCases(t, f, []toolCase{
		{name: "empty files", tool: "program", args: `{"writes":[["e1",""],["e2",""],["e3",""],["e4",""]]}`,
			want: `[0,0,0,"error: cannot write \"e4\": writing 0 bytes and creating 1 file or directory (4 KiB) would exceed the write budget of 12 KiB per run (12 KiB used so far in this run)"]`},
		{name: "replacing files", tool: "program", args: `{"writes":[["e1","x"],["e1","y"],["e2",""],["e3","z"]]}`,
			want: `[1,1,0,1]`},
	})
	if _, err := os.Stat(filepath.Join(f.dir, "e4")); !os.IsNotExist(err) {
		t.Fatalf("the refused file was created: %v", err)
	}

	// Directories that createDirs creates count too, and are not created when the budget
	// refuses them.
	res := f.call(t, "write_file", `{"path": "a/b/c/f", "content": "", "createDirs": true}`)
	want := `cannot write "a/b/c/f": writing 0 bytes and creating 4 files or directories (4 KiB each) would exceed the write budget of 12 KiB per run (0 bytes used so far in this run)`
	if !res.IsError || res.Err.Message != want {
		t.Fatalf("got %v, want the error %q", res.Err, want)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "a")); !os.IsNotExist(err) {
		t.Fatalf("the refused directories were created: %v", err)
	}
	res = f.call(t, "write_file", `{"path": "src/x/f", "content": "", "createDirs": true}`) // src exists
	if res.IsError {
		t.Fatalf("two creations within the budget: %v", res.Err)
	}

	// With the default budget, a program may create 65,536 files and directories.
	if got := DefaultMaxWriteBytes / createCost; got != 65536 {
		t.Fatalf("the default budget allows %d creations", got)
	}
	g := newFixtureWith(t, Options{MaxWriteBytes: 100 * createCost})
	g.program(t)
	var writes []string
	for i := range 101 {
		writes = append(writes, fmt.Sprintf(`["n%d",""]`, i))
	}
	res = g.call(t, "program", `{"writes":[`+strings.Join(writes, ",")+`]}`)
	if res.IsError || !strings.Contains(res.Value.Index(100).AsString(), "would exceed the write budget of 400 KiB per run (400 KiB used so far in this run)") {
		t.Fatalf("the 101st file: %v %v", res.Value.Index(100), res.Err)
	}
}
