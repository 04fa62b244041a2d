package main

// What makes serve operable: a log record and metrics of every run_code call, and the
// operator endpoints of --http (/healthz, /readyz, /metrics).

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
)

// serviceOps are the logs and metrics of one serve.
type serviceOps struct {
	gate    *mcpserve.RunGate
	logger  *slog.Logger
	logs    logFlags
	metrics *serveMetrics
}

// newServiceOps logs to stderr as lf says; the metrics watch gate and pool (nil in-process).
func newServiceOps(lf logFlags, stderr io.Writer, gate *mcpserve.RunGate, pool *jsruntime.ProcessPool) *serviceOps {
	return &serviceOps{gate: gate, logger: lf.logger(stderr), logs: lf, metrics: newServeMetrics(gate, pool)}
}

// onRun is the MCP server's run report hook (mcpserve.ServerOptions.OnRun).
func (o *serviceOps) onRun(rep mcpserve.RunReport) {
	o.metrics.observeRun(rep)
	logRun(o.logger, rep, o.logs.programs, o.logs.format == "json")
}

// routes adds the operator endpoints to mux: /healthz (200 while the process is up) and
// /readyz (200 while it accepts runs, 503 once it drains), neither behind the token, so that
// probes need no secret; /metrics (Prometheus text format) behind the token when one is set.
func (o *serviceOps) routes(mux *http.ServeMux, h *mcpserve.HTTPHandler) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if o.gate.Draining() {
			http.Error(w, "draining: this server starts no new runs", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ready\n")
	})
	mux.Handle("GET /metrics", loopbackHostOnly(h.RequireToken(o.metrics.handler())))
}

// loopbackHostOnly refuses, with 403, a request that reached a loopback listener under a Host
// that is not a loopback name or address: a page on another site whose name was rebound to
// 127.0.0.1 (DNS rebinding) could otherwise read the endpoint, as the MCP SDK already refuses
// for /mcp.
func loopbackHostOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if local != nil && isLoopback(local) && !isLoopbackHost(r.Host) {
			http.Error(w, "Forbidden: a loopback server answers only requests for a loopback host", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopbackHost reports whether host (a Host header, with or without a port) is localhost or
// a loopback address.
func isLoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
