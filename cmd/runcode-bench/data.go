package main

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"
)

// workloadFS holds the -data mode's programs, one per file, written the way a model writes them:
// each reads a generated file through the workspace's read_file and returns a small summary.
//
//go:embed workloads/*.js
var workloadFS embed.FS

// workload is one program of the -data mode.
type workload struct{ name, code string }

// loadWorkloads returns the embedded workloads, only those named in only when it is not empty.
func loadWorkloads(only []string) ([]workload, error) {
	entries, err := workloadFS.ReadDir("workloads")
	if err != nil {
		return nil, err
	}
	var out []workload
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".js")
		if len(only) > 0 && !slices.Contains(only, name) {
			continue
		}
		code, err := workloadFS.ReadFile("workloads/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, workload{name, string(code)})
	}
	for _, n := range only {
		if !slices.ContainsFunc(out, func(w workload) bool { return w.name == n }) {
			return nil, fmt.Errorf("-workloads: no workload %q", n)
		}
	}
	return out, nil
}

// dataSize is one data size of the -data mode, with the --memory its runcode runs get ("" for
// runcode's default).
type dataSize struct {
	MB     float64 `json:"mb"`
	Memory string  `json:"memory,omitempty"`
}

// parseSizes reads -sizes: comma-separated sizes in MB, each optionally followed by
// ":MEMORY", the --memory runcode gets at that size ("1,10,50:2GiB").
func parseSizes(s string) ([]dataSize, error) {
	var out []dataSize
	for _, f := range strings.Split(s, ",") {
		mb, mem, _ := strings.Cut(strings.TrimSpace(f), ":")
		v, err := strconv.ParseFloat(mb, 64)
		if err != nil || v <= 0 || v > 4096 {
			return nil, fmt.Errorf("-sizes %q: want comma-separated sizes in MB (0 < size ≤ 4096), each optionally :MEMORY", s)
		}
		out = append(out, dataSize{v, mem})
	}
	return out, nil
}

// dataOptions configure the -data mode.
type dataOptions struct {
	runcode, node string
	baseline      string // a second runcode binary, timed as "baseline ISOLATION" ("" for none)
	sizes         []dataSize
	rounds        int
	isolations    []string
	workloads     []string
	dir           string
	timeout       time.Duration
	jsonOut       bool
}

// sample is one timed run of a workload.
type sample struct {
	wall, cpu time.Duration
	rssKiB    int64
	result    json.RawMessage
	err       string // why the run failed ("" when it succeeded)
}

// dataResult is the medians of one workload at one size on one substrate, and how its answer
// compares with Node's.
type dataResult struct {
	Workload  string  `json:"workload"`
	SizeMB    float64 `json:"sizeMB"`
	Substrate string  `json:"substrate"`
	Runs      int     `json:"runs"`
	Failed    int     `json:"failed"`
	Error     string  `json:"error,omitempty"`
	WallMs    float64 `json:"wallMs"`
	CPUMs     float64 `json:"cpuMs"`
	PeakRSSMB float64 `json:"peakRssMB"`
	// CPURatio and RSSRatio divide by Node's medians at the same workload and size (0 for Node
	// itself or when either side failed).
	CPURatio float64 `json:"cpuRatio,omitempty"`
	RSSRatio float64 `json:"rssRatio,omitempty"`
	// SameAnswer reports whether the result equals Node's (always true for Node); it means
	// nothing without HasReference (Node answered).
	SameAnswer   bool `json:"sameAnswer"`
	HasReference bool `json:"hasReference"`
}

