package jsruntime

import (
	"container/heap"
	"fmt"
	"time"

	"github.com/dop251/goja"
)

// maxTimers bounds the timers a run may have live at once (setTimeout, setInterval and
// setImmediate callbacks scheduled and not yet run or cleared). Scheduling one more throws a
// RangeError (msgTooManyTimers). A timer is a few hundred bytes and an entry in the loop's
// heap; the bound keeps a program that schedules timers in a loop from growing the heap, and the
// loop's work per tick, without end.
const maxTimers = 10000

// maxTimerDelay is Node's TIMEOUT_MAX: a delay above it (or below 1ms, or not a number) is 1ms.
const maxTimerDelay = 2147483647

const msgTooManyTimers = "too many pending timers: a run may have at most %d live setTimeout, setInterval and setImmediate timers"

// jsTimer is one scheduled callback. Only the loop goroutine touches it.
type jsTimer struct {
	id       int64
	due      time.Time
	seq      uint64        // scheduling order: timers due at the same time run in it
	interval time.Duration // repeat period of a setInterval; 0 for one-shot timers
	delay    time.Duration // the delay it was scheduled with (refresh reuses it)
	fn       goja.Callable
	this     goja.Value // the Timeout or Immediate object (the callback's this)
	args     []goja.Value
	ref      bool
	index    int // position in the heap; -1 once it has left it
}

// timerQueue is a run's timers: a heap by due time and a map by id. Only the loop goroutine
// touches it (timers are scheduled and cleared by JavaScript, and run by the loop).
type timerQueue struct {
	heap   timerHeap
	byID   map[int64]*jsTimer
	nextID int64
	seq    uint64
	refs   int         // timers that keep the run waiting (not unref'd)
	wait   *time.Timer // the loop's wait for the earliest timer, made on first use
}

