package registry

import (
	"math"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
)

// fastSchema is a schema in a small subset of JSON Schema, checked directly on a jsonv value:
// without the conversion to Go maps the full validator needs, and without allocating. Most tool
// schemas are in the subset: type, properties, required, additionalProperties, items (one
// schema), enum and const of scalars, boolean schemas, annotations, and $schema naming draft 6
// or later at the root. For a schema in the subset, accepts decides exactly what the full
// validator decides; the full validator still runs for a value it rejects, to write the
// messages.
type fastSchema struct {
	never      bool  // the false schema
	types      uint8 // accepted kinds, one bit per fastType; 0: any
	props      []fastProp
	required   []string
	additional *fastSchema // nil: any additional property
	items      *fastSchema // nil: any items
	hasEnum    bool        // enum or const: the value must equal one of enum
	enum       []jsonv.Value
}

type fastProp struct {
	name   string
	schema *fastSchema
}

// The kinds of the type keyword.
const (
	fastNull uint8 = 1 << iota
	fastBool
	fastNumber
	fastInteger
	fastString
	fastArray
	fastObject
)

func fastType(name string) uint8 {
	switch name {
	case "null":
		return fastNull
	case "boolean":
		return fastBool
	case "number":
		return fastNumber
	case "integer":
		return fastInteger
	case "string":
		return fastString
	case "array":
		return fastArray
	case "object":
		return fastObject
	}
	return 0
}

// fastDraft reports whether url names a draft in which the subset's keywords mean what they
// mean in 2020-12 (draft 4, for one, has no boolean schemas and no const).
func fastDraft(url string) bool {
	u := strings.TrimSuffix(url, "#")
	if rest, ok := strings.CutPrefix(u, "http://"); ok {
		u = rest
	} else {
		u = strings.TrimPrefix(u, "https://")
	}
	switch u {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema", "json-schema.org/draft/2019-09/schema",
		"json-schema.org/draft-07/schema", "json-schema.org/draft-06/schema":
		return true
	}
	return false
}

// compileFast returns doc as a fastSchema, or nil when doc is not in the subset. doc is a
// valid schema already (it passed the full compiler, certainlyValid or the upstream subset
// check); compileFast also returns nil for any keyword value it does not expect.
func compileFast(doc jsonv.Value, root bool) *fastSchema {
	switch doc.Kind() {
	case jsonv.Bool:
		return &fastSchema{never: !doc.AsBool()}
	case jsonv.Object:
	default:
		return nil
	}
	s := &fastSchema{}
	for i := range doc.Len() {
		m := doc.Member(i)
		v := m.Value
		switch m.Key {
		case "type":
			names := []jsonv.Value{v}
			if v.Kind() == jsonv.Array {
				names = v.Items()
			}
			if len(names) == 0 {
				return nil
			}
			for _, n := range names {
				t := fastType(n.AsString())
				if t == 0 || n.Kind() != jsonv.String {
					return nil
				}
				s.types |= t
			}
		case "properties":
			if v.Kind() != jsonv.Object {
				return nil
			}
			for j := range v.Len() {
				p := v.Member(j)
				c := compileFast(p.Value, false)
				if c == nil {
					return nil
				}
				s.props = append(s.props, fastProp{p.Key, c})
			}
		case "required":
			if v.Kind() != jsonv.Array {
				return nil
			}
			for _, name := range v.Items() {
				if name.Kind() != jsonv.String {
					return nil
				}
				s.required = append(s.required, name.AsString())
			}
		case "additionalProperties":
			if s.additional = compileFast(v, false); s.additional == nil {
				return nil
			}
			if !s.additional.constrains() {
				s.additional = nil // true, or {}: anything goes
			}
		case "items":
			if s.items = compileFast(v, false); s.items == nil {
				return nil
			}
		case "enum", "const":
			values := []jsonv.Value{v}
			if m.Key == "enum" {
				if v.Kind() != jsonv.Array {
					return nil
				}
				values = v.Items()
			}
			if s.hasEnum { // both: the intersection, which the subset leaves to the full validator
				return nil
			}
			for _, x := range values {
				if k := x.Kind(); k == jsonv.Array || k == jsonv.Object {
					return nil
				}
			}
			s.hasEnum, s.enum = true, values
		case "$schema":
			if !root || !fastDraft(v.AsString()) {
				return nil
			}
		case "description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly":
		default:
			return nil
		}
	}
	return s
}

// constrains reports whether s rejects anything.
func (s *fastSchema) constrains() bool {
	return s.never || s.types != 0 || len(s.props) > 0 || len(s.required) > 0 || s.additional != nil || s.items != nil || s.hasEnum
}

// accepts reports whether v satisfies s.
func (s *fastSchema) accepts(v jsonv.Value) bool {
	if s.never {
		return false
	}
	kind := v.Kind()
	if s.types != 0 {
		var t uint8
		switch kind {
		case jsonv.Null:
			t = fastNull
		case jsonv.Bool:
			t = fastBool
		case jsonv.Number:
			t = fastNumber
			if f := v.AsNumber(); f == math.Trunc(f) {
				t |= fastInteger
			}
		case jsonv.String:
			t = fastString
		case jsonv.Array:
			t = fastArray
		case jsonv.Object:
			t = fastObject
		}
		if s.types&t == 0 {
			return false
		}
	}
	if s.hasEnum {
		found := false
		for _, x := range s.enum {
			// Scalars compare by value: the same number, string or boolean, or null.
			if x == v {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	switch kind {
	case jsonv.Object:
		return s.acceptsObject(v)
	case jsonv.Array:
		if s.items != nil {
			for i, n := 0, v.Len(); i < n; i++ {
				if !s.items.accepts(v.Index(i)) {
					return false
				}
			}
		}
	}
	return true
}

func (s *fastSchema) acceptsObject(v jsonv.Value) bool {
	for _, name := range s.required {
		if _, ok := v.Get(name); !ok {
			return false
		}
	}
	if s.additional != nil && !s.additional.never {
		// Additional properties have a schema of their own: walk the members.
		for i := range v.Len() {
			m := v.Member(i)
			p := s.additional
			for _, d := range s.props {
				if d.name == m.Key {
					p = d.schema
					break
				}
			}
			if !p.accepts(m.Value) {
				return false
			}
		}
		return true
	}
	declared := 0
	for _, p := range s.props {
		x, ok := v.Get(p.name)
		if !ok {
			continue
		}
		declared++
		if !p.schema.accepts(x) {
			return false
		}
	}
	// additionalProperties: false admits only declared properties.
	return s.additional == nil || declared == v.Len()
}
