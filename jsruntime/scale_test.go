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
		// 40 MB of text in one call, ended by the budget (it takes seconds).
		{name: "JSON.parse ends at the budget", cfg: tight,
			program: `return JSON.parse("[" + "1,".repeat(2e7) + "1]").length`,
			want:    "timeout: compute budget exhausted (300ms busy)", max: tight.ComputeBudget + time.Second},
	})
}
