package mcptools

// JSONC, the JSON with comments and trailing commas that VS Code and other editors keep their
// MCP configuration in.

import (
	"bytes"
	"fmt"
)

// stripJSONC returns a copy of data in which JSONC's additions to JSON are blanked out: "//"
// comments (to the end of the line), "/* */" comments, and a comma that follows a value and
// comes before a "}" or "]" (with only space and comments between). Each removed byte becomes a
// space, but a comment's line breaks are kept, so offsets, lines and columns in the result are
// those of data. Text inside strings is never changed, and JSON with neither comments nor
// trailing commas comes back byte for byte. Anything else that is not JSON is left for the JSON
// parser to report; the only error here is a "/*" without its "*/", which would otherwise
// silently swallow the rest of the file.
func stripJSONC(data []byte) ([]byte, error) {
	out := bytes.Clone(data)
	comma := -1         // a comma that ends the last value, while nothing but space and comments follows it
	afterValue := false // the last significant byte ended a value (so a comma after it may trail)
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(out) && out[j] != '"' {
				if out[j] == '\\' {
					j++ // the escaped byte, a quote included
				}
				j++
			}
			if j >= len(out) {
				return out, nil // an unterminated string: the JSON parser says so
			}
			i = j + 1
			comma, afterValue = -1, true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				line := 1 + bytes.Count(data[:i], []byte{'\n'})
				return nil, fmt.Errorf("a /* comment on line %d has no closing */", line)
			}
			for stop := i + 2 + end + 2; i < stop; i++ {
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
		case c == ',':
			if afterValue {
				comma = i
			} else {
				comma = -1
			}
			afterValue = false
			i++
		case c == '}' || c == ']':
			if comma >= 0 {
				out[comma] = ' '
			}
			comma, afterValue = -1, true
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			// '{', '[' and ':' start something; any other byte is part of a literal or a number
			// (or not JSON at all, which the parser reports).
			comma = -1
			afterValue = c != '{' && c != '[' && c != ':'
			i++
		}
	}
	return out, nil
}
