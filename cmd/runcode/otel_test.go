package main

import (
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is a loopback OTLP/HTTP trace receiver: it decodes every protobuf export
// request sent to /v1/traces.
type otlpReceiver struct {
	url string

	mu       sync.Mutex
	requests []*collectortrace.ExportTraceServiceRequest
	errs     []string
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	r := &otlpReceiver{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		var msg collectortrace.ExportTraceServiceRequest
		r.mu.Lock()
		defer r.mu.Unlock()
		switch {
		case req.URL.Path != "/v1/traces" || req.Method != http.MethodPost:
			r.errs = append(r.errs, req.Method+" "+req.URL.Path)
		case req.Header.Get("Content-Type") != "application/x-protobuf":
			r.errs = append(r.errs, "content type "+req.Header.Get("Content-Type"))
		case err != nil:
			r.errs = append(r.errs, err.Error())
		default:
			if err := proto.Unmarshal(body, &msg); err != nil {
				r.errs = append(r.errs, err.Error())
				break
			}
			r.requests = append(r.requests, &msg)
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
		w.Write(out)
	}))
	t.Cleanup(hs.Close)
	r.url = hs.URL
	return r
}

// receivedSpan is one exported span with its resource's service name.
type receivedSpan struct {
	service string
	span    *tracepb.Span
}

func (r *otlpReceiver) spans(t *testing.T) []receivedSpan {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.errs) > 0 {
		t.Fatalf("bad export requests: %v", r.errs)
	}
	var out []receivedSpan
	for _, req := range r.requests {
		for _, rs := range req.ResourceSpans {
			service := ""
			for _, kv := range rs.GetResource().GetAttributes() {
				if kv.Key == "service.name" {
					service = kv.Value.GetStringValue()
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					out = append(out, receivedSpan{service, s})
				}
			}
		}
	}
	return out
}

func spanAttr(s *tracepb.Span, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value.GetStringValue()
		}
	}
	return ""
}

func spanNames(spans []receivedSpan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.span.Name)
	}
	slices.Sort(out)
	return out
}

// withOTLP is the environment of a CLI process exporting to r, with the rest of the OTLP
// environment cleared.
func withOTLP(r *otlpReceiver, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if len(kv) < 5 || kv[:5] != "OTEL_" {
			env = append(env, kv)
		}
	}
	return append(append(env, cliEnv+"=1", otlpEndpointEnv+"="+r.url), extra...)
}

