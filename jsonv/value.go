// Package jsonv is runcode's one representation of a JSON value: ordered object keys,
// immutable once built, and lossless (no NaN, ±Inf, -0, undefined, functions or cycles can be
// represented). Its encoder formats numbers like JavaScript's String(n) and escapes strings like
// JSON.stringify, so text that reaches a model or a log is what a JavaScript host would print.
//
//	v, err := jsonv.Parse([]byte(`{"b":1,"a":[true,null]}`))
//	a, _ := v.Get("a")
//	fmt.Println(v, a) // {"b":1,"a":[true,null]} [true,null]
//
// [Parse] (and [MustParse], [ParseString]) reads JSON text into a [Value]; [FromGo] converts a
// Go value; [ObjectValue], [ArrayValue], [StringValue] and the other constructors build one;
// [Value.String] and [AppendJSON] write it back.
//
// Go's map[string]any loses key order and encoding/json escapes <, >, & and U+2028/U+2029 unlike
// JavaScript; neither is used for anything the model or a log sees.
package jsonv

import (
	"errors"
	"fmt"
	"math"
)

// Kind says which JSON type a Value holds.
type Kind uint8

// The kinds of Value. Undefined is the zero Value: "no value at all", which is not JSON and is
// never encoded; it marks an absent result or an absent schema.
const (
	Undefined Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"undefined", "null", "boolean", "number", "string", "array", "object"}

// String returns the JSON name of the kind ("object", "number", …).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Value is an immutable JSON value. The zero Value is Undefined. Values are cheap to copy and
// safe to share between goroutines.
type Value struct {
	v any // nullValue, bool, float64, string, *array, *object
}

type nullValue struct{}

type array struct {
	items []Value
	depth int // 1 + the deepest item's depth
}

// Member is one key/value pair of an object, in order.
type Member struct {
	Key   string
	Value Value
}

type object struct {
	members []Member
	index   map[string]int // built only for larger objects
	depth   int            // 1 + the deepest member value's depth
}

// MaxDepth is the deepest nesting of arrays and objects that a JSON value may have where it
// crosses a boundary: Parse, UnmarshalJSON and FromGo refuse deeper input with ErrTooDeep, and
// runcode's runtimes refuse to pass deeper values to or from a program. Code that walks a value
// recursively (the encoder, Any, a schema validator, goja) then needs at most this many frames.
// Real tool data rarely nests beyond a few dozen levels; the upstream contract supports 5,000
// levels of nesting everywhere, and a schema of 5,000 nested oneOf is 10,001 JSON levels, so
// 12,000 keeps both. A level costs goja and the converters well under a KiB of Go stack, so a
// walk needs a few MiB at most.
const MaxDepth = 12000

// ErrTooDeep reports a value that nests deeper than MaxDepth.
var ErrTooDeep = fmt.Errorf("value nests deeper than %d levels", MaxDepth)

const indexThreshold = 12

// ErrNotJSON reports a Go value or number that has no lossless JSON representation.
var ErrNotJSON = errors.New("not lossless JSON")

// NullValue returns JSON null.
func NullValue() Value { return Value{nullValue{}} }

// BoolValue returns a JSON boolean.
func BoolValue(b bool) Value { return Value{b} }

// StringValue returns a JSON string.
func StringValue(s string) Value { return Value{s} }

// NumberValue returns a JSON number; it fails with ErrNotJSON for NaN, ±Inf and -0, which JSON
// cannot carry losslessly.
func NumberValue(f float64) (Value, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Value{}, fmt.Errorf("%w: number %v", ErrNotJSON, f)
	}
	if f == 0 && math.Signbit(f) {
		return Value{}, fmt.Errorf("%w: number -0", ErrNotJSON)
	}
	return Value{f}, nil
}

// Int returns a JSON number for an integer (exact up to 2^53, like JavaScript).
func Int(i int64) Value { return Value{float64(i)} }

// ArrayValue returns a JSON array of the given items (copied).
func ArrayValue(items ...Value) Value { return ArrayOf(append([]Value(nil), items...)) }

// ArrayOf is ArrayValue without the copy: the array takes ownership of items, which the caller
// must not use afterwards. For a converter that builds each slice for its array alone.
func ArrayOf(items []Value) Value {
	for _, it := range items {
		if it.v == nil {
			panic("jsonv: ArrayValue given an Undefined item")
		}
	}
	return Value{newArray(items)}
}

// newArray takes ownership of items.
func newArray(items []Value) *array {
	d := 0
	for _, it := range items {
		d = max(d, it.Depth())
	}
	return &array{items: items, depth: d + 1}
}

// ObjectValue returns a JSON object of the given members (copied). A key given twice keeps its
// first position and its last value, as JSON.parse does.
func ObjectValue(members ...Member) Value { return ObjectOf(append([]Member(nil), members...)) }

