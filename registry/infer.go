package registry

import (
	"cmp"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/runcode-dev/runcode/jsonv"
)

// SchemaFor returns the JSON Schema inferred for T; see InferSchema.
func SchemaFor[T any]() (jsonv.Value, error) {
	return InferSchema(reflect.TypeFor[T]())
}

// InferSchema returns the JSON Schema (draft 2020-12) of the JSON that encoding/json produces for
// a value of t. JSON that satisfies it also decodes into t, with the gaps listed at the end. The
// schema is computed on every call; its key order is deterministic.
//
// Types map as encoding/json marshals them, checked in this order:
//
//   - a pointer: the element's schema made nullable: "type":["string","null"] when the element
//     has a single type (null is added to its enum too), {"anyOf":[X,{"type":"null"}]} otherwise,
//     and unchanged when the element already accepts anything;
//   - jsonv.Value, json.RawMessage and interface types: {} (anything);
//   - json.Number: {"type":"number"};
//   - time.Time: {"type":"string","format":"date-time"};
//   - a type that implements json.Marshaler or json.Unmarshaler (with a value or a pointer
//     receiver): {}; one that implements encoding.TextMarshaler or encoding.TextUnmarshaler:
//     {"type":"string"};
//   - bool: boolean; string kinds: string; float64: number; float32: number bounded by
//     ±3.4028235e+38;
//   - integers: "integer"; int8, int16, int32, uint8, uint16 and uint32 carry their range as
//     minimum and maximum; uint, uint64 and uintptr carry minimum 0; int and int64 are unbounded.
//     time.Duration is an int64: integer nanoseconds, as encoding/json writes it;
//   - a slice of bytes (unless its element type marshals itself): a string with
//     "contentEncoding":"base64"; other slices: {"type":"array","items":…};
//   - an array [N]T: {"type":"array","items":…,"minItems":N,"maxItems":N};
//   - a map whose key has a string kind or implements encoding.TextMarshaler (or
//     encoding.TextUnmarshaler): {"type":"object","additionalProperties":…}; other keys (integers
//     included) are errors;
//   - a struct: {"type":"object","properties":{…},"required":[…],"additionalProperties":false}
//     ("required" is left out when empty). See below;
//   - channels, funcs, complex numbers and unsafe pointers are errors.
//
// A nil slice or map marshals as null, so slices ([]byte too) and maps are nullable:
// "type":["array","null"]. (Define is stricter: there a slice or map argument must be sent as
// an array or object, and a nil slice or map in a tool's output is returned as [] or {}, so
// neither schema admits null, unless the field is tagged runcode:"nullable".)
//
// A struct's properties are its JSON fields in field order, chosen like encoding/json does:
// exported fields and the fields promoted from embedded structs (breadth first; of several fields
// of one name the shallowest wins, a tagged one winning a tie, and an unresolved tie drops them
// all); unexported fields and fields tagged `json:"-"` are left out; the name is the `json` tag's
// name, else the Go name. A field is required unless its tag has omitempty or omitzero, or it
// is promoted through an embedded pointer (nil omits it). The `json:",string"` option is an
// error. These struct tags add keywords to a field's schema (to the element's schema, before it
// is made nullable, for a pointer field):
//
//   - description:"…": "description";
//   - enum:"a,b,c": "enum" (comma-separated, each value trimmed; strings for a string field,
//     numbers of the field's type for a numeric field);
//   - minimum:"n", maximum:"n": the bounds of a numeric field, within its type's range;
//   - minLength:"n", maxLength:"n", pattern:"re" (Go regexp syntax, as the registry's validator
//     uses), format:"name": constraints of a string field;
//   - default:"JSON literal": "default"; it must decode into the field's type;
//   - runcode:"nonnull": the field is never null, so null is left out of its schema (a
//     []string field is {"type":"array",…}, string[] in the SDK, not string[] | null). Only a
//     slice, map or pointer field may carry it, and not one whose schema accepts anything (an
//     interface, a type that marshals itself) or a recursive slice or map type. The schema
//     alone promises it: Define's tools keep the promise at run time (a nil slice or map is
//     returned empty, a nil pointer is refused), and a caller of InferSchema must keep it
//     itself. For arguments, a pointer field so tagged must not be sent as null.
//   - runcode:"nullable": a slice or map field that Define would declare non-null (an
//     argument, or any field of a tool's output) admits null: its schema is
//     "type":["array","null"], and a nil value of it in a tool's output is returned as null.
//     Only a slice or map field may carry it (a pointer is nullable already), and not with
//     runcode:"nonnull". InferSchema's own schemas admit null for such fields anyway.
//
// An invalid tag value, or a tag on a field of the wrong type, is an error naming the field.
//
// A named type that is recursive, and a named struct type that is used more than once, is
// written once under "$defs" at the root, keyed by its Go name ("Node"; "pkg.Node" for types
// of the same name from different packages, then a numeric suffix if still ambiguous), and
// referenced as {"$ref":"#/$defs/Node"}. Other types are written in place. The root type itself
// is always written in place (so a struct's root schema has its properties); it is also under
// "$defs" when it refers to itself.
//
// Errors name the path of the field that cannot be described and its Go type, e.g.
// `cannot infer a JSON Schema for main.Args.Events[] (chan int): channels have no JSON
// representation` (a path starts with the root type; [] is a slice or array element, [key] a
// map value).
//
// Gaps: a schema cannot express everything encoding/json checks. JSON that satisfies the schema
// still fails to decode when an int, int64, uint or uint64 is beyond the 64-bit range; when a
// time.Time is not an RFC 3339 date-time or a []byte string is not base64 (formats and content
// encodings are annotations, not assertions); when a type's own UnmarshalJSON or
// UnmarshalText refuses it; or when a type implements MarshalJSON or MarshalText but not the
// matching Unmarshal method. (A MarshalJSON or MarshalText with a pointer receiver is assumed
// to be used, though encoding/json uses it only for addressable values.)
func InferSchema(t reflect.Type) (jsonv.Value, error) {
	return inferSchema(t, encodeMode)
}

