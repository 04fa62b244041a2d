package codemode_test

import (
	"os"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestMain lets this test binary serve as a process-isolation worker: the pool re-executes
// os.Executable().
func TestMain(m *testing.M) {
	jsruntime.RunWorkerIfRequested()
	os.Exit(m.Run())
}
