// Package pipe holds the two ends of a process pool's pipes: the parent's Reader of a worker's
// output, which can spin before it waits, and the worker's non-blocking standard input and
// output (WorkerPipes). It knows nothing of goja or of the frames sent over them.
package pipe

import (
	"io"
	"os"
	"runtime"
	"syscall"
	"time"
)

// pipeSpin is how long a spinning read of a worker's output tries the pipe before it waits in
// the poller. The parent spins right after it answered one of the program's calls: the worker's
// next frame (most often the program's next call) usually follows sooner than a park of the
// reading goroutine and a wake-up through the poller would take, which on 2 vCPUs was most of a
// sequential sub-call (see BENCHMARKS.md, "Process isolation"). The worker does not spin while
// it waits for a reply: measured, that made a sequential sub-call slower (+14 %).
const pipeSpin = 30 * time.Microsecond

// pipeSlow is a wait after which the next read does not spin: the program computes between its
// calls, so a spin would only burn CPU. It is well above what a park and wake-up take, so that a
// wait just missed by a spin does not stop the spinning (measured: with pipeSpin as the bound, a
// sequential sub-call through run_code was 12 % slower).
const pipeSlow = time.Millisecond

// SpinningRuns returns how many runs of a process pool may spin at once: one per two CPUs (its
// reader's and its worker's; GOMAXPROCS follows the CPUs a container may use), so that a spin
// never takes a CPU a worker needs to answer. Measured with 8 runs at once on 2 vCPUs, spinning
// in all of them cost 11 % of the throughput.
func SpinningRuns() int {
	return min(runtime.NumCPU(), runtime.GOMAXPROCS(0)) / 2
}

// Reader reads a worker's standard output for the parent. A read while Spin is set, unless
// the last wait on this pipe was long (pipeSlow), first tries the pipe without waiting, yielding to other
// goroutines between tries, for up to pipeSpin, and only then waits in the poller as an os.File
// read does; so a program that computes between its calls costs one spin, not one per call.
// Deadlines hold either way: a read deadline that has passed ends a spinning read at once. Only
// the goroutine that holds the run's reading sets Spin and reads.
type Reader struct {
	f    *os.File
	rc   syscall.RawConn // nil: reads never spin
	Spin bool            // the run's reader spins: set only by the goroutine that reads
	slow bool            // the last wait outlasted pipeSlow: the next read does not spin

	// The state of one try (see tryRead): attempt is attemptRead, made once.
	attempt func(fd uintptr) bool
	buf     []byte
	n       int
	rerr    error
}

// NewReader returns a reader of f, a pipe registered with the poller, that spins when
// Spin is set if allowed (the platform can try a read without waiting).
func NewReader(f *os.File, allowed bool) *Reader {
	r := &Reader{f: f}
	r.attempt = r.attemptRead
	if allowed && pipeCanTry {
		if rc, err := f.SyscallConn(); err == nil {
			r.rc = rc
		}
	}
	return r
}

// Read reads what the pipe holds, spinning first when Spin is set (see Reader).
func (r *Reader) Read(b []byte) (int, error) {
	if r.rc == nil || len(b) == 0 || !r.Spin {
		return r.f.Read(b)
	}
	start := time.Now()
	if !r.slow {
		until := start.Add(pipeSpin)
		for {
			n, ok, err := r.tryRead(b)
			if ok || err != nil {
				return n, err
			}
			if !time.Now().Before(until) {
				break
			}
			runtime.Gosched()
		}
	}
	n, err := r.f.Read(b)
	r.slow = time.Since(start) > pipeSlow
	return n, err
}

var _ io.Reader = (*Reader)(nil)
