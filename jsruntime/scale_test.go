package jsruntime_test

import (
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestNoSizeCapsBelowTheBudget checks, in both isolations, that the built-ins issue 23 found
// refusing ordinary data (size caps kept for budgets' sake) now take it, and that a budget still
// ends them when the data is large enough to take seconds.
func TestNoSizeCapsBelowTheBudget(t *testing.T) {
	roomy := jsruntime.Config{ComputeBudget: 30 * time.Second, WallCeiling: 60 * time.Second}
	tight := jsruntime.Config{ComputeBudget: 300 * time.Millisecond, WallCeiling: 10 * time.Second}
	forEachIsolation(t, []confCase{
		// Observation 1: a RangeError past 2^20 structural tokens (Node: 250000).
		{name: "JSON.parse of 250,000 records", cfg: roomy,
			program: `return JSON.parse("[" + Array(250000).fill('{"a":1,"b":2}').join(",") + "]").length`, want: "250000"},
		// Observation 2: split, replaceAll and normalize refused strings over 2,097,152 characters,
		// toLowerCase, toUpperCase and trim over 8,388,608.
		{name: "string built-ins on 4M and 17M characters", cfg: roomy,
			program: `const s = "é,".repeat(2e6), t = " a".repeat(2 ** 23) + " ";
return [s.split(",").length, s.replaceAll(",", ";").length, s.normalize("NFD").length, s.toUpperCase().length, t.trim().length, t.toUpperCase().length, t.toLowerCase().length]`,
			want: "[2000001,4000000,6000000,4000000,16777215,16777217,16777217]"},
		// 40 MB of text in one call, ended by the budget (it takes seconds).
		{name: "JSON.parse ends at the budget", cfg: tight,
			program: `return JSON.parse("[" + "1,".repeat(2e7) + "1]").length`,
			want:    "timeout: compute budget exhausted (300ms busy)", max: tight.ComputeBudget + time.Second},
	})
}

// TestMemoryLimitReachesTheHeap checks that the memory limit a runtime is opened with bounds its
// heap in both isolations (observation 5 of issue 23): a process pool kept its worker's heap at
// the 512 MiB default of MaxHeapBytes whatever MemoryLimit said, so one string of 200M
// characters (over a quarter of 512 MiB: "Invalid string length") failed under a 2 GiB limit.
func TestMemoryLimitReachesTheHeap(t *testing.T) {
	for _, iso := range []string{jsruntime.IsolationInProcess, jsruntime.IsolationProcess} {
		t.Run(iso, func(t *testing.T) {
			rt, err := jsruntime.Open(iso, 2<<30, jsruntime.Config{ComputeBudget: 20 * time.Second, WallCeiling: 40 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			c := confCase{program: `return "x".repeat(200e6).length`, want: "200000000"}
			c.check(t, rt)
		})
	}
}

// TestSortAndSpreadAtScale checks the two slow paths of issue 23's observation 2 in both
// isolations: a sort with a comparator called it 1.5 times as often as V8 (sort.Stable), and a
// spread of millions of characters was one native step no budget could end (a sort without a
// comparator too: the fork's TestRuncodeSortInterrupt).
func TestSortAndSpreadAtScale(t *testing.T) {
	roomy := jsruntime.Config{ComputeBudget: 60 * time.Second, WallCeiling: 120 * time.Second}
	tight := jsruntime.Config{ComputeBudget: 300 * time.Millisecond, WallCeiling: 20 * time.Second}
	forEachIsolation(t, []confCase{
		// 100,000 numbers: 2,237,480 calls before, 1,600,765 now, Node 1,515,981; n·log2(n) is
		// 1,660,964.
		{name: "sort calls the comparator at most n log2 n times", cfg: roomy,
			program: `const a = Array.from({length: 1e5}, (_, i) => (i * 7919) % 100003); let c = 0;
a.sort((x, y) => { c++; return x - y; });
return [c <= 1e5 * Math.log2(1e5), a.every((x, i) => i === 0 || a[i - 1] <= x)]`, want: "[true,true]"},
		{name: "a spread of 30M characters ends at the budget", cfg: tight,
			program: `return [..."é".repeat(3e7)].length`,
			want:    "timeout: compute budget exhausted (300ms busy)", max: tight.ComputeBudget + time.Second},
	})
}
