package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// program is one timed program and the JSON its echo tools make it return.
type program struct {
	Name string `json:"name"`
	Code string `json:"code"`
	Want string `json:"want"`
}

// programs are the three programs of the side-by-side comparison.
var programs = [...]program{
	{"one call", `const r = await tools.echo({x: 1}); return r`, `{"x":1}`},
	{"100 sequential", `let r; for (let i = 0; i < 100; i++) r = await tools.echo({x: i}); return r`, `{"x":99}`},
	{"100 Promise.all", `const rs = await Promise.all(Array.from({length: 100}, (_, i) => tools.echo({x: i}))); return rs.length`, `100`},
}

// warmup is how many untimed runs precede the timed ones of each program and substrate.
const warmup = 5

// timing is the result of one program on one substrate.
type timing struct {
	Program   string        `json:"program"`
	Substrate string        `json:"substrate"`
	Runs      int           `json:"runs"`
	Median    time.Duration `json:"median_ns"`
	P90       time.Duration `json:"p90_ns"`
	// VsNode is this median divided by the Node median of the same program (0 without Node).
	VsNode float64 `json:"runcode_over_node,omitempty"`
}

// report is the machine-readable output of the default mode.
type report struct {
	GoVersion string   `json:"go_version"`
	CPUs      int      `json:"cpus"`
	Tools     int      `json:"tools"`
	Node      string   `json:"node,omitempty"` // the node version, or why it was skipped
	Timings   []timing `json:"timings"`
}

// echoTools registers n concurrency-safe echo tools (echo, echo1, …) that return their
// arguments.
func echoTools(n int) []registry.Tool {
	tools := make([]registry.Tool, n)
	for i := range tools {
		name := "echo"
		if i > 0 {
			name = fmt.Sprintf("echo%d", i)
		}
		tools[i] = registry.Tool{
			Name:            name,
			Description:     "Return the arguments.",
			Parameters:      jsonv.MustParse(`{"type":"object","properties":{"x":{"type":"number"}}}`),
			Output:          registry.OutputOf(jsonv.MustParse(`{"type":"object"}`)),
			Execute:         func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return inv.Arguments, nil },
			ConcurrencySafe: func(jsonv.Value) bool { return true },
		}
	}
	return tools
}

// codeModeRegistry is a registry with tools and run_code on rt, presenting results as code.
func codeModeRegistry(rt jsruntime.Runtime, tools []registry.Tool) (*registry.Registry, error) {
	reg := registry.New()
	if _, err := reg.Register(tools...); err != nil {
		return nil, err
	}
	if err := codemode.Install(reg, codemode.Options{Runtime: rt}); err != nil {
		return nil, err
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		return nil, err
	}
	return reg, nil
}

// runCode executes one run_code call.
func runCode(ctx context.Context, reg *registry.Registry, id, code string) registry.Result {
	return reg.Execute(ctx, codemode.Call(id, code, "Benchmark"))
}

// speed is the default mode: the three programs on every substrate, one table.
func speed(ctx context.Context, o options, stdout, stderr io.Writer) error {
	rep := report{GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Tools: o.tools}

	inproc, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		return err
	}
	defer inproc.Close()
	pool, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1})
	if err != nil {
		return err
	}
	defer pool.Close()
	substrates := []struct {
		name string
		rt   jsruntime.Runtime
		n    int
	}{
		{"runcode inprocess", inproc, o.n},
		{"runcode process (warm pool)", pool, o.processN},
	}
	for _, s := range substrates {
		reg, err := codeModeRegistry(s.rt, echoTools(o.tools))
		if err != nil {
			return err
		}
		for _, p := range programs {
			samples, err := timeRuncode(ctx, reg, p, s.n)
			if err != nil {
				return fmt.Errorf("%s, %s: %w", s.name, p.Name, err)
			}
			rep.Timings = append(rep.Timings, summarize(p.Name, s.name, samples))
		}
	}

	if o.nodeN > 0 {
		node, err := timeNode(ctx, o.nodeN)
		switch {
		case errors.Is(err, errNoNode):
			rep.Node = "skipped: node is not on PATH"
		case err != nil:
			return fmt.Errorf("node: %w", err)
		default:
			rep.Node = node.Version
			nodeMedian := map[string]time.Duration{}
			for _, p := range programs {
				t := summarize(p.Name, "node worker per run", node.Samples[p.Name])
				nodeMedian[p.Name] = t.Median
				rep.Timings = append(rep.Timings, t)
			}
			for i := range rep.Timings {
				if m := nodeMedian[rep.Timings[i].Program]; m > 0 && rep.Timings[i].Substrate != "node worker per run" {
					rep.Timings[i].VsNode = float64(rep.Timings[i].Median) / float64(m)
				}
			}
		}
	}
	slices.SortStableFunc(rep.Timings, func(a, b timing) int { return programIndex(a.Program) - programIndex(b.Program) })
	if o.jsonOut {
		return writeJSON(stdout, rep)
	}
	printTable(stdout, rep)
	return nil
}

func programIndex(name string) int {
	for i, p := range programs {
		if p.Name == name {
			return i
		}
	}
	return len(programs)
}

// timeRuncode runs p warmup+n times through reg, checking every result, and returns the n
// timed durations.
func timeRuncode(ctx context.Context, reg *registry.Registry, p program, n int) ([]time.Duration, error) {
	samples := make([]time.Duration, 0, n)
	for i := range warmup + n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start := time.Now()
		res := runCode(ctx, reg, fmt.Sprintf("bench-%d", i), p.Code)
		d := time.Since(start)
		if res.IsError {
			return nil, errors.New(res.Err.Message)
		}
		if got := res.Value.Lookup("result").String(); got != p.Want {
			return nil, fmt.Errorf("result %s, want %s", got, p.Want)
		}
		if i >= warmup {
			samples = append(samples, d)
		}
	}
	return samples, nil
}

// summarize computes the median and the 90th percentile (nearest rank) of samples.
func summarize(prog, substrate string, samples []time.Duration) timing {
	s := slices.Clone(samples)
	slices.Sort(s)
	t := timing{Program: prog, Substrate: substrate, Runs: len(s)}
	if len(s) == 0 {
		return t
	}
	t.Median = s[len(s)/2]
	if len(s)%2 == 0 {
		t.Median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	t.P90 = s[min(len(s)-1, (len(s)*9+9)/10-1)]
	return t
}

func printTable(w io.Writer, rep report) {
	fmt.Fprintf(w, "%s, %d CPUs, %d tools in the registry; node: %s\n\n", rep.GoVersion, rep.CPUs, rep.Tools, rep.Node)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "program\tsubstrate\truns\tmedian\tp90\truncode/node\t")
	for _, t := range rep.Timings {
		ratio := "—"
		if t.VsNode > 0 {
			ratio = fmt.Sprintf("%.3f (%.0f× faster)", t.VsNode, 1/t.VsNode)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t\n", t.Program, t.Substrate, t.Runs, round(t.Median), round(t.P90), ratio)
	}
	tw.Flush()
}

// round shortens a duration to three significant digits.
func round(d time.Duration) time.Duration {
	for unit := time.Duration(1); unit < time.Hour; unit *= 10 {
		if d < 1000*unit {
			return d.Round(unit)
		}
	}
	return d
}
