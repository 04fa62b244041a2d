package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/mcpserve"
)

// fleetToken is the bearer token of the replicas of a fleet (the clients send it through the
// proxy).
const fleetToken = "fleet-token"

// replica is one `runcode serve --http 127.0.0.1:0 --stateless` process of a fleet.
type replica struct {
	index   int
	cmd     *exec.Cmd
	stderr  *lockedBuffer
	target  *url.URL
	exited  chan struct{} // closed once the process has been reaped
	down    atomic.Bool   // the proxy could not connect to it: out of rotation
	refused atomic.Int64  // its own 503 responses (a draining replica)
	// answeredInDrain counts the requests that the proxy had sent it before fleet.signalled
	// and whose 200 response it finished relaying after.
	answeredInDrain atomic.Int64
}

// fleet is replicas behind a round-robin reverse proxy, as behind any HTTP load balancer: the
// proxy takes a replica out of rotation once it refuses connections (it has exited), and a
// request that got no response from its replica at all is answered 503 by the proxy, as load
// balancers do ("upstream reset before headers").
type fleet struct {
	replicas   []*replica
	proxy      *httptest.Server
	next       atomic.Uint64
	noResponse atomic.Int64 // requests the proxy answered 503 because their replica did not answer
	signalled  atomic.Int64 // when a replica was sent SIGTERM (Unix nanoseconds; 0: not yet)
}

// statusWriter records the status of a response.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets the proxy flush event streams through the writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

type replicaKey struct{}

