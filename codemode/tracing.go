package codemode

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/registry"
)

// TracerName is the instrumentation scope of the spans codemode opens.
const TracerName = "github.com/runcode-dev/runcode/codemode"

// RuntimeTracerName is the instrumentation scope of the runtime's spans (compile and run).
const RuntimeTracerName = "github.com/runcode-dev/runcode/jsruntime"

// The attributes of the run_code span (besides those dispatch.SpanAttributes shares with the
// sub-call spans).
const (
	attrDescription = attribute.Key("runcode.description")
	attrSubCalls    = attribute.Key("runcode.sub_calls")
)

// OutcomeError is the runcode.outcome of a run_code call that failed before or outside its
// program: invalid arguments, or a runtime that refused the request.
const OutcomeError = "error"

// runSpan is the span of one run_code call.
type runSpan struct {
	span   trace.Span
	bridge *dispatch.Bridge // the run's bridge, once it has one
}

// startRunSpan opens the span of one run_code call, a child of the span in ctx, and returns the
// context that carries it. Without a tracer it returns ctx and nil, allocating nothing.
func (cm *codeMode) startRunSpan(ctx context.Context, inv *registry.Invocation) (context.Context, *runSpan) {
	if cm.tracer == nil {
		return ctx, nil
	}
	ctx, span := cm.tracer.Start(ctx, dispatch.SpanName(registry.ReservedName),
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(dispatch.SpanAttributes(registry.ReservedName, inv.CallID, inv.RootCallID)...),
		trace.WithAttributes(attrDescription.String(inv.Arguments.Lookup("description").AsString())))
	return ctx, &runSpan{span: span}
}

// setBridge notes the run's bridge, whose sub-calls the span counts.
func (s *runSpan) setBridge(b *dispatch.Bridge) {
	if s != nil {
		s.bridge = b
	}
}

// end records the outcome of the run_code call and ends its span: runcode.outcome is "ok", the
// failure kind of a failed program (exception, timeout, typecheck, …) or OutcomeError;
// runcode.sub_calls counts the sub-calls the program made. *err is the call's error.
func (s *runSpan) end(err *error) {
	if s == nil {
		return
	}
	span := s.span
	if s.bridge != nil {
		span.SetAttributes(attrSubCalls.Int(s.bridge.Submitted()))
	}
	outcome := "ok"
	if *err != nil {
		outcome = OutcomeError
		msg := (*err).Error()
		var re *registry.Error
		if errors.As(*err, &re) {
			span.SetAttributes(dispatch.AttrErrorType.String(string(re.Code)))
		}
		var f *RunFailure
		if errors.As(*err, &f) {
			outcome, msg = string(f.Kind), f.Message
		}
		span.SetStatus(codes.Error, msg)
	}
	span.SetAttributes(dispatch.AttrOutcome.String(outcome))
	span.End()
}
