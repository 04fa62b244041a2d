package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/mcpserve"
)

// A run's record clips a long description, and holds the program and outcome only when asked.
func TestLogRunClipsTheDescriptionAndKeepsProgramsOut(t *testing.T) {
	rep := mcpserve.RunReport{
		CallID: "mcp-9", Description: strings.Repeat("é", 300), Program: "return SECRET", Kind: "timeout",
		Outcome: jsonv.MustParse(`{"logs":["SECRET log"],"error":{"kind":"timeout","message":"m"}}`), Duration: 1500 * time.Millisecond, SubCalls: 4,
	}
	for _, programs := range []bool{false, true} {
		var buf bytes.Buffer
		lf := logFlags{format: "json", programs: programs}
		logRun(lf.logger(&buf), rep, programs, true)
		var rec map[string]any
		if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
			t.Fatalf("%q: %v", buf.String(), err)
		}
		desc, _ := rec["description"].(string)
		if len(desc) > maxLoggedDescription+len("…") || !strings.HasSuffix(desc, "…") || !strings.HasPrefix(desc, "éé") {
			t.Fatalf("description %q", desc)
		}
		if rec["outcome"] != "timeout" || rec["duration_ms"] != 1500.0 || rec["sub_calls"] != 4.0 || rec["call_id"] != "mcp-9" {
			t.Fatalf("record %v", rec)
		}
		if strings.Contains(buf.String(), "SECRET") != programs {
			t.Fatalf("programs %v: %s", programs, buf.String())
		}
	}
}

// With --log-format json, the plain lifecycle lines become records, warnings at WARN.
func TestLineLoggerTurnsLinesIntoRecords(t *testing.T) {
	var buf bytes.Buffer
	lf := logFlags{format: "json"}
	w := &lineLogger{logger: lf.logger(&buf)}
	w.Write([]byte("runcode: serving run_code at x\nruncode: warning: not loopback"))
	w.Write([]byte("\n\n"))
	var recs []map[string]any
	for line := range strings.Lines(buf.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		recs = append(recs, rec)
	}
	if len(recs) != 2 || recs[0]["msg"] != "serving run_code at x" || recs[0]["level"] != "INFO" || recs[1]["msg"] != "not loopback" || recs[1]["level"] != "WARN" {
		t.Fatalf("records %v", recs)
	}
}

func TestServeRefusesAnUnknownLogFormat(t *testing.T) {
	code, _, stderr := invoke(t, "", "serve", "--stdio", "--log-format", "xml", "--workspace", t.TempDir())
	if code != exitUsage || !strings.Contains(stderr, `--log-format must be text or json, got "xml"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