// inferMode selects how values that may be null are described.
type inferMode uint8

const (
	// encodeMode describes what json.Marshal produces: nil slices and maps are null.
	encodeMode inferMode = iota
	// decodeMode describes tool arguments: slices and maps must be arrays and objects, and
	// decoding must not fail on an embedded pointer to an unexported struct.
	decodeMode
	// nilAsEmptyMode describes the output of a Define'd tool: nil slices and maps are returned
	// as [] and {} (and a nil []byte as ""), so none of them is null.
	nilAsEmptyMode
)

// The types inference treats specially. They are never modified.
var (
	jsonvValueType      = reflect.TypeFor[jsonv.Value]()
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
	numberType          = reflect.TypeFor[json.Number]()
	timeType            = reflect.TypeFor[time.Time]()
	marshalerType       = reflect.TypeFor[json.Marshaler]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// maxFloat32 is the largest float32 as its shortest decimal, which is what encoding/json writes
// for it; it parses back to a float32 without overflow.
const maxFloat32 = 3.4028235e+38

// inferrer computes one schema. It walks the type graph twice: the first walk counts the uses
// of named composite types and finds the recursive ones (and reports every error); the second
// builds the schema, writing those types under $defs.
type inferrer struct {
	mode      inferMode
	counting  bool
	uses      map[reflect.Type]int
	recursive map[reflect.Type]bool
	onStack   map[reflect.Type]bool
	order     []reflect.Type // named composite types in order of first use
	names     map[reflect.Type]string
	defs      map[reflect.Type]jsonv.Value
	defining  map[reflect.Type]bool
}

func inferSchema(t reflect.Type, mode inferMode) (jsonv.Value, error) {
	if t == nil {
		return jsonv.Value{}, errors.New("cannot infer a JSON Schema for a nil reflect.Type")
	}
	x := &inferrer{
		mode:      mode,
		counting:  true,
		uses:      map[reflect.Type]int{},
		recursive: map[reflect.Type]bool{},
		onStack:   map[reflect.Type]bool{},
		defs:      map[reflect.Type]jsonv.Value{},
		defining:  map[reflect.Type]bool{},
	}
	path := t.String()
	if _, err := x.schemaOf(t, path, true); err != nil {
		return jsonv.Value{}, err
	}
	x.counting = false
	x.nameDefs()
	s, err := x.schemaOf(t, path, true)
	if err != nil {
		return jsonv.Value{}, err
	}
	var defs []jsonv.Member
	for _, d := range x.order {
		if v, ok := x.defs[d]; ok {
			defs = append(defs, jsonv.Member{Key: x.names[d], Value: v})
		}
	}
	if len(defs) > 0 {
		s = s.With("$defs", jsonv.ObjectValue(defs...))
	}
	return s, nil
}

// isDef reports whether the named type t is written under $defs.
func (x *inferrer) isDef(t reflect.Type) bool {
	return x.recursive[t] || (t.Kind() == reflect.Struct && x.uses[t] > 1)
}

// nameDefs names the $defs entries: the Go name; on a collision, qualified with the package
// name; then numbered in order of first use.
func (x *inferrer) nameDefs() {
	x.names = map[reflect.Type]string{}
	var defs []reflect.Type
	bases := map[string]int{}
	for _, t := range x.order {
		if x.isDef(t) {
			defs = append(defs, t)
			bases[defBase(t)]++
		}
	}
	taken := map[string]bool{}
	for _, t := range defs {
		name := defBase(t)
		if bases[name] > 1 {
			pkg := t.PkgPath()
			pkg = pkg[strings.LastIndexByte(pkg, '/')+1:]
			name = sanitizeDefName(pkg) + "." + name
		}
		unique := name
		for i := 2; taken[unique]; i++ {
			unique = name + "_" + strconv.Itoa(i)
		}
		taken[unique] = true
		x.names[t] = unique
	}
}

// defBase returns the $defs name of a named type: its name, with the package paths of type
// arguments shortened ("Page[example.com/x/y.Item]" → "Page_y.Item").
func defBase(t reflect.Type) string {
	var b []byte
	mark := 0 // where the current type name started in b
	for _, c := range []byte(t.Name()) {
		switch c {
		case '/':
			b = b[:mark]
			continue
		case '[', ']', ',', ' ', '*':
			b = append(b, c)
			mark = len(b)
			continue
		}
		b = append(b, c)
	}
	return sanitizeDefName(string(b))
}

// sanitizeDefName keeps ASCII letters, digits, '_' and '.', turning runs of anything else into
// one '_' (none at the end), so that the name is a plain JSON pointer and URI fragment segment.
func sanitizeDefName(s string) string {
	var b strings.Builder
	under := false
	for _, c := range s {
		if c < unicode.MaxASCII && (unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_' || c == '.') {
			if under {
				b.WriteByte('_')
				under = false
			}
			b.WriteRune(c)
			continue
		}
		under = b.Len() > 0
	}
	if b.Len() == 0 {
		return "Type"
	}
	return b.String()
}

// inferError reports that the type t found at path cannot be described.
func inferError(path string, t reflect.Type, format string, args ...any) error {
	if path != t.String() {
		path += " (" + t.String() + ")"
	}
	return fmt.Errorf("cannot infer a JSON Schema for %s: %s", path, fmt.Sprintf(format, args...))
}

var (
	emptySchema  = jsonv.ObjectValue()
	nullSchema   = typeSchema("null")
	objectSchema = typeSchema("object")
)

func typeSchema(name string) jsonv.Value {
	return jsonv.ObjectValue(jsonv.Member{Key: "type", Value: jsonv.StringValue(name)})
}

// schemaOf returns the schema of t found at path. inline writes a named type in place even when
// it is under $defs (the root).
func (x *inferrer) schemaOf(t reflect.Type, path string, inline bool) (jsonv.Value, error) {
	if t.Kind() == reflect.Pointer && t.Name() == "" {
		s, err := x.schemaOf(t.Elem(), path, inline)
		return nullable(s), err
	}
	if s, ok, err := x.leaf(t, path); ok || err != nil {
		return s, err
	}
	// A struct, slice, array, map or named pointer.
	if t.Name() == "" {
		return x.body(t, path)
	}
	if x.counting {
		x.uses[t]++
		if x.onStack[t] {
			x.recursive[t] = true
			return objectSchema, nil
		}
		if x.uses[t] > 1 {
			return objectSchema, nil
		}
		x.order = append(x.order, t)
		x.onStack[t] = true
		defer delete(x.onStack, t)
		return x.body(t, path)
	}
	if inline || !x.isDef(t) {
		return x.body(t, path)
	}
	if !x.defining[t] {
		x.defining[t] = true
		s, err := x.body(t, path)
		if err != nil {
			return jsonv.Value{}, err
		}
		x.defs[t] = s
	}
	return jsonv.ObjectValue(jsonv.Member{Key: "$ref", Value: jsonv.StringValue("#/$defs/" + x.names[t])}), nil
}

// implements reports whether t or *t implements iface.
func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(iface))
}