// startFleet starts n replicas over the workspace dir (one shared volume), each with the given
// extra serve flags, and the proxy in front of them. Everything is stopped when the test ends.
func startFleet(tb testing.TB, n int, dir string, flags ...string) *fleet {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	f := &fleet{}
	for i := range n {
		f.replicas = append(f.replicas, startReplica(tb, i, exe, dir, flags))
	}
	addr := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+)/mcp`)
	for _, r := range f.replicas {
		for deadline := time.Now().Add(60 * time.Second); r.target == nil; time.Sleep(10 * time.Millisecond) {
			if m := addr.FindStringSubmatch(r.stderr.String()); m != nil {
				r.target, _ = url.Parse(m[1])
				break
			}
			select {
			case <-r.exited:
				tb.Fatalf("replica %d exited before serving; stderr:\n%s", r.index, r.stderr.String())
			default:
			}
			if time.Now().After(deadline) {
				tb.Fatalf("replica %d did not report its address; stderr:\n%s", r.index, r.stderr.String())
			}
		}
	}
	transport := &http.Transport{MaxIdleConnsPerHost: 64}
	rp := &httputil.ReverseProxy{
		Transport: transport,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(pr.In.Context().Value(replicaKey{}).(*replica).target)
		},
		ModifyResponse: func(resp *http.Response) error {
			if resp.StatusCode == http.StatusServiceUnavailable {
				resp.Request.Context().Value(replicaKey{}).(*replica).refused.Add(1)
			}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, req *http.Request, err error) {
			r := req.Context().Value(replicaKey{}).(*replica)
			if op := (*net.OpError)(nil); errors.As(err, &op) && op.Op == "dial" {
				r.down.Store(true)
			}
			f.noResponse.Add(1)
			w.Header().Set("Retry-After", "1")
			http.Error(w, fmt.Sprintf("Service Unavailable: replica %d did not answer: %v", r.index, err), http.StatusServiceUnavailable)
		},
	}
	f.proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r := f.pick()
		start := time.Now().UnixNano()
		sw := &statusWriter{ResponseWriter: w}
		rp.ServeHTTP(sw, req.WithContext(context.WithValue(req.Context(), replicaKey{}, r)))
		if at := f.signalled.Load(); at != 0 && start < at && sw.code == http.StatusOK {
			r.answeredInDrain.Add(1)
		}
	}))
	tb.Cleanup(func() {
		f.proxy.Close()
		transport.CloseIdleConnections()
	})
	return f
}

func startReplica(tb testing.TB, index int, exe, dir string, flags []string) *replica {
	tb.Helper()
	args := append([]string{"serve", "--http", "127.0.0.1:0", "--stateless", "--workspace", dir}, flags...)
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), cliEnv+"=1", authTokenEnv+"="+fleetToken)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r := &replica{index: index, cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() {
		cmd.Wait()
		close(r.exited)
	}()
	tb.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-r.exited
	})
	return r
}

// fleetWorkspace returns the replicas' shared workspace, with the runs/ directory of the
// markers.
func fleetWorkspace(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "runs"), 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// pick returns the next replica in rotation (the first one when every replica is down: its
// error then says so).
func (f *fleet) pick() *replica {
	for range f.replicas {
		r := f.replicas[f.next.Add(1)%uint64(len(f.replicas))]
		if !r.down.Load() {
			return r
		}
	}
	return f.replicas[0]
}

// connect returns an MCP client session to the fleet, through the proxy.
func (f *fleet) connect(tb testing.TB) *mcp.ClientSession {
	tb.Helper()
	transport := &http.Transport{}
	tb.Cleanup(transport.CloseIdleConnections)
	client := mcp.NewClient(&mcp.Implementation{Name: "fleet-test", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:   f.proxy.URL + httpPath,
		HTTPClient: &http.Client{Transport: bearerTransport{token: fleetToken, base: transport}},
		MaxRetries: -1, // a stateless server has no stream to resume: a broken one is a lost call
	}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

// callOutcome classifies one attempt of a run_code call.
type callOutcome int

const (
	callOK callOutcome = iota
	// callDraining: HTTP 503 (from a draining replica: mcpserve.StatelessDraining, or from the
	// proxy when the replica did not answer); the request did not run, retry it.
	callDraining
	// callRefused: the tool error mcpserve.ShuttingDown, a call that reached run_code as the
	// drain began; it did not run, retry it.
	callRefused
	callFailed
)

// attempt is one try of call i.
type attempt struct {
	call, try int
	outcome   callOutcome
	detail    string
}

// markerPath is the workspace file that try `try` of call i writes when it runs.
func markerPath(i, try int) string { return fmt.Sprintf("runs/c%03d-t%d", i, try) }

// napEvery makes every napEvery-th call of a fleet with the nap tool (napManifest) nap first,
// so that runs are in flight on every replica at any time.
const napEvery = 5

// napManifest writes a manifest whose tool nap sleeps 300ms, holding the file
// naps/<pid of the replica>.<pid of the tool> in the manifest's directory meanwhile; it
// returns the manifest's path.
func napManifest(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "naps"), 0o755); err != nil {
		tb.Fatal(err)
	}
	manifest := filepath.Join(dir, "tools.json")
	err := os.WriteFile(manifest, []byte(`{"tools":[{"name":"nap","description":"Sleep 300ms.","output":{"type":"number"},
		"command":["sh","-c","m=naps/$PPID.$$; : >$m; sleep 0.3; rm -f $m; cat >/dev/null; echo 1"]}]}`), 0o644)
	if err != nil {
		tb.Fatal(err)
	}
	return manifest
}

// callOnce makes try `try` of call i: a program that naps when nap is set (every napEvery-th
// call), writes its marker file and returns 2i.
func callOnce(cs *mcp.ClientSession, i, try int, nap bool, timeout time.Duration) attempt {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	code := fmt.Sprintf(`await tools.write_file({ path: %q, content: "ran" }); return %d * 2;`, markerPath(i, try), i)
	if nap && i%napEvery == 0 {
		code = "await tools.nap({}); " + code
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
		"description": fmt.Sprintf("call %d, try %d", i, try),
		"code":        code,
	}})
	a := attempt{call: i, try: try}
	switch {
	case err != nil && strings.Contains(err.Error(), http.StatusText(http.StatusServiceUnavailable)):
		a.outcome, a.detail = callDraining, err.Error()
	case err != nil:
		a.outcome, a.detail = callFailed, err.Error()
	case len(res.Content) == 0:
		a.outcome, a.detail = callFailed, "no content"
	default:
		text := ""
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
		switch {
		case res.IsError && text == mcpserve.ShuttingDown:
			a.outcome, a.detail = callRefused, text
		case !res.IsError && text == fmt.Sprint(2*i):
			a.outcome = callOK
		default:
			a.outcome, a.detail = callFailed, fmt.Sprintf("isError %v: %q", res.IsError, text)
		}
	}
	return a
}

// drive makes calls run_code calls, spread over the sessions (one goroutine each); a retryable
// outcome is tried again, up to maxTries in all. afterOK, when set, is called with the number
// of calls done so far each time one succeeds. It returns every attempt and each call's
// latency (all its tries).
func drive(sessions []*mcp.ClientSession, calls int, nap bool, callTimeout time.Duration, afterOK func(done int64)) ([]attempt, []time.Duration) {
	const maxTries = 10
	next := make(chan int, calls)
	for i := range calls {
		next <- i
	}
	close(next)
	var (
		mu        sync.Mutex
		attempts  []attempt
		latencies []time.Duration
		done      atomic.Int64
		wg        sync.WaitGroup
	)
	for _, cs := range sessions {
		wg.Go(func() {
			for i := range next {
				start := time.Now()
				for try := 1; try <= maxTries; try++ {
					a := callOnce(cs, i, try, nap, callTimeout)
					mu.Lock()
					attempts = append(attempts, a)
					if a.outcome == callOK {
						latencies = append(latencies, time.Since(start))
					}
					mu.Unlock()
					if a.outcome == callOK && afterOK != nil {
						afterOK(done.Add(1))
					}
					if a.outcome != callDraining && a.outcome != callRefused {
						break
					}
					time.Sleep(time.Duration(try) * 10 * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	return attempts, latencies
}

// percentile returns the p-th percentile (0 < p ≤ 100) of sorted latencies.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(float64(len(sorted))*p/100))]
}

// Three stateless replicas behind a round-robin proxy serve 300 run_code calls from 10
// concurrent clients while one replica is drained (SIGTERM) a third of the way through, while
// one of its runs is in the middle of a sub-call. Every call succeeds, on its first try or
// after a retryable error (a 503, or the ShuttingDown tool error), and none is lost: each
// successful try ran exactly once (its marker file exists), no retried try ran at all (no
// marker), and nothing hangs; the run in flight on the drained replica is answered, and the
// replica exits 0.
func TestStatelessReplicasSurviveADrain(t *testing.T) {
	const (
		replicas = 3
		clients  = 10
		calls    = 300
	)
	dir := fleetWorkspace(t)
	manifest := napManifest(t)
	f := startFleet(t, replicas, dir, "--tools", manifest, "--drain-timeout", "20s")
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = f.connect(t)
	}
	drained := f.replicas[0]

	// A third of the way through, once a run on the drained replica is napping, SIGTERM it.
	third, finished := make(chan struct{}), make(chan struct{})
	var thirdOnce sync.Once
	var trigger sync.WaitGroup
	trigger.Go(func() {
		select {
		case <-third:
		case <-finished:
			return
		}
		// A nap that has just begun, not one that may be ending: 300ms of it remain.
		napping := filepath.Join(filepath.Dir(manifest), "naps", fmt.Sprintf("%d.*", drained.cmd.Process.Pid))
		ending, _ := filepath.Glob(napping)
		for {
			if m, _ := filepath.Glob(napping); slices.ContainsFunc(m, func(name string) bool { return !slices.Contains(ending, name) }) {
				break
			}
			select {
			case <-finished:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
		f.signalled.Store(time.Now().UnixNano())
		if err := drained.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Error(err)
		}
	})
	start := time.Now()
	attempts, latencies := drive(sessions, calls, true, 20*time.Second, func(done int64) {
		if done >= calls/3 {
			thirdOnce.Do(func() { close(third) })
		}
	})
	elapsed := time.Since(start)
	close(finished)
	trigger.Wait()
	if f.signalled.Load() == 0 {
		t.Fatal("no run of the drained replica napped after a third of the calls: it was never drained")
	}

	var ok, draining, refused int
	for _, a := range attempts {
		_, statErr := os.Stat(filepath.Join(dir, markerPath(a.call, a.try)))
		ran := statErr == nil
		switch a.outcome {
		case callOK:
			ok++
			if !ran {
				t.Errorf("call %d try %d succeeded but its program did not run", a.call, a.try)
			}
		case callDraining, callRefused:
			if a.outcome == callDraining {
				draining++
			} else {
				refused++
			}
			if ran {
				t.Errorf("call %d try %d got a retryable error but its program ran: %s", a.call, a.try, a.detail)
			}
		default:
			t.Errorf("call %d try %d failed: %s", a.call, a.try, a.detail)
		}
	}
	if ok != calls {
		t.Errorf("%d of %d calls succeeded", ok, calls)
	}
	markers, _ := filepath.Glob(filepath.Join(dir, "runs", "c*"))
	if len(markers) != ok {
		t.Errorf("%d programs ran for %d successful calls", len(markers), ok)
	}

	select {
	case <-drained.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("the drained replica did not exit; stderr:\n%s", drained.stderr.String())
	}
	if code := drained.cmd.ProcessState.ExitCode(); code != exitOK {
		t.Errorf("the drained replica exited %d; stderr:\n%s", code, drained.stderr.String())
	}
	if drained.answeredInDrain.Load() == 0 {
		// Seen once in about 20 runs on a loaded machine; that an in-flight run is answered
		// during a drain is pinned deterministically by TestServeHTTPProcessDrainsOnSIGTERM.
		t.Log("no run in flight on the drained replica was seen answered during its drain")
	}
	for _, r := range f.replicas[1:] {
		select {
		case <-r.exited:
			t.Errorf("replica %d exited; stderr:\n%s", r.index, r.stderr.String())
		default:
		}
	}

	slices.Sort(latencies)
	t.Logf("%d calls from %d clients over %d stateless replicas (one drained after %d calls) in %s: %.0f calls/s, latency p50 %s, p99 %s, max %s",
		calls, clients, replicas, calls/3, elapsed.Round(time.Millisecond), float64(calls)/elapsed.Seconds(),
		percentile(latencies, 50).Round(time.Microsecond), percentile(latencies, 99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
	t.Logf("retried tries: %d got 503 (%d from the draining replica, %d from the proxy: no answer from the replica), %d got the ShuttingDown tool error; the drained replica answered %d call(s) in flight at SIGTERM",
		draining, drained.refused.Load(), f.noResponse.Load(), refused, drained.answeredInDrain.Load())
}

// BenchmarkStatelessReplicas measures run_code calls through one and three stateless replicas
// behind a round-robin reverse proxy, from 10 concurrent clients (process isolation, each call
// one workspace write): calls/s and the latency percentiles of a call.
func BenchmarkStatelessReplicas(b *testing.B) {
	for _, replicas := range []int{1, 3} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) { benchmarkReplicas(b, replicas) })
	}
}

func benchmarkReplicas(b *testing.B, replicas int) {
	const clients = 10
	dir := fleetWorkspace(b)
	f := startFleet(b, replicas, dir)
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = f.connect(b)
	}
	// Warm every replica's workers.
	drive(sessions, 2*clients, false, time.Minute, nil)
	if err := os.RemoveAll(filepath.Join(dir, "runs")); err != nil {
		b.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "runs"), 0o755); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	attempts, latencies := drive(sessions, b.N, false, time.Minute, nil)
	elapsed := time.Since(start)
	b.StopTimer()
	for _, a := range attempts {
		if a.outcome != callOK {
			b.Fatalf("call %d try %d: %s", a.call, a.try, a.detail)
		}
	}
	slices.Sort(latencies)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(percentile(latencies, 50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(latencies, 99).Microseconds())/1000, "p99-ms")
}
