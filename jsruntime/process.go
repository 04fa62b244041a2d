package jsruntime

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime/internal/pipe"
)

// Defaults of ProcessConfig.
const (
	DefaultPoolSize    = 2                // ProcessConfig.Size
	DefaultMemoryLimit = 1 << 30          // ProcessConfig.MemoryLimit
	DefaultIdleTimeout = 30 * time.Second // ProcessConfig.IdleTimeout
)

// Grace periods of the parent: after abort, how long the worker may take to report before it
// is killed; past the wall ceiling, how long before a silent worker is killed.
const (
	abortGrace = 250 * time.Millisecond
	wallGrace  = 250 * time.Millisecond
	readyWait  = 10 * time.Second // for a new worker's "ready" (a few ms on an idle machine)
	drainWait  = 100 * time.Millisecond
)

// releaseReplyBytes is the size of a reply's value after which the parent returns its free
// memory to the system once the call is over (see runLoop.releaseAt): a large tool result (a
// 50 MB file read) leaves the parent's heap as large as the text and its rendering together,
// and a parent that then waits for its worker's computation allocates nothing that would reuse
// it or trigger a collection, so it held that memory through the run.
const releaseReplyBytes = 16 << 20

// releaseDelay is how long after writing a large reply the parent returns its free memory: by
// then the host function that settled it has returned, and the result is garbage.
const releaseDelay = 50 * time.Millisecond

// replyOverhead is what a reply frame's body holds besides its value: the id and the status.
const replyOverhead = callIDBytes + 1

// minInFlightBytes is the least ProcessConfig.MaxInFlightBytes.
const minInFlightBytes = 64 << 10

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
	// wall ceiling on the worker too. MaxHeapBytes is half of MemoryLimit, or the lower
	// MaxHeapBytes when it is set.
	Config
	// Size is the number of warm worker processes: started with the pool and kept while idle.
	// Zero means 2.
	Size int
	// MaxWorkers is the most worker processes, and so the most runs that execute at once:
	// workers beyond Size are started when a run needs one and ended once idle for
	// IdleTimeout. A run that awaits a tool holds its worker, so this, not the CPU count,
	// bounds how many runs can wait on tools at once. Zero means Size when Size is set, and
	// DefaultMaxWorkers(MemoryLimit) when it is not; it is never below Size.
	MaxWorkers int
	// MaxQueued is the most runs that wait for a worker while MaxWorkers run; one more fails
	// at once with ErrBusy. Waiting runs get workers fairly across WithFairnessKey keys. Zero
	// means 4 × MaxWorkers; a negative value means no queue.
	MaxQueued int
	// IdleTimeout is how long a worker beyond Size may stay idle before it is ended. Zero
	// means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// MemoryLimit is each worker's hard memory limit in bytes, on top of what the worker
	// occupies when it starts: its RLIMIT_DATA (Linux) is MemoryLimit plus the address space
	// the Go runtime has reserved by then, plus stacks for the threads it may start later
	// (RLIMIT_DATA counts address space, and those reservations are most of it while barely
	// resident: see dataLimit). Its Go soft memory limit (debug.SetMemoryLimit) is three
	// quarters of it and its heap watchdog trips at half of it (or MaxHeapBytes if set and lower). A
	// worker over it dies and its run ends as worker-exit. Zero means 1 GiB; otherwise at least
	// 64 MiB. Race-detector builds skip the RLIMIT_DATA.
	MemoryLimit int64
	// Command starts a worker: a program that calls RunWorkerIfRequested first thing. Nil
	// means the running executable, without arguments.
	Command []string
	// MaxInFlightBytes bounds the sub-call data of one run held in this process: the arguments
	// of the calls the worker made that have not settled, and the results not yet written back
	// to the worker, as their encoded size on the pipe. A call whose argument or result would
	// take a run past it rejects, in the program, with an error that names the limit; the run
	// goes on. So this process holds at most Size × MaxInFlightBytes of sub-call data (plus
	// what the host functions themselves hold while they work). Zero means MaxHeapBytes (the
	// worker's heap bound: half of MemoryLimit at most); otherwise at least 64 KiB.
	MaxInFlightBytes int64
	// WorkerProcs is each worker's GOMAXPROCS. Zero means 1: a worker runs one program at a
	// time, on one goroutine, and with a second P idle every binding call's reply wakes an idle
	// thread besides the one that runs the program (measured: a sequential sub-call 31 → 23 µs,
	// a one-call run 265 → 181 µs on 2 vCPUs). More lets the garbage collector of an
	// allocation-heavy program use more cores, and the budget timers fire without waiting for
	// the scheduler to preempt the program (with one P they may fire up to about 10ms late).
	// A worker of one P takes a second (on a machine of two CPUs or more) while its live heap
	// is 64 MiB or more, for the collector (see internal/gcpace.StartProcs), and gives it back
	// below 32 MiB.
	WorkerProcs int
}