// isBase64Bytes reports whether t is a byte slice that encoding/json writes as a base64
// string: its element type does not marshal itself.
func isBase64Bytes(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && !implements(t.Elem(), marshalerType) && !implements(t.Elem(), textMarshalerType)
}

// leaf returns the schema of a type that is not a composite (ok), or an error for a type that
// has no JSON representation.
func (x *inferrer) leaf(t reflect.Type, path string) (s jsonv.Value, ok bool, err error) {
	switch {
	case t == jsonvValueType, t == rawMessageType, t.Kind() == reflect.Interface:
		return emptySchema, true, nil
	case t == numberType:
		return typeSchema("number"), true, nil
	case t == timeType:
		return typeSchema("string").With("format", jsonv.StringValue("date-time")), true, nil
	case implements(t, marshalerType), implements(t, unmarshalerType):
		return emptySchema, true, nil
	case implements(t, textMarshalerType), implements(t, textUnmarshalerType):
		return typeSchema("string"), true, nil
	case isBase64Bytes(t):
		return x.orNull(typeSchema("string").With("contentEncoding", jsonv.StringValue("base64"))), true, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return typeSchema("boolean"), true, nil
	case reflect.String:
		return typeSchema("string"), true, nil
	case reflect.Float64:
		return typeSchema("number"), true, nil
	case reflect.Float32:
		return bounded("number", -maxFloat32, maxFloat32), true, nil
	case reflect.Int, reflect.Int64:
		return typeSchema("integer"), true, nil
	case reflect.Int8, reflect.Int16, reflect.Int32:
		n := float64(int64(1) << (t.Bits() - 1))
		return bounded("integer", -n, n-1), true, nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return bounded("integer", 0, float64(uint64(1)<<t.Bits()-1)), true, nil
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return typeSchema("integer").With("minimum", jsonv.Int(0)), true, nil
	case reflect.Complex64, reflect.Complex128:
		return jsonv.Value{}, false, inferError(path, t, "complex numbers have no JSON representation")
	case reflect.Chan:
		return jsonv.Value{}, false, inferError(path, t, "channels have no JSON representation")
	case reflect.Func:
		return jsonv.Value{}, false, inferError(path, t, "funcs have no JSON representation")
	case reflect.UnsafePointer:
		return jsonv.Value{}, false, inferError(path, t, "unsafe pointers have no JSON representation")
	case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map, reflect.Pointer:
		return jsonv.Value{}, false, nil
	}
	return jsonv.Value{}, false, inferError(path, t, "unsupported kind %s", t.Kind())
}

