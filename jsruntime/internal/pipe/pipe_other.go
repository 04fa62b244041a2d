//go:build !unix

package pipe

import (
	"io"
	"os"
)

// WorkerPipes returns the worker's standard input and output; every frame the worker sends is
// queued for the outbox's goroutine.
func WorkerPipes() (io.Reader, io.Writer, func([]byte) (int, error)) {
	return os.Stdin, os.Stdout, nil
}

// pipeCanTry is false: a read cannot be tried without waiting here, so Reader never spins.
const pipeCanTry = false

// tryRead is never called (see pipeCanTry).
func (r *Reader) tryRead([]byte) (int, bool, error) { return 0, false, nil }

func (r *Reader) attemptRead(uintptr) bool { return true }
