package dispatch

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/runcode-dev/runcode/registry"
)

// The span attributes shared by the run_code span and the sub-call spans. The gen_ai.* keys
// are OpenTelemetry's semantic conventions for tool execution; runcode.* are this project's.
const (
	attrOperation  = attribute.Key("gen_ai.operation.name") // always "execute_tool"
	attrToolName   = attribute.Key("gen_ai.tool.name")
	attrCallID     = attribute.Key("gen_ai.tool.call.id") // the (sub-)call's id
	attrRootCallID = attribute.Key("runcode.root_call_id")
	// attrParentCallID is a sub-call's outer call: the run_code call that made it.
	attrParentCallID = attribute.Key("runcode.parent_call_id")
	// AttrOutcome is "ok", or how the call failed: "error" for a failed sub-call, "abandoned"
	// for one that never started because its run was over; for run_code, the failure kind.
	AttrOutcome = attribute.Key("runcode.outcome")
	// AttrErrorType is a failed call's error code (TIMEOUT, ABORTED, …), or its error class
	// name when it has no code, or "tool_error" for a plain failure of the tool.
	AttrErrorType = attribute.Key("error.type")
	// attrErrorName is a failed call's error class name as the program sees it (ToolArgsError, …).
	attrErrorName = attribute.Key("runcode.error.name")
	// attrMode is how the scheduler ran a sub-call: "parallel" or "exclusive".
	attrMode = attribute.Key("runcode.mode")
	// attrQueuedMs is how long a sub-call waited, from the program's call to its start (for a
	// concurrency slot, or for an exclusive call before it), in milliseconds.
	attrQueuedMs = attribute.Key("runcode.queued_ms")
	// attrRunningMs is how long a sub-call ran, from its start (pre-dispatch stages included)
	// to the end of its body, in milliseconds. What remains of the span after that is post-
	// execute and the wait to commit in submission order.
	attrRunningMs = attribute.Key("runcode.running_ms")
)

// Outcomes of a sub-call span.
const (
	outcomeOK        = "ok"
	outcomeError     = "error"
	outcomeAbandoned = "abandoned"
)

// SpanName is the name of the span of a call of tool name: "execute_tool <name>", as
// OpenTelemetry's semantic conventions name tool executions.
func SpanName(name string) string { return "execute_tool " + name }

// SpanAttributes are the identifying attributes of the span of a call.
func SpanAttributes(name, callID, rootCallID string) []attribute.KeyValue {
	if rootCallID == "" {
		rootCallID = callID
	}
	return []attribute.KeyValue{
		attrOperation.String("execute_tool"),
		attrToolName.String(name),
		attrCallID.String(callID),
		attrRootCallID.String(rootCallID),
	}
}

// quietSpan returns ctx for sub-calls made without a tracer: when ctx carries a recording span
// (the embedder's own), the sub-calls get a non-recording one with the same span context, so
// that the registry does not record their stages on the embedder's span while the trace still
// propagates (to the MCP servers a sub-call reaches, for one).
func quietSpan(ctx context.Context, tracer trace.Tracer) context.Context {
	if tracer != nil {
		return ctx
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		return trace.ContextWithSpanContext(ctx, span.SpanContext())
	}
	return ctx
}

// traceStart opens e's span, a child of the run_code span, from its submission on, and
// returns the context its pipeline runs with: the registry records its stages on that span.
func (b *Bridge) traceStart(ctx context.Context, e *entry) context.Context {
	if b.opts.Tracer == nil {
		return ctx
	}
	mode := "parallel"
	if e.exclusive {
		mode = "exclusive"
	}
	c := e.call
	ctx, e.span = b.opts.Tracer.Start(ctx, SpanName(c.Name),
		trace.WithTimestamp(e.submitted),
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(SpanAttributes(c.Name, c.CallID, c.RootCallID)...),
		trace.WithAttributes(attrParentCallID.String(b.opts.CallID), attrMode.String(mode),
			attrQueuedMs.Float64(spanMillis(e.started.Sub(e.submitted)))))
	e.span.AddEvent("started", trace.WithTimestamp(e.started))
	return ctx
}

// traceCommit records e's outcome on its span and ends it.
func traceCommit(e *entry, res registry.Result) {
	span := e.span
	if span == nil {
		return
	}
	end := e.ready // its body, or the pre-dispatch stages that settled it, finished
	if end.IsZero() {
		end = time.Now()
	}
	span.SetAttributes(attrRunningMs.Float64(spanMillis(end.Sub(e.started))))
	if !res.IsError {
		span.SetAttributes(AttrOutcome.String(outcomeOK))
	} else {
		setFailure(span, outcomeError, res.Err)
	}
	span.End()
}

// traceAbandoned records that e never started: its run was over.
func (b *Bridge) traceAbandoned(e *entry, err error) {
	if b.opts.Tracer == nil {
		return
	}
	c := e.call
	_, span := b.opts.Tracer.Start(b.ctx, SpanName(c.Name),
		trace.WithTimestamp(e.submitted),
		trace.WithAttributes(SpanAttributes(c.Name, c.CallID, c.RootCallID)...),
		trace.WithAttributes(attrParentCallID.String(b.opts.CallID)))
	setFailure(span, outcomeAbandoned, &registry.Error{Code: registry.CodeAbortedBeforeDispatch, Name: "AbortError", Message: err.Error()})
	span.End()
}

func setFailure(span trace.Span, outcome string, err *registry.Error) {
	errType, name, msg := "tool_error", "", "tool call failed"
	if err != nil {
		name, msg = err.Name, err.Message
		switch {
		case err.Code != "":
			errType = string(err.Code)
		case err.Name != "":
			errType = err.Name
		}
	}
	span.SetAttributes(AttrOutcome.String(outcome), AttrErrorType.String(errType))
	if name != "" {
		span.SetAttributes(attrErrorName.String(name))
	}
	span.SetStatus(codes.Error, msg)
}

// spanMillis is d in fractional milliseconds, for span attributes.
func spanMillis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Submitted returns how many sub-calls the program has made so far.
func (b *Bridge) Submitted() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.counter
}
