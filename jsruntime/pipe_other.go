//go:build !unix

package jsruntime

import (
	"io"
	"os"
)

// workerPipes returns the worker's standard input and output; every frame the worker sends is
// queued for the outbox's goroutine.
func workerPipes() (io.Reader, io.Writer, func([]byte) (int, error)) {
	return os.Stdin, os.Stdout, nil
}

// pipeCanTry is false: a read cannot be tried without waiting here, so pipeReader never spins.
const pipeCanTry = false

// tryRead is never called (see pipeCanTry).
func (r *pipeReader) tryRead([]byte) (int, bool, error) { return 0, false, nil }

func (r *pipeReader) attemptRead(uintptr) bool { return true }