// dataBench generates the data, runs every workload at every size on Node and on runcode in each
// isolation, rounds times interleaved, and prints the medians and ratios.
func dataBench(ctx context.Context, o dataOptions, stdout, stderr io.Writer) error {
	works, err := loadWorkloads(o.workloads)
	if err != nil {
		return err
	}
	if o.dir == "" {
		dir, err := os.MkdirTemp("", "runcode-bench-data-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		o.dir = dir
	}
	substrates := []string{"node"}
	for _, iso := range o.isolations {
		substrates = append(substrates, "runcode "+iso)
		if o.baseline != "" {
			substrates = append(substrates, "baseline "+iso)
		}
	}
	sizeDirs := make([]string, len(o.sizes))
	for i, sz := range o.sizes {
		sizeDirs[i] = filepath.Join(o.dir, strconv.FormatFloat(sz.MB, 'f', -1, 64)+"MB")
		if err := os.MkdirAll(sizeDirs[i], 0o755); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "generating %g MB of data in %s\n", sz.MB, sizeDirs[i])
		if err := generateData(sizeDirs[i], int64(sz.MB*(1<<20))); err != nil {
			return err
		}
		for _, w := range works {
			if err := writePrograms(sizeDirs[i], w); err != nil {
				return err
			}
		}
	}
	type key struct {
		work, substrate string
		size            int
	}
	samples := map[key][]sample{}
	for round := range o.rounds {
		for si, sz := range o.sizes {
			for _, w := range works {
				for _, sub := range substrates {
					if err := ctx.Err(); err != nil {
						return err
					}
					s := runWorkload(ctx, o, sub, sz, sizeDirs[si], w)
					fmt.Fprintf(stderr, "round %d/%d %gMB %-18s %-20s cpu %8.0fms rss %6.0fMB %s\n", round+1, o.rounds, sz.MB, w.name, sub,
						ms(s.cpu), float64(s.rssKiB)/1024, s.err)
					k := key{w.name, sub, si}
					samples[k] = append(samples[k], s)
				}
			}
		}
	}
	var results []dataResult
	for si, sz := range o.sizes {
		for _, w := range works {
			var node dataResult
			var nodeAnswer []json.RawMessage
			for _, sub := range substrates {
				ss := samples[key{w.name, sub, si}]
				r := summarise(w.name, sz.MB, sub, ss)
				answers := answersOf(ss)
				if sub == "node" {
					node, nodeAnswer = r, answers
					r.SameAnswer, r.HasReference = true, len(answers) > 0
				} else {
					r.HasReference = len(nodeAnswer) > 0
					r.SameAnswer = len(answers) > 0 && r.HasReference && sameJSON(answers[0], nodeAnswer[0])
					if r.Failed == 0 && node.Failed == 0 && node.CPUMs > 0 && node.PeakRSSMB > 0 {
						r.CPURatio = r.CPUMs / node.CPUMs
						r.RSSRatio = r.PeakRSSMB / node.PeakRSSMB
					}
				}
				results = append(results, r)
			}
		}
	}
	if o.jsonOut {
		return writeJSON(stdout, map[string]any{"sizes": o.sizes, "rounds": o.rounds, "results": results, "summary": summariseRatios(results)})
	}
	printDataTable(stdout, results, summariseRatios(results))
	return nil
}

// writePrograms writes w as a runcode program (w.name.ts) and as a Node module (w.name.mjs)
// whose read_file reads the file from the working directory with runcode's result shape.
func writePrograms(dir string, w workload) error {
	if err := os.WriteFile(filepath.Join(dir, w.name+".ts"), []byte(w.code), 0o644); err != nil {
		return err
	}
	node := "import { readFileSync } from \"node:fs\";\n" +
		"const tools = { read_file: async ({ path }) => ({ path, content: readFileSync(path, \"utf8\") }) };\n" +
		"const result = await (async () => {\n" + w.code + "\n})();\n" +
		"process.stdout.write(JSON.stringify({ result }));\n"
	return os.WriteFile(filepath.Join(dir, w.name+".mjs"), []byte(node), 0o644)
}

