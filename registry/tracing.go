package registry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// The pipeline stages a call's span records as events, each when the stage begins. A stage
// that ends the call early (a pre-execute denial, a failed approval, a guard) adds the event
// StageRejected, with the stage and the reason.
const (
	StageCreation    = "creation" // only in a StageRejected event: invalid arguments, a cancelled caller, the code-mode collapse
	StagePreExecute  = "pre-execute"
	StageApproval    = "approval"
	StageGuards      = "guards"
	StageBody        = "body"     // the around-dispatch wrappers and the tool's body
	StageBodyEnd     = "body.end" // the body returned
	StagePostExecute = "post-execute"
	StageFinalize    = "finalize-content"
	StageObservers   = "observers"
	StageRejected    = "rejected"
)

// The attributes of a StageRejected event.
const (
	attrStage  = attribute.Key("runcode.stage")
	attrReason = attribute.Key("runcode.reason")
)

// recording is a span that records.
type recording struct{ span trace.Span }

// recordingSpan returns the span in ctx when it records, so that a call made without a tracer
// pays for one context lookup and nothing else.
func recordingSpan(ctx context.Context) *recording {
	if s := trace.SpanFromContext(ctx); s.IsRecording() {
		return &recording{s}
	}
	return nil
}

// event records that the call reached stage.
func (p *Prepared) event(stage string) {
	if p.span != nil {
		p.span.span.AddEvent(stage)
	}
}

// rejected records that stage ended the call with reason.
func (p *Prepared) rejected(stage, reason string) {
	if p.span != nil {
		p.span.span.AddEvent(StageRejected, trace.WithAttributes(attrStage.String(stage), attrReason.String(reason)))
	}
}
