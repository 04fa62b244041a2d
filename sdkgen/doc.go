package sdkgen

import (
	"github.com/runcode-dev/runcode/jsonv"
)

// maxExamples is how many of a schema's examples its JSDoc shows.
const maxExamples = 3

// docComment writes the JSDoc of a property or named type with schema s, followed by a space:
// /** <description> <tags> */, nothing when there is neither. The comment shares the line of
// what it documents. The tags render annotations, in
// this order:
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
// One line keeps the declarations short; TypeScript shows the whole text on hover. Text is
// cleaned as docText does; "*/" inside a JSON value or a pattern is written "*\/", which JSON
// and regular expressions read as the same "*/".
func (g *gen) docComment(s jsonv.Value) {
	if s.Kind() != jsonv.Object {
		return
	}
	start := len(g.buf)
	g.str("/** ")
	text := len(g.buf)
	if d := s.Lookup("description"); d.Kind() == jsonv.String {
		g.docText(d.AsString(), proseBreak)
		if len(g.buf) > text {
			g.docs++
		}
	}
	if hasTags(s) {
		g.docTags(text, s)
	}
	if len(g.buf) == text { // nothing to say
		g.buf = g.buf[:start]
		return
	}
	g.str(" */ ")
}

// docTags writes the JSDoc tags of schema s's annotations; text is where the comment's text
// begins (a tag after text is separated by a space).
func (g *gen) docTags(text int, s jsonv.Value) {
	begin := func(name string) {
		if len(g.buf) > text {
			g.str(" ")
		}
		g.str(name)
	}
	tag := func(name string, v jsonv.Value) {
		begin(name)
		switch v.Kind() {
		case jsonv.Undefined:
		case jsonv.Number:
			g.str(" ")
			g.buf = jsonv.AppendNumber(g.buf, v.AsNumber())
		default:
			g.str(" ")
			g.docText(string(jsonv.AppendJSON(nil, v)), codeBreak)
		}
	}
	textTag := func(name, key, brk string) {
		if v := s.Lookup(key); v.Kind() == jsonv.String {
			begin(name)
			g.str(" ")
			g.docText(v.AsString(), brk)
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
	textTag("@format", "format", proseBreak)
	textTag("@pattern", "pattern", codeBreak)
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