// runWorkload runs w once on substrate sub ("node", "runcode ISOLATION" or "baseline ISOLATION")
// in dir.
func runWorkload(ctx context.Context, o dataOptions, sub string, sz dataSize, dir string, w workload) sample {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	var cmd *exec.Cmd
	if sub == "node" {
		cmd = exec.CommandContext(ctx, o.node, w.name+".mjs")
	} else {
		bin, iso, _ := strings.Cut(sub, " ")
		exe := o.runcode
		if bin == "baseline" {
			exe = o.baseline
		}
		args := []string{"run", "--json", "--workspace", dir, "--isolation", iso}
		if sz.Memory != "" {
			args = append(args, "--memory", sz.Memory)
		}
		cmd = exec.CommandContext(ctx, exe, append(args, w.name+".ts")...)
	}
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{err: err.Error()}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var treePeak int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			treePeak = max(treePeak, treeRSSKiB(cmd.Process.Pid))
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	waitErr := cmd.Wait()
	s := sample{wall: time.Since(start)}
	close(stop)
	wg.Wait()
	if ps := cmd.ProcessState; ps != nil {
		s.cpu = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			s.rssKiB = ru.Maxrss
		}
	}
	s.rssKiB = max(s.rssKiB, treePeak)
	var outcome struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"error"`
	}
	switch jerr := json.Unmarshal(out.Bytes(), &outcome); {
	case ctx.Err() != nil:
		s.err = "timeout after " + o.timeout.String()
	case jerr == nil && outcome.Error != nil:
		s.err = outcome.Error.Kind + ": " + outcome.Error.Message
	case jerr == nil && waitErr == nil:
		s.result = outcome.Result
	default:
		s.err = strings.TrimSpace(firstLine(errOut.String() + " " + fmt.Sprint(waitErr)))
	}
	if len(s.err) > 200 {
		s.err = s.err[:200] + "…"
	}
	return s
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// treeRSSKiB sums the resident sets of pid and its descendants (a runcode host and its worker).
func treeRSSKiB(pid int) int64 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := map[int]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
		rest := stat[bytes.LastIndexByte(stat, ')')+1:]
		fields := strings.Fields(string(rest))
		if len(fields) > 1 {
			if pp, err := strconv.Atoi(fields[1]); err == nil {
				parent[p] = pp
			}
		}
	}
	page := int64(os.Getpagesize())
	var total int64
	for p := range parent {
		for q := p; q > 1; q = parent[q] {
			if q == pid {
				statm, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/statm")
				if f := strings.Fields(string(statm)); err == nil && len(f) > 1 {
					if pages, err := strconv.ParseInt(f[1], 10, 64); err == nil {
						total += pages * page / 1024
					}
				}
				break
			}
		}
	}
	return total
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// summarise takes the medians of the successful samples.
func summarise(work string, mb float64, sub string, ss []sample) dataResult {
	r := dataResult{Workload: work, SizeMB: mb, Substrate: sub, Runs: len(ss)}
	var wall, cpu, rss []float64
	for _, s := range ss {
		if s.err != "" {
			r.Failed++
			r.Error = s.err
			continue
		}
		wall, cpu, rss = append(wall, ms(s.wall)), append(cpu, ms(s.cpu)), append(rss, float64(s.rssKiB)/1024)
	}
	r.WallMs, r.CPUMs, r.PeakRSSMB = median(wall), median(cpu), median(rss)
	return r
}

func answersOf(ss []sample) []json.RawMessage {
	var out []json.RawMessage
	for _, s := range ss {
		if s.err == "" {
			out = append(out, s.result)
		}
	}
	return out
}

// sameJSON reports whether a and b are the same JSON value (object keys in any order).
func sameJSON(a, b json.RawMessage) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	ca, _ := json.Marshal(va)
	cb, _ := json.Marshal(vb)
	return bytes.Equal(ca, cb)
}

// ratioSummary is, per substrate and size, the median and largest compute ratio to Node, the
// largest peak-memory ratio, and the workloads that failed or answered differently.
type ratioSummary struct {
	Substrate      string   `json:"substrate"`
	SizeMB         float64  `json:"sizeMB"`
	MedianCPURatio float64  `json:"medianCpuRatio"`
	MaxCPURatio    float64  `json:"maxCpuRatio"`
	MaxCPUWorkload string   `json:"maxCpuWorkload"`
	MaxRSSRatio    float64  `json:"maxRssRatio"`
	MaxRSSWorkload string   `json:"maxRssWorkload"`
	Failed         []string `json:"failed,omitempty"`
	Different      []string `json:"different,omitempty"`
}

func summariseRatios(results []dataResult) []ratioSummary {
	var out []ratioSummary
	var cpus [][]float64 // cpus[i]: the compute ratios of out[i]
	find := func(sub string, mb float64) int {
		for i := range out {
			if out[i].Substrate == sub && out[i].SizeMB == mb {
				return i
			}
		}
		out = append(out, ratioSummary{Substrate: sub, SizeMB: mb})
		cpus = append(cpus, nil)
		return len(out) - 1
	}
	for _, r := range results {
		if r.Substrate == "node" {
			continue
		}
		i := find(r.Substrate, r.SizeMB)
		s := &out[i]
		switch {
		case r.Failed > 0:
			s.Failed = append(s.Failed, r.Workload)
		case r.HasReference && !r.SameAnswer:
			s.Different = append(s.Different, r.Workload)
		}
		if r.CPURatio > 0 {
			cpus[i] = append(cpus[i], r.CPURatio)
			if r.CPURatio > s.MaxCPURatio {
				s.MaxCPURatio, s.MaxCPUWorkload = r.CPURatio, r.Workload
			}
			if r.RSSRatio > s.MaxRSSRatio {
				s.MaxRSSRatio, s.MaxRSSWorkload = r.RSSRatio, r.Workload
			}
		}
	}
	for i := range out {
		out[i].MedianCPURatio = median(cpus[i])
	}
	return out
}

func printDataTable(w io.Writer, results []dataResult, summary []ratioSummary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\tMB\tsubstrate\tcpu ms\twall ms\tpeak RSS MB\tcpu ×node\tRSS ×node\tanswer\t")
	for _, r := range results {
		answer := "same"
		switch {
		case r.Failed > 0:
			answer = fmt.Sprintf("%d/%d failed: %s", r.Failed, r.Runs, r.Error)
		case r.Substrate != "node" && !r.HasReference:
			answer = "no Node answer"
		case !r.SameAnswer:
			answer = "DIFFERENT"
		}
		ratio := func(v float64) string {
			if v == 0 {
				return "-"
			}
			return fmt.Sprintf("%.2f", v)
		}
		fmt.Fprintf(tw, "%s\t%g\t%s\t%.0f\t%.0f\t%.0f\t%s\t%s\t%s\t\n", r.Workload, r.SizeMB, r.Substrate, r.CPUMs, r.WallMs, r.PeakRSSMB,
			ratio(r.CPURatio), ratio(r.RSSRatio), answer)
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, s := range summary {
		fmt.Fprintf(w, "%s at %g MB: cpu ×node median %.2f, max %.2f (%s); peak RSS ×node max %.2f (%s)", s.Substrate, s.SizeMB,
			s.MedianCPURatio, s.MaxCPURatio, s.MaxCPUWorkload, s.MaxRSSRatio, s.MaxRSSWorkload)
		if len(s.Failed) > 0 {
			fmt.Fprintf(w, "; failed: %s", strings.Join(s.Failed, ", "))
		}
		if len(s.Different) > 0 {
			fmt.Fprintf(w, "; DIFFERENT answers: %s", strings.Join(s.Different, ", "))
		}
		fmt.Fprintln(w)
	}
}

// errDataUsage reports invalid -data arguments.
var errDataUsage = errors.New("invalid -data arguments (see -help)")