// ProcessPool is the process-isolated backend of Runtime: each run executes in a warm worker
// process (the same binary re-executed, see RunWorkerIfRequested) under an OS memory limit.
// Host functions stay in the calling process: the worker calls back over a pipe, in program
// order. A worker that dies ends its run as worker-exit and is replaced; the host survives. A
// run whose worker dies before it acknowledged the run (so before any of the program ran: a
// worker that died idle) is started again on another worker, up to maxStarts times. It is safe
// for concurrent use.
//
// A run's frames are read, and its calls made, on one goroutine at a time: from a run's second
// call on, a call whose namespace has an inline form (Namespace.InlineDispatch,
// Function.Inline) is made on the goroutine that reads the frames, so that a sequential call
// crosses no goroutine in this process. After a call answered before its host function
// returned, that goroutine tries the pipe for up to 30µs before it waits, while the pool runs at
// most one run per two CPUs: the program's next call usually comes sooner than a wake-up from
// the poller.
type ProcessPool struct {
	cfg  ProcessConfig
	spec string // workerConfig as JSON
	// maxOtherFrame bounds the frames other than calls that the parent reads from a worker: a
	// result and its logs are at most MaxOutputBytes as JSON, and their encoding is at most
	// three times that.
	maxOtherFrame int64

	adm       *admission      // the worker places: MaxWorkers runs at once, MaxQueued waiting
	spinRuns  int             // while at most this many runs are going, their readers may spin
	disposing context.Context // cancelled by Close
	dispose   context.CancelFunc

	// onRunStart, when set (by tests), is given each run's flight ledger as the run starts.
	onRunStart func(*flightLedger)

	mu     sync.Mutex
	closed bool
	idle   []*worker
	// shape is the bindings of the latest run (names only): a namespace given as Functions
	// with the same names gets the same member list, so a worker sees the same bindings.
	shape   []boundNamespace
	workers sync.WaitGroup // worker goroutines and refills
	runs    sync.WaitGroup
}

var _ Runtime = (*ProcessPool)(nil)

// NewProcessPool validates cfg, applies its defaults and starts cfg.Size workers.
func NewProcessPool(cfg ProcessConfig) (*ProcessPool, error) {
	if _, ok := os.LookupEnv(workerEnv); ok {
		return nil, errNotAWorker
	}
	heapSet := cfg.Config.MaxHeapBytes != 0
	c, err := cfg.Config.validate()
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Size < 0:
		return nil, fmt.Errorf("jsruntime: config.Size must be a positive number, got %d", cfg.Size)
	case cfg.MemoryLimit < 0 || (cfg.MemoryLimit > 0 && cfg.MemoryLimit < 64<<20):
		return nil, fmt.Errorf("jsruntime: config.MemoryLimit must be at least 64 MiB, got %d", cfg.MemoryLimit)
	case cfg.WorkerProcs < 0:
		return nil, fmt.Errorf("jsruntime: config.WorkerProcs must be a positive number, got %d", cfg.WorkerProcs)
	case cfg.MaxInFlightBytes < 0 || (cfg.MaxInFlightBytes > 0 && cfg.MaxInFlightBytes < minInFlightBytes):
		return nil, fmt.Errorf("jsruntime: config.MaxInFlightBytes must be at least %d, got %d", minInFlightBytes, cfg.MaxInFlightBytes)
	case cfg.MaxWorkers < 0:
		return nil, fmt.Errorf("jsruntime: config.MaxWorkers must be a positive number, got %d", cfg.MaxWorkers)
	case cfg.IdleTimeout < 0:
		return nil, fmt.Errorf("jsruntime: config.IdleTimeout must be positive, got %v", cfg.IdleTimeout)
	}
	if cfg.MemoryLimit == 0 {
		cfg.MemoryLimit = DefaultMemoryLimit
	}
	switch {
	case cfg.MaxWorkers == 0 && cfg.Size > 0:
		cfg.MaxWorkers = cfg.Size
	case cfg.MaxWorkers == 0:
		cfg.MaxWorkers = DefaultMaxWorkers(cfg.MemoryLimit)
	}
	if cfg.Size == 0 {
		cfg.Size = min(DefaultPoolSize, cfg.MaxWorkers)
	}
	cfg.MaxWorkers = max(cfg.MaxWorkers, cfg.Size)
	switch {
	case cfg.MaxQueued == 0:
		cfg.MaxQueued = 4 * cfg.MaxWorkers
	case cfg.MaxQueued < 0:
		cfg.MaxQueued = 0
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	// The heap follows the memory limit: half of it, or MaxHeapBytes when that is set and lower.
	// (It used to be min(MaxHeapBytes, MemoryLimit/2) with MaxHeapBytes defaulting to 512 MiB,
	// so no MemoryLimit, and no --memory, let a worker's heap pass 512 MiB.)
	if heapSet {
		c.MaxHeapBytes = min(c.MaxHeapBytes, cfg.MemoryLimit/2)
	} else {
		c.MaxHeapBytes = cfg.MemoryLimit / 2
	}
	cfg.Config = c
	if cfg.MaxInFlightBytes == 0 {
		cfg.MaxInFlightBytes = c.MaxHeapBytes
	}
	if cfg.WorkerProcs == 0 {
		cfg.WorkerProcs = 1
	}
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
	dispose, disposed := context.WithCancel(context.Background())
	p := &ProcessPool{
		cfg:           cfg,
		spec:          string(spec),
		maxOtherFrame: 4*int64(c.MaxOutputBytes) + 1<<20,
		adm:           newAdmission(cfg.MaxWorkers, cfg.MaxQueued),
		spinRuns:      pipe.SpinningRuns(),
		disposing:     dispose,
		dispose:       disposed,
	}
	for range cfg.Size {
		w, err := p.spawn()
		if err != nil {
			_ = p.Close()
			return nil, err
		}
		p.idle = append(p.idle, w)
	}
	p.workers.Add(1)
	go p.reap()
	return p, nil
}

