package goja

// runcode: Unicode property escapes (\p{…}, \P{…}) with the u flag. Upstream goja passed them
// to RE2 as the letters "p{L}", so /\p{L}/u matched that text and never a letter. See RUNCODE.md.

// The tables are Unicode 17.0, Node 22's (V8 with ICU 78). To regenerate them, install the npm
// packages internal/genregexpprops names in /tmp/ucd, then run go generate.
//go:generate go run ./internal/genregexpprops -npm /tmp/ucd/node_modules -o regexp_property_tables.go

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// regexpPropertyError is a pattern's property escape that cannot be compiled; compileRegexp's
// callers throw it as a SyntaxError.
type regexpPropertyError struct {
	pattern, flags, reason string
}

func (e *regexpPropertyError) Error() string {
	return fmt.Sprintf("Invalid regular expression: /%s/%s: %s", e.pattern, e.flags, e.reason)
}

// expandPropertyEscapes rewrites each \p{…} and \P{…} of pattern, a pattern of the u flag, as
// the explicit code point ranges of its property, which RE2 (through parser.TransformRegExp)
// and regexp2 both read the same way: a class [\u{…}-\u{…}…] outside a class, its ranges
// inside one. \P{…} is written as the complement's ranges rather than a negated class, so that
// the i flag folds the complement, as ECMAScript does (/\P{Lu}/iu matches "A"). Names are
// looked up exactly as ECMA-262 and V8 do: no loose matching.
func expandPropertyEscapes(pattern, flags string) (string, error) {
	if !strings.Contains(pattern, `\p`) && !strings.Contains(pattern, `\P`) {
		return pattern, nil
	}
	var sb strings.Builder
	inClass := false
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern) && (pattern[i+1] == 'p' || pattern[i+1] == 'P'):
			ranges, end, reason := lookupPropertyEscape(pattern, i)
			if reason != "" {
				if inClass && reason == regexpInvalidPropertyName {
					reason += " in character class"
				}
				return "", &regexpPropertyError{pattern: pattern, flags: flags, reason: reason}
			}
			if pattern[i+1] == 'P' {
				ranges = complementRanges(ranges)
			}
			writePropertyRanges(&sb, ranges, inClass)
			i = end
		case c == '\\':
			// An escaped character, copied whole so that \[ and \] do not open or close a class.
			size := 1
			if i+1 < len(pattern) {
				_, size = utf8.DecodeRuneInString(pattern[i+1:])
			}
			end := min(i+1+size, len(pattern))
			sb.WriteString(pattern[i:end])
			i = end
		default:
			// With the u flag a class does not nest: '[' in a class is a character.
			if c == '[' {
				inClass = true
			} else if c == ']' {
				inClass = false
			}
			sb.WriteByte(c)
			i++
		}
	}
	return sb.String(), nil
}

// lookupPropertyEscape reads the property escape at pattern[i:] (\p{…} or \P{…}) and returns
// its code point ranges (not yet complemented for \P) and the index after it, or why it
// cannot be compiled.
func lookupPropertyEscape(pattern string, i int) (ranges []uint32, end int, reason string) {
	open := i + 2
	if open >= len(pattern) || pattern[open] != '{' {
		return nil, 0, regexpInvalidPropertyName
	}
	closing := strings.IndexByte(pattern[open:], '}')
	if closing < 0 {
		return nil, 0, regexpInvalidPropertyName
	}
	end = open + closing + 1
	ranges, reason = lookupProperty(pattern[open+1 : end-1])
	return ranges, end, reason
}

// regexpInvalidPropertyName is V8's reason for a property escape it does not know.
const regexpInvalidPropertyName = "Invalid property name"

// lookupProperty returns the code point ranges of the property a \p{body} names, or why it
// cannot be compiled.
func lookupProperty(body string) (ranges []uint32, reason string) {
	name, value, hasValue := strings.Cut(body, "=")
	key := ""
	switch {
	case !hasValue:
		if long, ok := regexpGeneralCategoryNames[name]; ok {
			key = "gc=" + long
		} else if long, ok := regexpBinaryPropertyNames[name]; ok {
			key = long
		}
	case name == "General_Category" || name == "gc":
		if long, ok := regexpGeneralCategoryNames[value]; ok {
			key = "gc=" + long
		}
	case name == "Script" || name == "sc" || name == "Script_Extensions" || name == "scx":
		prefix := "sc="
		if name == "Script_Extensions" || name == "scx" {
			prefix = "scx="
		}
		if long, ok := regexpScriptNames[value]; ok {
			key = prefix + long
		}
	}
	if key == "" {
		return nil, regexpInvalidPropertyName
	}
	return regexpPropertyTables[key], ""
}

// RegExpPropertyEscapeSize returns how many code point ranges and code points the property
// escape \p{body} (negated: \P{body}) of a pattern with the u flag is compiled to, and false for
// a property the engine refuses. runcode's regexp guard measures patterns with it before they
// are compiled.
func RegExpPropertyEscapeSize(body string, negated bool) (ranges, codePoints int, ok bool) {
	r, reason := lookupProperty(body)
	if reason != "" {
		return 0, 0, false
	}
	if negated {
		r = complementRanges(r)
	}
	for i := 0; i < len(r); i += 2 {
		codePoints += int(r[i+1]-r[i]) + 1
	}
	return len(r) / 2, codePoints, true
}

// complementRanges returns the ranges of the code points (0 to 0x10FFFF) not in ranges.
func complementRanges(ranges []uint32) []uint32 {
	out := make([]uint32, 0, len(ranges)+2)
	next := uint32(0)
	for i := 0; i < len(ranges); i += 2 {
		if ranges[i] > next {
			out = append(out, next, ranges[i]-1)
		}
		next = ranges[i+1] + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, next, utf8.MaxRune)
	}
	return out
}

// writePropertyRanges writes ranges as class ranges (\u{41}-\u{5a}), in brackets unless
// inClass. An empty set outside a class is written as the complement of every code point, a
// class that matches nothing (goja translates "[]" for RE2 as [^\x{0}-\x{1FFFF}]).
func writePropertyRanges(sb *strings.Builder, ranges []uint32, inClass bool) {
	if !inClass {
		if len(ranges) == 0 {
			sb.WriteString(`[^\u{0}-\u{10ffff}]`)
			return
		}
		sb.WriteByte('[')
	}
	for i := 0; i < len(ranges); i += 2 {
		writeCodePointEscape(sb, ranges[i])
		if ranges[i+1] != ranges[i] {
			sb.WriteByte('-')
			writeCodePointEscape(sb, ranges[i+1])
		}
	}
	if !inClass {
		sb.WriteByte(']')
	}
}

func writeCodePointEscape(sb *strings.Builder, cp uint32) {
	sb.WriteString(`\u{`)
	sb.WriteString(strconv.FormatUint(uint64(cp), 16))
	sb.WriteByte('}')
}
