package procstatus_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/runcode-dev/runcode/internal/procstatus"
)

func TestBytesReadsKilobyteFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), "status")
	status := "Name:\tx\nVmHWM:\t   2048 kB\nVmRSS:\t  1024 kB\nThreads:\t5\nVmBad:\tlots kB\n"
	if err := os.WriteFile(path, []byte(status), 0o600); err != nil {
		t.Fatal(err)
	}
	for field, want := range map[string]int64{"VmRSS:": 1 << 20, "VmHWM:": 2 << 20, "VmData:": 0, "VmBad:": 0} {
		if got := procstatus.Bytes(path, field); got != want {
			t.Errorf("Bytes(%q) = %d, want %d", field, got, want)
		}
	}
	if got := procstatus.Bytes(filepath.Join(t.TempDir(), "missing"), "VmRSS:"); got != 0 {
		t.Errorf("missing file: %d, want 0", got)
	}
}
