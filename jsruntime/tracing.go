package jsruntime

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// The runtime's span names, opened with Request.Tracer. Under ProcessPool they are measured in
// the calling process: compile and run happen in the worker, so SpanRun covers the whole worker
// call (compilation included) and there is no SpanCompile.
const (
	SpanCompile = "jsruntime.compile"
	SpanRun     = "jsruntime.run"
)

const (
	attrIsolation = attribute.Key("runcode.isolation")
	attrOutcome   = attribute.Key("runcode.outcome")
)

// startSpan opens the span name with req's tracer as a child of the span in ctx, or returns
// nil without a tracer.
func startSpan(ctx context.Context, req *Request, name, isolation string) trace.Span {
	if req.Tracer == nil {
		return nil
	}
	_, span := req.Tracer.Start(ctx, name, trace.WithAttributes(attrIsolation.String(isolation)))
	return span
}

// endSpan ends span with the outcome of a run or compilation: "ok", or the failure's kind.
func endSpan(span trace.Span, f *Failure) {
	if span == nil {
		return
	}
	if f == nil {
		span.SetAttributes(attrOutcome.String("ok"))
	} else {
		span.SetAttributes(attrOutcome.String(string(f.Kind)))
		span.SetStatus(codes.Error, f.Message)
	}
	span.End()
}
