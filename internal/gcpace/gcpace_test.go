package gcpace

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	for _, c := range []struct{ live, base, want int64 }{
		{0, 400, 400},         // nothing measured yet
		{4 << 20, 400, 400},   // small heaps keep the starting percent
		{16 << 20, 400, 400},  // 64 MiB of garbage is 400 % of 16 MiB
		{32 << 20, 400, 200},  // 64 MiB is 200 % of 32 MiB
		{64 << 20, 400, 100},  // from 64 MiB live, as much garbage as is live
		{600 << 20, 400, 100}, // never below Go's default
		{32 << 20, 100, 100},  // a starting percent of 100 or less is left alone
		{32 << 20, -1, -1},    // collection off stays off
		{16 << 20, 1000, 400}, // 64 MiB is 400 % of 16 MiB under a higher starting percent
		{20 << 20, 150, 150},  // never above the starting percent
		{48 << 20, 150, 134},  // rounded up
	} {
		if got := Percent(c.live, c.base); got != c.want {
			t.Errorf("Percent(%d MiB, %d) = %d, want %d", c.live>>20, c.base, got, c.want)
		}
	}
}

// TestPacerLowersThePercentAsTheLiveHeapGrows holds 96 MiB live under a GC percent of 400 and
// waits for the pacer to set 100.
func TestPacerLowersThePercentAsTheLiveHeapGrows(t *testing.T) {
	old := debug.SetGCPercent(400)
	defer debug.SetGCPercent(old)
	p := Start(5 * time.Millisecond)
	if p == nil {
		t.Fatal("no pacer under a GC percent of 400")
	}
	defer p.Close()
	held := make([][]byte, 96)
	for i := range held {
		held[i] = make([]byte, 1<<20)
	}
	sample := []metrics.Sample{{Name: percentMetric}}
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
		metrics.Read(sample)
		if got := sample[0].Value.Uint64(); got == 100 {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("GC percent %d with 96 MiB live, want 100", got)
		}
	}
	runtime.KeepAlive(held)
}

func TestNoPacerAtOrBelowDefault(t *testing.T) {
	for _, pct := range []int{100, 50, -1} {
		old := debug.SetGCPercent(pct)
		p := Start(time.Millisecond)
		debug.SetGCPercent(old)
		if p != nil {
			p.Close()
			t.Errorf("a pacer under a GC percent of %d", pct)
		}
	}
}
