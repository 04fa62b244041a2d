package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --memory reaches the heap in both isolations (issue 23, observation 5): a worker's heap
// watchdog kept its 512 MiB default whatever --memory said, so a program holding a 200M-character
// string (over the quarter of 512 MiB a single allocation may take) failed under --memory 2GiB.
// And read_file's limit follows --memory (observation 2): a 20 MiB file was refused whatever
// --memory said.
func TestMemoryFlagReachesTheHeapAndReadFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "log.txt"), []byte(strings.Repeat(strings.Repeat("x", 63)+"\n", 20<<20/64)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, iso := range []string{"process", "inprocess"} {
		code, out, errOut := invoke(t, `return "x".repeat(200e6).length`, "run", "--isolation", iso, "--memory", "2GiB", "-")
		if code != exitOK || strings.TrimSpace(out) != "200000000" {
			t.Errorf("%s: 200M characters under --memory 2GiB: exit %d, stdout %q, stderr %q", iso, code, out, errOut)
		}
		code, out, errOut = invoke(t, `return (await tools.read_file({ path: "log.txt" })).totalLines`, "run", "--isolation", iso, "--workspace", dir, "-")
		if code != exitOK || strings.TrimSpace(out) != "327680" {
			t.Errorf("%s: read_file of 20 MiB at the default --memory: exit %d, stdout %q, stderr %q", iso, code, out, errOut)
		}
	}
}
