// Command runcode-bench times runcode against the substrate Code Mode users would otherwise
// pick, and loads it with many concurrent and hostile runs.
//
// Usage:
//
//	runcode-bench [-n N] [-process-n N] [-node-n N] [-tools N] [-json]
//	runcode-bench -load [-isolation inprocess|process] [-pool N] [-runs N] [-hostile N] [-v] [-json]
//	runcode-bench -serve -runcode PATH [-node PATH -node-modules DIR] [-clients 1,4,16,64] [-duration 5s] [-json]
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
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
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
	clients                   string
	duration                  time.Duration
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
	fs.StringVar(&o.node, "node", "", "serve: the node binary of the baseline (none: no baseline)")
	fs.StringVar(&o.nodeMod, "node-modules", "", "serve: a node_modules directory holding @modelcontextprotocol/sdk")
	fs.StringVar(&o.clients, "clients", "1,4,16,64", "serve: the concurrent MCP sessions to measure, comma-separated")
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "serve: how long each measurement calls")
	if err := fs.Parse(args); err != nil {
		return 2
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

// writeJSON prints v indented.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
