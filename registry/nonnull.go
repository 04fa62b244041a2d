package registry

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
)

// runcodeTagKey is the struct tag of runcode's own field options: nonNullOption declares that a
// field is never null; nullableOption that a slice or map field of a Define'd tool's output may
// be null (a nil one is returned as null, not as [] or {}).
const (
	runcodeTagKey  = "runcode"
	nonNullOption  = "nonnull"
	nullableOption = "nullable"
)

// runcodeTag is a field's runcode tag.
type runcodeTag struct {
	nonNull, nullable bool
}

// parseRuncodeTag returns the options of a field's runcode tag. An unknown or empty option, or
// both options, is an error, so a misspelt tag does not silently do nothing.
func parseRuncodeTag(tag reflect.StructTag) (runcodeTag, error) {
	var t runcodeTag
	v, ok := tag.Lookup(runcodeTagKey)
	if !ok {
		return t, nil
	}
	for _, o := range strings.Split(v, ",") {
		switch strings.TrimSpace(o) {
		case nonNullOption:
			t.nonNull = true
		case nullableOption:
			t.nullable = true
		default:
			return runcodeTag{}, fmt.Errorf(`runcode tag %q: unknown option %q (the options are %q and %q)`, v, strings.TrimSpace(o), nonNullOption, nullableOption)
		}
	}
	if t.nonNull && t.nullable {
		return runcodeTag{}, fmt.Errorf(`runcode tag %q: a field cannot be both %q and %q`, v, nonNullOption, nullableOption)
	}
	return t, nil
}

// withoutNull returns s, the schema of a field of Go type t, made to refuse null. ok is false
// when s cannot be narrowed: it accepts anything (an interface, a type that marshals itself),
// or it is a reference to a slice or map type under $defs (a recursive one), whose definition
// admits null for its other uses.
func withoutNull(s jsonv.Value, t reflect.Type) (_ jsonv.Value, ok bool) {
	for t.Kind() == reflect.Pointer && t.Name() == "" {
		t = t.Elem()
	}
	if typ, hasType := s.Get("type"); hasType {
		switch typ.Kind() {
		case jsonv.String:
			return s, typ.AsString() != "null"
		case jsonv.Array:
			kept := slices.DeleteFunc(slices.Clone(typ.Items()), isNull)
			switch len(kept) {
			case 0:
				return s, false
			case 1:
				s = s.With("type", kept[0])
			default:
				s = s.With("type", jsonv.ArrayValue(kept...))
			}
			if enum, ok := s.Get("enum"); ok {
				s = s.With("enum", jsonv.ArrayValue(slices.DeleteFunc(slices.Clone(enum.Items()), func(v jsonv.Value) bool { return v.Kind() == jsonv.Null })...))
			}
			return s, true
		}
		return s, false
	}
	if _, hasRef := s.Get("$ref"); hasRef && s.Len() == 1 {
		return s, t.Kind() == reflect.Struct
	}
	if anyOf, ok := s.Get("anyOf"); ok && s.Len() == 1 {
		kept := slices.DeleteFunc(slices.Clone(anyOf.Items()), isNullSchema)
		if len(kept) == 1 && len(kept) < anyOf.Len() {
			return withoutNull(kept[0], t)
		}
	}
	return s, false
}

// emptyFiller replaces null by an empty value where a Define'd tool's output type promises one:
// every slice and map but a field tagged runcode:"nullable" (nilAsEmpty; without it, only a
// field tagged runcode:"nonnull" whose type is a slice or a map). It works on the JSON value jsonv.FromGo made of the Go value, guided by the Go
// type, so the tool's own data is never modified.
type emptyFiller struct {
	root     *fillPlan
	rootFill jsonv.Value // what a null root becomes; undefined: it stays null
}

// fillPlan is how to fill the JSON of one Go type (pointers followed). Plans are shared per
// type, so recursive types have cyclic plans.
type fillPlan struct {
	needed bool                  // something below may be filled
	elem   *fillPlan             // slice, array, map: the elements' (values') plan
	fill   jsonv.Value           // slice, array, map: what a null element becomes
	fields map[string]*fillField // struct: by JSON name
}

type fillField struct {
	plan *fillPlan
	fill jsonv.Value // what a null value of the field becomes; undefined: it stays null
}

// newEmptyFiller returns the filler of output type t, or nil when no value of t can need one.
func newEmptyFiller(t reflect.Type, nilAsEmpty bool) *emptyFiller {
	b := planBuilder{plans: map[reflect.Type]*fillPlan{}, nilAsEmpty: nilAsEmpty}
	f := &emptyFiller{root: b.plan(t)}
	if nilAsEmpty {
		f.rootFill = emptyOf(t)
	}
	// A plan is needed when it fills something or reaches a plan that does: iterate to a fixed
	// point, since recursive types make the plans cyclic.
	for changed := true; changed; {
		changed = false
		for _, p := range b.plans {
			if p.needed {
				continue
			}
			needed := p.elem != nil && (p.fill.IsDefined() || p.elem.needed)
			for _, f := range p.fields {
				needed = needed || f.fill.IsDefined() || f.plan.needed
			}
			if needed {
				p.needed, changed = true, true
			}
		}
	}
	if !f.root.needed && !f.rootFill.IsDefined() {
		return nil
	}
	return f
}

