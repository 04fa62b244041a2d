package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const writeTwice = `for (const p of ["a.txt", "b.txt"]) {
  try {
    const { bytesWritten } = await tools.write_file({ path: p, content: "123456" });
    console.log(p, bytesWritten);
  } catch (e) {
    console.log(p, e.message);
  }
}
`

// --max-write bounds what the workspace tools write in one run: all the sub-calls of the program
// share it, and the write past it fails with an error naming the budget. Each run has its own.
// A file created (b.txt) counts 4 KiB besides its content; one replaced (a.txt) does not.
func TestRunMaxWrite(t *testing.T) {
	for _, isolation := range []string{"inprocess", "process"} {
		t.Run(isolation, func(t *testing.T) {
			dir := fixture(t, map[string]string{"prog.ts": writeTwice, "ws/a.txt": ""})
			ws := filepath.Join(dir, "ws")
			for range 2 { // the second run has a budget of its own
				code, out, errOut := invoke(t, "", "run", "--isolation", isolation, "--workspace", ws, "--max-write", "10", filepath.Join(dir, "prog.ts"))
				want := "a.txt 6\nb.txt cannot write \"b.txt\": writing 6 bytes and creating 1 file or directory (4 KiB) would exceed the write budget of 10 bytes per run (6 bytes used so far in this run)\n"
				if code != exitOK || out != want {
					t.Fatalf("exit %d, stdout %q, stderr %q; want stdout %q", code, out, errOut, want)
				}
			}
			if _, err := os.Stat(filepath.Join(ws, "b.txt")); err == nil {
				t.Fatal("b.txt was written past the budget")
			}
			code, out, errOut := invoke(t, "", "run", "--isolation", isolation, "--workspace", ws, filepath.Join(dir, "prog.ts"))
			if code != exitOK || out != "a.txt 6\nb.txt 6\n" {
				t.Fatalf("default budget: exit %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
}

func TestMaxWriteFlagValidation(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--max-write", "0", "x.ts"},
		{"serve", "--stdio", "--max-write", "0"},
	} {
		code, out, errOut := invoke(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, "--max-write must be positive") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	code, out, _ := invoke(t, "", "serve", "--help")
	if code != exitOK || !strings.Contains(out, "-max-write") {
		t.Errorf("serve --help: exit %d, does not document --max-write: %s", code, out)
	}
}
