// Package sourcemap shifts the columns of a source map's first line: jsruntime wraps a program in
// a one-line prefix, and positions should name the model's own columns. It knows nothing of goja.
package sourcemap

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

const vlqDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

var errBadMappings = errors.New("jsruntime: malformed source map mappings")

// Shift returns the source map with the columns of original line 1 moved left by shift
// so that positions name the model's own columns, not the wrapper prefix's. Only the mappings
// string is rewritten, in place in the JSON text (its characters never need escaping); a map
// whose mappings cannot be found that way is decoded and re-encoded whole.
func Shift(sourceMap []byte, shift int) ([]byte, error) {
	if start, end, ok := mappingsSpan(sourceMap); ok {
		shifted, err := shiftFirstLineColumns(string(sourceMap[start:end]), shift)
		if err != nil {
			return nil, err
		}
		out := make([]byte, 0, len(sourceMap)+len(shifted)-(end-start))
		out = append(append(append(out, sourceMap[:start]...), shifted...), sourceMap[end:]...)
		return out, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(sourceMap, &m); err != nil {
		return nil, err
	}
	var mappings string
	if err := json.Unmarshal(m["mappings"], &mappings); err != nil {
		return nil, err
	}
	shifted, err := shiftFirstLineColumns(mappings, shift)
	if err != nil {
		return nil, err
	}
	if m["mappings"], err = json.Marshal(shifted); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// mappingsSpan finds the contents of the one "mappings" string of a source map's JSON text: the
// key appears once, followed by a colon and a string of base64 VLQ digits, ',' and ';' only.
func mappingsSpan(sourceMap []byte) (start, end int, ok bool) {
	const key = `"mappings"`
	i := bytes.Index(sourceMap, []byte(key))
	if i < 0 || bytes.Count(sourceMap, []byte(key)) != 1 {
		return 0, 0, false
	}
	i = skipJSONSpace(sourceMap, i+len(key))
	if i >= len(sourceMap) || sourceMap[i] != ':' {
		return 0, 0, false
	}
	i = skipJSONSpace(sourceMap, i+1)
	if i >= len(sourceMap) || sourceMap[i] != '"' {
		return 0, 0, false
	}
	start = i + 1
	for end = start; end < len(sourceMap) && sourceMap[end] != '"'; end++ {
		if c := sourceMap[end]; c != ',' && c != ';' && strings.IndexByte(vlqDigits, c) < 0 {
			return 0, 0, false
		}
	}
	if end >= len(sourceMap) {
		return 0, 0, false
	}
	return start, end, true
}

// skipJSONSpace returns the position of the first byte at or after i in b that is not JSON
// whitespace.
func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// shiftFirstLineColumns rewrites source map mappings so that every segment pointing into
// original line 0 has its original column reduced by shift (clamped at 0).
func shiftFirstLineColumns(mappings string, shift int) (string, error) {
	var out strings.Builder
	out.Grow(len(mappings))
	var line, col int // absolute original line and column, as read
	var newCol int    // absolute original column, as written
	for li, genLine := range strings.Split(mappings, ";") {
		if li > 0 {
			out.WriteByte(';')
		}
		for si, seg := range strings.Split(genLine, ",") {
			if seg == "" {
				continue
			}
			fields, err := decodeVLQ(seg)
			if err != nil {
				return "", err
			}
			if si > 0 {
				out.WriteByte(',')
			}
			switch len(fields) {
			case 1:
				encodeVLQ(&out, fields[0])
				continue
			case 4, 5:
			default:
				return "", errBadMappings
			}
			line += fields[2]
			col += fields[3]
			c := col
			if line == 0 {
				c = max(col-shift, 0)
			}
			encodeVLQ(&out, fields[0])
			encodeVLQ(&out, fields[1])
			encodeVLQ(&out, fields[2])
			encodeVLQ(&out, c-newCol)
			newCol = c
			if len(fields) == 5 {
				encodeVLQ(&out, fields[4])
			}
		}
	}
	return out.String(), nil
}

// decodeVLQ decodes the base64 VLQ fields of one mappings segment.
func decodeVLQ(seg string) ([]int, error) {
	var fields []int
	value, shift := 0, 0
	for i := 0; i < len(seg); i++ {
		d := strings.IndexByte(vlqDigits, seg[i])
		if d < 0 {
			return nil, errBadMappings
		}
		value |= (d & 31) << shift
		if d&32 != 0 {
			shift += 5
			if shift > 30 {
				return nil, errBadMappings
			}
			continue
		}
		if value&1 != 0 {
			fields = append(fields, -(value >> 1))
		} else {
			fields = append(fields, value>>1)
		}
		value, shift = 0, 0
	}
	if shift != 0 {
		return nil, errBadMappings
	}
	return fields, nil
}

// encodeVLQ appends v in base64 VLQ.
func encodeVLQ(out *strings.Builder, v int) {
	u := v << 1
	if v < 0 {
		u = (-v << 1) | 1
	}
	for {
		d := u & 31
		u >>= 5
		if u > 0 {
			d |= 32
		}
		out.WriteByte(vlqDigits[d])
		if u == 0 {
			return
		}
	}
}
