//go:build unix

package pipe

import (
	"io"
	"os"
	"syscall"
)

// WorkerPipes returns the worker's standard input and output, made non-blocking so that reads
// and writes wait in the Go scheduler rather than in a blocked thread, and a tryWrite for the
// outbox. When the descriptors cannot be made non-blocking, it returns os.Stdin and os.Stdout
// and no tryWrite.
func WorkerPipes() (io.Reader, io.Writer, func([]byte) (int, error)) {
	if syscall.SetNonblock(0, true) != nil || syscall.SetNonblock(1, true) != nil {
		return os.Stdin, os.Stdout, nil
	}
	// NewFile sees the non-blocking flag and registers the descriptors with the poller.
	in, out := os.NewFile(0, "stdin"), os.NewFile(1, "stdout")
	rc, err := out.SyscallConn()
	if err != nil {
		return in, out, nil
	}
	tryWrite := func(b []byte) (int, error) {
		var n int
		var werr error
		if err := rc.Write(func(fd uintptr) bool {
			n, werr = syscall.Write(int(fd), b)
			return true // one attempt: never wait for the parent here
		}); err != nil {
			return 0, err
		}
		if werr == syscall.EAGAIN {
			return 0, nil
		}
		if werr != nil {
			return 0, &os.PathError{Op: "write", Path: "stdout", Err: werr}
		}
		return n, nil
	}
	return in, out, tryWrite
}

// pipeCanTry is true: tryRead reads a pipe without waiting.
const pipeCanTry = true

// tryRead reads what the pipe holds without waiting. ok is false when it holds nothing yet; a
// deadline that has passed is an error (os.ErrDeadlineExceeded), as for a read. r.rc is set.
func (r *Reader) tryRead(b []byte) (n int, ok bool, err error) {
	r.buf = b
	err = r.rc.Read(r.attempt)
	n, rerr := r.n, r.rerr
	r.buf, r.n, r.rerr = nil, 0, nil
	switch {
	case err != nil:
		return 0, false, err
	case rerr == syscall.EAGAIN:
		return 0, false, nil
	case rerr != nil:
		return 0, false, rerr
	case n == 0:
		return 0, true, io.EOF
	}
	return n, true, nil
}

// attemptRead is r.attempt: one read of r.buf, never a wait. A method value made once, so that
// a spinning read allocates nothing per try.
func (r *Reader) attemptRead(fd uintptr) bool {
	r.n, r.rerr = syscall.Read(int(fd), r.buf)
	return true
}