func bounded(typ string, lo, hi float64) jsonv.Value {
	return jsonv.ObjectValue(
		jsonv.Member{Key: "type", Value: jsonv.StringValue(typ)},
		jsonv.Member{Key: "minimum", Value: number(lo)},
		jsonv.Member{Key: "maximum", Value: number(hi)},
	)
}

// number returns f (finite) as a JSON number; -0 becomes 0.
func number(f float64) jsonv.Value {
	if f == 0 {
		f = 0
	}
	v, err := jsonv.NumberValue(f)
	if err != nil {
		panic(err) // callers pass finite numbers
	}
	return v
}

// orNull makes the type of s nullable in encodeMode (nil slices and maps marshal as null).
func (x *inferrer) orNull(s jsonv.Value) jsonv.Value {
	if x.mode == encodeMode {
		return nullable(s)
	}
	return s
}

// body returns the schema of a composite type written in place.
func (x *inferrer) body(t reflect.Type, path string) (jsonv.Value, error) {
	switch t.Kind() {
	case reflect.Pointer:
		s, err := x.schemaOf(t.Elem(), path, false)
		return nullable(s), err
	case reflect.Struct:
		return x.structSchema(t, path)
	case reflect.Slice:
		items, err := x.schemaOf(t.Elem(), path+"[]", false)
		if err != nil {
			return jsonv.Value{}, err
		}
		return x.orNull(typeSchema("array").With("items", items)), nil
	case reflect.Array:
		items, err := x.schemaOf(t.Elem(), path+"[]", false)
		if err != nil {
			return jsonv.Value{}, err
		}
		n := jsonv.Int(int64(t.Len()))
		return jsonv.ObjectValue(
			jsonv.Member{Key: "type", Value: jsonv.StringValue("array")},
			jsonv.Member{Key: "items", Value: items},
			jsonv.Member{Key: "minItems", Value: n},
			jsonv.Member{Key: "maxItems", Value: n},
		), nil
	case reflect.Map:
		k := t.Key()
		if k.Kind() != reflect.String && !implements(k, textMarshalerType) && !implements(k, textUnmarshalerType) {
			return jsonv.Value{}, inferError(path, t, "map keys must be strings or implement encoding.TextMarshaler, not %s", k)
		}
		values, err := x.schemaOf(t.Elem(), path+"[key]", false)
		if err != nil {
			return jsonv.Value{}, err
		}
		return x.orNull(typeSchema("object").With("additionalProperties", values)), nil
	}
	return jsonv.Value{}, inferError(path, t, "unsupported kind %s", t.Kind())
}

