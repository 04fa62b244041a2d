package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Parse decodes one JSON text, keeping object key order. Numbers become float64 as in
// JavaScript's JSON.parse; a number too large for float64 is an error rather than Infinity.
// Text is never altered silently: text that is not valid UTF-8, and a \u escape of a lone
// surrogate (which a Go string cannot hold), are errors, as is nesting deeper than MaxDepth
// (ErrTooDeep).
func Parse(data []byte) (Value, error) {
	if err := checkText(data); err != nil {
		return Value{}, err
	}
	if v, ok := parseFast(data); ok {
		return v, nil
	}
	// Not well-formed JSON (or beyond what parseFast decodes): encoding/json says why.
	return decodeText(data)
}

// decodeText decodes data, which checkText accepted, with encoding/json: Parse's path for the
// text parseFast gives up on, which reports what is wrong with it.
func decodeText(data []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decode(dec)
	if err != nil {
		return Value{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return Value{}, errors.New("jsonv: invalid JSON: data after the top-level value")
		}
		return Value{}, fmt.Errorf("jsonv: invalid JSON: %w", err)
	}
	return v, nil
}

// ParseString is Parse for a string.
func ParseString(s string) (Value, error) { return Parse([]byte(s)) }

// MustParse is Parse that panics on error; for literals in code and tests.
func MustParse(s string) Value {
	v, err := Parse([]byte(s))
	if err != nil {
		panic(err)
	}
	return v
}

// ErrInvalidText reports JSON text that Parse refuses because decoding it would alter it: bytes
// that are not UTF-8, or a \u escape of a lone surrogate.
var ErrInvalidText = errors.New("jsonv: invalid JSON: text that cannot be decoded unaltered")

type frame struct {
	isObject bool
	items    []Value
	members  []Member
	key      string
	haveKey  bool
}

// checkText refuses JSON text that encoding/json would decode with replacement characters:
// bytes that are not UTF-8, and escapes of lone surrogates. It also refuses nesting deeper than
// MaxDepth before any of it is decoded.
func checkText(data []byte) error {
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return fmt.Errorf("%w: not valid UTF-8 (byte offset %d)", ErrInvalidText, i)
	}
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '[', '{':
			if depth++; depth > MaxDepth {
				return fmt.Errorf("jsonv: invalid JSON: %w (byte offset %d)", ErrTooDeep, i)
			}
		case ']', '}':
			depth--
		case '"':
			end, err := checkString(data, i+1)
			if err != nil {
				return err
			}
			i = end
		}
	}
	return nil
}

// checkString scans the string starting at data[i] (after its opening quote) to its closing
// quote, whose index it returns, refusing \u escapes of lone surrogates.
func checkString(data []byte, i int) (int, error) {
	pendingHigh := -1 // offset of an escaped high surrogate awaiting its low half
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			if pendingHigh >= 0 {
				return 0, loneSurrogate(pendingHigh)
			}
			return i, nil
		case '\\':
			if i+5 < len(data) && data[i+1] == 'u' {
				u, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16)
				if err == nil {
					switch {
					case u >= 0xD800 && u < 0xDC00:
						if pendingHigh >= 0 {
							return 0, loneSurrogate(pendingHigh)
						}
						pendingHigh = i
						i += 5
						continue
					case u >= 0xDC00 && u < 0xE000:
						if pendingHigh < 0 {
							return 0, loneSurrogate(i)
						}
						pendingHigh = -1
						i += 5
						continue
					}
				}
			}
			i++ // the escaped character
		}
		if pendingHigh >= 0 && i < len(data) && data[i] != '\\' { // i is past the end after a final backslash
			return 0, loneSurrogate(pendingHigh)
		}
	}
	return i, nil // unterminated: the decoder reports it
}

func loneSurrogate(offset int) error {
	return fmt.Errorf("%w: escape of a lone surrogate at byte offset %d (a string must be well-formed UTF-16)", ErrInvalidText, offset)
}

