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

func TestProcs(t *testing.T) {
	for _, c := range []struct {
		live                     int64
		base, max, current, want int
	}{
		{0, 1, 2, 1, 1},
		{16 << 20, 1, 2, 1, 1},
		{40 << 20, 1, 2, 1, 1}, // between half and the threshold: kept
		{40 << 20, 1, 2, 2, 2},
		{64 << 20, 1, 2, 1, 2},
		{600 << 20, 1, 4, 1, 4},
		{31 << 20, 1, 2, 2, 1}, // below half: back to base
	} {
		if got := Procs(c.live, c.base, c.max, c.current); got != c.want {
			t.Errorf("Procs(%d MiB, %d, %d, %d) = %d, want %d", c.live>>20, c.base, c.max, c.current, got, c.want)
		}
	}
}

// TestStartProcsFollowsTheLiveHeap holds 96 MiB live in a process of one P and waits for two,
// then drops it and waits for one again; Close restores the P count it started from.
func TestStartProcsFollowsTheLiveHeap(t *testing.T) {
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	p := StartProcs(5*time.Millisecond, 2)
	if p == nil {
		t.Fatal("no pacer for 1 to 2 Ps")
	}
	wait := func(want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for runtime.GOMAXPROCS(0) != want {
			if time.Now().After(deadline) {
				t.Fatalf("GOMAXPROCS %d, want %d", runtime.GOMAXPROCS(0), want)
			}
			runtime.GC()
			time.Sleep(20 * time.Millisecond)
		}
	}
	held := make([][]byte, 96)
	for i := range held {
		held[i] = make([]byte, 1<<20)
	}
	wait(2)
	runtime.KeepAlive(held)
	held = nil
	wait(1)
	held = make([][]byte, 96)
	for i := range held {
		held[i] = make([]byte, 1<<20)
	}
	wait(2)
	p.Close()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS %d after Close, want the 1 it started from", got)
	}
	runtime.KeepAlive(held)
	if StartProcs(time.Millisecond, 1) != nil {
		t.Error("a pacer for 1 to 1 Ps")
	}
}
