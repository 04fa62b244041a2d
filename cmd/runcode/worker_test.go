package main

import (
	"os"
	"testing"
)

// TestMain lets this test binary serve as a process-isolation worker, as the real binary does
// in main: the pool re-executes os.Executable(). With cliEnv set, it is the runcode binary
// itself (main), for the tests that need a real process: signals, exit statuses, stdio.
func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		main()
	}
	runWorkerIfRequested()
	os.Exit(m.Run())
}
