package jsonv

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the compact JSON text of v, as JavaScript's JSON.stringify(v) would write it.
// The zero Value appends nothing.
func AppendJSON(dst []byte, v Value) []byte {
	switch x := v.v.(type) {
	case nullValue:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, x)
	case float64:
		return AppendNumber(dst, x)
	case string:
		return AppendString(dst, x)
	case *array:
		dst = append(dst, '[')
		for i, it := range x.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSON(dst, it)
		}
		return append(dst, ']')
	case *object:
		dst = append(dst, '{')
		for i, m := range x.members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, m.Key)
			dst = append(dst, ':')
			dst = AppendJSON(dst, m.Value)
		}
		return append(dst, '}')
	}
	return dst
}

// MarshalJSON implements json.Marshaler with JavaScript-compatible output. Note that
// encoding/json re-escapes <, > and & in it unless the encoder's SetEscapeHTML(false) is used;
// prefer AppendJSON for text a model or log sees.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.v == nil {
		return []byte("null"), nil
	}
	return AppendJSON(nil, v), nil
}

// UnmarshalJSON implements json.Unmarshaler, keeping key order.
func (v *Value) UnmarshalJSON(data []byte) error {
	x, err := Parse(data)
	if err != nil {
		return err
	}
	*v = x
	return nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string literal the way JSON.stringify quotes it: only '"',
// '\\' and control characters are escaped (\b \f \n \r \t, else \u00xx in lowercase). Invalid
// UTF-8 bytes become U+FFFD.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// StringByteLen returns the number of bytes AppendString writes for s (quotes included).
func StringByteLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20:
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += 3
		} else {
			n += size
		}
		i += size
	}
	return n
}

// ByteLen returns the length of the compact JSON text of v.
func (v Value) ByteLen() int {
	switch x := v.v.(type) {
	case string:
		return StringByteLen(x)
	case *array:
		n := 2
		for i, it := range x.items {
			if i > 0 {
				n++
			}
			n += it.ByteLen()
		}
		return n
	case *object:
		n := 2
		for i, m := range x.members {
			if i > 0 {
				n++
			}
			n += StringByteLen(m.Key) + 1 + m.Value.ByteLen()
		}
		return n
	case nil:
		return 0
	}
	return len(AppendJSON(nil, v))
}

// FormatNumber formats f as JavaScript's String(f) does: integers without a fraction, the
// shortest round-tripping digits, exponent form below 1e-6 and from 1e21 on ("1e+21", "1e-7").
func FormatNumber(f float64) string { return string(AppendNumber(nil, f)) }

// AppendNumber appends FormatNumber(f).
func AppendNumber(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		return append(dst, '0')
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	// Shortest digits and decimal exponent: d.ddddde±x
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	mant, exp := e, 0
	for i, c := range e {
		if c == 'e' {
			mant = e[:i]
			x, _ := strconv.Atoi(string(e[i+1:]))
			exp = x
			break
		}
	}
	var digits [24]byte
	k := 0
	for _, c := range mant {
		if c != '.' {
			digits[k] = c
			k++
		}
	}
	ds := digits[:k]
	n := exp + 1 // position of the decimal point relative to the digits
	switch {
	case k <= n && n <= 21:
		dst = append(dst, ds...)
		for i := k; i < n; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, ds[:n]...)
		dst = append(dst, '.')
		dst = append(dst, ds[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -n; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, ds...)
	default:
		dst = append(dst, ds[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, ds[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

// AppendIndent appends v pretty-printed with unit as the indentation step, like
// JSON.stringify(v, null, unit), except that a container whose children would be indented by
// more than maxIndent bytes is written compactly, with everything inside it. maxIndent < 0 means
// no cap. Strings at the root are JSON-quoted; callers that want raw strings handle them first.
func AppendIndent(dst []byte, v Value, unit string, maxIndent int) []byte {
	return appendIndent(dst, v, unit, maxIndent, 0)
}

func appendIndent(dst []byte, v Value, unit string, maxIndent, depth int) []byte {
	n := v.Len()
	k := v.Kind()
	if (k != Array && k != Object) || n == 0 {
		return AppendJSON(dst, v)
	}
	if maxIndent >= 0 && (depth+1)*len(unit) > maxIndent {
		return AppendJSON(dst, v)
	}
	open, closing := byte('['), byte(']')
	if k == Object {
		open, closing = '{', '}'
	}
	dst = append(dst, open)
	for i := 0; i < n; i++ {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '\n')
		for j := 0; j <= depth; j++ {
			dst = append(dst, unit...)
		}
		var child Value
		if k == Object {
			m := v.v.(*object).members[i]
			dst = AppendString(dst, m.Key)
			dst = append(dst, ':', ' ')
			child = m.Value
		} else {
			child = v.v.(*array).items[i]
		}
		dst = appendIndent(dst, child, unit, maxIndent, depth+1)
	}
	dst = append(dst, '\n')
	for j := 0; j < depth; j++ {
		dst = append(dst, unit...)
	}
	return append(dst, closing)
}
