package mcptools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/internal/mcpwire"
)

// DefaultMaxMessageBytes is the default cap on one message from an MCP server
// (Source.MaxMessageBytes): a line over stdio, a response body or event over HTTP.
const DefaultMaxMessageBytes = mcpwire.DefaultMaxMessageBytes

// upstreamProgress receives the progress notifications of an upstream MCP tool (its qualified
// name) that a run calls.
type upstreamProgress func(tool string, p *mcp.ProgressNotificationParams)

type upstreamProgressKey struct{}

// WithUpstreamProgress returns ctx carrying sink. A tool call of a Server whose context carries
// a sink asks the upstream server for progress (only then) and passes each notification to sink
// with the tool's qualified name. The MCP server half (mcpserve) sets one for a run whose client
// asked for progress.
func WithUpstreamProgress(ctx context.Context, sink func(tool string, p *mcp.ProgressNotificationParams)) context.Context {
	return context.WithValue(ctx, upstreamProgressKey{}, upstreamProgress(sink))
}