// ObjectOf is ObjectValue without the copy: the object takes ownership of members, which the
// caller must not use afterwards (its backing array is reused when a key is given twice).
func ObjectOf(members []Member) Value { return Value{newObject(members)} }

// newObject takes ownership of members.
func newObject(members []Member) *object {
	o := &object{members: members}
	seen := map[string]int(nil)
	if len(members) >= indexThreshold {
		seen = make(map[string]int, len(members))
	}
	out := members[:0]
	d := 0
	for _, m := range members {
		d = max(d, m.Value.Depth())
		if m.Value.v == nil {
			panic("jsonv: ObjectValue given an Undefined member " + m.Key)
		}
		if seen != nil {
			if i, dup := seen[m.Key]; dup {
				out[i].Value = m.Value
				continue
			}
			seen[m.Key] = len(out)
		} else if i := indexOf(out, m.Key); i >= 0 {
			out[i].Value = m.Value
			continue
		}
		out = append(out, m)
	}
	o.members = out
	o.index = seen
	o.depth = d + 1
	return o
}

func indexOf(ms []Member, key string) int {
	for i := range ms {
		if ms[i].Key == key {
			return i
		}
	}
	return -1
}

// Kind returns the JSON type of v.
func (v Value) Kind() Kind {
	switch v.v.(type) {
	case nullValue:
		return Null
	case bool:
		return Bool
	case float64:
		return Number
	case string:
		return String
	case *array:
		return Array
	case *object:
		return Object
	}
	return Undefined
}

// Depth returns how deeply v nests: 0 for a scalar, 1 for an array or object of scalars (or an
// empty one), and so on. Values built in Go with ArrayValue and ObjectValue may exceed MaxDepth;
// the boundaries that check it refuse them.
func (v Value) Depth() int {
	switch x := v.v.(type) {
	case *array:
		return x.depth
	case *object:
		return x.depth
	}
	return 0
}

// IsDefined reports whether v holds a JSON value (is not the zero Value).
func (v Value) IsDefined() bool { return v.v != nil }

// AsBool returns the boolean, or false when v is not a boolean.
func (v Value) AsBool() bool { b, _ := v.v.(bool); return b }

// AsNumber returns the number, or 0 when v is not a number.
func (v Value) AsNumber() float64 { f, _ := v.v.(float64); return f }

// AsString returns the string, or "" when v is not a string.
func (v Value) AsString() string { s, _ := v.v.(string); return s }

// Len returns the number of items of an array or members of an object, else 0.
func (v Value) Len() int {
	switch x := v.v.(type) {
	case *array:
		return len(x.items)
	case *object:
		return len(x.members)
	}
	return 0
}

// Index returns item i of an array (Undefined when out of range or not an array).
func (v Value) Index(i int) Value {
	if a, ok := v.v.(*array); ok && i >= 0 && i < len(a.items) {
		return a.items[i]
	}
	return Value{}
}

// Items returns a copy of an array's items (nil when v is not an array).
func (v Value) Items() []Value {
	if a, ok := v.v.(*array); ok {
		return append([]Value(nil), a.items...)
	}
	return nil
}

// Members returns a copy of an object's members in order (nil when v is not an object).
func (v Value) Members() []Member {
	if o, ok := v.v.(*object); ok {
		return append([]Member(nil), o.members...)
	}
	return nil
}

// Member returns member i of an object, without copying the members (the zero Member when out
// of range or not an object): with Len, it walks an object the way Index walks an array.
func (v Value) Member(i int) Member {
	if o, ok := v.v.(*object); ok && i >= 0 && i < len(o.members) {
		return o.members[i]
	}
	return Member{}
}

// Get returns the value of an object's key and whether it is present.
func (v Value) Get(key string) (Value, bool) {
	o, ok := v.v.(*object)
	if !ok {
		return Value{}, false
	}
	if o.index != nil {
		i, ok := o.index[key]
		if !ok {
			return Value{}, false
		}
		return o.members[i].Value, true
	}
	if i := indexOf(o.members, key); i >= 0 {
		return o.members[i].Value, true
	}
	return Value{}, false
}

// Lookup is Get that returns Undefined for a missing key.
func (v Value) Lookup(key string) Value { x, _ := v.Get(key); return x }

// With returns a copy of object v with key set to val (appended when new); v itself is unchanged.
// On a non-object v it returns an object with the one member.
func (v Value) With(key string, val Value) Value {
	ms := v.Members()
	return Value{newObject(append(ms, Member{key, val}))}
}

// String returns the compact JSON text of v ("undefined" for the zero Value).
func (v Value) String() string {
	if v.v == nil {
		return "undefined"
	}
	return string(AppendJSON(nil, v))
}