// nullable returns s extended to accept null.
func nullable(s jsonv.Value) jsonv.Value {
	if s.Len() == 0 {
		return s // {} accepts null already
	}
	typ, hasType := s.Get("type")
	_, hasRef := s.Get("$ref")
	_, hasAnyOf := s.Get("anyOf")
	if !hasType || hasRef || hasAnyOf {
		if hasAnyOf && !hasType && !hasRef && s.Len() == 1 && slices.ContainsFunc(s.Lookup("anyOf").Items(), isNullSchema) {
			return s
		}
		return jsonv.ObjectValue(jsonv.Member{Key: "anyOf", Value: jsonv.ArrayValue(s, nullSchema)})
	}
	null := jsonv.StringValue("null")
	switch typ.Kind() {
	case jsonv.String:
		if typ.AsString() == "null" {
			return s
		}
		s = s.With("type", jsonv.ArrayValue(typ, null))
	case jsonv.Array:
		if slices.ContainsFunc(typ.Items(), isNull) {
			return s
		}
		s = s.With("type", jsonv.ArrayValue(append(typ.Items(), null)...))
	default:
		return jsonv.ObjectValue(jsonv.Member{Key: "anyOf", Value: jsonv.ArrayValue(s, nullSchema)})
	}
	if enum, ok := s.Get("enum"); ok && !slices.ContainsFunc(enum.Items(), func(v jsonv.Value) bool { return v.Kind() == jsonv.Null }) {
		s = s.With("enum", jsonv.ArrayValue(append(enum.Items(), jsonv.NullValue())...))
	}
	return s
}

func isNull(v jsonv.Value) bool { return v.AsString() == "null" }

func isNullSchema(s jsonv.Value) bool { return s.Len() == 1 && s.Lookup("type").AsString() == "null" }

