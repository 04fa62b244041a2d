package mcpserve

// Serving until shutdown: the drain choreography every host of NewServer needs, over stdio or
// streamable HTTP.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of ServeOptions.
const (
	// DefaultStuckGrace is how long an aborted run may take to end before Serve gives up on it.
	DefaultStuckGrace = 2 * time.Second
	// DefaultAnswerTimeout bounds writing the responses of the runs that ended during a drain.
	DefaultAnswerTimeout = 5 * time.Second
	// DefaultShutdownTimeout bounds closing the HTTP server once the runs have ended.
	DefaultShutdownTimeout = 5 * time.Second
)

// ErrRunsAbandoned is Serve's error when runs did not stop within StuckGrace of their abort at
// the end of a drain (stuck in one native step the runtime cannot interrupt): their clients get
// no answer, and the host is to exit without them (closing its runtime waits for them).
var ErrRunsAbandoned = errors.New("runs in flight did not stop after their abort")

// ServeOptions configure Serve: exactly one of Stdio and Listener.
type ServeOptions struct {
	// Stdio serves one session over a LineTransport until its Reader ends.
	Stdio *LineTransport
	// Listener serves streamable HTTP: Handler on Listener, until ctx is done. HTTP is the
	// handler of the server (NewHTTPHandler), whose sessions the drain closes; Handler routes
	// requests to it (and to a host's other endpoints); nil serves HTTP alone.
	Listener net.Listener
	HTTP     *HTTPHandler
	Handler  http.Handler

	// Gate is the server's RunGate (ServerOptions.Gate, and HTTPOptions.Gate): the drain
	// refuses new runs through it and waits for those in flight. Required.
	Gate *RunGate
	// DrainTimeout is how long runs in flight may finish once ctx is done before they are
	// aborted (zero: aborted at once).
	DrainTimeout time.Duration
	// StuckGrace is how long an aborted run may take to end before Serve gives up on it and
	// returns ErrRunsAbandoned (zero: DefaultStuckGrace).
	StuckGrace time.Duration
	// AnswerTimeout bounds writing the answers of the runs that ended during the drain (zero:
	// DefaultAnswerTimeout); ShutdownTimeout bounds closing the HTTP server after it (zero:
	// DefaultShutdownTimeout).
	AnswerTimeout, ShutdownTimeout time.Duration
	// OnDrain, when set, is told about the drain as it goes, for an operator's log.
	OnDrain func(DrainNotice)
}

// DrainNotice is one step of a drain worth telling an operator.
type DrainNotice struct {
	Stage   DrainStage
	Running int           // the runs in flight (DrainWaiting) or abandoned (DrainAbandoned)
	Timeout time.Duration // ServeOptions.DrainTimeout
	Grace   time.Duration // ServeOptions.StuckGrace (DrainAbandoned)
}

// DrainStage is what a DrainNotice reports.
type DrainStage int

const (
	// DrainWaiting: the drain began with runs in flight, and waits for them.
	DrainWaiting DrainStage = iota
	// DrainAborted: the runs still in flight after DrainTimeout were aborted, and ended.
	DrainAborted
	// DrainAbandoned: aborted runs did not end within StuckGrace; Serve returns
	// ErrRunsAbandoned.
	DrainAbandoned
)

// String is the notice as one line of text.
func (n DrainNotice) String() string {
	switch n.Stage {
	case DrainWaiting:
		return fmt.Sprintf("shutting down: waiting up to %s for %d run(s) in flight", n.Timeout, n.Running)
	case DrainAborted:
		return fmt.Sprintf("shutting down: aborted the runs still in flight after %s", n.Timeout)
	default:
		return fmt.Sprintf("shutting down: aborted the runs still in flight after %s; %d run(s) did not stop within %s of the abort and were abandoned (their clients get no answer)", n.Timeout, n.Running, n.Grace)
	}
}

