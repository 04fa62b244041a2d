package jsonv

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// fastParser decodes JSON text that checkText accepted (valid UTF-8, no lone surrogate
// escapes, nesting within MaxDepth) straight from the bytes, several times faster than
// encoding/json's token stream. It handles well-formed JSON only: on anything else (a syntax
// error, a number out of range) it gives up, and Parse decodes the text again with
// encoding/json, whose error it reports. So it never decides what is an error or what the error
// says; FuzzFastParse checks that it decodes exactly what encoding/json decodes.
type fastParser struct {
	data []byte
	pos  int
	// The members and items of the objects and arrays being decoded, innermost last: each
	// gets a slice of exactly its size when it ends, rather than one grown by appending.
	members []Member
	items   []Value
}

// parseFast decodes data, reporting false when data is not well-formed JSON it can decode
// exactly as Parse's encoding/json path would.
func parseFast(data []byte) (Value, bool) {
	p := fastParser{data: data}
	v, ok := p.value()
	if !ok {
		return Value{}, false
	}
	p.space()
	return v, p.pos == len(p.data)
}

func (p *fastParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value decodes one value; the recursion is bounded by checkText's depth check.
func (p *fastParser) value() (Value, bool) {
	p.space()
	if p.pos >= len(p.data) {
		return Value{}, false
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, ok := p.string()
		return Value{s}, ok
	case c == 't':
		return p.literal("true", Value{true})
	case c == 'f':
		return p.literal("false", Value{false})
	case c == 'n':
		return p.literal("null", Value{nullValue{}})
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return Value{}, false
}

func (p *fastParser) literal(word string, v Value) (Value, bool) {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return Value{}, false
	}
	p.pos += len(word)
	return v, true
}

func (p *fastParser) object() (Value, bool) {
	p.pos++ // {
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return Value{newObject(nil)}, true
	}
	mark := len(p.members)
	defer func() { p.members = p.members[:mark] }()
	for {
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return Value{}, false
		}
		key, ok := p.string()
		if !ok {
			return Value{}, false
		}
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, false
		}
		p.pos++
		v, ok := p.value()
		if !ok {
			return Value{}, false
		}
		p.members = append(p.members, Member{key, v})
		p.space()
		if p.pos >= len(p.data) {
			return Value{}, false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return Value{newObject(append([]Member(nil), p.members[mark:]...))}, true
		default:
			return Value{}, false
		}
	}
}

func (p *fastParser) array() (Value, bool) {
	p.pos++ // [
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return Value{newArray([]Value{})}, true
	}
	mark := len(p.items)
	defer func() { p.items = p.items[:mark] }()
	for {
		v, ok := p.value()
		if !ok {
			return Value{}, false
		}
		p.items = append(p.items, v)
		p.space()
		if p.pos >= len(p.data) {
			return Value{}, false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return Value{newArray(append([]Value(nil), p.items[mark:]...))}, true
		default:
			return Value{}, false
		}
	}
}

// string decodes the string whose opening quote is at p.pos.
func (p *fastParser) string() (string, bool) {
	start := p.pos + 1
	i := start
	for ; i < len(p.data); i++ {
		c := p.data[i]
		if c == '"' {
			p.pos = i + 1
			return string(p.data[start:i]), true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", false
		}
	}
	// Escapes: decode into a buffer.
	buf := append([]byte(nil), p.data[start:i]...)
	for i < len(p.data) {
		c := p.data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return string(buf), true
		case c < 0x20:
			return "", false
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		if i+1 >= len(p.data) {
			return "", false
		}
		i++
		switch p.data[i] {
		case '"', '\\', '/':
			buf = append(buf, p.data[i])
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := hex4(p.data, i+1)
			if !ok {
				return "", false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				// checkText admitted only pairs: a high surrogate followed by \u of a low one.
				if i+6 >= len(p.data) || p.data[i+1] != '\\' || p.data[i+2] != 'u' {
					return "", false
				}
				low, ok := hex4(p.data, i+3)
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, low)
				if r == utf8.RuneError {
					return "", false
				}
				i += 6
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", false
		}
		i++
	}
	return "", false
}

// hex4 decodes the four hex digits at data[i:].
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number decodes a number in JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *fastParser) number() (Value, bool) {
	start := p.pos
	i := p.pos
	if p.data[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(p.data) && p.data[i] >= '0' && p.data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(p.data) && p.data[i] == '0':
		i++
	case digits() == 0:
		return Value{}, false
	}
	if i < len(p.data) && p.data[i] == '.' {
		i++
		if digits() == 0 {
			return Value{}, false
		}
	}
	if i < len(p.data) && (p.data[i] == 'e' || p.data[i] == 'E') {
		i++
		if i < len(p.data) && (p.data[i] == '+' || p.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return Value{}, false
		}
	}
	f, err := strconv.ParseFloat(string(p.data[start:i]), 64)
	if err != nil || math.IsInf(f, 0) {
		return Value{}, false // Parse's encoding/json path reports it
	}
	if f == 0 {
		f = 0 // -0 is not lossless JSON; normalise as decode does
	}
	p.pos = i
	return Value{f}, true
}
