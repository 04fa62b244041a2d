package jsruntime

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
)

// Defaults of ProcessConfig.
const (
	DefaultPoolSize    = 2       // ProcessConfig.Size
	DefaultMemoryLimit = 1 << 30 // ProcessConfig.MemoryLimit
)

// Grace periods of the parent: after abort, how long the worker may take to report before it
// is killed; past the wall ceiling, how long before a silent worker is killed.
const (
	abortGrace = 250 * time.Millisecond
	wallGrace  = 250 * time.Millisecond
	readyWait  = 3 * time.Second // for a new worker's "ready"
)

// maxStarts is how many workers a run is given while none acknowledges it (see Run).
const maxStarts = 3

// stderrHeadBytes is how much of a worker's standard error the parent keeps: a Go runtime that
// aborts says why on its first line, then dumps its goroutines.
const stderrHeadBytes = 4 << 10

// errNotAWorker reports a worker command that does not speak the protocol, or a worker process
// that got as far as starting a pool of its own: both mean its main does not call
// RunWorkerIfRequested first.
var errNotAWorker = errors.New("jsruntime: the worker command is not a jsruntime worker (its main must call jsruntime.RunWorkerIfRequested first)")

// ProcessConfig configures a ProcessPool.
type ProcessConfig struct {
	// Config holds the per-run budgets; the workers enforce them, and the parent enforces the
	// wall ceiling on the worker too. MaxHeapBytes is capped at half of MemoryLimit.
	Config
	// Size is the number of warm worker processes, and so of concurrent runs. Zero means 2.
	Size int
	// MemoryLimit is each worker's hard memory limit in bytes, on top of what the worker
	// occupies when it starts: its RLIMIT_DATA (Linux) is MemoryLimit plus the address space
	// the Go runtime has reserved by then, plus stacks for the threads it may start later
	// (RLIMIT_DATA counts address space, and those reservations are most of it while barely
	// resident: see dataLimit). Its Go soft memory limit (debug.SetMemoryLimit) is three
	// quarters of it and its heap watchdog trips at half of it (or MaxHeapBytes if lower). A
	// worker over it dies and its run ends as worker-exit. Zero means 1 GiB; otherwise at least
	// 64 MiB. Race-detector builds skip the RLIMIT_DATA.
	MemoryLimit int64
	// Command starts a worker: a program that calls RunWorkerIfRequested first thing. Nil
	// means the running executable, without arguments.
	Command []string
}

// ProcessPool is the process-isolated backend of Runtime: each run executes in a warm worker
// process (the same binary re-executed, see RunWorkerIfRequested) under an OS memory limit.
// Host functions stay in the calling process: the worker calls back over a pipe, in program
// order. A worker that dies ends its run as worker-exit and is replaced; the host survives. A
// run whose worker dies before it acknowledged the run (so before any of the program ran: a
// worker that died idle) is started again on another worker, up to maxStarts times. It is safe
// for concurrent use.
type ProcessPool struct {
	cfg  ProcessConfig
	spec string // workerConfig as JSON

	slots     chan struct{} // one per concurrent run
	disposing chan struct{} // closed by Close

	mu      sync.Mutex
	closed  bool
	idle    []*worker
	workers sync.WaitGroup // worker goroutines and refills
	runs    sync.WaitGroup
}

var _ Runtime = (*ProcessPool)(nil)

// NewProcessPool validates cfg, applies its defaults and starts cfg.Size workers.
func NewProcessPool(cfg ProcessConfig) (*ProcessPool, error) {
	if _, ok := os.LookupEnv(workerEnv); ok {
		return nil, errNotAWorker
	}
	c, err := cfg.Config.validate()
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Size < 0:
		return nil, fmt.Errorf("jsruntime: config.Size must be a positive number, got %d", cfg.Size)
	case cfg.MemoryLimit < 0 || (cfg.MemoryLimit > 0 && cfg.MemoryLimit < 64<<20):
		return nil, fmt.Errorf("jsruntime: config.MemoryLimit must be at least 64 MiB, got %d", cfg.MemoryLimit)
	}
	if cfg.Size == 0 {
		cfg.Size = DefaultPoolSize
	}
	if cfg.MemoryLimit == 0 {
		cfg.MemoryLimit = DefaultMemoryLimit
	}
	c.MaxHeapBytes = min(c.MaxHeapBytes, cfg.MemoryLimit/2)
	cfg.Config = c
	if len(cfg.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("jsruntime: locating the worker executable: %w", err)
		}
		cfg.Command = []string{exe}
	}
	spec, err := json.Marshal(workerConfig{Config: c, MemoryLimit: cfg.MemoryLimit})
	if err != nil {
		return nil, err
	}
	p := &ProcessPool{
		cfg:       cfg,
		spec:      string(spec),
		slots:     make(chan struct{}, cfg.Size),
		disposing: make(chan struct{}),
	}
	for range cfg.Size {
		w, err := p.spawn()
		if err != nil {
			_ = p.Close()
			return nil, err
		}
		p.idle = append(p.idle, w)
	}
	return p, nil
}

