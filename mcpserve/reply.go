package mcpserve

// The size of a run_code reply: whether it carries structuredContent (ServerOptions.Structured)
// and the bound that keeps one reply within a client's message limit (ServerOptions.MaxReplyBytes).

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// StructuredMode says when run_code replies carry structuredContent beside their text.
//
// MCP gives a server no way to know whether a client reads structuredContent (no client
// capability declares it), and a client that does not still receives it: every reply then
// carries its output twice. So the default sends it only when that costs little.
type StructuredMode string

const (
	// StructuredAuto (the default; also the zero value) sends structuredContent when the whole
	// reply with it is at most AutoStructuredBytes, else the text only. run_code then declares
	// no outputSchema: the MCP specification has a tool that declares one always return
	// structuredContent, and clients (the TypeScript SDK's, for one) reject a successful reply
	// without it.
	StructuredAuto StructuredMode = "auto"
	// StructuredAlways sends structuredContent with every reply and declares the outputSchema
	// (OutputSchema). A reply too large for MaxReplyBytes carries, in place of the outcome, an
	// output-limit failure saying so (isError set), and its text is cut if it still does not
	// fit.
	StructuredAlways StructuredMode = "always"
	// StructuredNever sends the text only and declares no outputSchema.
	StructuredNever StructuredMode = "never"
)

// ParseStructuredMode parses "auto", "always" or "never".
func ParseStructuredMode(s string) (StructuredMode, error) {
	switch m := StructuredMode(s); m {
	case StructuredAuto, StructuredAlways, StructuredNever:
		return m, nil
	}
	return "", fmt.Errorf("structured mode %q: want auto, always or never", s)
}

const (
	// AutoStructuredBytes is the largest reply, structuredContent included, that
	// StructuredAuto sends structuredContent with.
	AutoStructuredBytes = 1 << 20
	// DefaultMaxReplyBytes is ServerOptions.MaxReplyBytes when zero: below the 10 MiB that the
	// official TypeScript SDK's stdio reader buffers at most (STDIO_DEFAULT_MAX_BUFFER_SIZE, in
	// @modelcontextprotocol/sdk 1.x), which ends the client's session when a line exceeds it,
	// with room for the next message read in the same chunk.
	DefaultMaxReplyBytes = 8 << 20
	// minMaxReplyBytes is the smallest MaxReplyBytes: room for the envelope and the marker.
	minMaxReplyBytes = 16 << 10
	// envelopeBytes is what the JSON-RPC response around a result may add to it (jsonrpc, the
	// request's id, the SDK's own fields).
	envelopeBytes = 4 << 10
)

// replyShaper fits run_code replies to a mode and a size bound.
type replyShaper struct {
	mode     StructuredMode
	maxBytes int
}

// shape returns out as sent: with or without its structuredContent as the mode says, and at
// most maxBytes of JSON-RPC message. A reply over the bound loses its structuredContent first
// (under StructuredAlways: in favour of a small output-limit failure), then its content is cut,
// with a marker saying how much and how to get the rest.
func (s replyShaper) shape(out *mcp.CallToolResult) *mcp.CallToolResult {
	structured := out.StructuredContent
	switch s.mode {
	case StructuredNever:
		out.StructuredContent = nil
	case StructuredAuto:
		if structured != nil && resultSize(out) > AutoStructuredBytes {
			out.StructuredContent = nil
		}
	}
	if resultSize(out) <= s.maxBytes {
		return out
	}
	if out.StructuredContent != nil {
		out.StructuredContent = nil
		if s.mode == StructuredAlways {
			// The outputSchema promises structuredContent on every reply: an output-limit
			// failure (small, and valid under the schema) says why the outcome is not there.
			msg := fmt.Sprintf("the reply did not fit one MCP message of at most %d bytes with its structured outcome, which was left out: the text content holds the output (cut, with a marker, if it did not fit either); run a program that prints or returns less", s.maxBytes)
			out.StructuredContent = json.RawMessage(jsonv.AppendJSON(nil, codemode.FailureOutcome(string(jsruntime.KindOutputLimit), msg, nil)))
			out.IsError = true
		}
		if resultSize(out) <= s.maxBytes {
			return out
		}
	}
	content := out.Content
	// What the content may take: the bound less the rest of the reply and the marker. The
	// estimate of a cut block's JSON is an upper bound; the loop only guards against a miss.
	room := s.maxBytes - resultSize(&mcp.CallToolResult{IsError: out.IsError, Content: []mcp.Content{}, StructuredContent: out.StructuredContent}) - markerReserve
	for range 4 {
		out.Content = cutContent(content, room, s.maxBytes)
		size := resultSize(out)
		if size <= s.maxBytes {
			break
		}
		room -= size - s.maxBytes + 1<<10
	}
	return out
}