// reap ends the workers beyond Size that have been idle for IdleTimeout, until Close.
func (p *ProcessPool) reap() {
	defer p.workers.Done()
	tick := time.NewTicker(max(p.cfg.IdleTimeout/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-p.disposing.Done():
			return
		case now := <-tick.C:
			p.mu.Lock()
			// idle is oldest first: the longest idle are ended, the warmest kept.
			var stale []*worker
			for len(p.idle) > p.cfg.Size && now.Sub(p.idle[0].idleSince) >= p.cfg.IdleTimeout {
				stale = append(stale, p.idle[0])
				p.idle = p.idle[1:]
			}
			p.mu.Unlock()
			for _, w := range stale {
				w.discard()
			}
		}
	}
}

// Config returns the effective configuration, defaults applied.
func (p *ProcessPool) Config() ProcessConfig { return p.cfg }

// worker is one worker process seen from the parent.
type worker struct {
	cmd    *exec.Cmd
	out    *frameWriter // to its standard input
	stdin  *os.File     // the parent's end of the worker's standard input
	stdout *os.File     // the parent's end of the worker's standard output
	// in reads stdout: in spawn, then on the goroutine of the run the worker is given, so a
	// frame is handled where it is awaited.
	in     *frameReader
	pipe   *pipe.Reader  // what in reads stdout through
	exited chan struct{} // closed once the process has been waited for
	once   sync.Once
	state  *os.ProcessState
	err    error // of Wait
	stderr stderrHead
	// shape is the bindings (names only) of the latest run frame sent with bindings: the worker
	// keeps them, so a run bound the same is sent without them.
	shape []boundNamespace
	// idleSince is when the worker last became idle (under the pool's mu).
	idleSince time.Time
}

// stderrHead keeps the first stderrHeadBytes of a worker's standard error and drops the rest.
type stderrHead struct {
	mu  sync.Mutex
	buf []byte
}

// Write keeps what fits in the first stderrHeadBytes and reports all of b written.
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

// spawn starts a worker process, and the goroutine that waits for it, and waits for its
// "ready".
func (p *ProcessPool) spawn() (*worker, error) {
	cmd := exec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	cmd.Env = []string{workerEnv + "=" + p.spec, "GOMAXPROCS=" + strconv.Itoa(p.cfg.WorkerProcs)}
	// The parent's ends are non-blocking (os.Pipe registers them with the poller), so a read
	// can be cut short by a deadline; exec hands the worker its ends in blocking mode.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	pr := pipe.NewReader(outR, p.spinRuns > 0)
	w := &worker{cmd: cmd, out: &frameWriter{w: inW}, stdin: inW, stdout: outR, in: newFrameReader(pr), pipe: pr, exited: make(chan struct{})}
	cmd.Stdin, cmd.Stdout = inR, outW
	cmd.Stderr = &w.stderr // os/exec copies it until the worker exits; Wait waits for the copy
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("jsruntime: starting a worker: %w", err)
	}
	lowerPriority(cmd.Process.Pid)
	p.workers.Add(1)
	go func() {
		defer p.workers.Done()
		w.err = cmd.Wait()
		w.state = cmd.ProcessState
		close(w.exited)
	}()
	_ = outR.SetReadDeadline(time.Now().Add(readyWait))
	f, err := w.in.next(nil, 64)
	_ = outR.SetReadDeadline(time.Time{})
	if err == nil && f.T == frameReady {
		return w, nil
	}
	w.discard()
	<-w.exited
	if errors.Is(err, os.ErrDeadlineExceeded) && w.stderr.firstLine() == "" {
		return nil, fmt.Errorf("jsruntime: a new worker did not report ready within %v (is the machine overloaded?)", readyWait)
	}
	if (w.state != nil && w.state.Exited()) || w.stderr.firstLine() != "" {
		// It ended by itself, or said something: a worker that dies while starting says why.
		return nil, fmt.Errorf("%w: %s", errNotAWorker, w.exitFailure().Message)
	}
	return nil, errNotAWorker
}

