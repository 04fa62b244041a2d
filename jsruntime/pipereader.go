package jsruntime

import (
	"io"
	"os"
	"runtime"
	"syscall"
	"time"
)

// pipeSpin is how long a spinning read of a worker's output tries the pipe before it waits in
// the poller. The parent spins right after it answered one of the program's calls: the
// worker's next frame usually comes sooner than a park of the reading goroutine and a wake-up
// through the poller would take (measured on 2 vCPUs: a sequential sub-call through run_code
// 47.8 → 31.6µs with the inline calls of the same change, a one-call run unchanged; see
// BENCHMARKS.md, "Process isolation").
const pipeSpin = 30 * time.Microsecond

// pipeReader reads a worker's standard output for the parent. A read while spin is set first
// tries the pipe without waiting, yielding to other goroutines between tries, for up to
// pipeSpin, and only then waits in the poller as an os.File read does. Deadlines hold either
// way: a read deadline that has passed ends a spinning read at once. Only the goroutine that
// holds the run's reading sets spin and reads.
type pipeReader struct {
	f    *os.File
	rc   syscall.RawConn // nil: reads never spin
	spin bool

	// The state of one try (see tryRead): attempt is attemptRead, made once.
	attempt func(fd uintptr) bool
	buf     []byte
	n       int
	rerr    error
}

// newPipeReader returns a reader of f that may spin when more than one CPU can run this
// process: on one, the spin would take the time the worker needs to answer.
func newPipeReader(f *os.File) *pipeReader {
	r := &pipeReader{f: f}
	r.attempt = r.attemptRead
	if runtime.NumCPU() > 1 && runtime.GOMAXPROCS(0) > 1 {
		if rc, err := f.SyscallConn(); err == nil {
			r.rc = rc
		}
	}
	return r
}

func (r *pipeReader) Read(b []byte) (int, error) {
	if r.spin && r.rc != nil && len(b) > 0 {
		until := time.Now().Add(pipeSpin)
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
	return r.f.Read(b)
}

var _ io.Reader = (*pipeReader)(nil)
