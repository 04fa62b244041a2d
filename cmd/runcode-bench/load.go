package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/internal/procstatus"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// toolLatency is how long the load test's sleep tool takes.
const toolLatency = 100 * time.Millisecond

// hostileBudgets are the small budgets of the hostile runs.
var hostileBudgets = jsruntime.Config{
	ComputeBudget:  250 * time.Millisecond,
	WallCeiling:    time.Second,
	MaxOutputBytes: 64 << 10,
}

// hostileHeap is the in-process MaxHeapBytes of the memory program's runtime, and
// hostileWorkerMemory the MemoryLimit of every hostile worker process.
const (
	hostileHeap         = 64 << 20
	hostileWorkerMemory = 128 << 20
)

// hostilePrograms are the hostile programs, run round-robin. Want lists the outcomes each may
// end with, separated by "|"; -v prints the message of every other outcome.
var hostilePrograms = [...]program{
	{Name: "infinite loop", Code: `for (;;) {}`, Want: "timeout"},
	{Name: "deep recursion", Code: `function f(n) { return f(n + 1) + 1 } return f(0)`, Want: "exception"},
	{Name: "repeat 2**40", Code: `return 'x'.repeat(2 ** 40)`, Want: "exception"},
	{Name: "console flood", Code: `for (let i = 0; ; i++) console.log('flood line ' + i)`, Want: "output-limit"},
	{Name: "never settles", Code: `await new Promise(() => {}); return 1`, Want: "exception"},
	{Name: "memory push loop", Code: `const a = []; for (let i = 0; ; i++) a.push({i, s: 'item ' + i, xs: [i, i + 1, i + 2]})`, Want: "worker-exit"},
}

// phase is one batch of concurrent runs of the load test.
type phase struct {
	Name     string         `json:"name"`
	Runs     int            `json:"runs"`
	Wall     time.Duration  `json:"wall_ns"`
	Outcomes map[string]int `json:"outcomes"` // "<program>: ok" or "<program>: <failure kind>"
	// PeakRSS is the peak, during the phase, of this process's VmRSS plus its worker
	// processes' (sampled every 50 ms).
	PeakRSS int64 `json:"peak_rss_bytes"`
}

// loadReport is the machine-readable output of the load test.
type loadReport struct {
	GoVersion       string  `json:"go_version"`
	CPUs            int     `json:"cpus"`
	Isolation       string  `json:"isolation"`
	Pool            int     `json:"pool,omitempty"`
	Phases          []phase `json:"phases"`
	PeakRSS         int64   `json:"peak_rss_bytes"` // this process's VmHWM
	GoroutinesStart int     `json:"goroutines_before"`
	GoroutinesEnd   int     `json:"goroutines_after"`
}

