package jsruntime

import (
	"fmt"
	"runtime/metrics"
	"sync"
	"time"
)

// heapMetric is the Go heap occupied by objects, live or not yet swept. Reading it costs about
// 300ns and, unlike runtime.ReadMemStats, does not stop the world.
const heapMetric = "/memory/classes/heap/objects:bytes"

// liveMetric is the heap the last garbage collection found live: the watchdog's baseline.
const liveMetric = "/gc/heap/live:bytes"

// watchdogInterval is how often the watchdog samples the heap.
const watchdogInterval = 5 * time.Millisecond

// msgHeapLimit is the message of runs the watchdog stops.
const msgHeapLimit = "worker error: JavaScript heap out of memory (the process heap grew by more than %d bytes)"

// watchdog samples the process heap while runs are live and calls trip when it has grown by
// more than limit bytes since the watchdog started. The figure is per process: it cannot tell runs apart, nor the host's own allocations
// from a run's. It trips when the live heap found by the last collection is over the limit, or
// the whole heap (garbage awaiting collection included) is over twice the limit; it never forces
// a collection, which would block sampling while one native step keeps allocating.
type watchdog struct {
	done chan struct{}
	wg   sync.WaitGroup
}

func startWatchdog(limit int64, trip func(*Failure)) *watchdog {
	w := &watchdog{done: make(chan struct{})}
	sample := []metrics.Sample{{Name: heapMetric}, {Name: liveMetric}}
	value := func(i int) int64 {
		if sample[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(sample[i].Value.Uint64())
	}
	metrics.Read(sample)
	baseHeap, baseLive := value(0), value(1)
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
			// garbage included, over twice the limit: the collector, which runs when the heap
			// doubles, cannot explain that much.
			metrics.Read(sample)
			if value(1)-baseLive > limit || value(0)-baseHeap > 2*limit {
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
