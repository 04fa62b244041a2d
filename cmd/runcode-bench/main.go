// Command runcode-bench times runcode against the substrate Code Mode users would otherwise
// pick, and loads it with many concurrent and hostile runs.
//
// Usage:
//
//	runcode-bench [-n N] [-process-n N] [-node-n N] [-tools N] [-json]
//	runcode-bench -load [-isolation inprocess|process] [-pool N] [-runs N] [-hostile N] [-v] [-json]
//	runcode-bench -serve -runcode PATH [-node PATH -node-modules DIR] [-clients 1,4,16,64] [-duration 5s] [-json]
//	runcode-bench -data -runcode PATH -node PATH [-baseline PATH] [-sizes 1,10,50:2GiB] [-rounds 5] [-isolations process,inprocess] [-workloads a,b] [-dir DIR] [-json]
//
// The default mode times three programs (one tool call, 100 sequential calls, 100 calls under
// Promise.all) on runcode in-process, on runcode with process isolation (a warm pool), and on a
// fresh Node.js worker_thread per run whose tool calls are message round trips to the host
// thread (skipped with a note when node is not on PATH). Every tool is an echo: it returns its
// arguments. It prints the median and p90 per program and substrate and the ratio runcode/Node.
//
// The -load mode runs -runs concurrent programs that each await a 100 ms tool, then -hostile
// concurrent hostile programs (infinite loop, deep recursion, a huge repeat, a console flood, a
// never-settling await, a memory push loop) under small budgets, and reports wall time, peak
// RSS, goroutines before and after, and the failures by kind. With -v it also prints, to stderr,
// every run that ended otherwise than its program is expected to, with the failure message. It
// needs no network.
//
// The -serve mode starts `runcode serve --http` (the binary -runcode names) in each isolation,
// and a minimal Node MCP server on the official TypeScript SDK that runs the same programs in
// node:vm (with -node and -node-modules, a node_modules holding @modelcontextprotocol/sdk), and
// for each program (trivial, compute, await a 100 ms tool) and client count keeps that many MCP
// sessions calling run_code for -duration: calls per second, p50 and p99 latency.
//
// The -data mode generates data files of each -sizes size (a JSON export of user records, the
// same as CSV, an access log, multilingual Markdown prose; a size may name the --memory runcode
// runs get, as in 50:2GiB), and runs twelve programs written the way models write them (CSV
// aggregate and build, JSON filter/map, group-by, record sort, stringify, log regex counts, log
// redaction, a Markdown table, Unicode normalisation and word counts, Set/Map of many keys, text
// search) as `runcode run` in each isolation and as `node` on the same files, -rounds times
// interleaved. It prints median compute (user+system time of the process and its workers), wall
// time and peak resident memory (the process tree's), their ratios to Node's, whether each
// answer equals Node's, and per isolation and size the median and largest ratios. With -baseline,
// a second runcode binary (say, a build of the commit before a change) runs every workload in each
// isolation too, in the same rounds ("baseline ISOLATION"), so both builds' ratios come from the
// same Node runs and the same machine load.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
)

