package registry

import "github.com/runcode-dev/runcode/jsonv"

// Content is one block of model-facing content: text, or an image as base64 data.
type Content struct {
	Type     string // "text" or "image"
	Text     string // for "text"
	Data     string // base64, for "image"
	MimeType string // for "image"
}

// TextContent returns a text block.
func TextContent(text string) Content { return Content{Type: "text", Text: text} }

// Value returns the block as a JSON object in the wire shape ({"type":"text","text":…}).
func (c Content) Value() jsonv.Value {
	ms := []jsonv.Member{{Key: "type", Value: jsonv.StringValue(c.Type)}}
	if c.Type == "text" {
		ms = append(ms, jsonv.Member{Key: "text", Value: jsonv.StringValue(c.Text)})
	} else {
		ms = append(ms,
			jsonv.Member{Key: "data", Value: jsonv.StringValue(c.Data)},
			jsonv.Member{Key: "mimeType", Value: jsonv.StringValue(c.MimeType)})
	}
	return jsonv.ObjectValue(ms...)
}

// ContentValue returns blocks as a JSON array.
func ContentValue(blocks []Content) jsonv.Value {
	items := make([]jsonv.Value, len(blocks))
	for i, b := range blocks {
		items[i] = b.Value()
	}
	return jsonv.ArrayValue(items...)
}

// RenderValue is the default Output.Render: a string value as its raw text, anything else as
// JSON indented by two spaces. It ignores args.
func RenderValue(args, v jsonv.Value) []Content {
	if v.Kind() == jsonv.String {
		return []Content{TextContent(v.AsString())}
	}
	var buf [128]byte // small values render without growing a heap buffer
	return []Content{TextContent(string(jsonv.AppendIndent(buf[:0], v, "  ", -1)))}
}

// ContextMessage is additional context that rides a result: a message the agent loop appends
// after the tool result (for example an instruction minted by a tool, or an image a Code Mode
// program's sub-call produced).
type ContextMessage struct {
	// Source names who produced the message, e.g. "plugin:tools-code-mode".
	Source  string
	Content []Content
}

// TextOf returns the text of blocks joined by newlines; a non-text block reads
// "[<type> content]".
func TextOf(blocks []Content) string {
	var b []byte
	for i, c := range blocks {
		if i > 0 {
			b = append(b, '\n')
		}
		if c.Type == "text" {
			b = append(b, c.Text...)
		} else {
			b = append(b, "["+c.Type+" content]"...)
		}
	}
	return string(b)
}