// kill ends the worker; its goroutine then waits for it.
func (w *worker) kill() { _ = w.cmd.Process.Kill() }

// discard kills the worker and closes the parent's ends of its pipes. Replies that settle
// later fail to write, and are dropped.
func (w *worker) discard() {
	w.kill()
	w.once.Do(func() {
		w.stdin.Close()
		w.stdout.Close()
	})
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
		w.idleSince = time.Now()
		p.idle = append(p.idle, w)
		return
	}
	w.discard()
	if p.closed || len(p.idle) >= p.cfg.Size {
		return // enough are warm; acquire starts more on demand
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
			nw.discard()
			return
		}
		nw.idleSince = time.Now()
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
	p.mu.Lock()
	last := p.shape
	p.mu.Unlock()
	bound, err := bindNamespaces(req.Bindings, last)
	if err != nil {
		return Result{}, err
	}
	if !sameShape(bound, last) {
		p.mu.Lock()
		p.shape = namesOnly(bound)
		p.mu.Unlock()
	}
	led := newLedger(p.cfg.MaxOutputBytes, req.OnLog)
	if ctx.Err() != nil {
		return led.fail(&Failure{Kind: KindAbort, Message: context.Cause(ctx).Error()}), nil
	}
	// The worker compiles and runs the program: the span measures the whole worker call here.
	span := startSpan(ctx, &req, SpanRun, IsolationProcess)
	res, err := p.runInWorker(ctx, req, bound, led, span)
	if err != nil {
		endSpan(span, &Failure{Kind: KindAbort, Message: err.Error()})
		return Result{}, err
	}
	endSpan(span, res.Error)
	return res, nil
}

// runInWorker runs req in a worker once a place is free (ErrBusy when the queue for one is full), recording on span (when not nil) when
// a worker was acquired: the time before that is the wait for a slot or a worker start.
func (p *ProcessPool) runInWorker(ctx context.Context, req Request, bound []boundNamespace, led *ledger, span trace.Span) (Result, error) {
	// A nested run uses its outer run's place (see WithNestedRun).
	if !isNestedRun(ctx) {
		key := fairnessKeyOf(ctx)
		if err := p.adm.acquire(ctx, p.disposing.Done(), key); err != nil {
			switch {
			case errors.Is(err, ErrBusy):
				return Result{}, err
			case errors.Is(err, errPoolClosing):
				return led.fail(&Failure{Kind: KindAbort, Message: msgDisposed}), nil
			}
			return led.fail(&Failure{Kind: KindAbort, Message: err.Error()}), nil
		}
		defer p.adm.release(key)
	}
	// A worker that dies before it acknowledges the run has run none of the program (no log,
	// no host call): it died idle, or of something else. The run is not the cause, so it gets
	// another worker rather than a worker-exit, a few times.
	for starts := 1; ; starts++ {
		w, err := p.acquire()
		if err != nil {
			return led.fail(&Failure{Kind: KindWorkerExit, Message: "worker error: " + err.Error()}), nil
		}
		if span != nil {
			span.AddEvent("worker.acquired")
		}
		res, healthy, started := p.runOn(ctx, w, req.Program, bound, led)
		p.release(w, healthy)
		if started || starts == maxStarts || ctx.Err() != nil || p.isDisposing() {
			return res, nil
		}
	}
}

// isDisposing reports whether Close has been called.
func (p *ProcessPool) isDisposing() bool { return p.disposing.Err() != nil }

