package mcptools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// textOutput is the declared result of an MCP tool without an outputSchema: its text, as one
// string (see convertResult).
func textOutput() registry.Output {
	return registry.OutputOf(jsonv.ObjectValue(jsonv.Member{Key: "type", Value: jsonv.StringValue("string")}))
}

// tool converts one MCP tool definition (the JSON object tools/list returned) to a registry
// tool that calls it on s. Its declared output, and so its SDK type, is the tool's outputSchema
// when it declares one (an object), else {"type":"string"}: the result value follows the same
// declaration (convertResult).
func (s *Server) tool(def jsonv.Value) (registry.Tool, error) {
	name := def.Lookup("name").AsString()
	if name == "" {
		return registry.Tool{}, fmt.Errorf("a tool without a name")
	}
	output, structured := textOutput(), false
	if os := def.Lookup("outputSchema"); os.Kind() == jsonv.Object {
		output, structured = registry.OutputOf(os), true
	}
	qualified := s.qualified(name)
	t := registry.Tool{
		Name:            qualified,
		Namespace:       s.src.Namespace,
		Description:     def.Lookup("description").AsString(),
		Parameters:      def.Lookup("inputSchema"),
		Output:          output,
		Timeout:         s.src.CallTimeout,
		FinalizeContent: s.finalize,
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return s.call(ctx, inv, name, qualified, structured)
		},
	}
	if t.Parameters.Kind() != jsonv.Object {
		t.Parameters = jsonv.Value{} // an open object
	}
	readOnly := hint(def, "readOnlyHint")
	if readOnly || slices.Contains(s.src.ConcurrencySafe, name) {
		t.ConcurrencySafe = func(jsonv.Value) bool { return true }
	}
	t.RequiresApproval = s.src.requiresApproval(name, hint(def, "destructiveHint") && !readOnly)
	return t, nil
}

// hint reports whether the tool definition's annotations set the boolean hint to true (an
// absent or non-boolean hint is false).
func hint(def jsonv.Value, name string) bool {
	h := def.Lookup("annotations").Lookup(name)
	return h.Kind() == jsonv.Bool && h.AsBool()
}

// ApprovalPolicy says which of a source's tools need approval (see Source.Approval).
type ApprovalPolicy string

// The approval policies.
const (
	// ApprovalDefault: tools annotated destructiveHint: true (and not readOnlyHint: true),
	// plus Source.RequireApproval, minus Source.AutoApprove.
	ApprovalDefault ApprovalPolicy = ""
	// ApprovalRequired: every tool of the source but those Source.AutoApprove names (a
	// configuration's "approval": "required").
	ApprovalRequired ApprovalPolicy = "required"
	// ApprovalNone: no tool of the source ("approval": "none", or runcode's --no-approvals).
	ApprovalNone ApprovalPolicy = "none"
)

// requiresApproval says whether the server's tool name needs approval under the source's
// policy; destructive is what its annotations say.
func (src *Source) requiresApproval(name string, destructive bool) bool {
	switch {
	case src.Approval == ApprovalNone || slices.Contains(src.AutoApprove, name):
		return false
	case src.Approval == ApprovalRequired:
		return true
	}
	return destructive || slices.Contains(src.RequireApproval, name)
}

// callResult is a tools/call result as runcode sees it.
type callResult struct {
	value    jsonv.Value
	content  []registry.Content // the MCP content blocks as registry content
	hasImage bool
	err      error // the call failed: isError, or a result its declaration does not allow
}

// maxQuoted bounds the text of a result quoted in an error message, in bytes.
const maxQuoted = 400

// convertResult maps a CallToolResult (as JSON) of the registry tool named tool to a value and
// content. The value depends on the tool's declaration only (structured: it declares an
// outputSchema), never on what the result happens to look like:
//
//   - isError: true fails the call, whatever the declaration; the message is the text of the
//     content (else the structuredContent as JSON);
//   - structured: the value is structuredContent; a result without one (absent or null) fails
//     the call with INVALID_TOOL_OUTPUT, quoting the text the server sent instead;
//   - otherwise the value is one string: the text of the content blocks joined by "\n" (text
//     that happens to be JSON stays a string; no content is ""). An image is left out of it;
//     an audio block, a resource link or an embedded resource is in it as the text
//     convertBlock gives it (an embedded text resource with its text in full);
//   - content: text stays text, an image stays an image (Code Mode forwards it to the model),
//     other kinds become a text block describing them.
func convertResult(r jsonv.Value, tool string, structured bool) callResult {
	var out callResult
	var texts []string
	for _, b := range r.Lookup("content").Items() {
		c := convertBlock(b)
		out.content = append(out.content, c)
		if c.Type == "image" {
			out.hasImage = true
			continue
		}
		texts = append(texts, c.Text)
	}
	text := strings.Join(texts, "\n")
	sc := r.Lookup("structuredContent")
	hasStructured := sc.IsDefined() && sc.Kind() != jsonv.Null
	if r.Lookup("isError").Kind() == jsonv.Bool && r.Lookup("isError").AsBool() {
		msg := strings.TrimSpace(registry.TextOf(out.content))
		switch {
		case msg != "":
		case hasStructured:
			msg = "the tool reported an error: " + quote(string(jsonv.AppendJSON(nil, sc)))
		default:
			msg = "the tool reported an error without a message"
		}
		out.err = errors.New(msg)
		return out
	}
	switch {
	case !structured:
		out.value = jsonv.StringValue(text)
	case hasStructured:
		out.value = sc
	default:
		msg := fmt.Sprintf("tool %q returned invalid output: it declares an outputSchema but returned no structuredContent", tool)
		if t := strings.TrimSpace(text); t != "" {
			msg += "; its text: " + quote(t)
		}
		out.err = &registry.Error{Code: registry.CodeInvalidToolOutput, Name: "ToolOutputError", Message: msg}
	}
	return out
}

// quote returns s shortened to at most maxQuoted bytes (at a rune boundary, with "…").
func quote(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// convertBlock maps one MCP content block.
func convertBlock(b jsonv.Value) registry.Content {
	str := func(key string) string { return b.Lookup(key).AsString() }
	switch typ := str("type"); typ {
	case "text":
		return registry.TextContent(str("text"))
	case "image":
		return registry.Content{Type: "image", Data: str("data"), MimeType: str("mimeType")}
	case "audio":
		return registry.TextContent(fmt.Sprintf("[audio content: %s, %d bytes of base64]", str("mimeType"), len(str("data"))))
	case "resource_link":
		d := fmt.Sprintf("[resource link: %s <%s>", str("name"), str("uri"))
		if m := str("mimeType"); m != "" {
			d += " (" + m + ")"
		}
		if desc := str("description"); desc != "" {
			d += ": " + desc
		}
		return registry.TextContent(d + "]")
	case "resource":
		res := b.Lookup("resource")
		uri, mime := res.Lookup("uri").AsString(), res.Lookup("mimeType").AsString()
		if t := res.Lookup("text"); t.Kind() == jsonv.String {
			return registry.TextContent(fmt.Sprintf("[resource %s]\n%s", uri, t.AsString()))
		}
		return registry.TextContent(fmt.Sprintf("[resource %s: %s, %d bytes of base64]", uri, mime, len(res.Lookup("blob").AsString())))
	default:
		return registry.TextContent(fmt.Sprintf("[%s content]", typ))
	}
}
