package jsruntime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// dagResult returns a program whose completion value is a binary DAG of 2**levels references
// to one ~100-byte row: JSON of about 100 * 2**levels bytes, built in O(levels) JavaScript, so
// a benchmark of it measures the conversion of the result, not the building.
func dagResult(levels int) string {
	return fmt.Sprintf(`let v = {id: 12345, name: "row name", tags: ["alpha", "beta"], score: 0.125, ok: true, next: null};
for (let i = 0; i < %d; i++) v = [v, v];
return v`, levels)
}

// resultBytes is the length of dagResult(levels)'s JSON.
func resultBytes(b *testing.B, g jsruntime.Runtime, levels int) int64 {
	res, err := g.Run(context.Background(), jsruntime.Request{Program: dagResult(levels)})
	if err != nil || res.Error != nil {
		b.Fatal(err, res.Error)
	}
	return int64(res.Value.ByteLen())
}

// BenchmarkResultConversion converts a ~1 MB result (cap 64 MiB): ns per byte of JSON.
func BenchmarkResultConversion(b *testing.B) {
	g := newRuntime(b, jsruntime.Config{})
	req := jsruntime.Request{Program: dagResult(13)}
	b.SetBytes(resultBytes(b, g, 13))
	b.ReportAllocs()
	for b.Loop() {
		res, err := g.Run(context.Background(), req)
		if err != nil || res.Error != nil {
			b.Fatal(err, res.Error)
		}
	}
}

// BenchmarkOverCapResult returns results of about 1 MB and 20 MB under a 1 MiB output cap:
// both fail as output-limit, and the time to fail should not grow with the value.
func BenchmarkOverCapResult(b *testing.B) {
	for _, c := range []struct {
		name   string
		levels int
	}{{"1MB", 14}, {"20MB", 18}} {
		b.Run(c.name, func(b *testing.B) {
			g := newRuntime(b, jsruntime.Config{MaxOutputBytes: 1 << 20, WallCeiling: jsruntime.DefaultWallCeiling})
			req := jsruntime.Request{Program: dagResult(c.levels)}
			b.ReportAllocs()
			for b.Loop() {
				res, err := g.Run(context.Background(), req)
				if err != nil || res.Error == nil || res.Error.Kind != jsruntime.KindOutputLimit {
					b.Fatal(err, res.Error)
				}
			}
		})
	}
}
