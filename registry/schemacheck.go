package registry

import (
	"errors"
	"fmt"
	"math"
	"regexp"

	"github.com/runcode-dev/runcode/jsonv"
)

// The limits on one tool schema (parameters or output) outside the upstream subset (a schema
// inside it is validated without compiling, at any depth and size). The JSON Schema compiler grows
// superlinearly with a schema's depth (roughly cubic: 256 nested levels take most of a second,
// 1,600 levels minutes) and quadratically with its number of subschemas, so registration
// refuses a schema beyond these limits before compiling it; below them a compile takes
// milliseconds. Real tool schemas nest a few dozen JSON levels at most and have hundreds of
// values.
const (
	// MaxSchemaDepth is how deeply one schema document may nest, in JSON levels (an object
	// property's schema is two levels below its object's schema: "properties", then the name).
	MaxSchemaDepth = 128
	// MaxSchemaValues is how many JSON values (objects, arrays and scalars, the schema itself
	// included) one schema document may hold.
	MaxSchemaValues = 10000
)

// ErrSchemaTooLarge is the cause (errors.Is) of a registration refused because a schema
// outside the upstream subset exceeds MaxSchemaDepth or MaxSchemaValues.
var ErrSchemaTooLarge = errors.New("schema too large")

// outsideSubset ends a limit's message: it says how a schema escapes the limits.
const outsideSubset = " for a schema outside the upstream subset (type, oneOf, properties, required, additionalProperties, items, enum, const, annotations), which has no limit"

// checkSchemaLimits returns an error wrapping ErrSchemaTooLarge when doc exceeds the limits.
// text is doc's compact JSON text: a text no longer than MaxSchemaValues bytes cannot hold more
// values, so only a longer one is counted. It takes constant time for a doc nested too deeply,
// else time linear in doc's size.
func checkSchemaLimits(doc jsonv.Value, text []byte) error {
	if err := checkSchemaDepth(doc); err != nil {
		return err
	}
	if len(text) > MaxSchemaValues && countValues(doc, MaxSchemaValues+1) > MaxSchemaValues {
		return fmt.Errorf("%w: it holds more than %d JSON values%s", ErrSchemaTooLarge, MaxSchemaValues, outsideSubset)
	}
	return nil
}

// checkSchemaDepth returns an error wrapping ErrSchemaTooLarge when doc nests deeper than
// MaxSchemaDepth, in constant time.
func checkSchemaDepth(doc jsonv.Value) error {
	if d := doc.Depth(); d > MaxSchemaDepth {
		return fmt.Errorf("%w: it nests %d levels deep, more than the limit of %d%s", ErrSchemaTooLarge, d, MaxSchemaDepth, outsideSubset)
	}
	return nil
}

// countValues counts the JSON values in v, stopping once the count reaches limit. v nests at
// most MaxSchemaDepth levels, which bounds the recursion.
func countValues(v jsonv.Value, limit int) int {
	n := 1
	switch v.Kind() {
	case jsonv.Array:
		for i, l := 0, v.Len(); i < l && n < limit; i++ {
			n += countValues(v.Index(i), limit-n)
		}
	case jsonv.Object:
		for i, l := 0, v.Len(); i < l && n < limit; i++ {
			n += countValues(v.Member(i).Value, limit-n)
		}
	}
	return n
}

// certainlyValid reports whether doc is in a subset of JSON Schema whose documents it can
// check completely itself: every keyword one it knows, every keyword's value of the shape the
// draft's meta-schema demands, no references. A schema it accepts compiles with the full
// compiler without error (FuzzCertainlyValid checks that), so registration defers that compile
// to the first validation that needs it. It is a one-way test: false only means "ask the
// compiler", which also validates the schema against its meta-schema. Time is linear in doc's
// size (plus compiling its patterns); doc is within MaxSchemaDepth.
func certainlyValid(doc jsonv.Value) bool {
	return checkedSchema(doc, true)
}

func checkedSchema(doc jsonv.Value, root bool) bool {
	switch doc.Kind() {
	case jsonv.Bool:
		return true
	case jsonv.Object:
	default:
		return false
	}
	for i := range doc.Len() {
		if m := doc.Member(i); !checkedKeyword(m.Key, m.Value, root) {
			return false
		}
	}
	return true
}

func checkedKeyword(key string, v jsonv.Value, root bool) bool {
	switch key {
	case "$schema":
		return root && v.Kind() == jsonv.String && fastDraft(v.AsString())
	case "type":
		if v.Kind() == jsonv.String {
			return fastType(v.AsString()) != 0
		}
		if v.Kind() != jsonv.Array || v.Len() == 0 {
			return false
		}
		var seen uint8
		for i := range v.Len() {
			t := v.Index(i)
			bit := fastType(t.AsString())
			if t.Kind() != jsonv.String || bit == 0 || seen&bit != 0 {
				return false
			}
			seen |= bit
		}
		return true
	case "properties":
		if v.Kind() != jsonv.Object {
			return false
		}
		for i := range v.Len() {
			if !checkedSchema(v.Member(i).Value, false) {
				return false
			}
		}
		return true
	case "required":
		return uniqueStrings(v)
	case "additionalProperties", "items", "not":
		return checkedSchema(v, false)
	case "anyOf", "oneOf", "allOf":
		if v.Kind() != jsonv.Array || v.Len() == 0 {
			return false
		}
		for i := range v.Len() {
			if !checkedSchema(v.Index(i), false) {
				return false
			}
		}
		return true
	case "enum":
		return v.Kind() == jsonv.Array && v.Len() > 0
	case "const", "default":
		return true
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		return v.Kind() == jsonv.Number
	case "multipleOf":
		return v.Kind() == jsonv.Number && v.AsNumber() > 0
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		f := v.AsNumber()
		// Small integers only: the compiler converts them to int.
		return v.Kind() == jsonv.Number && f == math.Trunc(f) && f >= 0 && f <= math.MaxInt32
	case "uniqueItems", "deprecated", "readOnly", "writeOnly":
		return v.Kind() == jsonv.Bool
	case "pattern":
		if v.Kind() != jsonv.String {
			return false
		}
		_, err := regexp.Compile(v.AsString()) // the compiler's default regexp engine
		return err == nil
	case "format", "description", "title", "$comment":
		return v.Kind() == jsonv.String
	case "examples":
		return v.Kind() == jsonv.Array
	}
	return false
}

// uniqueStrings reports whether v is an array of distinct strings.
func uniqueStrings(v jsonv.Value) bool {
	if v.Kind() != jsonv.Array {
		return false
	}
	n := v.Len()
	var seen map[string]bool
	if n > 16 { // short lists, the usual ones, are compared pairwise without allocating
		seen = make(map[string]bool, n)
	}
	for i := range n {
		s := v.Index(i)
		if s.Kind() != jsonv.String {
			return false
		}
		if seen != nil {
			if seen[s.AsString()] {
				return false
			}
			seen[s.AsString()] = true
			continue
		}
		for j := range i {
			if v.Index(j).AsString() == s.AsString() {
				return false
			}
		}
	}
	return true
}