// structSchema returns the object schema of a struct type written in place.
func (x *inferrer) structSchema(t reflect.Type, path string) (jsonv.Value, error) {
	fields := jsonFields(t)
	props := make([]jsonv.Member, 0, len(fields))
	var required []jsonv.Value
	for _, f := range fields {
		fpath := path + "." + f.goPath
		if x.mode == decodeMode && f.unexportedPtr != "" {
			return jsonv.Value{}, inferError(fpath, f.typ, "encoding/json cannot decode through the embedded pointer to unexported struct %s", f.unexportedPtr)
		}
		if f.quoted {
			return jsonv.Value{}, inferError(fpath, f.typ, `the json ",string" option is not supported`)
		}
		s, err := x.fieldSchema(f, fpath)
		if err != nil {
			return jsonv.Value{}, err
		}
		props = append(props, jsonv.Member{Key: f.name, Value: s})
		if !f.optional {
			required = append(required, jsonv.StringValue(f.name))
		}
	}
	ms := []jsonv.Member{
		{Key: "type", Value: jsonv.StringValue("object")},
		{Key: "properties", Value: jsonv.ObjectValue(props...)},
	}
	if len(required) > 0 {
		ms = append(ms, jsonv.Member{Key: "required", Value: jsonv.ArrayValue(required...)})
	}
	ms = append(ms, jsonv.Member{Key: "additionalProperties", Value: jsonv.BoolValue(false)})
	return jsonv.ObjectValue(ms...), nil
}

// fieldSchema returns the schema of one struct field with its tags applied.
func (x *inferrer) fieldSchema(f jsonField, path string) (jsonv.Value, error) {
	t, ptr := f.typ, false
	for t.Kind() == reflect.Pointer && t.Name() == "" {
		t, ptr = t.Elem(), true
	}
	s, err := x.schemaOf(t, path, false)
	if err != nil {
		return jsonv.Value{}, err
	}
	if s, err = applyConstraints(s, t, f.tag); err != nil {
		return jsonv.Value{}, fmt.Errorf("field %s: %v", path, err)
	}
	if ptr {
		s = nullable(s)
	}
	tag, err := parseRuncodeTag(f.tag)
	if err != nil {
		return jsonv.Value{}, fmt.Errorf("field %s: %v", path, err)
	}
	if tag.nullable {
		switch {
		case f.typ.Kind() == reflect.Pointer, f.typ.Kind() == reflect.Interface:
			return jsonv.Value{}, fmt.Errorf(`field %s: the runcode:"nullable" tag has no effect: a %s is nullable already`, path, f.typ)
		case f.typ.Kind() != reflect.Slice && f.typ.Kind() != reflect.Map:
			return jsonv.Value{}, fmt.Errorf(`field %s: the runcode:"nullable" tag cannot apply to %s: only a slice or map field may carry it`, path, f.typ)
		}
		s = nullable(s)
	}
	if tag.nonNull {
		switch f.typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		default:
			return jsonv.Value{}, fmt.Errorf(`field %s: the runcode:"nonnull" tag has no effect: a %s is never null`, path, f.typ)
		}
		var ok bool
		if s, ok = withoutNull(s, f.typ); !ok {
			return jsonv.Value{}, fmt.Errorf(`field %s: the runcode:"nonnull" tag cannot apply to %s: its schema cannot exclude null (an interface, a type that marshals itself, or a recursive slice or map type)`, path, f.typ)
		}
	}
	if d, ok := f.tag.Lookup("description"); ok && d != "" {
		s = s.With("description", jsonv.StringValue(d))
	}
	if d, ok := f.tag.Lookup("default"); ok {
		v, err := jsonv.ParseString(d)
		if err != nil {
			return jsonv.Value{}, fmt.Errorf("field %s: default tag %q is not a JSON literal: %v", path, d, err)
		}
		if err := v.Decode(reflect.New(f.typ).Interface()); err != nil {
			return jsonv.Value{}, fmt.Errorf("field %s: default tag %q does not decode into %s: %v", path, d, f.typ, strings.TrimPrefix(err.Error(), "json: "))
		}
		s = s.With("default", v)
	}
	return s, nil
}

