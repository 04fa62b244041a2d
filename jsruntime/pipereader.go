package jsruntime

import (
	"io"
	"os"
	"runtime"
	"syscall"
	"time"
)

// pipeSpin is how long a spinning read of a worker's output tries the pipe before it waits in
// the poller. Waiting costs a park of the reading goroutine and a wake-up through the poller
// (on a 2-vCPU machine most of a sequential sub-call's 36µs); the worker's answer to a reply
// usually comes sooner: a sequential sub-call 36.5 → about 30µs, a one-call run unchanged
// (BENCHMARKS.md, "Process isolation").
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
}

// newPipeReader returns a reader of f that may spin when more than one CPU can run this
// process: on one, the spin would take the time the worker needs to answer.
func newPipeReader(f *os.File) *pipeReader {
	r := &pipeReader{f: f}
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
			n, ok, err := tryReadPipe(r.rc, b)
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
