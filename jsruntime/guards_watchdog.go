package jsruntime

import (
	"fmt"
	"math"
	"runtime/metrics"
	"sync"
	"time"
)

// heapMetric is the Go heap occupied by objects, live or not yet swept. Reading it costs about
// 300ns and, unlike runtime.ReadMemStats, does not stop the world.
const heapMetric = "/memory/classes/heap/objects:bytes"

// liveMetric is the heap the last garbage collection found live: the watchdog's baseline.
const liveMetric = "/gc/heap/live:bytes"

// The process's collector settings (GOGC, GOMEMLIMIT, or what debug.SetGCPercent and
// debug.SetMemoryLimit set), read when a watchdog starts.
const (
	gcPercentMetric   = "/gc/gogc:percent"
	memoryLimitMetric = "/gc/gomemlimit:bytes"
)

// watchdogInterval is how often the watchdog samples the heap.
const watchdogInterval = 5 * time.Millisecond

// msgHeapLimit is the message of runs the watchdog stops.
const msgHeapLimit = "worker error: JavaScript heap out of memory (the process heap grew by more than %d bytes)"

// watchdog samples the process heap while runs are live and calls trip when it has grown by
// more than limit bytes since the watchdog started. The figure is per process: it cannot tell runs apart, nor the host's own allocations
// from a run's. It trips when the live heap found by the last collection has grown by more than
// the limit, or the whole heap (garbage awaiting collection included) by more than
// heapAllowance; it never forces a collection, which would block sampling while one native
// step keeps allocating.
type watchdog struct {
	done chan struct{}
	wg   sync.WaitGroup
}

func startWatchdog(limit int64, trip func(*Failure)) *watchdog {
	w := &watchdog{done: make(chan struct{})}
	sample := []metrics.Sample{{Name: heapMetric}, {Name: liveMetric}, {Name: gcPercentMetric}, {Name: memoryLimitMetric}}
	value := func(i int) int64 {
		if sample[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(sample[i].Value.Uint64())
	}
	metrics.Read(sample)
	baseHeap, baseLive := value(0), value(1)
	wholeHeap := heapAllowance(limit, gcPercent(sample[2].Value), value(3), baseHeap)
	sample = sample[:2]
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		t := time.NewTicker(watchdogInterval)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-t.C:
			}
			// Live heap (as of the last collection) over the limit, or the whole heap,
			// garbage included, over what the collector's settings can explain.
			metrics.Read(sample)
			if value(1)-baseLive > limit || value(0)-baseHeap > wholeHeap {
				trip(&Failure{Kind: KindWorkerExit, Message: fmt.Sprintf(msgHeapLimit, limit)})
			}
		}
	}()
	return w
}

// close stops the watchdog and waits for its goroutine.
func (w *watchdog) close() {
	close(w.done)
	w.wg.Wait()
}

// gcPercent is the collector's GOGC percent from its metric value; -1 when collection is off
// (the metric reports it as the largest uint64) or the metric is unavailable.
func gcPercent(v metrics.Value) int64 {
	if v.Kind() != metrics.KindUint64 || v.Uint64() > math.MaxInt32 {
		return -1
	}
	return int64(v.Uint64())
}

// heapAllowance is how much the whole heap, garbage included, may grow past baseHeap before the
// watchdog trips, for a live-growth limit of limit bytes. Between collections the heap grows to
// (1 + GOGC/100) times what the last one found live, so that much of it may be garbage: twice
// the limit at GOGC=100 or below, five times at GOGC=400. A soft memory limit (GOMEMLIMIT) makes
// the collector run before the heap passes it, so beyond it the growth is live: the allowance
// is then cut to what the memory limit leaves above baseHeap, but never below twice the limit.
// With collection off (GOGC=off) garbage is never reclaimed and the allowance stays at twice
// the limit.
func heapAllowance(limit, gcPercent, memoryLimit, baseHeap int64) int64 {
	allowance := 2 * limit
	if gcPercent > 100 {
		allowance = max(allowance, int64(min(float64(limit)*(1+float64(gcPercent)/100), math.MaxInt64/2)))
	}
	if memoryLimit > 0 && memoryLimit < math.MaxInt64 {
		allowance = min(allowance, max(2*limit, memoryLimit-baseHeap))
	}
	return allowance
}
