package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/metrics"
	"strings"
	"testing"
)

// gcProbeEnv makes this test binary apply the GC defaults as main does, print the collector's
// settings (printGCSettings) and exit.
const gcProbeEnv = "RUNCODE_TEST_GC_PROBE"

// printGCSettings prints the process's GC percent and soft memory limit, as the runtime reports
// them: "<percent> <limit>".
func printGCSettings() {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	fmt.Println(int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64()))
}

func TestGCDefaultsYieldToTheEnvironment(t *testing.T) {
	tests := []struct {
		env         map[string]string
		wantPercent bool
		wantLimit   bool
	}{
		{map[string]string{}, true, true},
		{map[string]string{"GOGC": "off"}, false, true},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, true, false},
		{map[string]string{"GOGC": "100", "GOMEMLIMIT": "off"}, false, false},
		{map[string]string{"GOGC": ""}, true, true}, // empty counts as unset, as for the runtime
	}
	for _, tt := range tests {
		s := gcDefaults(func(k string) string { return tt.env[k] }, defaultMemoryLimit)
		if s.setPercent != tt.wantPercent || s.setLimit != tt.wantLimit {
			t.Errorf("env %v: sets percent %v, limit %v; want %v, %v", tt.env, s.setPercent, s.setLimit, tt.wantPercent, tt.wantLimit)
		}
	}
}

// TestGCSettingsOfTheProcess starts this binary as main starts (applyGCDefaults first) with
// and without GOGC and GOMEMLIMIT, and reads the settings the Go runtime ended up with.
func TestGCSettingsOfTheProcess(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	base := []string{gcProbeEnv + "=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			base = append(base, kv)
		}
	}
	def := fmt.Sprint(defaultGCPercent, " ", int64(defaultMemoryLimit))
	tests := []struct {
		env  []string
		want string
	}{
		{nil, def},
		{[]string{"GOGC=50"}, fmt.Sprint(50, " ", int64(defaultMemoryLimit))},
		{[]string{"GOMEMLIMIT=100MiB"}, fmt.Sprint(defaultGCPercent, " ", 100<<20)},
		{[]string{"GOGC=150", "GOMEMLIMIT=3GiB"}, fmt.Sprint(150, " ", int64(3<<30))},
	}
	for _, tt := range tests {
		cmd := exec.Command(exe)
		cmd.Env = append(append([]string(nil), base...), tt.env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("env %v: %v", tt.env, err)
		}
		if got := strings.TrimSpace(string(out)); got != tt.want {
			t.Errorf("env %v: GC percent and memory limit = %s, want %s", tt.env, got, tt.want)
		}
	}
}
