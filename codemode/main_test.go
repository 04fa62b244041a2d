package codemode_test

import (
	"os"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestMain lets a ProcessPool re-execute the test binary as its worker (the process-isolation
// benchmarks).
func TestMain(m *testing.M) {
	jsruntime.RunWorkerIfRequested()
	os.Exit(m.Run())
}
