//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

const hostileFiles = `for (const [tool, args] of [
  ["list_dir", { path: "pipe" }],
  ["write_file", { path: "pipe", content: "x" }],
  ["read_file", { path: "pipe" }],
  ["grep", { pattern: "x", path: "pipe" }],
  ["read_file", { path: "latin1.txt" }],
]) {
  try {
    await tools[tool](args);
    console.log(tool, "succeeded");
  } catch (e) {
    console.log(tool, e.message);
  }
}
`

// A program cannot hang a run on a named pipe in the workspace, and text that is not UTF-8 is
// refused with the same message in both isolations. Before the fix list_dir and write_file on
// the pipe blocked in open(2) past every budget, and the Latin-1 file came back altered
// (U+FFFD), differently per isolation.
func TestRunWorkspaceHostileFiles(t *testing.T) {
	want := `list_dir cannot list "pipe": it is not a directory (a named pipe)
write_file cannot write "pipe": it is a named pipe, not a regular file
read_file cannot read "pipe": it is not a regular file (a named pipe)
grep cannot search "pipe": it is neither a directory nor a regular file
read_file cannot read "latin1.txt": it is not valid UTF-8 text (invalid byte 0xe9 at byte offset 3, line 1); read_file returns only UTF-8 text, so that writing what it returned never alters a file
`
	for _, isolation := range []string{"inprocess", "process"} {
		t.Run(isolation, func(t *testing.T) {
			dir := fixture(t, map[string]string{"prog.ts": hostileFiles, "ws/latin1.txt": "caf\xe9\n"})
			ws := filepath.Join(dir, "ws")
			if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			done := make(chan struct{})
			var code int
			var out, errOut string
			go func() {
				defer close(done)
				code, out, errOut = invoke(t, "", "run", "--isolation", isolation, "--timeout", "5s", "--workspace", ws, filepath.Join(dir, "prog.ts"))
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				// Release the blocked open(2) so that the test can end.
				if f, err := os.OpenFile(filepath.Join(ws, "pipe"), os.O_RDWR, 0); err == nil {
					defer f.Close()
				}
				<-done
				t.Fatal("the run blocked on a named pipe")
			}
			if code != exitOK || out != want {
				t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
			}
		})
	}
}
