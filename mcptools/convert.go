package mcptools

import (
	"context"
	"fmt"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// tool converts one MCP tool definition (the JSON object tools/list returned) to a registry
// tool that calls it on s.
func (s *Server) tool(def jsonv.Value) (registry.Tool, error) {
	name := def.Lookup("name").AsString()
	if name == "" {
		return registry.Tool{}, fmt.Errorf("a tool without a name")
	}
	output := registry.AnyOutput()
	if os := def.Lookup("outputSchema"); os.Kind() == jsonv.Object {
		output = registry.OutputOf(os)
	}
	t := registry.Tool{
		Name:            s.src.Prefix + name,
		Description:     def.Lookup("description").AsString(),
		Parameters:      def.Lookup("inputSchema"),
		Output:          output,
		Timeout:         s.src.CallTimeout,
		FinalizeContent: s.finalize,
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return s.call(ctx, inv, name)
		},
	}
	if t.Parameters.Kind() != jsonv.Object {
		t.Parameters = jsonv.Value{} // an open object
	}
	if def.Lookup("annotations").Lookup("readOnlyHint").Kind() == jsonv.Bool && def.Lookup("annotations").Lookup("readOnlyHint").AsBool() {
		t.ConcurrencySafe = func(jsonv.Value) bool { return true }
	}
	return t, nil
}

// callResult is a tools/call result as runcode sees it.
type callResult struct {
	value     jsonv.Value
	content   []registry.Content // the MCP content blocks as registry content
	hasImage  bool
	isError   bool
	errorText string
}

// convertResult maps a CallToolResult (as JSON) to a value and content:
//
//   - the value is structuredContent when present; otherwise, when every block is text and
//     their text (joined by newlines) parses as JSON, that JSON; otherwise the text of the
//     blocks joined by newlines (images left out, other kinds described);
//   - content: text stays text, an image stays an image, other kinds become a text block
//     describing them;
//   - isError: the failure message is the text of the content.
func convertResult(r jsonv.Value) callResult {
	var out callResult
	allText := true
	var texts []string
	for _, b := range r.Lookup("content").Items() {
		c := convertBlock(b)
		out.content = append(out.content, c)
		if b.Lookup("type").AsString() != "text" {
			allText = false
		}
		if c.Type == "image" {
			out.hasImage = true
			continue
		}
		texts = append(texts, c.Text)
	}
	text := strings.Join(texts, "\n")
	if r.Lookup("isError").Kind() == jsonv.Bool && r.Lookup("isError").AsBool() {
		out.isError = true
		out.errorText = strings.TrimSpace(registry.TextOf(out.content))
		if out.errorText == "" {
			out.errorText = "the tool reported an error without a message"
		}
		return out
	}
	switch sc := r.Lookup("structuredContent"); {
	case sc.IsDefined() && sc.Kind() != jsonv.Null:
		out.value = sc
	case len(out.content) == 0:
		out.value = jsonv.NullValue()
	case allText:
		if v, err := jsonv.ParseString(text); err == nil {
			out.value = v
		} else {
			out.value = jsonv.StringValue(text)
		}
	case len(texts) == 0:
		out.value = jsonv.StringValue(registry.TextOf(out.content))
	default:
		out.value = jsonv.StringValue(text)
	}
	return out
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
