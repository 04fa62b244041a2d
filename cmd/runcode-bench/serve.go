package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed nodeserve.mjs
var nodeServeScript string

// servePrograms are the programs -serve times: a trivial one, one that computes for about a
// millisecond, and one that awaits a 100 ms tool (nap: a command tool in runcode, a timer in
// the Node baseline).
var servePrograms = []struct{ name, code string }{
	{"trivial", `return 1 + 1`},
	{"compute", `let s = 0; for (let i = 0; i < 100000; i++) s += i; return s`},
	{"await-tool", `return await tools.nap({})`},
}

// napTool is runcode's nap: a command tool that sleeps 100 ms.
const napTool = `{"tools": [{"name": "nap", "description": "Sleep 100 ms.", "output": {"type": "string"},
  "concurrencySafe": true, "command": ["sh", "-c", "sleep 0.1; echo '\"rested\"'"]}]}`

// serveResult is one measurement: a server, a program, a number of clients.
type serveResult struct {
	Server     string  `json:"server"`
	Program    string  `json:"program"`
	Clients    int     `json:"clients"`
	Calls      int     `json:"calls"`
	Errors     int     `json:"errors"`
	Throughput float64 `json:"callsPerSecond"`
	P50ms      float64 `json:"p50Ms"`
	P99ms      float64 `json:"p99Ms"`
}

// serveBench starts `runcode serve --http` in each isolation and the Node baseline (when
// nodeBin and nodeModules are set), and for each program and client count keeps that many MCP
// sessions calling run_code for d, reporting throughput and latency percentiles.
func serveBench(ctx context.Context, runcode, nodeBin, nodeModules string, clients []int, d time.Duration, jsonOut bool, stdout, stderr io.Writer) int {
	dir, err := os.MkdirTemp("", "runcode-bench-serve-")
	if err != nil {
		fmt.Fprintln(stderr, "runcode-bench:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "tools.json")
	script := filepath.Join(dir, "nodeserve.mjs")
	if err := os.WriteFile(manifest, []byte(napTool), 0o644); err != nil {
		fmt.Fprintln(stderr, "runcode-bench:", err)
		return 1
	}
	if err := os.WriteFile(script, []byte(nodeServeScript), 0o644); err != nil {
		fmt.Fprintln(stderr, "runcode-bench:", err)
		return 1
	}
	type server struct {
		name string
		cmd  []string
		env  []string
	}
	servers := []server{
		{"runcode process", []string{runcode, "serve", "--http", "127.0.0.1:0", "--tools", manifest, "--isolation", "process", "--max-sessions", "0"}, nil},
		{"runcode inprocess", []string{runcode, "serve", "--http", "127.0.0.1:0", "--tools", manifest, "--isolation", "inprocess", "--max-sessions", "0"}, nil},
	}
	if nodeBin != "" && nodeModules != "" {
		servers = append(servers, server{"node:vm (TS SDK)", []string{nodeBin, script}, []string{"NODE_PATH=" + nodeModules}})
	} else {
		fmt.Fprintln(stderr, "runcode-bench: no -node and -node-modules: the Node baseline is skipped")
	}
	var results []serveResult
	for _, s := range servers {
		endpoint, stop, err := startServer(ctx, s.cmd, s.env)
		if err != nil {
			fmt.Fprintf(stderr, "runcode-bench: %s: %v\n", s.name, err)
			return 1
		}
		for _, p := range servePrograms {
			for _, n := range clients {
				r, err := measure(ctx, endpoint, p.code, n, d)
				if err != nil {
					stop()
					fmt.Fprintf(stderr, "runcode-bench: %s, %s, %d clients: %v\n", s.name, p.name, n, err)
					return 1
				}
				r.Server, r.Program = s.name, p.name
				results = append(results, r)
				fmt.Fprintf(stderr, "%s %s %d clients: %.0f calls/s\n", s.name, p.name, n, r.Throughput)
			}
		}
		stop()
	}
	if jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(results)
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "server\tprogram\tclients\tcalls/s\tp50 ms\tp99 ms\terrors\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%.2f\t%.2f\t%d\t\n", r.Server, r.Program, r.Clients, r.Throughput, r.P50ms, r.P99ms, r.Errors)
	}
	tw.Flush()
	return 0
}

var listening = regexp.MustCompile(`(?:at (http://127\.0\.0\.1:\d+/mcp))|(?:listening on (\d+))`)

// startServer starts a server command and returns its MCP endpoint, read from its output.
func startServer(ctx context.Context, argv, env []string) (string, func(), error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = cmd.Stdout // both go to the pipe: runcode reports its address on stderr
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				if m[1] != "" {
					found <- m[1]
				} else {
					found <- "http://127.0.0.1:" + m[2] + "/mcp"
				}
				break
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case endpoint := <-found:
		return endpoint, stop, nil
	case <-time.After(30 * time.Second):
		stop()
		return "", nil, fmt.Errorf("%s did not report its address", strings.Join(argv, " "))
	}
}

// measure keeps n sessions calling run_code with code for d and returns the counts and the
// latency percentiles.
func measure(ctx context.Context, endpoint, code string, n int, d time.Duration) (serveResult, error) {
	sessions := make([]*mcp.ClientSession, n)
	for i := range sessions {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "runcode-bench", Version: "0"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
		if err != nil {
			return serveResult{}, err
		}
		defer cs.Close()
		sessions[i] = cs
	}
	args := map[string]any{"code": code, "description": "bench"}
	// One warm-up call per session.
	for _, cs := range sessions {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: args}); err != nil {
			return serveResult{}, err
		}
	}
	var mu sync.Mutex
	var lat []time.Duration
	errs := 0
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for _, cs := range sessions {
		wg.Go(func() {
			for time.Now().Before(deadline) && ctx.Err() == nil {
				t0 := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: args})
				el := time.Since(t0)
				mu.Lock()
				if err != nil || res.IsError {
					errs++
				} else {
					lat = append(lat, el)
				}
				mu.Unlock()
			}
		})
	}
	start := time.Now()
	wg.Wait()
	total := time.Since(start)
	slices.Sort(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))]) / float64(time.Millisecond)
	}
	return serveResult{Clients: n, Calls: len(lat), Errors: errs, Throughput: float64(len(lat)) / total.Seconds(), P50ms: pct(0.5), P99ms: pct(0.99)}, nil
}

// parseClients parses -clients: comma-separated positive counts.
func parseClients(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-clients %q: want comma-separated positive counts", s)
		}
		out = append(out, n)
	}
	return out, nil
}