func decode(dec *json.Decoder) (Value, error) {
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return Value{}, fmt.Errorf("jsonv: invalid JSON: %w", err)
		}
		var val Value
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				stack = append(stack, &frame{isObject: t == '{'})
				continue
			case '}':
				f := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				val = Value{newObject(f.members)}
			case ']':
				f := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if f.items == nil {
					f.items = []Value{}
				}
				val = Value{newArray(f.items)}
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].isObject && !stack[n-1].haveKey {
				stack[n-1].key, stack[n-1].haveKey = t, true
				continue
			}
			val = Value{t}
		case json.Number:
			f, err := strconv.ParseFloat(string(t), 64)
			if err != nil || math.IsInf(f, 0) {
				return Value{}, fmt.Errorf("jsonv: number %s is out of range", t)
			}
			if f == 0 {
				f = 0 // JSON.parse("-0") is -0 in JS; it is not lossless, so normalise to 0
			}
			val = Value{f}
		case bool:
			val = Value{t}
		case nil:
			val = Value{nullValue{}}
		}
		if len(stack) == 0 {
			return val, nil
		}
		f := stack[len(stack)-1]
		if f.isObject {
			f.members = append(f.members, Member{f.key, val})
			f.haveKey = false
		} else {
			f.items = append(f.items, val)
		}
	}
}

// FromGo converts a Go value into a Value. It accepts nil, bool, string, every integer and float
// type, json.Number, json.RawMessage, *big.Int within float64 range, Value, []any, map[string]any
// (keys sorted, since Go maps have no order) and anything else encoding/json can marshal (structs
// keep their field order). Non-finite numbers and -0 fail with ErrNotJSON.
func FromGo(x any) (Value, error) {
	return fromGo(x, 0)
}

func fromGo(x any, depth int) (Value, error) {
	switch x.(type) {
	case []any, []Value, map[string]any:
		if depth >= MaxDepth {
			return Value{}, fmt.Errorf("%w: %w", ErrNotJSON, ErrTooDeep)
		}
	}
	switch t := x.(type) {
	case nil:
		return NullValue(), nil
	case Value:
		if !t.IsDefined() {
			return Value{}, fmt.Errorf("%w: undefined", ErrNotJSON)
		}
		if depth+t.Depth() > MaxDepth {
			return Value{}, fmt.Errorf("%w: %w", ErrNotJSON, ErrTooDeep)
		}
		return t, nil
	case bool:
		return BoolValue(t), nil
	case string:
		return StringValue(t), nil
	case float64:
		return NumberValue(t)
	case float32:
		return NumberValue(float64(t))
	case int:
		return Int(int64(t)), nil
	case int64:
		return Int(t), nil
	case int32:
		return Int(int64(t)), nil
	case uint64:
		return Value{float64(t)}, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return Value{}, fmt.Errorf("%w: number %s", ErrNotJSON, t)
		}
		return NumberValue(f)
	case json.RawMessage:
		return Parse(t)
	case *big.Int:
		f, _ := new(big.Float).SetInt(t).Float64()
		return NumberValue(f)
	case []any:
		items := make([]Value, len(t))
		for i, e := range t {
			v, err := fromGo(e, depth+1)
			if err != nil {
				return Value{}, err
			}
			items[i] = v
		}
		return Value{newArray(items)}, nil
	case []Value:
		v := ArrayValue(t...)
		if depth+v.Depth() > MaxDepth {
			return Value{}, fmt.Errorf("%w: %w", ErrNotJSON, ErrTooDeep)
		}
		return v, nil
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		ms := make([]Member, len(keys))
		for i, k := range keys {
			v, err := fromGo(t[k], depth+1)
			if err != nil {
				return Value{}, err
			}
			ms[i] = Member{k, v}
		}
		return Value{newObject(ms)}, nil
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return Value{float64(rv.Uint())}, nil
	case reflect.Float32, reflect.Float64:
		return NumberValue(rv.Float())
	}
	data, err := json.Marshal(x)
	if err != nil {
		return Value{}, fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	return Parse(data)
}

// Any converts v into plain Go values: nil, bool, float64, string, []any and map[string]any.
// This loses key order; it exists for validators and decoders that need those types.
func (v Value) Any() any {
	switch x := v.v.(type) {
	case bool, float64, string:
		return x
	case *array:
		out := make([]any, len(x.items))
		for i, it := range x.items {
			out[i] = it.Any()
		}
		return out
	case *object:
		out := make(map[string]any, len(x.members))
		for _, m := range x.members {
			out[m.Key] = m.Value.Any()
		}
		return out
	}
	return nil
}

// Decode unmarshals v into the Go value pointed to by target, as encoding/json would.
func (v Value) Decode(target any) error {
	return json.Unmarshal(AppendJSON(nil, v), target)
}
