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

// tryRead reports that nothing can be read without waiting: pipeReader does not spin here.
func (r *pipeReader) tryRead([]byte) (int, bool, error) { return 0, false, nil }

func (r *pipeReader) attemptRead(uintptr) bool { return true }
