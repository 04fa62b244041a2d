package main

import (
	"io"
	"sync"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/jsonv"
)

// traceWriter writes dispatch events as JSON Lines. A nil *traceWriter discards events, and so
// does a closed one.
type traceWriter struct {
	mu       sync.Mutex
	w        io.WriteCloser // nil once closed
	firstErr error
	line     []byte // the line being written, kept for the next event's
}

func (t *traceWriter) event(e bridge.Event) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w == nil {
		return
	}
	t.line = append(jsonv.AppendJSON(t.line[:0], e.Value()), '\n')
	if _, err := t.w.Write(t.line); err != nil && t.firstErr == nil {
		t.firstErr = err
	}
}

// close closes the trace file; later events are discarded. It is idempotent.
func (t *traceWriter) close() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w == nil {
		return
	}
	if err := t.w.Close(); err != nil && t.firstErr == nil {
		t.firstErr = err
	}
	t.w = nil
}

func (t *traceWriter) err() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.firstErr
}