// runOn drives one run on w. It reports whether w can run again, and whether the worker
// acknowledged the run (when not, it died before it could run any of the program, and the
// result is its worker-exit failure).
//
// The run's frames are read here, on the goroutine that waits for them, and host calls are
// made here too, in order; anything that must end the wait (the caller's cancellation, Close,
// the wall ceiling, the end of the abort grace) moves the read deadline. From a run's second
// call on, a call to a function with an inline form (Function.Inline, Namespace.InlineDispatch)
// hands the reading to a pump goroutine, which makes such calls itself (see serve and pump).
func (p *ProcessPool) runOn(ctx context.Context, w *worker, program string, bound []boundNamespace, led *ledger) (Result, bool, bool) {
	host, cancelHost := context.WithCancel(ctx)
	defer cancelHost()
	flight := newFlightLedger(p.cfg.MaxInFlightBytes)
	if p.onRunStart != nil {
		p.onRunStart(flight)
	}
	run := &frame{T: frameRun, Program: program, SameBindings: w.shape != nil && sameShape(w.shape, bound)}
	if !run.SameBindings {
		run.Bindings = wireNamespaces(bound)
		w.shape = namesOnly(bound)
	}
	if err := w.out.write(run); err != nil {
		w.kill()
		return led.fail(w.exitFailure()), false, false
	}
	// The run ends on the worker's "done"; otherwise the parent decides, and kills the worker.
	l := &runLoop{p: p, w: w, ctx: ctx, host: host, bound: bound, led: led, flight: flight,
		wallAt: time.Now().Add(p.cfg.WallCeiling + wallGrace)}
	defer l.over.Store(true) // settles after the run are dropped
	interrupt := func() { _ = w.stdout.SetReadDeadline(time.Unix(1, 0)) }
	defer context.AfterFunc(ctx, interrupt)()
	defer context.AfterFunc(p.disposing, interrupt)()
	defer func() { _ = w.stdout.SetReadDeadline(time.Time{}) }()
	for {
		v, call := l.serve()
		if call == nil {
			return v.res, v.healthy, v.started
		}
		// A call with an inline form and nothing else to read: the pump goroutine makes it
		// inline and goes on reading, so a sequential call crosses no goroutine in this
		// process. This goroutine waits for the pump's verdict, or takes the reading back
		// from a pump held up in a call (calls are then made through Call until that call
		// returns).
		verdicts := make(chan runVerdict, 1)
		l.pumping = true
		go l.pump(call, verdicts)
		if v, ok := l.await(verdicts); ok {
			return v.res, v.healthy, v.started
		}
		l.pumping = false
	}
}

// pumpReliefTick is how often the goroutine of a run whose frames a pump reads checks on the
// pump: a pump that has been in the same inline call for a whole tick (so 1–2 ticks) is
// relieved of the reading, so that the frames the worker sends meanwhile (other calls, its
// result) wait at most that long.
const pumpReliefTick = 2 * time.Millisecond

// runVerdict is how a run ended, as runOn returns it.
type runVerdict struct {
	res              Result
	healthy, started bool
}

// runLoop is the parent's side of one run: the reading of its frames and the state that
// reading keeps. One goroutine at a time holds the reading (the run's goroutine, or a pump it
// handed it to; see runOn), and only that one touches the reader and the fields marked
// reader-owned.
type runLoop struct {
	p      *ProcessPool
	w      *worker
	ctx    context.Context // the caller's
	host   context.Context // passed to host functions; cancelled when the run ends
	bound  []boundNamespace
	led    *ledger
	flight *flightLedger

	over atomic.Bool // the run is over: settles are dropped
	// releaseAt (Unix nanoseconds, 0 for none) is when the reader returns the process's free
	// memory to the system, after a large reply (releaseReplyBytes).
	releaseAt atomic.Int64

	// Reader-owned.
	wallAt  time.Time
	killAt  time.Time // once an abort frame is sent: when the worker is given up on
	pending *Failure  // the parent's verdict, once the worker is given up on
	set     time.Time // the read deadline in force, unless an interrupt moved it
	started bool      // the worker acknowledged the run
	pumping bool      // serve runs on a pump: calls with an Inline form are returned
	// answered: the last frame handled was a call answered before its host function returned;
	// the next read spins (see pipe.Reader), since the worker's next frame is near.
	answered bool
	calls    int // calls read so far

	roleMu   sync.Mutex
	inCall   bool   // the pump is in an inline call (roleMu)
	callSeq  uint64 // inline calls the pump has begun (roleMu)
	released bool   // the pump in an inline call was relieved of the reading (roleMu)
}

// pump makes call inline, then reads on, making later inline calls itself, until the run
// ends (its verdict goes to verdicts) or the run's goroutine relieves it during a call (it then
// returns once the call does, touching nothing of the run).
func (l *runLoop) pump(call *frame, verdicts chan<- runVerdict) {
	for {
		if !l.callInline(call) {
			return
		}
		var v runVerdict
		v, call = l.serve()
		if call == nil {
			verdicts <- v
			return
		}
	}
}

// callInline makes call through its inline form and reports whether the pump still holds the
// reading afterwards.
func (l *runLoop) callInline(call *frame) bool {
	l.roleMu.Lock()
	l.inCall = true
	l.callSeq++
	l.roleMu.Unlock()
	answered := l.p.call(l, call, true)
	l.roleMu.Lock()
	defer l.roleMu.Unlock()
	l.inCall = false
	if l.released {
		l.released = false // the run's goroutine may start another pump
		return false
	}
	l.answered = answered
	return true
}