// Config returns the effective configuration, defaults applied.
func (p *ProcessPool) Config() ProcessConfig { return p.cfg }

// worker is one worker process seen from the parent.
type worker struct {
	cmd    *exec.Cmd
	out    *frameWriter
	frames chan *frame   // frames from the worker; closed when its stdout ends
	exited chan struct{} // closed once the process has been waited for
	quit   chan struct{} // closed by kill: the reader stops delivering frames
	once   sync.Once
	state  *os.ProcessState
	err    error // of Wait
	stderr stderrHead
}

// stderrHead keeps the first stderrHeadBytes of a worker's standard error and drops the rest.
type stderrHead struct {
	mu  sync.Mutex
	buf []byte
}

func (h *stderrHead) Write(b []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := stderrHeadBytes - len(h.buf); room > 0 {
		h.buf = append(h.buf, b[:min(room, len(b))]...)
	}
	return len(b), nil
}

// firstLine returns the first non-blank line written, at most 200 bytes of it.
func (h *stderrHead) firstLine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	for line := range strings.Lines(string(h.buf)) {
		if line = strings.TrimSpace(line); line != "" {
			if len(line) > 200 {
				line = strings.ToValidUTF8(line[:200], "") + "…"
			}
			return line
		}
	}
	return ""
}

// spawn starts a worker process and the goroutine that reads its frames and waits for it.
func (p *ProcessPool) spawn() (*worker, error) {
	cmd := exec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	cmd.Env = []string{workerEnv + "=" + p.spec}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w := &worker{cmd: cmd, out: &frameWriter{w: stdin}, frames: make(chan *frame, 64), exited: make(chan struct{}), quit: make(chan struct{})}
	cmd.Stderr = &w.stderr // os/exec copies it until the worker exits; Wait waits for the copy
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("jsruntime: starting a worker: %w", err)
	}
	p.workers.Add(1)
	go func() {
		defer p.workers.Done()
		r := bufio.NewReaderSize(stdout, 64<<10)
	read:
		for {
			f, err := readFrame(r)
			if err != nil {
				break
			}
			select {
			case w.frames <- f:
			case <-w.quit:
				break read
			}
		}
		close(w.frames)
		_ = cmd.Process.Kill() // a worker whose output ended or broke is useless
		w.err = cmd.Wait()
		w.state = cmd.ProcessState
		close(w.exited)
	}()
	select {
	case f, ok := <-w.frames:
		if ok && f.T == "ready" {
			return w, nil
		}
	case <-time.After(readyWait):
	}
	w.kill()
	<-w.exited
	if (w.state != nil && w.state.Exited()) || w.stderr.firstLine() != "" {
		// It ended by itself, or said something: a worker that dies while starting says why.
		return nil, fmt.Errorf("%w: %s", errNotAWorker, w.exitFailure().Message)
	}
	return nil, errNotAWorker
}

// kill ends the worker; its goroutine then waits for it.
func (w *worker) kill() {
	w.once.Do(func() { close(w.quit) })
	_ = w.cmd.Process.Kill()
}

// dead reports whether the worker process has exited (and been waited for).
func (w *worker) dead() bool { return isClosed(w.exited) }

// isClosed reports whether ch is closed, without waiting.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// exitFailure describes how a dead worker ended, with the first line of its standard error
// (a Go runtime that aborts says why there).
func (w *worker) exitFailure() *Failure {
	<-w.exited
	var msg string
	if w.state != nil && w.state.Exited() {
		msg = fmt.Sprintf("worker exited with code %d before completing", w.state.ExitCode())
	} else {
		msg = "worker terminated"
		if w.err != nil {
			msg = w.err.Error()
		}
		msg = "worker error: " + msg
	}
	if line := w.stderr.firstLine(); line != "" {
		msg += " (" + line + ")"
	}
	return &Failure{Kind: KindWorkerExit, Message: msg}
}

// acquire takes an idle worker, or starts one. An idle worker that has died is replaced.
func (p *ProcessPool) acquire() (*worker, error) {
	for {
		p.mu.Lock()
		n := len(p.idle)
		if n == 0 {
			p.mu.Unlock()
			return p.spawn()
		}
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		if !w.dead() {
			return w, nil
		}
		p.release(w, false)
	}
}

