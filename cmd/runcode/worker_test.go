package main

import (
	"os"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestMain lets this test binary serve as a process-isolation worker, as the real binary does
// in main: the pool re-executes os.Executable(). With cliEnv set, it is the runcode binary
// itself (main), for the tests that need a real process: signals, exit statuses, stdio; with
// hangEnv set too, its programs can call testHooks.hang().
func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" || os.Getenv(gcProbeEnv) == "1" {
		applyGCDefaults(os.Getenv) // as main does
	}
	if os.Getenv(gcProbeEnv) == "1" {
		printGCSettings()
		os.Exit(0)
	}
	runWorkerIfRequested()
	if os.Getenv(cliEnv) == "1" {
		var wrap func(jsruntime.ClosableRuntime) jsruntime.ClosableRuntime
		if os.Getenv(hangEnv) != "" {
			wrap = withHangBinding
		}
		os.Exit(cliMain(os.Args[1:], wrap))
	}
	os.Exit(m.Run())
}
