package mcpserve

// The structured side of a run_code result: the canonical outcome as structuredContent, the
// outputSchema that declares it, and the report a host gets of every call.

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// Failure kinds of calls that ran no program (codemode.FailureKinds lists every kind). A call
// aborted or timed out before its program started gets abort or timeout.
const (
	// KindInvalidArguments: the arguments were not a JSON object with a code and a non-empty
	// description.
	KindInvalidArguments = string(codemode.KindInvalidArguments)
	// KindShuttingDown: the server is draining and starts no new runs (retry elsewhere or later).
	KindShuttingDown = string(codemode.KindShuttingDown)
	// KindInternal: the server could not start the run (its runtime was closed, for one).
	KindInternal = string(codemode.KindInternal)
)

// OutputSchema is the outputSchema run_code declares: the canonical outcome that every result's
// structuredContent carries, {"logs": [...], "result": value} (no "result" when the program
// returned nothing) or {"logs": [...], "error": {"kind", "message"}}, never both; either with
// "notes": [...] when a value lost data on its way to JSON or the output budget cut the outcome
// (see codemode.Outcome and codemode.Options.OutputBudget).
const OutputSchema = `{"type":"object",` +
	`"properties":{` +
	`"logs":{"type":"array","items":{"type":"string"},"description":"What the program printed with console.log, one entry per call, in order (before a failure: what it printed until then)."},` +
	`"result":{"description":"The value the program returned, as JSON; absent when it returned nothing or failed."},` +
	`"notes":{"type":"array","items":{"type":"string"},"description":"One line each: where a value the program returned or passed to a tool lost data on its way to JSON (a Map or a Set became {}, a function was left out), and, when the output was over the output budget, what was cut and how to get the rest; absent when neither happened."},` +
	`"error":{"type":"object","description":"Present when the run failed.","properties":{` +
	`"kind":{"type":"string","description":"Why: exception, timeout, abort, worker-exit, invalid-output, output-limit, typecheck; or, when no program ran, invalid-arguments, shutting-down (retry on another server or later), internal."},` +
	`"message":{"type":"string","description":"The failure's message, as the text result says it."}},` +
	`"required":["kind","message"],"additionalProperties":false}},` +
	`"required":["logs"],"additionalProperties":false,"not":{"required":["result","error"]}}`

// RunReport describes one finished run_code call of a server (ServerOptions.OnRun).
type RunReport struct {
	// CallID is the call's id ("mcp-1", "mcp-2", …), also the root call id of its sub-calls.
	CallID string
	// Description and Program are the call's description and code arguments ("" when absent).
	Description, Program string
	// Kind is "" for a successful run, else the failure kind (see OutputSchema).
	Kind string
	// Outcome is the canonical outcome, the result's structuredContent.
	Outcome jsonv.Value
	// Duration is the time from receiving the call to its result.
	Duration time.Duration
	// SubCalls is the number of the program's tool calls that settled: each that ran, and each
	// that had started and was given up on when the run ended (it settles then, as a failure).
	// Calls still queued when the run ended never started and do not count, and neither do
	// the calls of runs that the program's tools start themselves.
	SubCalls int
}

// outcomeOf returns the canonical outcome of a run_code result and its failure kind ("" for a
// success). A call that failed before any program ran gets a kind from its error's code.
func outcomeOf(res registry.Result) (jsonv.Value, string) {
	if v, ok := codemode.CanonicalOutcome(res); ok {
		if !res.IsError {
			return v, ""
		}
		return v, v.Lookup("error").Lookup("kind").AsString()
	}
	kind := KindInternal
	if res.Err != nil {
		kind = string(codemode.KindOf(res.Err))
	}
	msg := "unknown failure"
	if res.Err != nil {
		msg = res.Err.Message
	}
	return codemode.FailureOutcome(kind, msg, nil), kind
}

// failureResult is the result of a call that ran no program: "Error: <message>" as text, and
// the failure as structuredContent.
func failureResult(kind, message string) (*mcp.CallToolResult, jsonv.Value) {
	message = strings.TrimPrefix(message, "Error: ")
	outcome := codemode.FailureOutcome(kind, message, nil)
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: "Error: " + message}},
		StructuredContent: json.RawMessage(jsonv.AppendJSON(nil, outcome)),
	}, outcome
}