// A real `runcode run` with OTEL_EXPORTER_OTLP_ENDPOINT set exports its spans to the receiver
// before it exits: the run_code span, a child per sub-call, the runtime's run span, under the
// service name OTEL_SERVICE_NAME gives.
func TestRunExportsSpansOverOTLP(t *testing.T) {
	r := newOTLPReceiver(t)
	dir := project(t)
	prog := filepath.Join(dir, "sum.ts")
	if err := os.WriteFile(prog, []byte(`const [x, y] = await Promise.all([tools.add({a: 1, b: 2}), tools.add({a: 3, b: 4})]); return x + y`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startCLIWithEnv(t, withOTLP(r, "OTEL_SERVICE_NAME=runcode-under-test"), "run", "--tools", filepath.Join(dir, "tools.json"), prog)
	if code := p.wait(60 * time.Second); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	spans := r.spans(t)
	if got, want := spanNames(spans), []string{"execute_tool add", "execute_tool add", "execute_tool run_code", "jsruntime.run"}; !slices.Equal(got, want) {
		t.Fatalf("exported spans %v, want %v; stderr:\n%s", got, want, p.stderr.String())
	}
	var root *tracepb.Span
	for _, s := range spans {
		if s.service != "runcode-under-test" {
			t.Errorf("span %s has service.name %q", s.span.Name, s.service)
		}
		if s.span.Name == "execute_tool run_code" {
			root = s.span
		}
	}
	if spanAttr(root, "gen_ai.tool.call.id") != "run-1" || spanAttr(root, "runcode.outcome") != "ok" || len(root.ParentSpanId) != 0 {
		t.Errorf("run_code span: call id %q outcome %q parent %x", spanAttr(root, "gen_ai.tool.call.id"), spanAttr(root, "runcode.outcome"), root.ParentSpanId)
	}
	for _, s := range spans {
		if s.span != root && (string(s.span.ParentSpanId) != string(root.SpanId) || string(s.span.TraceId) != string(root.TraceId)) {
			t.Errorf("span %s is not a child of run_code", s.span.Name)
		}
	}
}

// Without an OTLP endpoint in the environment, no tracer provider exists: nothing is traced
// and nothing is exported.
func TestNoOTLPEnvironmentNoTracing(t *testing.T) {
	t.Setenv(otlpEndpointEnv, "")
	t.Setenv(otlpTracesEndpointEnv, "")
	tp, err := openTracing(context.Background(), io.Discard)
	if err != nil || tp != nil {
		t.Fatalf("openTracing = %v, %v; want no provider", tp, err)
	}
	t.Setenv(otlpTracesEndpointEnv, "http://127.0.0.1:1/v1/traces")
	for _, off := range [][2]string{{"OTEL_SDK_DISABLED", "true"}, {"OTEL_TRACES_EXPORTER", "none"}} {
		t.Run(off[0], func(t *testing.T) {
			t.Setenv(off[0], off[1])
			if tp, err := openTracing(context.Background(), io.Discard); err != nil || tp != nil {
				t.Fatalf("openTracing = %v, %v; want no provider", tp, err)
			}
		})
	}
	for _, bad := range [][2]string{{"OTEL_TRACES_EXPORTER", "zipkin"}, {"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"}} {
		t.Run(bad[0], func(t *testing.T) {
			t.Setenv(bad[0], bad[1])
			if _, err := openTracing(context.Background(), io.Discard); err == nil || !strings.Contains(err.Error(), bad[0]+"=\""+bad[1]+"\"") {
				t.Fatalf("openTracing with %s=%s: %v, want an error naming it", bad[0], bad[1], err)
			}
		})
	}
	tp, err = openTracing(context.Background(), io.Discard)
	if err != nil || tp == nil {
		t.Fatalf("with %s: openTracing = %v, %v; want a provider", otlpTracesEndpointEnv, tp, err)
	}
	tp.Shutdown(context.Background())
}

// OTEL_* settings the SDK mishandles are configuration errors naming the variable: a negative
// batch size panicked at start, and a badly escaped header value was logged, a bearer token
// in the clear, to stderr.
func TestOTLPEnvironmentErrors(t *testing.T) {
	const secret = "s3cr3t-token"
	cases := []struct{ key, value, want string }{
		{"OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "-1", `OTEL_BSP_MAX_EXPORT_BATCH_SIZE="-1" must be a positive integer`},
		{"OTEL_BSP_MAX_QUEUE_SIZE", "lots", `OTEL_BSP_MAX_QUEUE_SIZE="lots" must be a positive integer`},
		{"OTEL_BSP_SCHEDULE_DELAY", "0", `OTEL_BSP_SCHEDULE_DELAY="0" must be a positive integer`},
		{"OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%ZZ" + secret, `OTEL_EXPORTER_OTLP_HEADERS: the value of header "authorization" is not URL-encoded correctly`},
		{"OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-ok=1,x-key=" + secret + "%", `OTEL_EXPORTER_OTLP_TRACES_HEADERS: the value of header "x-key"`},
		{"OTEL_EXPORTER_OTLP_HEADERS", "justtext", `OTEL_EXPORTER_OTLP_HEADERS: item 1 is not name=value`},
	}
	for _, c := range cases {
		t.Run(c.key+"="+c.value, func(t *testing.T) {
			t.Setenv(otlpTracesEndpointEnv, "http://127.0.0.1:1/v1/traces")
			t.Setenv(c.key, c.value)
			var stderr strings.Builder
			tp, err := openTracing(context.Background(), &stderr)
			if tp != nil {
				tp.Shutdown(context.Background())
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("openTracing: %v, want an error containing %s", err, c.want)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(stderr.String(), secret) {
				t.Fatalf("the header value leaked: error %q, stderr %q", err, stderr.String())
			}
		})
	}
	t.Run("well-formed settings are accepted", func(t *testing.T) {
		t.Setenv(otlpTracesEndpointEnv, "http://127.0.0.1:1/v1/traces")
		t.Setenv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "64")
		t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20"+secret+",x-team=a%2Cb")
		tp, err := openTracing(context.Background(), io.Discard)
		if err != nil || tp == nil {
			t.Fatalf("openTracing = %v, %v; want a provider", tp, err)
		}
		tp.Shutdown(context.Background())
	})
}

// A real `runcode serve --http` with the OTLP environment continues the trace of a client's
// _meta.traceparent, and has exported the run's spans when it exits after SIGTERM's drain.
func TestServeExportsSpansAndContinuesTraceparent(t *testing.T) {
	r := newOTLPReceiver(t)
	// A long batch delay: the spans reach the receiver by the flush at the end of the drain.
	p := startCLIWithEnv(t, withOTLP(r, "OTEL_BSP_SCHEDULE_DELAY=600000"), "serve", "--http", "127.0.0.1:0", "--workspace", t.TempDir())
	base := waitForServeAddress(t, p)
	cs := connectClient(t, base+"/mcp", "")
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code",
		Arguments: map[string]any{"description": "Traced", "code": `return 1`},
		Meta:      mcp.Meta{"traceparent": "00-" + traceID + "-" + parentID + "-01"}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	if n := len(r.spans(t)); n != 0 {
		t.Fatalf("%d spans exported before the drain (batch delay 10m)", n)
	}
	p.signal(syscall.SIGTERM)
	if code := p.wait(30 * time.Second); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	var root *tracepb.Span
	for _, s := range r.spans(t) {
		if s.span.Name == "execute_tool run_code" {
			root = s.span
		}
	}
	if root == nil {
		t.Fatalf("no run_code span exported: %v; stderr:\n%s", spanNames(r.spans(t)), p.stderr.String())
	}
	if got := string(root.TraceId); got != string(mustHex(t, traceID)) || string(root.ParentSpanId) != string(mustHex(t, parentID)) {
		t.Errorf("run_code span trace %x parent %x, want %s %s", root.TraceId, root.ParentSpanId, traceID, parentID)
	}
}

var serveAddress = regexp.MustCompile(`at (http://127\.0\.0\.1:\d+)/mcp`)

// waitForServeAddress returns the base URL serve reports on stderr.
func waitForServeAddress(t *testing.T, p *cliProcess) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if m := serveAddress.FindStringSubmatch(p.stderr.String()); m != nil {
			return m[1]
		}
		select {
		case <-p.exited:
			t.Fatalf("serve exited: %v; stderr:\n%s", p.err, p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not report its address; stderr:\n%s", p.stderr.String())
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A collector that does not answer does not hold `runcode run` past the flush timeout: the
// run's outcome is printed, the export failure is reported on stderr, and the status is the
// run's.
func TestRunWithAHangingCollectorExitsAfterTheFlushTimeout(t *testing.T) {
	release := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer hs.Close()
	defer close(release)
	start := time.Now()
	p := startCLIWithEnv(t, withOTLP(&otlpReceiver{url: hs.URL}), "run", "--workspace", t.TempDir(), "-")
	p.stdin.Write([]byte(`return "done"`))
	p.stdin.Close()
	if code := p.wait(tracingFlushTimeout + 30*time.Second); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	took := time.Since(start)
	out, _ := io.ReadAll(p.stdout)
	if strings.TrimSpace(string(out)) != "done" {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(p.stderr.String(), "runcode: exporting traces:") {
		t.Errorf("stderr does not report the failed export:\n%s", p.stderr.String())
	}
	t.Logf("exited after %v; stderr: %s", took, p.stderr.String())
}
