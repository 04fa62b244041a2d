package codemode

// The output budget: how much of a run's output reaches the model (Options.OutputBudget).

import (
	"fmt"
	"strings"

	"github.com/runcode-dev/runcode/internal/jsonfit"
	"github.com/runcode-dev/runcode/jsonv"
)

const (
	// DefaultOutputBudget is Options.OutputBudget when zero: 40,000 bytes, OpenAI Codex's
	// default of 10,000 tokens for what its code mode returns to the model, at the 4 bytes per
	// token Codex itself estimates with (DECISIONS row 85).
	DefaultOutputBudget = 40_000
	// MinOutputBudget is the smallest Options.OutputBudget: room for the note that says what
	// was cut beside a little of the output.
	MinOutputBudget = 2 << 10
)

// outputBudget returns the budget of opts in bytes, or 0 for none.
func outputBudget(n int) int {
	switch {
	case n < 0:
		return 0
	case n == 0:
		return DefaultOutputBudget
	}
	return n
}

// FitOutcome returns outcome, the canonical outcome of a successful run (see [OutcomeValue]), shrunk
// so that what the model reads of it, both its JSON and its text (RenderText), is at most
// budget bytes, as Options.OutputBudget says: zero means DefaultOutputBudget, negative no
// budget. The logs are cut in their middle, the result's longest strings and arrays first
// (see package internal/jsonfit for the markers), and a last note says how much was cut and
// how to get the rest; writeTool, when not empty, is the call path of a tool that writes files
// (tools.write_file), which the note suggests for that.
func FitOutcome(outcome jsonv.Value, budget int, writeTool string) jsonv.Value {
	budget = outputBudget(budget)
	if budget == 0 || fitsOutcome(outcome, budget) {
		return outcome
	}
	total := outcome.ByteLen()
	return fitLoop(budget, func(b int) (jsonv.Value, int) {
		fitted, rep := jsonfit.Fit(outcome, b, logsOptions)
		fitted = fitted.With("notes", jsonv.ArrayOf(append(fitted.Lookup("notes").Items(), jsonv.StringValue(budgetNote(rep, budget, total, writeTool, true)))))
		return fitted, max(fitted.ByteLen(), len(RenderText(fitted)))
	})
}

// FitFailure returns f with its message and logs shrunk so that what the model reads of the
// failure, its text ("Error: " followed by f.Error()) and its canonical outcome (see
// CanonicalOutcome), is at most budget bytes (as for FitOutcome), and a note saying so; f
// itself when it fits.
func FitFailure(f *RunFailure, budget int, writeTool string) *RunFailure {
	budget = outputBudget(budget)
	if budget == 0 {
		return f
	}
	asValue := func(f *RunFailure) jsonv.Value {
		return jsonv.ObjectValue(
			jsonv.Member{Key: "logs", Value: logsValue(f.Logs)},
			jsonv.Member{Key: "message", Value: jsonv.StringValue(f.Message)},
			jsonv.Member{Key: "notes", Value: logsValue(f.Notes)},
		)
	}
	size := func(f *RunFailure) int {
		outcome := FailureOutcome(string(f.Kind), f.Message, f.Logs)
		if len(f.Notes) > 0 {
			outcome = outcome.With("notes", logsValue(f.Notes))
		}
		return max(outcome.ByteLen(), len("Error: ")+len(f.Error()))
	}
	if size(f) <= budget {
		return f
	}
	v := asValue(f)
	total := v.ByteLen()
	var out *RunFailure
	fitLoop(budget, func(b int) (jsonv.Value, int) {
		fitted, rep := jsonfit.Fit(v, b, logsOptions)
		out = &RunFailure{Kind: f.Kind, Message: fitted.Lookup("message").AsString(), Logs: stringsOf(fitted.Lookup("logs")), Notes: stringsOf(fitted.Lookup("notes"))}
		out.Notes = append(out.Notes, budgetNote(rep, budget, total, writeTool, false))
		return fitted, size(out)
	})
	return out
}

// logsOptions cut the logs of an outcome in their middle, counting lines.
var logsOptions = jsonfit.Options{Middle: []string{"logs"}, MiddleUnit: "lines"}

// fitsOutcome reports whether outcome's JSON and text are both within budget, without
// rendering an outcome whose JSON alone is over it.
func fitsOutcome(outcome jsonv.Value, budget int) bool {
	if !jsonfit.Fits(outcome, budget) {
		return false
	}
	return len(RenderText(outcome)) <= budget
}

// fitLoop calls try with a budget for the value (the whole budget less a reserve for the note)
// until what try builds is within budget, lowering the value's budget by what it overshot:
// the text of a result is indented JSON, longer than the JSON the value was fitted to.
func fitLoop(budget int, try func(valueBudget int) (jsonv.Value, int)) jsonv.Value {
	b := budget - noteReserve
	var out jsonv.Value
	for range 8 {
		var size int
		out, size = try(b)
		if size <= budget {
			return out
		}
		b -= size - budget + b/16
		if b < jsonfit.MinBudget {
			break
		}
	}
	out, _ = try(jsonfit.MinBudget)
	return out
}

// noteReserve is room kept for the note of a cut output.
const noteReserve = 600

// budgetNote says what was cut to fit budget bytes of an output of total bytes, and how to get
// the rest.
func budgetNote(rep jsonfit.Report, budget, total int, writeTool string, succeeded bool) string {
	var cut []string
	if rep.MiddleItems > 0 {
		cut = append(cut, fmt.Sprintf("%s cut from the middle of the logs where marked", jsonfit.Counted(rep.MiddleItems, "lines")))
	}
	if rep.Strings > 0 {
		cut = append(cut, fmt.Sprintf("%s cut from %s where marked \"…[N characters cut]…\"", jsonfit.Counted(rep.Chars, "characters"), jsonfit.Counted(rep.Strings, "strings")))
	}
	if n := rep.Arrays; rep.Items > rep.MiddleItems {
		if rep.MiddleItems > 0 {
			n-- // the logs
		}
		cut = append(cut, fmt.Sprintf("%s left out at the end of %s where marked \"… N more items\"", jsonfit.Counted(rep.Items-rep.MiddleItems, "items"), jsonfit.Counted(n, "arrays")))
	}
	if rep.Objects > 0 {
		cut = append(cut, fmt.Sprintf("%s left out of %s where marked \"…\"", jsonfit.Counted(rep.Keys, "keys"), jsonfit.Counted(rep.Objects, "objects")))
	}
	note := fmt.Sprintf("[runcode: the output (%s of JSON) was shrunk to the model's output budget of %s", jsonfit.Counted(total, "bytes"), jsonfit.Counted(budget, "bytes"))
	if len(cut) > 0 {
		note += ": " + strings.Join(cut, "; ")
	}
	note += "."
	if succeeded {
		note += " The run itself succeeded."
	}
	note += " To see what was cut, "
	if writeTool != "" {
		note += "have the program write the full data to a file with " + writeTool + " and return a summary of it, or "
	}
	return note + "run a narrower query: filter, slice (.slice(100, 200)), count or summarize in the program and return less.]"
}

// stringsOf returns the strings of an array of strings.
func stringsOf(v jsonv.Value) []string {
	out := make([]string, v.Len())
	for i := range out {
		out[i] = v.Index(i).AsString()
	}
	return out
}

// writeToolOf returns the call path of the tool among names that writes workspace files
// ("tools.write_file", "tools.fs.write_file"), or "" when there is none.
func writeToolOf(names []string) string {
	for _, n := range names {
		if n == "write_file" || strings.HasSuffix(n, ".write_file") {
			return "tools." + n
		}
	}
	return ""
}