// applyConstraints adds the keywords of the enum, minimum, maximum, minLength, maxLength,
// pattern and format tags to s, the schema of a field's (dereferenced) type t.
func applyConstraints(s jsonv.Value, t reflect.Type, tag reflect.StructTag) (jsonv.Value, error) {
	typ := s.Lookup("type").AsString()
	numeric := typ == "integer" || typ == "number"
	stringy := typ == "string"
	need := func(key string, ok bool, what string) error {
		if !ok {
			return fmt.Errorf("%s tag needs %s field, not %s", key, what, t)
		}
		return nil
	}
	if v, ok := tag.Lookup("enum"); ok {
		if err := need("enum", numeric || stringy, "a string or numeric"); err != nil {
			return s, err
		}
		values, err := parseEnum(v, typ, t)
		if err != nil {
			return s, err
		}
		s = s.With("enum", jsonv.ArrayValue(values...))
	}
	lo, hasLo := s.Get("minimum") // the range of the type
	hi, hasHi := s.Get("maximum")
	for _, key := range [...]string{"minimum", "maximum"} {
		v, ok := tag.Lookup(key)
		if !ok {
			continue
		}
		if err := need(key, numeric, "a numeric"); err != nil {
			return s, err
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsInf(f, 0) {
			return s, fmt.Errorf("%s tag %q is not a finite number", key, v)
		}
		if hasLo && f < lo.AsNumber() {
			return s, fmt.Errorf("%s tag %v is below the range of %s (%s)", key, v, t, lo)
		}
		if hasHi && f > hi.AsNumber() {
			return s, fmt.Errorf("%s tag %v is above the range of %s (%s)", key, v, t, hi)
		}
		s = s.With(key, number(f))
	}
	if lo, hi := tag.Get("minimum"), tag.Get("maximum"); lo != "" && hi != "" && s.Lookup("minimum").AsNumber() > s.Lookup("maximum").AsNumber() {
		return s, fmt.Errorf("minimum tag %s is greater than maximum tag %s", lo, hi)
	}
	for _, key := range [...]string{"minLength", "maxLength"} {
		v, ok := tag.Lookup(key)
		if !ok {
			continue
		}
		if err := need(key, stringy, "a string"); err != nil {
			return s, err
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 31)
		if err != nil {
			return s, fmt.Errorf("%s tag %q is not a non-negative integer", key, v)
		}
		s = s.With(key, jsonv.Int(int64(n)))
	}
	if lo, hi := tag.Get("minLength"), tag.Get("maxLength"); lo != "" && hi != "" && s.Lookup("minLength").AsNumber() > s.Lookup("maxLength").AsNumber() {
		return s, fmt.Errorf("minLength tag %s is greater than maxLength tag %s", lo, hi)
	}
	if v, ok := tag.Lookup("pattern"); ok {
		if err := need("pattern", stringy, "a string"); err != nil {
			return s, err
		}
		if _, err := regexp.Compile(v); err != nil {
			return s, fmt.Errorf("pattern tag %q: %v", v, err)
		}
		s = s.With("pattern", jsonv.StringValue(v))
	}
	if v, ok := tag.Lookup("format"); ok {
		if err := need("format", stringy, "a string"); err != nil {
			return s, err
		}
		if strings.TrimSpace(v) == "" {
			return s, errors.New("format tag is empty")
		}
		s = s.With("format", jsonv.StringValue(v))
	}
	return s, nil
}

// parseEnum parses the values of an enum tag for a field whose schema has type typ.
func parseEnum(tag, typ string, t reflect.Type) ([]jsonv.Value, error) {
	if strings.TrimSpace(tag) == "" {
		return nil, errors.New("enum tag is empty")
	}
	parts := strings.Split(tag, ",")
	values := make([]jsonv.Value, 0, len(parts))
	seen := map[string]bool{}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if seen[p] {
			return nil, fmt.Errorf("enum tag %q lists %q twice", tag, p)
		}
		seen[p] = true
		switch typ {
		case "string":
			values = append(values, jsonv.StringValue(p))
		case "integer":
			var f float64
			switch t.Kind() {
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				n, err := strconv.ParseUint(p, 10, t.Bits())
				if err != nil {
					return nil, fmt.Errorf("enum tag value %q is not a %s", p, t)
				}
				f = float64(n)
			default:
				n, err := strconv.ParseInt(p, 10, t.Bits())
				if err != nil {
					return nil, fmt.Errorf("enum tag value %q is not a %s", p, t)
				}
				f = float64(n)
			}
			values = append(values, number(f))
		default:
			f, err := strconv.ParseFloat(p, 64)
			if err != nil || math.IsInf(f, 0) || (t.Kind() == reflect.Float32 && math.Abs(f) > maxFloat32) {
				return nil, fmt.Errorf("enum tag value %q is not a finite %s", p, t)
			}
			values = append(values, number(f))
		}
	}
	return values, nil
}

