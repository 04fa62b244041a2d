package main

// serve's structured logs: one record per run_code call (log/slog), as text or JSON lines.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/mcpserve"
)

// logFlags are serve's logging flags.
type logFlags struct {
	format   string // text or json
	programs bool   // log each call's code and outcome too
}

func (l *logFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.format, "log-format", "text", "stderr log format: text (key=value) or json (one JSON object a line, the lifecycle messages too)")
	fs.BoolVar(&l.programs, "log-programs", false, "log each call's program and outcome (logs and result) too; without it, no code and no result is ever logged")
}

func (l *logFlags) validate() error {
	if l.format != "text" && l.format != "json" {
		return &flagUsageError{fmt.Sprintf("--log-format must be text or json, got %q", l.format)}
	}
	return nil
}

// logger returns the logger of the runs, writing to w.
func (l *logFlags) logger(w io.Writer) *slog.Logger {
	if l.format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// logRun logs one finished call: its id, description, outcome, duration and sub-call count;
// the program and the outcome (what it printed and returned) only with programs set.
func logRun(logger *slog.Logger, rep mcpserve.RunReport, programs, asJSON bool) {
	level := slog.LevelInfo
	if rep.Kind == mcpserve.KindInternal {
		level = slog.LevelError
	}
	attrs := []slog.Attr{
		slog.String("call_id", rep.CallID),
		slog.String("description", clipped(rep.Description, maxLoggedDescription)),
		slog.String("outcome", runOutcome(rep.Kind)),
		slog.Float64("duration_ms", float64(rep.Duration.Microseconds())/1000),
		slog.Int("sub_calls", rep.SubCalls),
	}
	if programs {
		outcome := jsonv.AppendJSON(nil, rep.Outcome)
		var v slog.Value
		if asJSON {
			v = slog.AnyValue(json.RawMessage(outcome))
		} else {
			v = slog.StringValue(string(outcome))
		}
		attrs = append(attrs, slog.String("program", rep.Program), slog.Attr{Key: "result", Value: v})
	}
	logger.LogAttrs(context.Background(), level, "run_code", attrs...)
}

// maxLoggedDescription caps the description in a run's record: it is the model's text, and a
// client could send megabytes of it.
const maxLoggedDescription = 200

// clipped returns s cut at limit bytes (on a rune boundary), marked with "…" when cut.
func clipped(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	return strings.ToValidUTF8(s[:limit], "") + "…"
}

// lineLogger turns the plain lines serve writes to stderr ("runcode: serving …", "runcode:
// warning: …") into log records, so that with --log-format json every line of stderr is JSON.
type lineLogger struct {
	logger *slog.Logger

	mu      sync.Mutex
	partial []byte // a line not yet ended
}

// Write logs each complete line of p, keeping an unfinished one for the next write.
func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := strings.TrimPrefix(string(l.partial[:i]), "runcode: ")
		l.partial = l.partial[i+1:]
		if strings.TrimSpace(line) == "" {
			continue
		}
		level := slog.LevelInfo
		if rest, ok := strings.CutPrefix(line, "warning: "); ok {
			level, line = slog.LevelWarn, rest
		}
		l.logger.Log(context.Background(), level, line)
	}
}
