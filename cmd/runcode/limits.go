package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/internal/suggest"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/toolsets/workspace"
	"github.com/runcode-dev/runcode/typecheck"
)

// limits are the run limits.
type limits struct {
	timeout, cpu      time.Duration
	maxOutput, memory byteSize
	maxWrite          byteSize
	// outputBudget is how much of a run's output the model reads (--output-budget; 0: all).
	outputBudget byteSize
	maxParallel  int
	isolation    string
	// workers and maxQueued (serve) size the process pool: the most runs at once (0: derived
	// from the CPUs and --memory) and the most waiting for a worker (0: 4 × workers).
	workers, maxQueued int
	// warm is the process pool's warm workers (0: jsruntime.DefaultPoolSize). run sets 1: it
	// makes one run, and a second warm worker only cost its start and memory (31 MB resident,
	// counted in the run's peak); a nested run starts another on demand.
	warm int
	// typecheck: typecheck each program against the SDK before it runs (--typecheck);
	// warmTypecheck (serve) keeps one compiler process for all the runs.
	typecheck, warmTypecheck bool
}

// defaultMemory is --memory's default.
const defaultMemory = 512 << 20

// defaultLimits are the limits of run and serve before their flags are read.
func defaultLimits() limits {
	return limits{timeout: 10 * time.Minute, cpu: 60 * time.Second, maxOutput: 64 << 20, outputBudget: codemode.DefaultOutputBudget, maxParallel: 10, isolation: "process", memory: defaultMemory}
}

func (l *limits) register(fs *flag.FlagSet) {
	fs.DurationVar(&l.timeout, "timeout", l.timeout, "wall-clock ceiling of the run")
	fs.DurationVar(&l.cpu, "cpu", l.cpu, "busy-time compute budget of the run")
	fs.Var(&l.maxOutput, "max-output", "cap on the combined output (logs plus result), in bytes or KiB/MiB/GiB")
	fs.Var(&l.outputBudget, "output-budget", "how much of a run's output the model reads, in bytes or KiB/MiB/GiB: a run over it succeeds, and its logs and result are shrunk to fit, keeping their shape, with markers where they were cut and a note on how to get the rest; 0 turns it off (--max-output still fails a run over it)")
	fs.IntVar(&l.maxParallel, "max-parallel", l.maxParallel, "concurrent concurrency-safe sub-calls")
	fs.StringVar(&l.isolation, "isolation", l.isolation, "process (a worker process with a hard memory limit; contains crashes) or inprocess (for trusted programs: faster, soft memory limit, a Go fatal error ends the host)")
	fs.Var(&l.memory, "memory", "per-run memory limit, in bytes or KiB/MiB/GiB: the worker's OS limit with process isolation, the heap watchdog's limit in-process; a quarter of it is the run's budget for the data its tool calls hold in this process (reads wait their turn beyond it)")
	if l.maxWrite == 0 {
		l.maxWrite = workspace.DefaultMaxWriteBytes
	}
	fs.Var(&l.maxWrite, "max-write", "bytes the workspace tools may write in one run (each file or directory created counts 4 KiB), in bytes or KiB/MiB/GiB")
	fs.BoolVar(&l.typecheck, "typecheck", false, "typecheck each program against the SDK with tsc before it runs; type errors fail the run (kind typecheck) before any tool is called")
}

// registerPool adds serve's process-pool flags.
func (l *limits) registerPool(fs *flag.FlagSet) {
	fs.IntVar(&l.workers, "workers", 0, "process isolation: the most worker processes, so the most runs at once, waiting on tools or not; started on demand and ended when idle (0: 8 per CPU, at most the machine's memory / --memory, at least 2)")
	fs.IntVar(&l.maxQueued, "max-queued", 0, "process isolation: the most runs waiting for a worker; one more fails at once with a retry hint (0: 4 × --workers)")
}

func (l *limits) validate() error {
	switch {
	case l.workers < 0:
		return &flagUsageError{"--workers must not be negative"}
	case l.maxQueued < 0:
		return &flagUsageError{"--max-queued must not be negative"}
	case l.timeout <= 0:
		return &flagUsageError{"--timeout must be positive"}
	case l.cpu <= 0:
		return &flagUsageError{"--cpu must be positive"}
	case l.maxOutput < 4:
		return &flagUsageError{"--max-output must be at least 4 bytes"}
	case l.outputBudget != 0 && l.outputBudget < codemode.MinOutputBudget:
		return &flagUsageError{fmt.Sprintf("--output-budget must be 0 (off) or at least %d bytes", codemode.MinOutputBudget)}
	case l.maxParallel < 1:
		return &flagUsageError{"--max-parallel must be a positive integer"}
	case l.memory <= 0:
		return &flagUsageError{"--memory must be positive"}
	case l.maxWrite <= 0:
		return &flagUsageError{"--max-write must be positive"}
	case l.isolation == "process":
		// valid: NewProcessPool takes --memory as each worker's memory limit
	case l.isolation != "inprocess":
		return &flagUsageError{fmt.Sprintf("--isolation must be inprocess or process, got %q", l.isolation) + suggest.Phrase(suggest.Closest(l.isolation, []string{"process", "inprocess"}), func(s string) string { return s })}
	}
	return nil
}

// subCallMemory is each run's budget for the data its tool bodies hold in this process: a
// quarter of --memory. A run holds at most twice that (see package membudget), and under
// process isolation its data in flight to the worker is bounded by half of --memory (the
// pool's MaxInFlightBytes), so this process holds at most --memory of one run's sub-call data.
func (l *limits) subCallMemory() int64 { return int64(l.memory) / 4 }