// jsonField is one field of a struct as encoding/json sees it.
type jsonField struct {
	name     string // the JSON name
	goPath   string // the Go path from the struct, through embedded structs: "Base.ID"
	index    []int
	typ      reflect.Type
	tag      reflect.StructTag
	tagged   bool // the name comes from the json tag
	optional bool // omitempty, omitzero, or promoted through an embedded pointer
	quoted   bool // the ",string" option applies
	// unexportedPtr names the embedded pointer to an unexported struct the field is promoted
	// through, if any: encoding/json cannot allocate it when decoding.
	unexportedPtr string
}

// jsonFields returns the fields encoding/json encodes and decodes for struct type t, in field
// order, following its typeFields: breadth-first through embedded structs, the shallowest field
// of a name winning, a tagged one winning a tie at the same depth, and an unresolved tie dropping
// the name.
func jsonFields(t reflect.Type) []jsonField {
	type level struct {
		typ           reflect.Type
		index         []int
		goPath        string
		viaPointer    bool
		unexportedPtr string
	}
	var current []level
	next := []level{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []jsonField
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := range f.typ.NumField() {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(f.index[:len(f.index):len(f.index)], i)
				goPath := sf.Name
				if f.goPath != "" {
					goPath = f.goPath + "." + sf.Name
				}
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					quoted := false
					if hasOption(opts, "string") {
						switch ft.Kind() {
						case reflect.Bool,
							reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
							reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
							reflect.Float32, reflect.Float64, reflect.String:
							quoted = true
						}
					}
					field := jsonField{
						name:          cmp.Or(name, sf.Name),
						goPath:        goPath,
						index:         index,
						typ:           sf.Type,
						tag:           sf.Tag,
						tagged:        name != "",
						optional:      f.viaPointer || hasOption(opts, "omitempty") || hasOption(opts, "omitzero"),
						quoted:        quoted,
						unexportedPtr: f.unexportedPtr,
					}
					fields = append(fields, field)
					if count[f.typ] > 1 {
						// Several instances of this embedded type at this depth: a duplicate makes
						// the dominance rule below drop the name, as encoding/json does.
						fields = append(fields, field)
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					l := level{typ: ft, index: index, goPath: goPath, viaPointer: f.viaPointer, unexportedPtr: f.unexportedPtr}
					if sf.Type.Kind() == reflect.Pointer {
						l.viaPointer = true
						if !sf.IsExported() && l.unexportedPtr == "" {
							l.unexportedPtr = sf.Type.String()
						}
					}
					next = append(next, l)
				}
			}
		}
	}
	slices.SortStableFunc(fields, func(a, b jsonField) int {
		return cmp.Or(
			strings.Compare(a.name, b.name),
			cmp.Compare(len(a.index), len(b.index)),
			boolOrder(a.tagged, b.tagged),
			slices.Compare(a.index, b.index),
		)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 || len(group[0].index) != len(group[1].index) || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return out
}

// boolOrder orders true before false.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// validTagName reports whether encoding/json accepts name as a field name from a tag.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