// loadTest runs the concurrent-runs phase and the hostile phase, then checks that every
// goroutine it started has ended.
func loadTest(ctx context.Context, o options, stdout, stderr io.Writer) error {
	rep := loadReport{GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Isolation: o.isolation, GoroutinesStart: runtime.NumGoroutine()}
	if o.isolation == jsruntime.IsolationProcess {
		rep.Pool = o.pool
	}
	// unexpected prints a run that ended otherwise than its program wants, with -v.
	unexpected := func(string, program, registry.Result) {}
	if o.verbose {
		var mu sync.Mutex
		unexpected = func(id string, p program, res registry.Result) {
			msg := "(no failure)"
			if f, ok := errors.AsType[*codemode.RunFailure](res.Err); ok {
				msg = fmt.Sprintf("%q (%d log lines)", f.Message, len(f.Logs))
			} else if res.IsError {
				msg = res.Err.Error()
			}
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(stderr, "%s %s: %s, want %s: %s\n", id, p.Name, outcome(res), p.Want, msg)
		}
	}

	err := func() error {
		sleepy, err := newRuntime(o, jsruntime.Config{}, 0)
		if err != nil {
			return err
		}
		defer sleepy.Close()
		reg, err := codeModeRegistry(sleepy, []registry.Tool{sleepTool()})
		if err != nil {
			return err
		}
		sleepProg := program{Name: "await 100 ms tool", Code: `const r = await tools.sleep({x: 1}); return r`, Want: "ok"}
		ph, err := concurrently(ctx, o.runs, unexpected, func(int) (program, *registry.Registry) { return sleepProg, reg })
		if err != nil {
			return err
		}
		rep.Phases = append(rep.Phases, ph)
		return nil
	}()
	if err != nil {
		return err
	}

	err = func() error {
		hostile, err := newRuntime(o, hostileBudgets, hostileWorkerMemory)
		if err != nil {
			return err
		}
		defer hostile.Close()
		// The memory bomb gets time to reach its limit: under the other hostile runs' 250 ms it
		// is mostly stopped by the compute budget first, which shows nothing about memory.
		memCfg := hostileBudgets
		memCfg.MaxHeapBytes = hostileHeap
		memCfg.ComputeBudget, memCfg.WallCeiling = 5*time.Second, 10*time.Second
		memory, err := newRuntime(o, memCfg, hostileWorkerMemory)
		if err != nil {
			return err
		}
		defer memory.Close()
		regHostile, err := codeModeRegistry(hostile, echoTools(1))
		if err != nil {
			return err
		}
		regMemory, err := codeModeRegistry(memory, echoTools(1))
		if err != nil {
			return err
		}
		ph, err := concurrently(ctx, o.hostile, unexpected, func(i int) (program, *registry.Registry) {
			p := hostilePrograms[i%len(hostilePrograms)]
			if p.Name == "memory push loop" {
				return p, regMemory
			}
			return p, regHostile
		})
		if err != nil {
			return err
		}
		ph.Name = "hostile mix"
		rep.Phases = append(rep.Phases, ph)
		return nil
	}()
	if err != nil {
		return err
	}

	rep.PeakRSS = procstatus.Bytes("/proc/self/status", "VmHWM:")
	rep.GoroutinesEnd = settleGoroutines(rep.GoroutinesStart, 5*time.Second)
	if o.jsonOut {
		return writeJSON(stdout, rep)
	}
	printLoad(stdout, rep)
	if rep.GoroutinesEnd > rep.GoroutinesStart {
		fmt.Fprintf(stderr, "runcode-bench: %d goroutines leaked\n", rep.GoroutinesEnd-rep.GoroutinesStart)
	}
	return nil
}

// closableRuntime is a runtime that can be disposed of.
type closableRuntime interface {
	jsruntime.Runtime
	Close() error
}

// newRuntime opens the runtime of o's isolation: a pool of o.pool workers of memoryLimit bytes
// each (0: the default) for process isolation.
func newRuntime(o options, cfg jsruntime.Config, memoryLimit int64) (closableRuntime, error) {
	if o.isolation == jsruntime.IsolationProcess {
		return jsruntime.NewProcessPool(jsruntime.ProcessConfig{Config: cfg, Size: o.pool, MemoryLimit: memoryLimit, MaxQueued: max(o.runs, o.hostile)}) // every run waits its turn
	}
	return jsruntime.New(cfg)
}

// sleepTool answers after toolLatency, or fails when its call is cancelled first.
func sleepTool() registry.Tool {
	return registry.Tool{
		Name:            "sleep",
		Description:     "Return the arguments after 100 ms.",
		Output:          registry.AnyOutput(),
		ConcurrencySafe: func(jsonv.Value) bool { return true },
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			t := time.NewTimer(toolLatency)
			defer t.Stop()
			select {
			case <-t.C:
				return inv.Arguments, nil
			case <-ctx.Done():
				return jsonv.Value{}, context.Cause(ctx)
			}
		},
	}
}

