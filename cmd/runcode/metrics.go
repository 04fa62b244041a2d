package main

// serve's Prometheus metrics: a registry of its own (never the global one), fed by the run
// reports of the MCP server and by a registry observer of the sub-calls.

import (
	"errors"
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/registry"
)

// outcomeOK is the outcome label of a successful run or sub-call.
const outcomeOK = "ok"

// runOutcomes are the outcome labels of runcode_runs_total, created at zero so that a rate over
// them exists before the first failure of a kind: ok and every failure kind.
func runOutcomes() []string {
	out := []string{outcomeOK}
	for _, k := range codemode.FailureKinds() {
		out = append(out, string(k))
	}
	return out
}

// runDurationBuckets span a one-call run (milliseconds) to the default wall ceiling (10m).
var runDurationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}

// serveMetrics are serve's metrics.
type serveMetrics struct {
	registry    *prometheus.Registry
	runs        *prometheus.CounterVec
	runDuration prometheus.Histogram
	subCalls    *prometheus.CounterVec
}

// newServeMetrics registers serve's metrics: runs by outcome, their duration, sub-calls by tool
// and outcome, runs in flight (gate), the worker pool's size and busy workers (pool, nil
// in-process: those two are then absent), and the Go runtime's and the process's own.
func newServeMetrics(gate *mcpserve.RunGate, pool *jsruntime.ProcessPool) *serveMetrics {
	m := &serveMetrics{
		registry: prometheus.NewRegistry(),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "runcode_runs_total",
			Help: "run_code calls by outcome: ok, a run failure kind, or invalid-arguments, shutting-down, internal for calls that ran no program.",
		}, []string{"outcome"}),
		runDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "runcode_run_duration_seconds",
			Help:    "Time from receiving a run_code call to its result, whatever its outcome.",
			Buckets: runDurationBuckets,
		}),
		subCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "runcode_subcalls_total",
			Help: "Tool calls made by programs, by tool and outcome: ok, error (the tool failed), or the pipeline's error code in lower case (invalid_args, timeout, aborted, …).",
		}, []string{"tool", "outcome"}),
	}
	for _, o := range runOutcomes() {
		m.runs.WithLabelValues(o)
	}
	m.registry.MustRegister(m.runs, m.runDuration, m.subCalls,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "runcode_runs_in_flight",
			Help: "run_code calls running now.",
		}, func() float64 { return float64(gate.Running()) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	if pool != nil {
		m.registry.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "runcode_workers",
				Help: "Worker processes of process isolation started now, busy or idle.",
			}, func() float64 { return float64(pool.Stats().Workers) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "runcode_workers_max",
				Help: "The most worker processes (--workers): the most runs that execute at once.",
			}, func() float64 { return float64(pool.Stats().MaxWorkers) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "runcode_workers_busy",
				Help: "Worker processes running a program now (awaiting its tools or computing).",
			}, func() float64 { return float64(pool.Stats().Busy) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "runcode_runs_queued",
				Help: "Runs waiting for a worker process.",
			}, func() float64 { return float64(pool.Stats().Queued) }),
		)
	}
	return m
}

// observeRun counts a finished call.
func (m *serveMetrics) observeRun(rep mcpserve.RunReport) {
	m.runs.WithLabelValues(runOutcome(rep.Kind)).Inc()
	m.runDuration.Observe(rep.Duration.Seconds())
}

func runOutcome(kind string) string {
	if kind == "" {
		return outcomeOK
	}
	return kind
}

// observeSubCall is a registry result observer that counts the sub-calls of every run (the
// top-level run_code calls have no parent and are counted by observeRun).
func (m *serveMetrics) observeSubCall(exec registry.Execution, res registry.Result) {
	if exec.Parent.IsZero() {
		return
	}
	tool, outcome := exec.Name, outcomeOK
	if res.IsError {
		outcome = "error"
		if res.Err != nil && res.Err.Code != "" {
			outcome = strings.ToLower(string(res.Err.Code))
		}
		// A name that is no tool comes from the program: it must not make a label value of its
		// own, or a program could create series without bound.
		if errors.Is(res.Err, registry.CodeUnknownTool) {
			tool = "(unknown)"
		}
	}
	m.subCalls.WithLabelValues(tool, outcome).Inc()
}

// handler serves the metrics in the Prometheus text format.
func (m *serveMetrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}