// release returns a healthy worker to the pool, or ends a broken one and starts a replacement
// in the background so the pool stays warm.
func (p *ProcessPool) release(w *worker, healthy bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if healthy && !p.closed {
		p.idle = append(p.idle, w)
		return
	}
	w.kill()
	if p.closed {
		return
	}
	p.workers.Add(1)
	go func() {
		defer p.workers.Done()
		nw, err := p.spawn()
		if err != nil {
			return // acquire starts one on demand
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.closed {
			nw.kill()
			return
		}
		p.idle = append(p.idle, nw)
	}()
}

// Run runs one program in a worker process. Its contract is Goja.Run's; in addition, a worker
// that dies (out of memory, killed) ends the run with a worker-exit failure.
func (p *ProcessPool) Run(ctx context.Context, req Request) (Result, error) {
	p.mu.Lock()
	closed := p.closed
	if !closed {
		p.runs.Add(1)
	}
	p.mu.Unlock()
	if closed {
		return Result{}, ErrClosed
	}
	defer p.runs.Done()
	if err := validateBindings(req.Bindings); err != nil {
		return Result{}, err
	}
	led := newLedger(p.cfg.MaxOutputBytes)
	if ctx.Err() != nil {
		return led.fail(&Failure{Kind: KindAbort, Message: context.Cause(ctx).Error()}), nil
	}
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return led.fail(&Failure{Kind: KindAbort, Message: context.Cause(ctx).Error()}), nil
	case <-p.disposing:
		return led.fail(&Failure{Kind: KindAbort, Message: msgDisposed}), nil
	}
	defer func() { <-p.slots }()
	// A worker that dies before it acknowledges the run has run none of the program (no log,
	// no host call): it died idle, or of something else. The run is not the cause, so it gets
	// another worker rather than a worker-exit, a few times.
	for starts := 1; ; starts++ {
		w, err := p.acquire()
		if err != nil {
			return led.fail(&Failure{Kind: KindWorkerExit, Message: "worker error: " + err.Error()}), nil
		}
		res, healthy, started := p.runOn(ctx, w, req, led)
		p.release(w, healthy)
		if started || starts == maxStarts || ctx.Err() != nil || p.isDisposing() {
			return res, nil
		}
	}
}

// isDisposing reports whether Close has been called.
func (p *ProcessPool) isDisposing() bool { return isClosed(p.disposing) }

// runOn drives one run on w. It reports whether w can run again, and whether the worker
// acknowledged the run (when not, it died before it could run any of the program, and the
// result is its worker-exit failure).
func (p *ProcessPool) runOn(ctx context.Context, w *worker, req Request, led *ledger) (res Result, healthy, started bool) {
	host, cancelHost := context.WithCancel(ctx)
	defer cancelHost()
	wire := make([]wireNamespace, len(req.Bindings))
	for i, ns := range req.Bindings {
		wire[i] = wireNamespace{Global: ns.Global, ErrorClass: ns.ErrorClass, Functions: make([]string, len(ns.Functions))}
		for j, fn := range ns.Functions {
			wire[i].Functions[j] = fn.Name
		}
	}
	if err := w.out.write(&frame{T: "run", Program: req.Program, Bindings: wire}); err != nil {
		w.kill()
		return led.fail(w.exitFailure()), false, false
	}
	// The run ends on the worker's "done"; otherwise the parent decides, and kills the worker.
	var mu sync.Mutex
	over := false // settles after the run are dropped
	defer func() {
		mu.Lock()
		over = true
		mu.Unlock()
	}()
	wall := time.NewTimer(p.cfg.WallCeiling + wallGrace)
	defer wall.Stop()
	var killAt <-chan time.Time
	var pending *Failure // the parent's verdict, once the worker is given up on
	ctxDone, disposing := ctx.Done(), p.disposing
	giveUp := func(f *Failure) (Result, bool, bool) {
		w.kill()
		for _, line := range drainLogs(w) {
			led.admit(line)
		}
		return led.fail(f), false, true
	}
	for {
		select {
		case f, ok := <-w.frames:
			if !ok {
				if pending != nil {
					return led.fail(pending), false, true
				}
				return led.fail(w.exitFailure()), false, started
			}
			switch f.T {
			case "started":
				started = true
			case "log":
				led.admit(f.Line)
			case "done":
				if f.Result == nil {
					return giveUp(&Failure{Kind: KindWorkerExit, Message: "worker error: malformed result"})
				}
				// A caller that cancelled before the result arrived gets its abort, even when the
				// worker finished in the meantime (or threw the host call's cancellation error):
				// the cancellation is the first terminal event the caller saw. A worker that was
				// sent an abort frame is retired so that the frame cannot reach its next run.
				if pending != nil || ctx.Err() != nil {
					if pending == nil {
						pending = &Failure{Kind: KindAbort, Message: context.Cause(ctx).Error()}
					}
					return led.fail(pending), ctxDone != nil, true
				}
				// A worker whose run hit the heap watchdog may be close to its hard limit
				// still: retire it rather than let the next run die of it.
				done := fromWire(f.Result)
				return done, done.Error == nil || done.Error.Kind != KindWorkerExit, true
			case "fail":
				if f.Failure == nil {
					return giveUp(&Failure{Kind: KindWorkerExit, Message: "worker error: malformed failure"})
				}
				return giveUp(f.Failure)
			case "call":
				p.call(host, w, req, f, &mu, &over)
			}
		case <-ctxDone:
			ctxDone = nil
			reason := context.Cause(ctx).Error()
			_ = w.out.write(&frame{T: "abort", Reason: reason})
			pending = &Failure{Kind: KindAbort, Message: reason}
			killAt = time.After(abortGrace)
		case <-disposing:
			return giveUp(&Failure{Kind: KindAbort, Message: msgDisposed})
		case <-wall.C:
			return giveUp(&Failure{Kind: KindTimeout, Message: fmt.Sprintf("wall-clock ceiling reached (%dms)", p.cfg.WallCeiling.Milliseconds())})
		case <-killAt:
			return giveUp(pending)
		}
	}
}

