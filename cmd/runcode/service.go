package main

// What makes serve operable: a log record and metrics of every run_code call, and the
// operator endpoints of --http (/healthz, /readyz, /metrics).

import (
	"io"
	"log/slog"
	"net/http"

	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcptools"
)

// serviceOps are the logs and metrics of one serve.
type serviceOps struct {
	gate    *mcptools.RunGate
	logger  *slog.Logger
	logs    logFlags
	metrics *serveMetrics
}

// newServiceOps logs to stderr as lf says; the metrics watch gate and pool (nil in-process).
func newServiceOps(lf logFlags, stderr io.Writer, gate *mcptools.RunGate, pool *jsruntime.ProcessPool) *serviceOps {
	return &serviceOps{gate: gate, logger: lf.logger(stderr), logs: lf, metrics: newServeMetrics(gate, pool)}
}

// onRun is the MCP server's run report hook (mcptools.ServerOptions.OnRun).
func (o *serviceOps) onRun(rep mcptools.RunReport) {
	o.metrics.observeRun(rep)
	logRun(o.logger, rep, o.logs.programs, o.logs.format == "json")
}

// routes adds the operator endpoints to mux: /healthz (200 while the process is up) and
// /readyz (200 while it accepts runs, 503 once it drains), neither behind the token, so that
// probes need no secret; /metrics (Prometheus text format) behind the token when one is set.
func (o *serviceOps) routes(mux *http.ServeMux, h *mcptools.HTTPHandler) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if o.gate.Draining() {
			http.Error(w, "draining: this server starts no new runs", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ready\n")
	})
	mux.Handle("GET /metrics", h.RequireToken(o.metrics.handler()))
}