type planBuilder struct {
	plans      map[reflect.Type]*fillPlan
	nilAsEmpty bool
}

// plan returns the plan of t, building it (and the plans it reaches) once.
func (b *planBuilder) plan(t reflect.Type) *fillPlan {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if p, ok := b.plans[t]; ok {
		return p
	}
	p := &fillPlan{}
	b.plans[t] = p
	if selfEncoded(t) {
		return p
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		if isBase64Bytes(t) {
			return p // []byte: a base64 string
		}
		p.elem = b.plan(t.Elem())
		if b.nilAsEmpty {
			p.fill = emptyOf(t.Elem())
		}
	case reflect.Struct:
		p.fields = map[string]*fillField{}
		for _, f := range jsonFields(t) {
			ff := &fillField{plan: b.plan(f.typ)}
			tag, _ := parseRuncodeTag(f.tag) // inference has refused a bad tag already
			if tag.nonNull || (b.nilAsEmpty && !tag.nullable) {
				ff.fill = emptyOf(f.typ)
			}
			p.fields[f.name] = ff
		}
	}
	return p
}

// selfEncoded reports whether encoding/json writes t without looking into it the way
// jsonFields and the element types describe (the inference's leaf types).
func selfEncoded(t reflect.Type) bool {
	return t == jsonvValueType || t == rawMessageType || t == numberType || t == timeType ||
		t.Kind() == reflect.Interface ||
		implements(t, marshalerType) || implements(t, unmarshalerType) ||
		implements(t, textMarshalerType) || implements(t, textUnmarshalerType)
}

// emptyOf returns the empty JSON value a nil value of Go type t is replaced by: [] for a slice,
// {} for a map, "" for a []byte; undefined for any other type (a nil pointer has no empty
// value, and a type that marshals itself decides its own JSON).
func emptyOf(t reflect.Type) jsonv.Value {
	if selfEncoded(t) {
		return jsonv.Value{}
	}
	switch t.Kind() {
	case reflect.Slice:
		if isBase64Bytes(t) {
			return jsonv.StringValue("")
		}
		return jsonv.ArrayValue()
	case reflect.Map:
		return jsonv.ObjectValue()
	}
	return jsonv.Value{}
}

// fill returns v with the promised empty values in place of null.
func (f *emptyFiller) fill(v jsonv.Value) jsonv.Value {
	if v.Kind() == jsonv.Null && f.rootFill.IsDefined() {
		return f.rootFill
	}
	out, _ := fillValue(v, f.root)
	return out
}

// fillValue fills v, a value of the type of plan p; changed reports whether the result differs.
func fillValue(v jsonv.Value, p *fillPlan) (_ jsonv.Value, changed bool) {
	if !p.needed {
		return v, false
	}
	switch {
	case p.elem != nil && v.Kind() == jsonv.Array:
		// Walked in place; copied only once something changes.
		var out []jsonv.Value
		for i, n := 0, v.Len(); i < n; i++ {
			next, ch := fillSlot(v.Index(i), p.elem, p.fill)
			if ch && out == nil {
				out = v.Items() // a copy
			}
			if out != nil {
				out[i] = next
			}
		}
		if out == nil {
			return v, false
		}
		return jsonv.ArrayValue(out...), true
	case p.elem != nil && v.Kind() == jsonv.Object:
		return fillMembers(v, func(string) (*fillPlan, jsonv.Value) { return p.elem, p.fill })
	case p.fields != nil && v.Kind() == jsonv.Object:
		return fillMembers(v, func(key string) (*fillPlan, jsonv.Value) {
			if f, ok := p.fields[key]; ok {
				return f.plan, f.fill
			}
			return nil, jsonv.Value{}
		})
	}
	return v, false
}

// fillSlot fills one element or member: null becomes fill when it is defined.
func fillSlot(v jsonv.Value, p *fillPlan, fill jsonv.Value) (jsonv.Value, bool) {
	if v.Kind() == jsonv.Null {
		if fill.IsDefined() {
			return fill, true
		}
		return v, false
	}
	return fillValue(v, p)
}

// fillMembers fills the members of object v, each with the plan and fill slot returns.
func fillMembers(v jsonv.Value, slot func(key string) (*fillPlan, jsonv.Value)) (jsonv.Value, bool) {
	// Walked in place; copied only once something changes.
	var out []jsonv.Member
	for i, n := 0, v.Len(); i < n; i++ {
		m := v.Member(i)
		p, fill := slot(m.Key)
		if p == nil {
			continue
		}
		next, ch := fillSlot(m.Value, p, fill)
		if ch && out == nil {
			out = v.Members() // a copy
		}
		if out != nil {
			out[i].Value = next
		}
	}
	if out == nil {
		return v, false
	}
	return jsonv.ObjectValue(out...), true
}
