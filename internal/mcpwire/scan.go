package mcpwire

import (
	"bytes"
	"encoding/json"
)

// MaxKeyBytes bounds the member names splitArguments decodes: a longer name (escaped or not)
// is none of the few it looks for.
const MaxKeyBytes = 128

// ScanMembers calls visit with each member of the JSON object that starts at data[from] and
// ends data (space around it allowed): its name decoded (a name over MaxKeyBytes comes as "")
// and its value's span in data. It reports false when that is not an object as far as its
// structure goes (strings, nesting, colons, commas); values are not otherwise validated.
func ScanMembers(data []byte, from int, visit func(key string, start, end int)) bool {
	i := skipSpace(data, from)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipSpace(data, i+1) == len(data)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return false
		}
		keyEnd, ok := skipString(data, i)
		if !ok {
			return false
		}
		key := ""
		if raw := data[i:keyEnd]; len(raw) <= MaxKeyBytes {
			if bytes.IndexByte(raw, '\\') < 0 {
				key = string(raw[1 : len(raw)-1])
			} else if json.Unmarshal(raw, &key) != nil {
				return false
			}
		}
		i = skipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		end, ok := skipValue(data, i)
		if !ok || end == i {
			return false
		}
		visit(key, i, end)
		i = skipSpace(data, end)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return skipSpace(data, i+1) == len(data)
		default:
			return false
		}
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the end of the string starting at data[i] (a quote).
func skipString(data []byte, i int) (int, bool) {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return 0, false
}

// skipValue returns the end of the value starting at data[i], following its strings and
// nesting only.
func skipValue(data []byte, i int) (int, bool) {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			end, ok := skipString(data, i)
			if !ok {
				return 0, false
			}
			i = end
			if depth == 0 {
				return i, true
			}
		case '{', '[':
			depth++
			i++
		case '}', ']':
			if depth == 0 {
				return i, true // the end of the enclosing object
			}
			depth--
			i++
			if depth == 0 {
				return i, true
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return i, true
			}
			i++
		default:
			i++
		}
	}
	return i, depth == 0
}
