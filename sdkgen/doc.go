package sdkgen

import (
	"github.com/runcode-dev/runcode/jsonv"
)

// maxExamples is how many of a schema's examples its JSDoc shows.
const maxExamples = 3

// docComment writes the JSDoc of a property or named type with schema s at level ind. With only a
// description it is the one-line upstream form, /** <description> */. Annotations make it a
// block: the description line (when it has text), then one tag per annotation, in this order:
//
//	@deprecated                  deprecated: true
//	@format <f>                  format
//	@pattern <regex>             pattern
//	@minimum, @exclusiveMinimum  minimum, exclusiveMinimum (a number, or draft-04 true)
//	@maximum, @exclusiveMaximum  maximum, exclusiveMaximum
//	@multipleOf                  multipleOf
//	@minLength, @maxLength       minLength, maxLength
//	@minItems, @maxItems         minItems, maxItems
//	@default <JSON>              default
//	@example <JSON>              each of the first three examples (or OpenAPI's example)
//
// Tag values are cleaned like descriptions: whitespace runs collapse and "*/" becomes "*\/".
func (g *gen) docComment(ind int, s jsonv.Value) {
	if s.Kind() != jsonv.Object {
		return
	}
	desc := s.Lookup("description")
	if !hasTags(s) {
		if desc.Kind() == jsonv.String {
			g.jsdoc(ind, desc.AsString())
		}
		return
	}
	g.pad(ind)
	g.str("/**\n")
	if d := desc.AsString(); d != "" {
		start := len(g.buf)
		g.pad(ind)
		g.str(" * ")
		text := len(g.buf)
		g.docLine(d)
		if len(g.buf) == text { // whitespace only
			g.buf = g.buf[:start]
		} else {
			g.str("\n")
		}
	}
	g.docTags(ind, s)
	g.pad(ind)
	g.str(" */\n")
}

// docTags writes the JSDoc tag lines of schema s's annotations .
func (g *gen) docTags(ind int, s jsonv.Value) {
	tag := func(name string, v jsonv.Value) {
		g.pad(ind)
		g.str(" * ")
		g.str(name)
		switch v.Kind() {
		case jsonv.Undefined:
		case jsonv.Number:
			g.str(" ")
			g.buf = jsonv.AppendNumber(g.buf, v.AsNumber())
		default:
			g.str(" ")
			g.docLine(string(jsonv.AppendJSON(nil, v)))
		}
		g.str("\n")
	}
	text := func(name, key string) {
		if v := s.Lookup(key); v.Kind() == jsonv.String {
			g.pad(ind)
			g.str(" * ")
			g.str(name)
			g.str(" ")
			g.docLine(v.AsString())
			g.str("\n")
		}
	}
	number := func(name, key string) {
		if v := s.Lookup(key); v.Kind() == jsonv.Number {
			tag(name, v)
		}
	}
	// bound writes minimum/maximum; draft-04 writes an exclusive bound as the boolean
	// exclusiveMinimum/exclusiveMaximum beside it.
	bound := func(key, exclusive string) {
		v, x := s.Lookup(key), s.Lookup(exclusive)
		switch {
		case v.Kind() == jsonv.Number && x.Kind() == jsonv.Bool && x.AsBool():
			tag("@"+exclusive, v)
		case v.Kind() == jsonv.Number:
			tag("@"+key, v)
		}
		number("@"+exclusive, exclusive)
	}

	if s.Lookup("deprecated").AsBool() {
		tag("@deprecated", jsonv.Value{})
	}
	text("@format", "format")
	text("@pattern", "pattern")
	bound("minimum", "exclusiveMinimum")
	bound("maximum", "exclusiveMaximum")
	for _, k := range [...]string{"multipleOf", "minLength", "maxLength", "minItems", "maxItems"} {
		number("@"+k, k)
	}
	if v, ok := s.Get("default"); ok {
		tag("@default", v)
	}
	if ex := s.Lookup("examples"); ex.Kind() == jsonv.Array {
		for i := range min(ex.Len(), maxExamples) {
			tag("@example", ex.Index(i))
		}
	} else if v, ok := s.Get("example"); ok {
		tag("@example", v)
	}
}

// docLine writes text as a JSDoc line holds it: JavaScript whitespace runs collapsed to one
// space, both ends trimmed, every "*/" written as "*\/".
func (g *gen) docLine(text string) {
	if plainDoc(text) {
		g.str(text)
		return
	}
	g.docText(text)
}

// tagKeywords are the keywords docTags renders.
var tagKeywords = [...]string{"deprecated", "format", "pattern", "minimum", "maximum", "exclusiveMinimum",
	"exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "default", "examples", "example"}

// hasTags reports whether schema s has a keyword docTags may render.
func hasTags(s jsonv.Value) bool {
	for _, k := range tagKeywords {
		if _, ok := s.Get(k); ok {
			return true
		}
	}
	return false
}