// concurrently starts n runs at once (run i executes the program and registry pick returns)
// and waits for all of them, counting the outcomes. It calls unexpected for every run whose
// outcome is none of its program's Want.
func concurrently(ctx context.Context, n int, unexpected func(id string, p program, res registry.Result), pick func(i int) (program, *registry.Registry)) (phase, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	ph := phase{Runs: n, Outcomes: map[string]int{}}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	sampler := startRSSSampler()
	start := time.Now()
	for i := range n {
		p, reg := pick(i)
		ph.Name = p.Name
		wg.Go(func() {
			id := "load-" + strconv.Itoa(i)
			res := runCode(ctx, reg, id, p.Code)
			got := outcome(res)
			if !slices.Contains(strings.Split(p.Want, "|"), got) {
				unexpected(id, p, res)
			}
			key := p.Name + ": " + got
			mu.Lock()
			ph.Outcomes[key]++
			mu.Unlock()
		})
	}
	wg.Wait()
	ph.Wall = time.Since(start)
	ph.PeakRSS = sampler.stop()
	return ph, ctx.Err()
}

// outcome names a run_code result: "ok", the run's failure kind, or the registry error code.
func outcome(res registry.Result) string {
	if !res.IsError {
		return "ok"
	}
	if f, ok := errors.AsType[*codemode.RunFailure](res.Err); ok {
		return string(f.Kind)
	}
	return "error " + string(res.Err.Code)
}

// settleGoroutines waits up to d for the goroutine count to fall to want, and returns it.
func settleGoroutines(want int, d time.Duration) int {
	deadline := time.Now().Add(d)
	for {
		n := runtime.NumGoroutine()
		if n <= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// rssSampler records the peak of the summed VmRSS of this process and its children (the worker
// processes), sampled every 50 ms on Linux.
type rssSampler struct {
	done chan struct{}
	peak chan int64
}

func startRSSSampler() *rssSampler {
	s := &rssSampler{done: make(chan struct{}), peak: make(chan int64, 1)}
	go func() {
		var peak int64
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, procstatus.Bytes("/proc/self/status", "VmRSS:")+childrenRSS())
			select {
			case <-s.done:
				s.peak <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

// stop ends the sampling and returns the peak.
func (s *rssSampler) stop() int64 {
	close(s.done)
	return <-s.peak
}

// childrenRSS sums the VmRSS of this process's children, found by scanning /proc.
func childrenRSS() int64 {
	self := strconv.Itoa(os.Getpid())
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var sum int64
	for _, stat := range stats {
		data, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		// The fields after the parenthesised command: state, ppid, …
		i := strings.LastIndexByte(string(data), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(data[i+1:]))
		if len(fields) < 2 || fields[1] != self {
			continue
		}
		sum += procstatus.Bytes(filepath.Join(filepath.Dir(stat), "status"), "VmRSS:")
	}
	return sum
}

func printLoad(w io.Writer, rep loadReport) {
	iso := rep.Isolation
	if rep.Pool > 0 {
		iso += fmt.Sprintf(", pool of %d workers", rep.Pool)
	}
	fmt.Fprintf(w, "%s, %d CPUs, isolation %s\n\n", rep.GoVersion, rep.CPUs, iso)
	for _, ph := range rep.Phases {
		fmt.Fprintf(w, "%s: %d concurrent runs, wall %s, peak RSS %.0f MiB (this process plus workers, sampled)\n",
			ph.Name, ph.Runs, round(ph.Wall), float64(ph.PeakRSS)/(1<<20))
		keys := make([]string, 0, len(ph.Outcomes))
		for k := range ph.Outcomes {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "  %-40s %d\n", k, ph.Outcomes[k])
		}
	}
	fmt.Fprintf(w, "\npeak RSS (VmHWM, this process): %.0f MiB\n", float64(rep.PeakRSS)/(1<<20))
	fmt.Fprintf(w, "goroutines: %d before, %d after (settle up to 5 s)\n", rep.GoroutinesStart, rep.GoroutinesEnd)
}
