package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestMain lets the process pools re-execute this test binary as their workers.
func TestMain(m *testing.M) {
	jsruntime.RunWorkerIfRequested()
	os.Exit(m.Run())
}

// smoke runs the command with args and returns its output; it fails the test on a non-zero
// exit. It checks that the modes work, never how fast they are.
func smoke(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("runcode-bench %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func TestSpeedModeSmoke(t *testing.T) {
	out := smoke(t, "-n", "2", "-node-n", "2", "-tools", "3")
	for _, want := range []string{"100 Promise.all", "runcode process (warm pool)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestLoadModeSmoke(t *testing.T) {
	for _, iso := range []string{jsruntime.IsolationInProcess, jsruntime.IsolationProcess} {
		out := smoke(t, "-load", "-json", "-v", "-isolation", iso, "-pool", "2", "-runs", "20", "-hostile", "12")
		for _, want := range []string{`"await 100 ms tool: ok": 20`, `"infinite loop: timeout": 2`, `"goroutines_after"`} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %q:\n%s", iso, want, out)
			}
		}
	}
}

func TestInvalidArgumentsAreUsageErrors(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"-isolation", "vm"}, &out, &out); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
}

func TestParseClients(t *testing.T) {
	if got, err := parseClients("1, 4,16"); err != nil || len(got) != 3 || got[2] != 16 {
		t.Fatalf("parseClients = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "1,x", "-2"} {
		if _, err := parseClients(bad); err == nil {
			t.Errorf("parseClients(%q) accepted", bad)
		}
	}
}
