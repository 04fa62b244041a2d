//go:build linux

package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// A write that runs out of space part-way — a real full disk: a 64 KiB tmpfs, where the test may
// mount one — leaves the old content and no temporary file. Before the fix the file was
// truncated first and left with part of the new content.
func TestWriteFileOnFullDiskKeepsOldContent(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs privilege): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	old := strings.Repeat("old\n", 2048) // 8 KiB
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	_, reg := openRegistry(t, dir, Options{})
	args := jsonv.ObjectValue(member("path", jsonv.StringValue("f.txt")), member("content", jsonv.StringValue(strings.Repeat("new\n", 32<<10))))
	res := reg.Execute(t.Context(), registry.Call{CallID: "c", Name: "write_file", Arguments: args})
	if !res.IsError || !strings.Contains(res.Err.Message, `cannot write "f.txt": no space left on device (the file is unchanged)`) {
		t.Fatalf("got %+v %s, want a full-disk error", res.Err, res.Value)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(data) != old {
		t.Fatalf("f.txt holds %d bytes starting %q, want its old content", len(data), data[:min(len(data), 8)])
	}
	assertNoTempFiles(t, dir)
}
