package codemode_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// BenchmarkRunTrivialVisibleTools is a trivial run (one sub-call) through run_code with 10, 500
// and 5,000 visible tools, on each isolation: a run costs the same whatever the number of tools
// it could call. One untimed run first fills what the registry's state lets Code Mode cache.
// cpu-ns/op is the CPU time of the whole test process per run (user and system, garbage
// collection and background goroutines included) plus, under process isolation, the worker's
// (counted when it exits: the pool is closed before the figure is taken).
func BenchmarkRunTrivialVisibleTools(b *testing.B) {
	for _, n := range []int{10, 500, 5000} {
		for _, isolation := range []string{jsruntime.IsolationInProcess, jsruntime.IsolationProcess} {
			b.Run(fmt.Sprintf("tools=%d/isolation=%s", n, isolation), func(b *testing.B) {
				rt := openIsolation(b, isolation)
				reg := benchRegistryOn(b, n, rt)
				call := trivialCall()
				ctx := context.Background()
				if res := reg.Execute(ctx, call); res.IsError {
					b.Fatal(res.Err.Message)
				}
				b.ReportAllocs()
				start := cpuTime()
				for b.Loop() {
					if res := reg.Execute(ctx, call); res.IsError {
						b.Fatal(res.Err.Message)
					}
				}
				if err := rt.Close(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