// Serve serves srv until the transport ends (Stdio's Reader ends, or the HTTP server fails) or
// ctx is done. When ctx is done it drains: run_code calls are refused with ShuttingDown, runs in
// flight finish for up to DrainTimeout, the rest are aborted and given StuckGrace to end, the
// answers are written (for up to AnswerTimeout), and then the sessions are closed and the HTTP
// server shut down. Sessions and requests outlive ctx for that long: ctx only starts the drain.
// It returns nil after a clean end (the end of Stdio's Reader included), ErrRunsAbandoned when
// aborted runs did not end, or the transport's error.
func Serve(ctx context.Context, srv *mcp.Server, opts ServeOptions) error {
	switch {
	case opts.Gate == nil:
		return errors.New("mcpserve: Serve needs the server's RunGate")
	case (opts.Stdio == nil) == (opts.Listener == nil):
		return errors.New("mcpserve: Serve needs exactly one of Stdio and Listener")
	case opts.Listener != nil && opts.HTTP == nil:
		return errors.New("mcpserve: Serve over HTTP needs the HTTPHandler")
	}
	if opts.StuckGrace <= 0 {
		opts.StuckGrace = DefaultStuckGrace
	}
	if opts.AnswerTimeout <= 0 {
		opts.AnswerTimeout = DefaultAnswerTimeout
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	if opts.Stdio != nil {
		return serveStdio(ctx, srv, opts)
	}
	return serveHTTP(ctx, opts)
}

// drain stops starting runs, lets those in flight finish for up to DrainTimeout and aborts the
// rest. It reports false when runs have still not ended StuckGrace after their abort: the
// server is to exit without them.
func drain(opts ServeOptions) bool {
	notify := func(n DrainNotice) {
		if opts.OnDrain != nil {
			n.Timeout, n.Grace = opts.DrainTimeout, opts.StuckGrace
			opts.OnDrain(n)
		}
	}
	gate, timeout := opts.Gate, opts.DrainTimeout
	if n := gate.Running(); n > 0 {
		notify(DrainNotice{Stage: DrainWaiting, Running: n})
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// Drain waits for the aborted runs however long they take; an abandoned one leaves this
	// goroutine waiting with it until the process exits.
	drained := make(chan error, 1)
	go func() { drained <- gate.Drain(ctx) }()
	giveUp := time.NewTimer(timeout + opts.StuckGrace)
	defer giveUp.Stop()
	var err error
	select {
	case err = <-drained:
	case <-giveUp.C:
		select {
		case err = <-drained: // they ended as the time ran out
		default:
			notify(DrainNotice{Stage: DrainAbandoned, Running: gate.Running()})
			return false
		}
	}
	if err != nil {
		notify(DrainNotice{Stage: DrainAborted})
	}
	return true
}

// waitAnswered gives the responses of the runs that just ended timeout to be written.
func waitAnswered(wait func(context.Context) error, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_ = wait(ctx) // a client that keeps calling does not hold the shutdown beyond the timeout
}

// serveStdio serves one session over opts.Stdio until its reader ends (a clean end) or ctx is
// done (then it drains first).
func serveStdio(ctx context.Context, srv *mcp.Server, opts ServeOptions) error {
	// The session outlives ctx so that the runs in flight can answer.
	sessionCtx, endSession := context.WithCancel(context.WithoutCancel(ctx))
	defer endSession()
	transport := opts.Stdio
	served := make(chan error, 1)
	go func() { served <- srv.Run(sessionCtx, transport) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
		if !drain(opts) {
			return ErrRunsAbandoned
		}
		waitAnswered(transport.WaitAnswered, opts.AnswerTimeout)
		endSession()
		err = <-served
	}
	if err == nil || sessionCtx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// serveHTTP serves opts.Handler on opts.Listener until ctx is done, then drains: run_code calls
// fail with a clear error, runs in flight finish for up to DrainTimeout, the rest are aborted,
// the sessions closed and the server shut down.
func serveHTTP(ctx context.Context, opts ServeOptions) error {
	h := opts.HTTP
	handler := opts.Handler
	if handler == nil {
		handler = h
	}
	hs := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		// Requests outlive ctx so that the runs in flight can answer; the gate aborts those
		// that outlive the drain.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(opts.Listener) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	if !drain(opts) {
		return ErrRunsAbandoned
	}
	waitAnswered(h.WaitAnswered, opts.AnswerTimeout)
	h.CloseSessions()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), opts.ShutdownTimeout)
	defer cancel()
	err := hs.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = hs.Close()
	}
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	return err
}