// await waits for the pump's verdict. It takes the reading back from a pump that is in an
// inline call when the run must end (the caller's cancellation, Close), or when the pump has
// been in the same call for a whole relief tick; it then reports false, and the run's
// goroutine reads on, making calls through Call until the pump's call has returned.
func (l *runLoop) await(verdicts <-chan runVerdict) (runVerdict, bool) {
	tick := time.NewTicker(pumpReliefTick)
	defer tick.Stop()
	cancelled, disposing := l.ctx.Done(), l.p.disposing.Done()
	var seen uint64 // the inline call the pump was in at the last tick
	for {
		select {
		case v := <-verdicts:
			return v, true
		case <-cancelled:
			// A pump that is reading has had its read cut short (runOn's interrupt): it
			// handles the cancellation itself.
			cancelled = nil
			if l.relieve(0) {
				return runVerdict{}, false
			}
		case <-disposing:
			disposing = nil
			if l.relieve(0) {
				return runVerdict{}, false
			}
		case <-tick.C:
			if seen != 0 && l.relieve(seen) {
				return runVerdict{}, false
			}
			seen = l.currentCall()
		}
	}
}

// relieve takes the reading from the pump if it is in an inline call (the call numbered seq,
// unless seq is 0).
func (l *runLoop) relieve(seq uint64) bool {
	l.roleMu.Lock()
	defer l.roleMu.Unlock()
	if !l.inCall || (seq != 0 && l.callSeq != seq) {
		return false
	}
	l.released = true
	return true
}

// mayInline reports whether serve may return a call to be made inline: on a pump; on the run's
// goroutine (to start a pump) from the run's second call, unless a pump it relieved is still in
// its call. A run's first call does not start one: most runs make one or two calls, and for one
// call the pump's start and its hand-back of the run's end cost more than the hand-off it saves
// (measured: a one-call run +9 %).
func (l *runLoop) mayInline() bool {
	if l.pumping {
		return true
	}
	if l.calls < 2 {
		return false
	}
	l.roleMu.Lock()
	defer l.roleMu.Unlock()
	return !l.released
}

// currentCall returns the number of the inline call the pump is in, or 0.
func (l *runLoop) currentCall() uint64 {
	l.roleMu.Lock()
	defer l.roleMu.Unlock()
	if !l.inCall {
		return 0
	}
	return l.callSeq
}

// giveUp ends the run with f, killing the worker (after admitting the logs it had written,
// when drain).
func (l *runLoop) giveUp(f *Failure, drain bool) runVerdict {
	l.w.kill()
	if drain {
		drainLogs(l.w, l.led, l.p.maxOtherFrame)
	}
	return runVerdict{res: l.led.fail(f), healthy: false, started: true}
}

