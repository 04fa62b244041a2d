package codemode_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// bigOutput prints about 5 MB of logs (50,000 lines of 100 bytes) and returns 20,000 records
// and a 1 MB string beside a small summary.
const bigOutput = `
for (let i = 0; i < 50000; i++) console.log("line " + i + " " + "x".repeat(90));
const rows = [];
for (let i = 0; i < 20000; i++) rows.push({id: i, name: "record " + i});
return {summary: {count: rows.length, ok: true}, rows, text: "y".repeat(1 << 20)};`

// TestOutputBudget (issue 23, observation 6): a run whose output is far over the model's
// budget succeeds, and what reaches the model — the text and the canonical outcome — is within
// the budget, valid JSON of the same shape, with markers where it was cut and a note that says
// how much was cut and how to get the rest; in both isolations. The default budget applies
// when Options leave it zero; a negative budget turns it off.
func TestOutputBudget(t *testing.T) {
	writeFile := registry.Tool{
		Name:       "write_file",
		Parameters: jsonv.MustParse(`{"type":"object"}`),
		Output:     registry.AnyOutput(),
		Execute: func(_ context.Context, _ *registry.Invocation) (jsonv.Value, error) {
			return jsonv.NullValue(), nil
		},
	}
	for _, iso := range isolations(t) {
		t.Run(iso.name, func(t *testing.T) {
			for _, tc := range []struct {
				name   string
				budget int
				want   int // the budget in effect
			}{
				{"default", 0, codemode.DefaultOutputBudget},
				{"small", 4000, 4000},
			} {
				t.Run(tc.name, func(t *testing.T) {
					reg := installOn(t, iso.rt, codemode.Options{OutputBudget: tc.budget}, writeFile)
					res := runCode(reg, bigOutput)
					if res.IsError {
						t.Fatalf("a run over the budget failed: %s", res.Err.Message)
					}
					text := res.Content[0].Text
					outcome, _ := codemode.CanonicalOutcome(res)
					data := jsonv.AppendJSON(nil, outcome)
					if len(text) > tc.want || len(data) > tc.want {
						t.Fatalf("the model reads %d bytes of text and %d of JSON, over the budget of %d", len(text), len(data), tc.want)
					}
					if !json.Valid(data) {
						t.Fatalf("outcome is not valid JSON: %.300s", data)
					}
					logs, result := outcome.Lookup("logs"), outcome.Lookup("result")
					if logs.Len() < 3 || logs.Index(0).AsString() != "line 0 "+strings.Repeat("x", 90) ||
						!strings.HasPrefix(logs.Index(logs.Len()-1).AsString(), "line 49999 ") {
						t.Errorf("logs should keep their first and last lines: %.300s", logs)
					}
					if !strings.Contains(logs.String(), " more lines\"") {
						t.Errorf("logs lack the marker of the lines cut from their middle: %.300s", logs)
					}
					if got := result.Lookup("summary").String(); got != `{"count":20000,"ok":true}` {
						t.Errorf("the small summary should be whole, got %s", got)
					}
					rows := result.Lookup("rows")
					if rows.Kind() != jsonv.Array || rows.Index(0).String() != `{"id":0,"name":"record 0"}` ||
						!strings.HasSuffix(rows.Index(rows.Len()-1).AsString(), " more items") {
						t.Errorf("rows should keep their first records and a marker: %.300s", rows)
					}
					if s := result.Lookup("text").AsString(); !strings.HasPrefix(s, "yyy") || !strings.Contains(s, " characters cut]…") {
						t.Errorf("the long string should be cut with a marker: %.200s", s)
					}
					notes := outcome.Lookup("notes")
					note := notes.Index(notes.Len() - 1).AsString()
					for _, w := range []string{"output budget", "lines cut from the middle of the logs", "tools.write_file", "narrower query"} {
						if !strings.Contains(note, w) {
							t.Errorf("note lacks %q: %s", w, note)
						}
					}
					if !strings.HasSuffix(text, note) {
						t.Errorf("the text should end with the note: %.300s", text[max(0, len(text)-300):])
					}
				})
			}
			t.Run("off", func(t *testing.T) {
				reg := installOn(t, iso.rt, codemode.Options{OutputBudget: -1})
				res := runCode(reg, bigOutput)
				if res.IsError {
					t.Fatal(res.Err.Message)
				}
				if n := len(res.Content[0].Text); n < 5<<20 {
					t.Errorf("with the budget off the model reads all of the output, got %d bytes", n)
				}
			})
			t.Run("failure", func(t *testing.T) {
				reg := installOn(t, iso.rt, codemode.Options{OutputBudget: 4000})
				res := runCode(reg, `for (let i = 0; i < 50000; i++) console.log("line " + i + " " + "x".repeat(90)); throw new Error("boom " + "z".repeat(100000))`)
				if !res.IsError {
					t.Fatal("succeeded")
				}
				text := res.Content[0].Text
				outcome, _ := codemode.CanonicalOutcome(res)
				data := jsonv.AppendJSON(nil, outcome)
				if len(text) > 4000 || len(data) > 4000 {
					t.Fatalf("the model reads %d bytes of text and %d of JSON, over the budget of 4000: %.300s", len(text), len(data), text)
				}
				if !strings.HasPrefix(text, "Error: code run failed (exception): Error: boom zzz") || !strings.Contains(text, "line 49999 ") ||
					!strings.Contains(text, " more lines") || !strings.Contains(text, "output budget") {
					t.Errorf("text = %.600s…", text)
				}
				if outcome.Lookup("error").Lookup("kind").AsString() != "exception" {
					t.Errorf("outcome = %.300s", data)
				}
			})
		})
	}
}

func TestOutputBudgetOption(t *testing.T) {
	reg := registry.New()
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if err := codemode.Install(reg, codemode.Options{Runtime: rt, OutputBudget: 100}); err == nil || !strings.Contains(err.Error(), "OutputBudget") {
		t.Errorf("a budget below the minimum: %v", err)
	}
}