func main() {
	jsruntime.RunWorkerIfRequested()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// options are the command-line flags.
type options struct {
	n, processN, nodeN, tools int
	jsonOut                   bool
	load                      bool
	verbose                   bool
	isolation                 string
	pool, runs, hostile       int
	serve                     bool
	runcodeBin, node, nodeMod string
	baselineBin               string
	clients                   string
	duration                  time.Duration
	data                      bool
	sizes, isolations, works  string
	rounds                    int
	dataDir                   string
	timeout                   time.Duration
}

// run is the whole command behind main, testable in-process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("runcode-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.n, "n", 200, "timed runs per program, in-process")
	fs.IntVar(&o.processN, "process-n", 0, "timed runs per program, process isolation (0: same as -n)")
	fs.IntVar(&o.nodeN, "node-n", 40, "timed runs per program, Node worker per run")
	fs.IntVar(&o.tools, "tools", 50, "tools in the registry (the SDK every runcode run binds)")
	fs.BoolVar(&o.jsonOut, "json", false, "print JSON instead of a table")
	fs.BoolVar(&o.load, "load", false, "run the load test instead of the timing comparison")
	fs.StringVar(&o.isolation, "isolation", jsruntime.IsolationInProcess, "load test isolation: inprocess or process")
	fs.IntVar(&o.pool, "pool", 8, "load test: worker processes with -isolation process")
	fs.IntVar(&o.runs, "runs", 1000, "load test: concurrent runs awaiting a 100 ms tool")
	fs.IntVar(&o.hostile, "hostile", 200, "load test: concurrent hostile runs")
	fs.BoolVar(&o.verbose, "v", false, "load test: print every run that ends otherwise than expected, with its message, to stderr")
	fs.BoolVar(&o.serve, "serve", false, "time runcode serve against a Node MCP server running programs in node:vm")
	fs.StringVar(&o.runcodeBin, "runcode", "runcode", "serve: the runcode binary to serve with")
	fs.StringVar(&o.node, "node", "", "serve and data: the node binary of the baseline (serve: none means no baseline; data: default node on PATH)")
	fs.StringVar(&o.nodeMod, "node-modules", "", "serve: a node_modules directory holding @modelcontextprotocol/sdk")
	fs.StringVar(&o.clients, "clients", "1,4,16,64", "serve: the concurrent MCP sessions to measure, comma-separated")
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "serve: how long each measurement calls")
	fs.BoolVar(&o.data, "data", false, "time data workloads (1-50 MB files) on runcode and on node (-node, default node on PATH)")
	fs.StringVar(&o.sizes, "sizes", "1,10,50:2GiB", "data: file sizes in MB, comma-separated, each optionally :MEMORY for runcode's --memory")
	fs.IntVar(&o.rounds, "rounds", 5, "data: rounds, each running every workload once on every substrate")
	fs.StringVar(&o.baselineBin, "baseline", "", "data: a second runcode binary to time in the same rounds (substrates \"baseline ISOLATION\")")
	fs.StringVar(&o.isolations, "isolations", "process,inprocess", "data: runcode isolations to time, comma-separated")
	fs.StringVar(&o.works, "workloads", "", "data: only these workloads, comma-separated (default all)")
	fs.StringVar(&o.dataDir, "dir", "", "data: generate the files into DIR and keep them (default a temporary directory)")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "data: kill a run after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.data {
		return dataMain(ctx, o, fs.NArg(), stdout, stderr)
	}
	if o.serve {
		clients, err := parseClients(o.clients)
		if err != nil || fs.NArg() > 0 || o.duration <= 0 {
			fmt.Fprintln(stderr, "runcode-bench: invalid arguments (see -help)")
			return 2
		}
		return serveBench(ctx, o.runcodeBin, o.node, o.nodeMod, clients, o.duration, o.jsonOut, stdout, stderr)
	}
	if fs.NArg() > 0 || o.n < 1 || o.processN < 0 || o.nodeN < 0 || o.tools < 1 || o.pool < 1 || o.runs < 0 || o.hostile < 0 ||
		(o.isolation != jsruntime.IsolationInProcess && o.isolation != jsruntime.IsolationProcess) {
		fmt.Fprintln(stderr, "runcode-bench: invalid arguments (see -help)")
		return 2
	}
	if o.processN == 0 {
		o.processN = o.n
	}
	var err error
	if o.load {
		err = loadTest(ctx, o, stdout, stderr)
	} else {
		err = speed(ctx, o, stdout, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "runcode-bench: %v\n", err)
		return 1
	}
	return 0
}

// dataMain checks the -data flags and runs the data benchmark.
func dataMain(ctx context.Context, o options, nargs int, stdout, stderr io.Writer) int {
	sizes, err := parseSizes(o.sizes)
	if o.node == "" {
		o.node = "node"
	}
	var isos, works []string
	for _, f := range strings.Split(o.isolations, ",") {
		if f = strings.TrimSpace(f); f != jsruntime.IsolationInProcess && f != jsruntime.IsolationProcess {
			err = errors.Join(err, fmt.Errorf("-isolations: %q is not process or inprocess", f))
		}
		isos = append(isos, strings.TrimSpace(f))
	}
	if o.works != "" {
		for _, f := range strings.Split(o.works, ",") {
			works = append(works, strings.TrimSpace(f))
		}
	}
	if err != nil || nargs > 0 || o.rounds < 1 || o.timeout <= 0 {
		fmt.Fprintf(stderr, "runcode-bench: %v\n", errors.Join(errDataUsage, err))
		return 2
	}
	err = dataBench(ctx, dataOptions{runcode: o.runcodeBin, baseline: o.baselineBin, node: o.node, sizes: sizes, rounds: o.rounds, isolations: isos,
		workloads: works, dir: o.dataDir, timeout: o.timeout, jsonOut: o.jsonOut}, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "runcode-bench: %v\n", err)
		return 1
	}
	return 0
}

// writeJSON prints v indented.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