// serve reads and handles frames until the run ends, and returns its verdict; or, while
// inline calls are allowed (mayInline), until a call that can be made through an inline form
// (inlinable) arrives with no other frame read ahead of it, and returns that call instead of
// making it.
func (l *runLoop) serve() (runVerdict, *frame) {
	p, w, led, ctx := l.p, l.w, l.led, l.ctx
	for {
		deadline := l.wallAt
		if !l.killAt.IsZero() {
			deadline = l.killAt
		}
		wake := deadline
		if at := l.releaseAt.Load(); at != 0 {
			if release := time.Unix(0, at); !time.Now().Before(release) {
				l.releaseAt.CompareAndSwap(at, 0)
				debug.FreeOSMemory()
				continue
			} else if release.Before(wake) {
				wake = release
			}
		}
		if !wake.Equal(l.set) {
			_ = w.stdout.SetReadDeadline(wake)
			l.set = wake
		}
		// Checked once the deadline is set: an interrupt from now on cuts the read short.
		if p.isDisposing() {
			return l.giveUp(&Failure{Kind: KindAbort, Message: msgDisposed}, true), nil
		}
		if l.pending == nil && ctx.Err() != nil {
			reason := context.Cause(ctx).Error()
			_ = w.out.write(&frame{T: frameAbort, Reason: reason})
			l.pending = &Failure{Kind: KindAbort, Message: reason}
			l.killAt = time.Now().Add(abortGrace)
			continue
		}
		if now := time.Now(); !now.Before(deadline) {
			if l.pending != nil {
				return l.giveUp(l.pending, true), nil
			}
			return l.giveUp(&Failure{Kind: KindTimeout, Message: fmt.Sprintf("wall-clock ceiling reached (%dms)", p.cfg.WallCeiling.Milliseconds())}, true), nil
		}
		// Right after a call's reply the worker's next frame (most often the program's next
		// call) usually arrives before waiting for it would pay off.
		w.pipe.Spin, l.answered = l.answered && p.adm.running.Load() <= int64(p.spinRuns), false
		f, err := w.in.next(l.flight, p.maxOtherFrame)
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			l.set = time.Time{} // an interrupt, or the deadline itself: set it again
			continue
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			// The worker closed its output: it is dead or dying.
			w.kill()
			if l.pending != nil {
				return runVerdict{res: led.fail(l.pending), started: true}, nil
			}
			return runVerdict{res: led.fail(w.exitFailure()), started: l.started}, nil
		case err != nil:
			// What it wrote is not the protocol (or the pipe broke): it cannot be trusted with
			// another run, nor to end this one.
			if l.pending != nil {
				return l.giveUp(l.pending, false), nil
			}
			return l.giveUp(&Failure{Kind: KindWorkerExit, Message: "worker error: " + err.Error()}, false), nil
		}
		switch f.T {
		case frameStarted:
			l.started = true
		case frameLog:
			led.admit(f.Line)
		case frameDone:
			if e := f.Result.Error; e != nil && !validFailureKind(e.Kind) {
				return l.giveUp(&Failure{Kind: KindWorkerExit, Message: "worker error: malformed result"}, false), nil
			}
			// A caller that cancelled before the result arrived gets its abort, even when the
			// worker finished in the meantime (or threw the host call's cancellation error):
			// the cancellation is the first terminal event the caller saw. A worker that was
			// sent an abort frame is retired so that the frame cannot reach its next run.
			if l.pending != nil || ctx.Err() != nil {
				if l.pending == nil {
					l.pending = &Failure{Kind: KindAbort, Message: context.Cause(ctx).Error()}
				}
				return runVerdict{res: led.fail(l.pending), healthy: l.killAt.IsZero(), started: true}, nil
			}
			// A worker whose run hit the heap watchdog may be close to its hard limit
			// still: retire it rather than let the next run die of it.
			done := *f.Result
			return runVerdict{res: done, healthy: done.Error == nil || done.Error.Kind != KindWorkerExit, started: true}, nil
		case frameFail:
			if !validFailureKind(f.Failure.Kind) {
				return l.giveUp(&Failure{Kind: KindWorkerExit, Message: "worker error: malformed failure"}, false), nil
			}
			return l.giveUp(f.Failure, true), nil
		case frameCall:
			l.calls++
			if l.inlinable(f) && w.in.r.Buffered() == 0 && l.mayInline() {
				return runVerdict{}, f
			}
			l.answered = p.call(l, f, false)
		default:
			return l.giveUp(&Failure{Kind: KindWorkerExit, Message: "worker error: unexpected " + f.T.String() + " frame"}, false), nil
		}
	}
}

// drainLogs admits the log lines a worker being given up on had written before it was killed.
func drainLogs(w *worker, led *ledger, maxFrame int64) {
	_ = w.stdout.SetReadDeadline(time.Now().Add(drainWait))
	for {
		f, err := w.in.next(nil, maxFrame)
		if err != nil {
			return
		}
		if f.T == frameLog {
			led.admit(f.Line)
		}
	}
}

// inlinable reports whether the call frame f can be made through an inline form: it names a
// function of a namespace that has one, and its argument was read.
func (l *runLoop) inlinable(f *frame) bool {
	if f.refused {
		return false
	}
	ns := l.target(f)
	return ns != nil && ns.inline != nil
}

// target returns the namespace of the function the call frame f names, or nil when f names no
// function of the run's bindings or carries no argument.
func (l *runLoop) target(f *frame) *boundNamespace {
	if f.NS < 0 || f.NS >= len(l.bound) || !f.Value.IsDefined() {
		return nil
	}
	ns := &l.bound[f.NS]
	if f.Fn < 0 || f.Fn >= ns.members.Len() {
		return nil
	}
	return ns
}

// call makes one host call the worker forwarded, in order, through its namespace's inline form
// when inline (and there is one), and reports whether the call was answered before the host
// function returned. The call's argument is in flight until it settles, and its result until the
// reply is written.
func (p *ProcessPool) call(l *runLoop, f *frame, inline bool) bool {
	c := &hostCall{l: l, id: f.ID, argBytes: f.size, refused: f.refused}
	if f.refused {
		c.settle(jsonv.Value{}, l.flight.refusal("an argument", c.argBytes))
		return true
	}
	ns := l.target(f)
	if ns == nil {
		c.settle(jsonv.Value{}, fmt.Errorf("unknown binding: function %d of namespace %d", f.Fn, f.NS))
		return true
	}
	c.undefinedOK = ns.undefinedOK
	dispatch := ns.call
	if inline && ns.inline != nil {
		dispatch = ns.inline
	}
	ns.dispatch(l.host, dispatch, f.Fn, f.Value, c.settle)
	return c.settled.Load()
}

// hostCall is one host call the worker forwarded, until it is answered.
type hostCall struct {
	l        *runLoop
	id       uint64
	argBytes int64 // of the call frame, held in flight until the call settles
	refused  bool  // the call frame was skipped unread: nothing of it is in flight
	// undefinedOK: the namespace resolves an Undefined settle to undefined
	// (Namespace.ResolveUndefined).
	undefinedOK bool
	settled     atomic.Bool
}

