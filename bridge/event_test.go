package bridge_test

import (
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/jsonv"
)

// A trace written before events had times still reads; bad lines are errors naming the line.
func TestReadEvents(t *testing.T) {
	old := `{"type":"code-dispatch-start","rootCallId":"r","parentCallId":"r","subCallId":"r:code:1","name":"x","arguments":{}}

{"type":"code-dispatch","rootCallId":"r","parentCallId":"r","subCallId":"r:code:1","name":"x","arguments":{},"isError":true,"content":[{"type":"text","text":"Error: nope"}]}
`
	events, err := bridge.ReadEvents(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || !events[1].IsError || events[1].ErrorMessage != "nope" || !events[1].Time.IsZero() {
		t.Fatalf("events: %+v", events)
	}
	for _, c := range []struct{ text, want string }{
		{"{}\nnot json\n", "line 1: missing \"type\""},
		{`{"type":"code-dispatch-start","rootCallId":"r","parentCallId":"r","subCallId":"s","name":"x","arguments":{}}` + "\n[1]\n", "line 2: an event must be a JSON object, got array"},
		{`{"type":"other"}`, `line 1: unknown event type "other"`},
		{`{"type":"code-dispatch","rootCallId":"r","parentCallId":"r","subCallId":"s","name":"x","arguments":{},"isError":false,"content":[],"time":"yesterday"}`, `line 1: "time": parsing time`},
		{`{"type":"code-dispatch","rootCallId":"r","parentCallId":"r","subCallId":"s","name":"x","arguments":{},"isError":false,"content":[],"durationMs":-1,"time":"2026-01-01T00:00:00Z"}`, `"durationMs" must be a non-negative number`},
		{`{"type":"code-dispatch","rootCallId":"r","parentCallId":"r","subCallId":"s","name":"x","arguments":{},"isError":false,"content":[{"type":"text"}]}`, `content[0]: needs "text", a string`},
	} {
		_, err := bridge.ReadEvents(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadEvents(%q): %v, want an error containing %q", c.text, err, c.want)
		}
	}
}

// FuzzReadEvents: any input either reads as events or fails with an error; events that read
// write back to JSON that reads as the same events.
func FuzzReadEvents(f *testing.F) {
	f.Add(`{"type":"code-dispatch-start","rootCallId":"r","parentCallId":"r","subCallId":"r:code:1","name":"x","arguments":{"a":1},"time":"2026-12-01T10:00:00.000000001Z"}`)
	f.Add(`{"type":"code-dispatch","rootCallId":"r","parentCallId":"r","subCallId":"r:code:1","name":"x","arguments":{},"isError":false,"content":[{"type":"image","data":"AA==","mimeType":"image/png"}],"time":"2026-12-01T10:00:00.5Z","durationMs":12.5,"result":[1,"two"]}`)
	f.Add(`{"type":"code-dispatch","rootCallId":"r","parentCallId":"r","subCallId":"r:code:1","name":"x","arguments":null,"isError":true,"content":[],"errorMessage":"e"}` + "\n\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		events, err := bridge.ReadEvents(strings.NewReader(text))
		if err != nil {
			return
		}
		var b strings.Builder
		for _, e := range events {
			b.WriteString(e.Value().String() + "\n")
		}
		again, err := bridge.ReadEvents(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("written events do not read back: %v\n%s", err, b.String())
		}
		if len(again) != len(events) {
			t.Fatalf("%d events read back as %d", len(events), len(again))
		}
		for i := range again {
			if got, want := again[i].Value().String(), events[i].Value().String(); got != want {
				t.Fatalf("event %d:\n%s\nwant:\n%s", i, got, want)
			}
		}
	})
}

// A run's start and end events (the program, the outcome) round-trip through Value and
// ParseEvent, and ReadEvents reads them beside dispatch events.
func TestRunEventsRoundTrip(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	outcome := jsonv.ObjectValue(jsonv.Member{Key: "logs", Value: jsonv.ArrayValue(jsonv.StringValue("hi"))}, jsonv.Member{Key: "result", Value: jsonv.Int(3)})
	events := []bridge.Event{
		{Type: bridge.EventRunStart, RootCallID: "run-1", Program: "return 1 + 2", Description: "Run p.ts", Time: t0, Started: t0},
		{Type: bridge.EventRunEnd, RootCallID: "run-1", Outcome: outcome, Time: t0.Add(1500 * time.Microsecond), Started: t0},
	}
	var text strings.Builder
	for _, e := range events {
		text.Write(jsonv.AppendJSON(nil, e.Value()))
		text.WriteByte('\n')
	}
	want := `{"type":"code-run-start","rootCallId":"run-1","description":"Run p.ts","program":"return 1 + 2","time":"2026-12-02T09:00:00.000000000Z"}
{"type":"code-run","rootCallId":"run-1","outcome":{"logs":["hi"],"result":3},"time":"2026-12-02T09:00:00.001500000Z","durationMs":1.5}
`
	if text.String() != want {
		t.Fatalf("run events:\n%s\nwant:\n%s", text.String(), want)
	}
	got, err := bridge.ReadEvents(strings.NewReader(text.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Program != "return 1 + 2" || got[0].Description != "Run p.ts" || got[1].Outcome.String() != outcome.String() || got[1].Duration() != 1500*time.Microsecond {
		t.Fatalf("read back: %+v", got)
	}
	for _, bad := range []string{
		`{"type":"code-run-start","rootCallId":"r"}`,
		`{"type":"code-run","rootCallId":"r","outcome":[]}`,
	} {
		if _, err := bridge.ReadEvents(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
}