type timerHeap []*jsTimer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].due.Equal(h[j].due) {
		return h[i].due.Before(h[j].due)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*jsTimer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

// schedule puts t in the heap, due delay from now.
func (q *timerQueue) schedule(t *jsTimer, delay time.Duration) {
	q.seq++
	t.seq = q.seq
	t.due = time.Now().Add(delay)
	heap.Push(&q.heap, t)
}

// remove drops the timer with id, if it is live.
func (q *timerQueue) remove(id int64) {
	t, ok := q.byID[id]
	if !ok {
		return
	}
	delete(q.byID, id)
	if t.index >= 0 {
		heap.Remove(&q.heap, t.index)
	}
	if t.ref {
		q.refs--
	}
}

// due pops the earliest timer if it is due at now; a setInterval is scheduled again, its next
// run an interval after this one starts (as in Node). It returns nil when no timer is due.
func (q *timerQueue) popDue(now time.Time) *jsTimer {
	if len(q.heap) == 0 || q.heap[0].due.After(now) {
		return nil
	}
	t := q.heap[0]
	if t.interval > 0 {
		q.seq++
		t.seq = q.seq
		t.due = now.Add(t.interval)
		heap.Fix(&q.heap, 0)
		return t
	}
	heap.Pop(&q.heap)
	delete(q.byID, t.id)
	if t.ref {
		q.refs--
	}
	return t
}

// timerDelay converts a delay argument as Node does: a number of milliseconds from 1 to
// maxTimerDelay, anything else 1.
func timerDelay(v goja.Value) time.Duration {
	ms := 1.0
	if v != nil && !goja.IsUndefined(v) {
		if f := v.ToFloat(); f >= 1 && f <= maxTimerDelay {
			ms = f
		}
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// timerAdd(handle, callback, delay, kind, args) schedules callback (called with this = handle
// and the elements of args) and returns the timer's id. kind is 0 for setTimeout, 1 for
// setInterval, 2 for setImmediate (no delay). The polyfills check the callback and build the
// handle.
func (rl *realm) timerAdd(call goja.FunctionCall) goja.Value {
	r := rl.owner
	q := &r.timerQ
	if len(q.byID) >= maxTimers {
		panic(rl.rangeError(fmt.Sprintf(msgTooManyTimers, maxTimers)))
	}
	fn, ok := goja.AssertFunction(call.Argument(1))
	if !ok {
		panic(rl.vm.NewTypeError("timer callback is not a function"))
	}
	var args []goja.Value
	if list, ok := call.Argument(4).(*goja.Object); ok {
		n := list.Get("length").ToInteger()
		for i := int64(0); i < n; i++ {
			args = append(args, list.Get(fmt.Sprint(i)))
		}
	}
	t := &jsTimer{fn: fn, this: call.Argument(0), args: args, ref: true, index: -1}
	switch call.Argument(3).ToInteger() {
	case 1:
		t.delay = timerDelay(call.Argument(2))
		t.interval = t.delay
	case 2:
		t.delay = 0
	default:
		t.delay = timerDelay(call.Argument(2))
	}
	if q.byID == nil {
		q.byID = map[int64]*jsTimer{}
	}
	q.nextID++
	t.id = q.nextID
	q.byID[t.id] = t
	q.refs++
	q.schedule(t, t.delay)
	return rl.vm.ToValue(t.id)
}

// timerClear(id) cancels the timer with id; an unknown or finished id is ignored.
func (rl *realm) timerClear(call goja.FunctionCall) goja.Value {
	rl.owner.timerQ.remove(call.Argument(0).ToInteger())
	return goja.Undefined()
}

// timerRef(id, ref) sets whether the timer keeps the run waiting for it (Node's ref/unref): a
// program that awaits only unref'd timers awaits a promise that can never settle.
func (rl *realm) timerRef(call goja.FunctionCall) goja.Value {
	q := &rl.owner.timerQ
	if t, ok := q.byID[call.Argument(0).ToInteger()]; ok {
		ref := call.Argument(1).ToBoolean()
		if ref != t.ref {
			t.ref = ref
			if ref {
				q.refs++
			} else {
				q.refs--
			}
		}
	}
	return goja.Undefined()
}

// timerRefresh(id) restarts a live timer's delay from now (Node's refresh).
func (rl *realm) timerRefresh(call goja.FunctionCall) goja.Value {
	q := &rl.owner.timerQ
	if t, ok := q.byID[call.Argument(0).ToInteger()]; ok && t.index >= 0 {
		heap.Remove(&q.heap, t.index)
		q.schedule(t, t.delay)
	}
	return goja.Undefined()
}

// runDueTimer runs the earliest timer if it is due, as a job on the loop (its exception fails
// the run, as an uncaught exception in a Node timer ends the process). It reports whether one
// ran.
func (r *run) runDueTimer() (ran bool, f *Failure) {
	t := r.timerQ.popDue(time.Now())
	if t == nil {
		return false, nil
	}
	if err := r.enter(func() error {
		_, err := t.fn(t.this, t.args...)
		return err
	}); err != nil {
		return false, r.failureOf(err)
	}
	return true, nil
}

// idle waits until a job is posted, the run is stopped, or the earliest timer is due.
func (r *run) idle() {
	q := &r.timerQ
	if len(q.heap) == 0 {
		<-r.wake
		return
	}
	d := time.Until(q.heap[0].due)
	if d <= 0 {
		return
	}
	if q.wait == nil {
		q.wait = time.NewTimer(d)
	} else {
		q.wait.Reset(d)
	}
	select {
	case <-r.wake:
		q.wait.Stop()
	case <-q.wait.C:
	}
}

// waiting reports whether the run has anything to wait for: a host call pending, or a timer
// that keeps it waiting.
func (r *run) waiting() bool { return r.pending > 0 || r.timerQ.refs > 0 }

// now returns the milliseconds since the run started, fractional (performance.now).
func (rl *realm) now(goja.FunctionCall) goja.Value {
	return rl.vm.ToValue(float64(time.Since(rl.owner.started).Nanoseconds()) / 1e6)
}

// timeOrigin returns the Unix time in milliseconds, fractional, at which the run started
// (performance.timeOrigin).
func (rl *realm) timeOrigin(goja.FunctionCall) goja.Value {
	return rl.vm.ToValue(float64(rl.owner.started.UnixMicro()) / 1e3)
}