// markerReserve is room kept for the markers of a cut reply.
const markerReserve = 2 << 10

// resultSize is the size of r's JSON-RPC response, envelope included.
func resultSize(r *mcp.CallToolResult) int {
	data, err := json.Marshal(r)
	if err != nil {
		return 0 // the transport fails it the same way; nothing to bound
	}
	return len(data) + envelopeBytes
}

// cutContent keeps blocks whole while their JSON fits in room; the first that does not is cut
// (a text keeps its start and its end, where a result or an error is) or, an image, left out;
// every later block is left out; and a last text block says what was cut and how to get it.
func cutContent(blocks []mcp.Content, room, maxBytes int) []mcp.Content {
	var kept []mcp.Content
	used := 0
	for i, b := range blocks {
		data, _ := json.Marshal(b)
		if used+len(data)+1 <= room {
			kept = append(kept, b)
			used += len(data) + 1
			continue
		}
		cutBytes, left := 0, len(blocks)-i
		if t, ok := b.(*mcp.TextContent); ok {
			budget := room - used - 64 // the block's own fields
			head := prefixWithin(t.Text, budget*3/4)
			tail := suffixWithin(t.Text[len(head):], budget-jsonTextLen(head))
			cutBytes = len(t.Text) - len(head) - len(tail)
			if head != "" || tail != "" {
				kept = append(kept, &mcp.TextContent{Text: head + fmt.Sprintf("\n[… %d bytes cut here …]\n", cutBytes) + tail})
				left--
			}
		}
		note := fmt.Sprintf("[runcode: this reply was cut to fit one MCP message of at most %d bytes", maxBytes)
		if cutBytes > 0 {
			note += fmt.Sprintf(": %d bytes of its text were cut where marked", cutBytes)
		}
		if left > 0 {
			note += fmt.Sprintf("; %d more content block(s) were left out", left)
		}
		note += ". To get the rest, run a program that prints or returns less at once (a slice, a summary, a count) and read the rest in further runs; `runcode run` prints a run's whole output.]"
		return append(kept, &mcp.TextContent{Text: note})
	}
	return kept
}

// jsonRuneLen is the most bytes encoding/json writes for r (size bytes of UTF-8, or an invalid
// byte when r is utf8.RuneError of size 1) inside a string: HTML characters and the line
// separators are escaped as \uXXXX.
func jsonRuneLen(r rune, size int) int {
	switch {
	case r == utf8.RuneError && size == 1:
		return 6
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t' || r == '\b' || r == '\f':
		return 2
	case r < 0x20 || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029':
		return 6
	}
	return size
}

// jsonTextLen is the most bytes encoding/json writes for s inside a string.
func jsonTextLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n += jsonRuneLen(r, size)
		i += size
	}
	return n
}

// prefixWithin is the longest code-point-aligned prefix of s that takes at most budget bytes
// inside a JSON string.
func prefixWithin(s string, budget int) string {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if n += jsonRuneLen(r, size); n > budget {
			return s[:i]
		}
		i += size
	}
	return s
}

// suffixWithin is the longest code-point-aligned suffix of s that takes at most budget bytes
// inside a JSON string.
func suffixWithin(s string, budget int) string {
	n := 0
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if n += jsonRuneLen(r, size); n > budget {
			return s[i:]
		}
		i -= size
	}
	return s
}