// modelBudget is codemode.Options.OutputBudget for --output-budget, where 0 turns it off.
func (l *limits) modelBudget() int {
	if l.outputBudget == 0 {
		return -1
	}
	return int(l.outputBudget)
}

// runtime opens the runtime the limits describe.
func (l *limits) runtime() (jsruntime.ClosableRuntime, error) {
	cfg := jsruntime.Config{ComputeBudget: l.cpu, WallCeiling: l.timeout, MaxOutputBytes: int(l.maxOutput)}
	var rt jsruntime.ClosableRuntime
	var err error
	if l.isolation == jsruntime.IsolationProcess {
		workers := l.workers
		if workers == 0 {
			workers = jsruntime.DefaultMaxWorkers(int64(l.memory)) // not Size, as the pool would take it
		}
		rt, err = jsruntime.NewProcessPool(jsruntime.ProcessConfig{Config: cfg, MemoryLimit: int64(l.memory), Size: l.warm, MaxWorkers: workers, MaxQueued: l.maxQueued})
	} else {
		rt, err = jsruntime.Open(l.isolation, int64(l.memory), cfg)
	}
	if err != nil {
		return nil, &usageError{err.Error()}
	}
	return rt, nil
}

// openRegistry is a Code Mode registry with the runtime and the tool sources it uses, which the
// command closes when it ends.
type openRegistry struct {
	reg          *registry.Registry
	rt           jsruntime.ClosableRuntime
	closeSources func()
	checker      *typecheck.Checker // --typecheck; nil without
	state        bool               // programs have a state store (--state, or serve's memory)
	cm           *codemode.CodeMode
	compiler     *lazyCompiler // programs.save's; nil without a program library
}

// close stops the runtime (the worker processes of process isolation), waiting for the runs in
// flight, and then the sources.
func (o *openRegistry) close() {
	o.rt.Close()
	o.closeChecker()
	o.closeSources()
}

// closeChecker ends the --typecheck compiler, if any.
func (o *openRegistry) closeChecker() {
	if o.checker != nil {
		o.checker.Close()
	}
	if o.compiler != nil {
		o.compiler.close()
	}
}

// abandon closes the runtime and the sources while a run that did not stop is still in flight:
// both at once, since closing the runtime waits for that run, and for at most limit. The
// caller exits next; what is not closed by then ends with the process.
func (o *openRegistry) abandon(limit time.Duration) {
	done := make(chan struct{}, 2) // the closers never block on it, however late they end
	go func() { o.rt.Close(); done <- struct{}{} }()
	go func() { o.closeChecker(); o.closeSources(); done <- struct{}{} }()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for range 2 {
		select {
		case <-done:
		case <-timer.C:
			return
		}
	}
}

// codeModeRegistry loads the sources, opens the runtime the limits describe, installs run_code
// with the limits' parallelism and presents code, so that run_code is the tool a model (or the
// CLI) calls.
func (c *cli) codeModeRegistry(src *sources, lim limits, events func(bridge.Event)) (*openRegistry, error) {
	src.maxWrite = int64(lim.maxWrite)
	var checker *typecheck.Checker
	if lim.typecheck {
		// Before the sources: without a compiler the command stops (exit 2) with nothing started.
		chk, err := openTypeChecker(lim.warmTypecheck, lim.timeout)
		if err != nil {
			return nil, err
		}
		checker = chk
	}
	load := src.load
	if c.replay != nil && !src.given() {
		load = func(io.Writer) (*registry.Registry, func(), error) {
			return replayTools(c.replay, c.library(false) != nil)
		}
	}
	reg, closeSources, err := load(c.stderr)
	if err != nil {
		if checker != nil {
			checker.Close()
		}
		return nil, err
	}
	if c.followMemory != nil {
		c.followMemory(int64(lim.memory))
	}
	rt, err := lim.runtime()
	if err != nil {
		if checker != nil {
			checker.Close()
		}
		closeSources()
		return nil, err
	}
	if c.wrapRuntime != nil {
		rt = c.wrapRuntime(rt)
	}
	o := &openRegistry{reg: reg, rt: rt, closeSources: closeSources, checker: checker}
	opts := codemode.Options{Runtime: rt, Events: events, MaxParallelSubCalls: lim.maxParallel, SubCallMemory: lim.subCallMemory(), CompactAbove: c.compactAbove(), OutputBudget: lim.modelBudget()}
	if c.tracing != nil {
		opts.TracerProvider = c.tracing
	}
	if checker != nil {
		opts.TypeChecker = checker
	}
	if c.replay != nil {
		opts.Executor = c.replay
	}
	if c.sessionState, err = c.state.stateOptions(&opts, c.stateMode); err != nil {
		o.close()
		return nil, err
	}
	o.state = opts.State != nil
	if lib := c.library(false); lib != nil {
		o.compiler = &lazyCompiler{}
		opts.Programs, opts.ProgramCompiler = lib, o.compiler
	}
	cm, err := codemode.New(reg, opts)
	if err != nil {
		o.close()
		return nil, err
	}
	o.cm = cm
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		o.close()
		return nil, err
	}
	return o, nil
}

// byteSize is a size flag: plain bytes or a KiB/MiB/GiB suffix.
type byteSize int64

// String formats the size as a user writes it: 64MiB, or plain bytes.
func (b *byteSize) String() string { return formatSize(int64(*b)) }

// Set parses bytes or a KiB/MiB/GiB size.
func (b *byteSize) Set(s string) error {
	mult := int64(1)
	num := strings.TrimSpace(s)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return fmt.Errorf("invalid size %q (use plain bytes or KiB, MiB or GiB, e.g. 64MiB)", s)
	}
	*b = byteSize(n * mult)
	return nil
}
