package typecheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// warmPool is the warm servers of a Checker: at most max of them, each busy with one check at
// a time. A check takes the server that was last idle (so that checks one after another keep
// using the same, warmest server) and a new one only when every server is busy, so a check
// that takes its server long (a program whose types take the compiler seconds) holds up only
// that server: the other checks go on on the others. A check's timeout counts from when it has
// a server, so that waiting for one behind a slow check does not use up its own time; only its
// context bounds the wait.
type warmPool struct {
	start startFunc
	slots chan struct{} // one token per server that may be busy: a check holds one

	mu     sync.Mutex
	closed bool
	idle   []*warmServer // the servers not busy, the last idle last
	all    []*warmServer // every server created, for close
}

func newWarmPool(start startFunc, max int) *warmPool {
	return &warmPool{start: start, slots: make(chan struct{}, max)}
}

// check returns the diagnostics of text (the program as the compiler checks it, in the
// ProgramFile of the project) against declarations, on an idle or new server, within timeout
// of having one. A check whose context ends while it waits for a server fails with the
// context's cause.
func (p *warmPool) check(ctx context.Context, timeout time.Duration, declarations, text string) ([]Diagnostic, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	defer func() { <-p.slots }()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errClosed
	}
	var w *warmServer
	if n := len(p.idle); n > 0 {
		w, p.idle = p.idle[n-1], p.idle[:n-1]
	} else {
		w = newWarmServer(p.start)
		p.all = append(p.all, w)
	}
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.idle = append(p.idle, w)
		p.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimedOut)
	defer cancel()
	return w.check(ctx, declarations, text)
}

// close closes every server. The caller (Checker.Close) has ended the checks in flight and
// waited for them.
func (p *warmPool) close() error {
	p.mu.Lock()
	p.closed = true
	all := p.all
	p.mu.Unlock()
	var errs []error
	for _, w := range all {
		errs = append(errs, w.close())
	}
	return errors.Join(errs...)
}

// warmServer owns one long-lived compiler process in a server mode over a scratch project
// directory: tsconfig.json (checkConfig), tools.d.ts and main.ts exist on disk, so the project holds
// both files with the same options as a cold check, and each check replaces their text in the
// server's memory and asks for main.ts's diagnostics. The server keeps what does not change (the
// library, an unchanged tools.d.ts), which is what makes a warm check cheap. Two protocols are
// spoken: the language server of TypeScript 7 (`tsc --lsp --stdio`, lsp.go) and tsserver of
// TypeScript 5 (tsserver.go).
//
// Checks are serialized (one program text at a time; the pool gives a server one check at a
// time). The server is started on the first check; a server that exits or breaks the protocol
// fails the check in progress with ErrCompiler, is killed and waited for, and a new one is
// started for the next check (the check in progress is retried once on a fresh server). A
// check whose context ends (its timeout included) kills the server with its process group (it
// may be stuck on a write, a request, or a program whose types never end), so the next check
// has a fresh one. close kills the server and waits for it and its reader goroutine.
type warmServer struct {
	start startFunc

	mu     sync.Mutex // serializes checks and guards the fields below
	closed bool
	srv    serverProcess
	dir    string // the scratch project, removed by close
}

// serverProcess is one running compiler server.
type serverProcess interface {
	// check puts declarations and text into the server as tools.d.ts and main.ts and returns
	// the diagnostics of both (those of tools.d.ts with File set).
	check(ctx context.Context, declarations, text string) ([]Diagnostic, error)
	// kill ends the process and waits for it; safe to call more than once, concurrently.
	kill()
	// withStderr adds the end of the server's stderr to err (after kill).
	withStderr(err error) error
	// command is the process (for tests).
	command() *exec.Cmd
}

// startFunc starts a server on the project in dir.
type startFunc func(ctx context.Context, dir string) (serverProcess, error)

func newWarmServer(start startFunc) *warmServer { return &warmServer{start: start} }

// check returns the diagnostics of text (the program as the compiler checks it, in the
// ProgramFile of the project) against declarations.
func (w *warmServer) check(ctx context.Context, declarations, text string) ([]Diagnostic, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, errClosed
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	for attempt := 0; ; attempt++ {
		if w.srv == nil {
			if err := w.startServer(ctx); err != nil {
				if ctx.Err() != nil {
					return nil, context.Cause(ctx)
				}
				return nil, err
			}
		}
		srv := w.srv
		stopKill := context.AfterFunc(ctx, srv.kill)
		diags, err := srv.check(ctx, declarations, text)
		stopKill()
		if err == nil {
			return diags, nil
		}
		w.stop()
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		err = srv.withStderr(err)
		if attempt > 0 || !errors.Is(err, errServerGone) {
			return nil, fmt.Errorf("%w: %v", ErrCompiler, err)
		}
	}
}

// startServer creates the scratch project (once) and starts a server on it.
func (w *warmServer) startServer(ctx context.Context) error {
	if w.dir == "" {
		dir, err := os.MkdirTemp("", "runcode-typecheck-warm-")
		if err != nil {
			return fmt.Errorf("%w: %v", ErrCompiler, err)
		}
		w.dir = dir
	}
	// The files on disk put both in the project; their text comes from the server's memory.
	if err := writeCheckProject(w.dir, "", ""); err != nil {
		return fmt.Errorf("%w: %v", ErrCompiler, err)
	}
	srv, err := w.start(ctx, w.dir)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCompiler, err)
	}
	w.srv = srv
	return nil
}

// stop kills the server, if any, and waits for it.
func (w *warmServer) stop() {
	if w.srv != nil {
		w.srv.kill()
		w.srv = nil
	}
}

func (w *warmServer) close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	w.stop()
	if w.dir != "" {
		return os.RemoveAll(w.dir)
	}
	return nil
}
