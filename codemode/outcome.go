package codemode

import (
	"errors"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// CanonicalOutcome returns the canonical outcome of a run_code result: the run's value on
// success ({"logs": [...], "result": value}, see [OutcomeValue]), or {"logs": [...], "error": {"kind",
// "message"}} for a failed program, with the logs it printed before it failed (and "notes": [...]
// when values lost data crossing as JSON, see [OutcomeValue]). ok is false when
// the call failed before any program ran (its error is not a RunFailure: invalid arguments, an
// abort before dispatch, …); the caller decides how to report those.
func CanonicalOutcome(res registry.Result) (outcome jsonv.Value, ok bool) {
	if !res.IsError {
		return res.Value, true
	}
	var f *RunFailure
	if !errors.As(res.Err, &f) {
		return jsonv.Value{}, false
	}
	outcome = FailureOutcome(string(f.Kind), f.Message, f.Logs)
	if len(f.Notes) > 0 {
		outcome = outcome.With("notes", logsValue(f.Notes))
	}
	return outcome, true
}

// FailureOutcome returns the canonical outcome of a failure: {"logs": [...], "error": {"kind":
// kind, "message": message}}.
func FailureOutcome(kind, message string, logs []string) jsonv.Value {
	return jsonv.ObjectValue(
		jsonv.Member{Key: "logs", Value: logsValue(logs)},
		jsonv.Member{Key: "error", Value: jsonv.ObjectValue(
			jsonv.Member{Key: "kind", Value: jsonv.StringValue(kind)},
			jsonv.Member{Key: "message", Value: jsonv.StringValue(message)},
		)},
	)
}

// logsValue is the "logs" array of a canonical outcome.
func logsValue(logs []string) jsonv.Value {
	lines := make([]jsonv.Value, len(logs))
	for i, l := range logs {
		lines[i] = jsonv.StringValue(l)
	}
	return jsonv.ArrayValue(lines...)
}
