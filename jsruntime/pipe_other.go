//go:build !unix

package jsruntime

import (
	"io"
	"os"
	"syscall"
)

// workerPipes returns the worker's standard input and output; every frame the worker sends is
// queued for the outbox's goroutine.
func workerPipes() (io.Reader, io.Writer, func([]byte) (int, error)) {
	return os.Stdin, os.Stdout, nil
}

// tryReadPipe reports that nothing can be read without waiting: pipeReader does not spin here.
func tryReadPipe(syscall.RawConn, []byte) (int, bool, error) { return 0, false, nil }