// settle answers the call once; later settles are ignored. The reply is dropped once the run
// is over.
func (c *hostCall) settle(v jsonv.Value, err error) {
	if c.settled.Swap(true) {
		return
	}
	l, flight := c.l, c.l.flight
	if !c.refused {
		flight.release(c.argBytes)
	}
	if l.over.Load() {
		return
	}
	out := &frame{T: frameReply, ID: c.id}
	if err == nil && (v.IsDefined() || !c.undefinedOK) {
		err = incomingError(v) // in the parent, so both isolations refuse the same text
	}
	if err != nil {
		msg := err.Error()
		out.Error = &msg
		out.ErrorCode = errorCode(err)
	} else if v.IsDefined() {
		n := valueSize(v, flight.limit)
		// A result the length prefix cannot describe is refused whatever the limit.
		if n > maxFrameBody-replyOverhead || !flight.admit(n) {
			msg := flight.refusal("a result", n).Error()
			out.Error = &msg
		} else {
			defer flight.release(n)
			_ = l.w.out.writeReply(c.id, v, n)
			if n >= releaseReplyBytes {
				// The reader wakes now, and again at releaseAt.
				l.releaseAt.Store(time.Now().Add(releaseDelay).UnixNano())
				_ = l.w.stdout.SetReadDeadline(time.Unix(1, 0))
			}
			return
		}
	}
	_ = l.w.out.write(out)
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
	p.dispose()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, w := range idle {
		w.discard()
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

// frameReader reads the frames a worker sends. A read cut short by the deadline keeps what it
// has read of the frame, and the next read goes on from there.
type frameReader struct {
	r *bufio.Reader

	// The frame being read.
	inFrame  bool
	t        frameType
	n        uint32
	refused  bool   // a call whose body is skipped
	idRead   bool   // of a refused call
	id       uint64 // of a refused call
	skip     int64  // bytes of a refused call still to skip
	admitted int64  // bytes charged to the flight ledger for this frame
	body     []byte // a body larger than r's buffer, being read
	got      int    // of body
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next frame. A call frame's body is charged to flight (the run's ledger)
// before it is read; a call that flight does not admit, or any call when flight is nil, is
// skipped unread and returned refused. Any other frame longer than maxOther is an error.
func (fr *frameReader) next(flight *flightLedger, maxOther int64) (*frame, error) {
	if !fr.inFrame {
		t, n, err := readHeader(fr.r)
		if err != nil {
			return nil, err
		}
		*fr = frameReader{r: fr.r, inFrame: true, t: t, n: n}
		switch {
		case t == frameCall && n < callIDBytes:
			fr.inFrame = false
			return nil, fmt.Errorf("%w: call of %d bytes", errMalformed, n)
		case t == frameCall && flight != nil && flight.admit(int64(n)):
			fr.admitted = int64(n)
		case t == frameCall:
			fr.refused, fr.skip = true, int64(n)-callIDBytes
		case int64(n) > maxOther:
			fr.inFrame = false
			return nil, &frameTooLargeError{t: t, n: n, limit: maxOther}
		}
	}
	if fr.refused {
		if !fr.idRead {
			b, err := fr.r.Peek(callIDBytes)
			if err != nil {
				return nil, unexpectedEOF(err)
			}
			fr.id = binary.BigEndian.Uint64(b)
			_, _ = fr.r.Discard(callIDBytes)
			fr.idRead = true
		}
		for fr.skip > 0 {
			d, err := fr.r.Discard(int(min(fr.skip, 1<<30)))
			fr.skip -= int64(d)
			if err != nil {
				return nil, unexpectedEOF(err)
			}
		}
		fr.inFrame = false
		return &frame{T: frameCall, ID: fr.id, size: int64(fr.n), refused: true}, nil
	}
	var f *frame
	var err error
	if int(fr.n) <= fr.r.Size() {
		body, perr := fr.r.Peek(int(fr.n))
		if perr != nil {
			return nil, unexpectedEOF(perr)
		}
		f, err = decodeFrame(fr.t, body)
		_, _ = fr.r.Discard(int(fr.n))
	} else {
		if fr.body == nil {
			fr.body = make([]byte, fr.n)
		}
		for fr.got < len(fr.body) {
			m, rerr := fr.r.Read(fr.body[fr.got:])
			fr.got += m
			if rerr != nil {
				return nil, unexpectedEOF(rerr)
			}
		}
		f, err = decodeFrame(fr.t, fr.body)
		fr.body = nil
	}
	fr.inFrame = false
	if err != nil {
		if fr.admitted > 0 {
			flight.release(fr.admitted)
		}
		return nil, err
	}
	f.size = fr.admitted
	return f, nil
}
