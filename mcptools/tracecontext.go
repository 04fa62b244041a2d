package mcptools

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// W3C Trace Context travels in an MCP request's _meta under the header names the propagator
// uses: "traceparent" and "tracestate".
var traceContext propagation.TraceContext

// metaCarrier is a propagation.TextMapCarrier over an MCP _meta map: string values only.
type metaCarrier map[string]any

// Get returns the _meta member key as a string, or "".
func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

// Set sets the _meta member key.
func (m metaCarrier) Set(key, value string) { m[key] = value }

// Keys returns the _meta member names.
func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// ExtractTraceContext returns ctx continuing the trace of the W3C traceparent (and tracestate)
// in an MCP request's _meta, when it has a valid one; otherwise ctx unchanged. The run_code
// span of the call is then a child of the caller's span.
func ExtractTraceContext(ctx context.Context, meta map[string]any) context.Context {
	if _, ok := meta["traceparent"]; !ok {
		return ctx
	}
	return traceContext.Extract(ctx, metaCarrier(meta))
}

// InjectTraceContext adds ctx's span context to meta as W3C traceparent (and tracestate) and
// returns meta (a new map when meta is nil), so that the MCP server called continues the
// trace. Without a valid span context in ctx it returns meta unchanged.
func InjectTraceContext(ctx context.Context, meta map[string]any) map[string]any {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return meta
	}
	if meta == nil {
		meta = map[string]any{}
	}
	traceContext.Inject(ctx, metaCarrier(meta))
	return meta
}