// drainLogs returns the log lines already received from a worker being given up on.
func drainLogs(w *worker) []string {
	var lines []string
	for {
		select {
		case f, ok := <-w.frames:
			if !ok {
				return lines
			}
			if f.T == "log" {
				lines = append(lines, f.Line)
			}
		default:
			return lines
		}
	}
}

// call runs one host call the worker forwarded, on the run's goroutine, in order.
func (p *ProcessPool) call(ctx context.Context, w *worker, req Request, f *frame, mu *sync.Mutex, over *bool) {
	id := f.ID
	reply := func(v jsonv.Value, err error) {
		mu.Lock()
		done := *over
		mu.Unlock()
		if done {
			return
		}
		out := &frame{T: "reply", ID: id}
		if err == nil {
			err = incomingError(v) // before encoding, which would replace bad bytes
		}
		if err != nil {
			msg := err.Error()
			out.Error = &msg
		} else if v.IsDefined() {
			out.Value = []jsonv.Value{v}
		}
		_ = w.out.write(out)
	}
	var fn *Function
	if f.NS >= 0 && f.NS < len(req.Bindings) {
		for i := range req.Bindings[f.NS].Functions {
			if req.Bindings[f.NS].Functions[i].Name == f.Fn {
				fn = &req.Bindings[f.NS].Functions[i]
				break
			}
		}
	}
	if fn == nil || len(f.Value) != 1 {
		global := ""
		if f.NS >= 0 && f.NS < len(req.Bindings) {
			global = req.Bindings[f.NS].Global
		}
		reply(jsonv.Value{}, fmt.Errorf("unknown binding %q", global+"."+f.Fn))
		return
	}
	var settled sync.Once
	settle := func(v jsonv.Value, err error) { settled.Do(func() { reply(v, err) }) }
	func() {
		defer func() {
			if x := recover(); x != nil {
				settle(jsonv.Value{}, fmt.Errorf("binding %q failed: %v", fn.Name, x))
			}
		}()
		fn.Call(ctx, f.Value[0], settle)
	}()
}

// Close disposes of the pool: later runs fail with ErrClosed, live runs end at once with the
// abort failure "runtime disposed", every worker is ended, and Close returns once they have
// exited. Close is idempotent.
func (p *ProcessPool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		p.runs.Wait()
		p.workers.Wait()
		return nil
	}
	p.closed = true
	close(p.disposing)
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, w := range idle {
		w.kill()
	}
	p.runs.Wait()
	p.workers.Wait()
	return nil
}

// ClosableRuntime is a Runtime that must be disposed of: *Goja and *ProcessPool.
type ClosableRuntime interface {
	Runtime
	Close() error
}

// Isolation levels accepted by Open.
const (
	IsolationInProcess = "inprocess"
	IsolationProcess   = "process"
)

// Open returns a runtime of the given isolation: IsolationInProcess (New, with memoryLimit as
// MaxHeapBytes unless cfg sets it) or IsolationProcess (NewProcessPool with memoryLimit as each
// worker's MemoryLimit; the executable must call RunWorkerIfRequested first thing in main).
func Open(isolation string, memoryLimit int64, cfg Config) (ClosableRuntime, error) {
	switch isolation {
	case IsolationInProcess:
		if cfg.MaxHeapBytes == 0 {
			cfg.MaxHeapBytes = memoryLimit
		}
		return New(cfg)
	case IsolationProcess:
		return NewProcessPool(ProcessConfig{Config: cfg, MemoryLimit: memoryLimit})
	}
	return nil, fmt.Errorf("jsruntime: isolation must be %s or %s, got %q", IsolationInProcess, IsolationProcess, isolation)
}
