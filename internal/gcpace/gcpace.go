// Package gcpace bounds the garbage a Go process leaves between collections when its live heap
// is large, by lowering the GC percent as the live heap grows.
//
// runcode runs its processes (the CLI and the process-isolation workers) at a GC percent of 400:
// most runs are short and allocate little, and collecting less often saves them CPU. Between
// collections the heap then grows to five times what the last one found live, up to the soft
// memory limit, so a run holding a 50 MB export (hundreds of MB live) peaked at the soft limit,
// several times its live data. A Pacer lets a cycle leave at most Garbage bytes or as much
// garbage as is live, whichever is more, and never more than the starting percent allows: small
// heaps keep the starting percent, large ones collect at 100 (Go's default). StartProcs gives a
// process that runs on one P (a process-isolation worker) a second one while its heap is large,
// so that the collector marks on another core.
package gcpace

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Garbage is the garbage a collection cycle may always leave, whatever is live.
const Garbage = 64 << 20

const (
	percentMetric = "/gc/gogc:percent"
	liveMetric    = "/gc/heap/live:bytes"
)

// Percent is the GC percent for a live heap of live bytes under a starting percent of base:
// 100 × max(live, Garbage) / live, rounded up, between 100 and base; base itself when live is
// not known yet or base is 100 or less (or -1, collection off).
func Percent(live, base int64) int64 {
	if live <= 0 || base <= 100 {
		return base
	}
	p := int64(math.Ceil(100 * float64(max(live, Garbage)) / float64(live)))
	return min(max(p, 100), base)
}

// Pacer sets the process's GC percent from its live heap until closed.
type Pacer struct {
	done chan struct{}
	wg   sync.WaitGroup
}

// Start paces the collector from the GC percent in effect now, reading the live heap every
// interval (it changes only when a collection ends). It returns nil, nothing to pace, when that
// percent is 100 or less or collection is off. The caller closes the Pacer; the GC percent stays
// where the pacer last set it.
func Start(interval time.Duration) *Pacer {
	sample := []metrics.Sample{{Name: percentMetric}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 || sample[0].Value.Uint64() > math.MaxInt32 {
		return nil // unavailable, or collection off
	}
	base := int64(sample[0].Value.Uint64())
	if base <= 100 {
		return nil
	}
	current := base
	return watchLive(interval, func(live int64) {
		if want := Percent(live, base); want != current {
			debug.SetGCPercent(int(want))
			current = want
		}
	}, nil)
}

// watchLive calls set with the live heap every interval until the returned Pacer is closed, then
// calls done (when not nil) on the same goroutine.
func watchLive(interval time.Duration, set func(live int64), done func()) *Pacer {
	live := []metrics.Sample{{Name: liveMetric}}
	p := &Pacer{done: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if done != nil {
			defer done()
		}
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-t.C:
			}
			metrics.Read(live)
			if live[0].Value.Kind() == metrics.KindUint64 {
				set(int64(live[0].Value.Uint64()))
			}
		}
	}()
	return p
}

// Close stops the pacer and waits for its goroutine. Closing a nil Pacer does nothing.
func (p *Pacer) Close() {
	if p == nil {
		return
	}
	close(p.done)
	p.wg.Wait()
}

// ProcsLive is the live heap from which StartProcs gives the process more Ps.
const ProcsLive = Garbage

// Procs is the GOMAXPROCS for a live heap of live bytes in a process that runs at base Ps when
// its heap is small: max from ProcsLive live, base again below half of that, and current in
// between (so that a heap near the threshold does not switch at every collection).
func Procs(live int64, base, max, current int) int {
	switch {
	case live >= ProcsLive:
		return max
	case live < ProcsLive/2:
		return base
	}
	return current
}

// StartProcs gives the process up to max Ps (GOMAXPROCS) while its live heap is large (see
// Procs), reading the live heap every interval, from the GOMAXPROCS in effect now. A process
// that runs one goroutine at a time (a process-isolation worker) keeps one P for cheap wake-ups
// while its heap is small; with a large heap, the collector's concurrent mark then runs on a
// second core instead of a quarter of the one the program runs on, so it ends sooner and the
// program allocates less during it (a 50 MB sort in a worker with one P: 780 MB of heap at the
// start of a cycle became 905 by its end, and the 458 MB it counted live, a third of it
// allocated during the cycle, set the next cycle's goal). It returns nil, nothing to do, when max is
// not above the current GOMAXPROCS. The caller closes the Pacer, which restores the GOMAXPROCS
// it started from.
func StartProcs(interval time.Duration, max int) *Pacer {
	base := runtime.GOMAXPROCS(0)
	if max <= base {
		return nil
	}
	current := base
	return watchLive(interval, func(live int64) {
		if want := Procs(live, base, max, current); want != current {
			runtime.GOMAXPROCS(want)
			current = want
		}
	}, func() {
		if current != base {
			runtime.GOMAXPROCS(base)
		}
	})
}
