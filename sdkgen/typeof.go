package sdkgen

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/jsonv"
)

// maxDepth is the deepest schema nesting rendered; a node nested deeper renders unknown. It is
// twice the 5,000 levels the upstream generator is required to render, and it bounds the work a
// hostile schema can cause.
const maxDepth = 10000

// TypeOf renders one JSON Schema as TypeScript type text at indentation level indent (two spaces
// per level; it matters only for multi-line object literals, whose members are written one level
// deeper and whose closing brace is written at indent).
//
// The mapping follows the upstream Code Mode generator for its schema subset (type, oneOf,
// properties, required, additionalProperties, items, enum, const) and extends it: anyOf (a union),
// allOf (an intersection), type arrays, OpenAPI nullable, additionalProperties schemas, and a
// const or enum of any JSON value. Annotation and validation keywords it does not render (title,
// default, format, pattern, minimum, …) are ignored. A node using a keyword whose meaning a
// TypeScript type cannot carry ($ref, not, if/then/else, schema dependencies) renders unknown; only
// that node, never its parents or siblings. The schema true (or any non-object value) renders
// JsonValue and false renders never. Nodes nested more than 10,000 levels deep render unknown.
// TypeOf never panics.
func TypeOf(schema jsonv.Value, indent int) string {
	var g gen
	g.render(schema, max(indent, 0), 0)
	return string(g.buf)
}

// gen accumulates TypeScript text. Every node is written in place, so a parent never copies its
// children's text (nested objects would otherwise cost the cube of their depth).
type gen struct{ buf []byte }

// prec is the operator precedence of a written type's top level, so a caller knows when the
// text needs parentheses.
type prec uint8

const (
	precAtom  prec = iota // a name, literal, object literal, array or generic
	precInter             // A & B
	precUnion             // A | B
)

// meta describes a type just written.
type meta struct {
	prec prec
	// null reports that null is the type or one of its top-level union members, so nullable
	// need not add it again.
	null bool
	// top reports that the type admits every JSON value (JsonValue, unknown, or a union with
	// such a member): an intersection can leave it out.
	top bool
}

func (g *gen) str(s string) { g.buf = append(g.buf, s...) }

// insert inserts s at position pos of the text.
func (g *gen) insert(pos int, s string) {
	g.buf = slices.Insert(g.buf, pos, []byte(s)...)
}

// pad writes two spaces per indentation level.
func (g *gen) pad(ind int) {
	for range ind {
		g.str("  ")
	}
}

func (g *gen) jsonValue() meta { g.str("JsonValue"); return meta{null: true, top: true} }
func (g *gen) unknown() meta   { g.str("unknown"); return meta{null: true, top: true} }
func (g *gen) never() meta     { g.str("never"); return meta{} }

// render writes the type of schema s at indentation level ind; depth counts the schema nodes
// above s.
func (g *gen) render(s jsonv.Value, ind, depth int) meta {
	switch s.Kind() {
	case jsonv.Object:
	case jsonv.Bool:
		if s.AsBool() {
			return g.jsonValue()
		}
		return g.never()
	default:
		return g.jsonValue()
	}
	if depth >= maxDepth || opaque(s) {
		return g.unknown()
	}
	depth++

	// The node's type is the intersection of what it says itself and of its combinators.
	var x intersection
	x.start = len(g.buf)
	p := x.begin(g)
	m, ok := g.own(s, ind, depth)
	x.end(g, p, m, ok)
	for _, k := range [...]string{"oneOf", "anyOf"} {
		if bs := s.Lookup(k); bs.Kind() == jsonv.Array {
			p := x.begin(g)
			x.end(g, p, g.union(bs, ind, depth), true)
		}
	}
	if bs := s.Lookup("allOf"); bs.Kind() == jsonv.Array {
		for i := range bs.Len() {
			p := x.begin(g)
			x.end(g, p, g.render(bs.Index(i), ind, depth), true)
		}
	}
	m = x.result(g)

	if s.Lookup("nullable").AsBool() && !m.null {
		g.str(" | null")
		m = meta{prec: precUnion, null: true}
	}
	return m
}

// intersection joins the parts of one node with " & " as they are written, leaving out parts
// that admit any JSON value (they change nothing) unless nothing else is left, and
// parenthesizing unions once there is more than one part.
type intersection struct {
	start    int  // where the first part begins
	sep      int  // where the current part's separator begins
	kept     int  // parts kept that constrain the value
	fallback bool // an any-JSON part is written and kept until a constraining part replaces it
	first    meta // the first part kept
	m        meta // the intersection so far
}

// begin writes a separator when needed and returns where the next part begins.
func (x *intersection) begin(g *gen) int {
	x.sep = len(g.buf)
	if x.kept > 0 {
		g.str(" & ")
	}
	return len(g.buf)
}

// end takes the part written since begin returned p (ok false: nothing was written).
func (x *intersection) end(g *gen, p int, m meta, ok bool) {
	switch {
	case !ok || m.top && (x.kept > 0 || x.fallback):
		g.buf = g.buf[:x.sep]
	case m.top:
		x.fallback, x.m = true, m
	case x.kept == 0:
		if x.fallback { // the constraining part replaces the any-JSON one
			g.buf = append(g.buf[:x.start], g.buf[p:]...)
			x.fallback = false
		}
		x.kept, x.first, x.m = 1, m, m
	default:
		if x.kept == 1 && x.first.prec == precUnion {
			g.insert(x.sep, ")")
			g.insert(x.start, "(")
			p += 2
		}
		if m.prec == precUnion {
			g.insert(p, "(")
			g.str(")")
		}
		x.kept++
		x.m = meta{prec: precInter, null: x.m.null && m.null}
	}
}

// result returns the intersection's meta, writing JsonValue when there were no parts.
func (x *intersection) result(g *gen) meta {
	if x.kept == 0 && !x.fallback {
		return g.jsonValue()
	}
	return x.m
}

// opaque reports whether a schema node uses a keyword that no TypeScript type can carry here, so
// the node renders unknown.
func opaque(s jsonv.Value) bool {
	for _, k := range [...]string{"$ref", "$dynamicRef", "$recursiveRef", "not", "dependentSchemas"} {
		if _, ok := s.Get(k); ok {
			return true
		}
	}
	if _, ok := s.Get("if"); ok {
		_, then := s.Get("then")
		_, els := s.Get("else")
		if then || els {
			return true
		}
	}
	// draft-07 dependencies: the schema form is an applicator, the array form is not.
	if deps := s.Lookup("dependencies"); deps.Kind() == jsonv.Object {
		for _, d := range deps.Members() {
			if k := d.Value.Kind(); k == jsonv.Object || k == jsonv.Bool {
				return true
			}
		}
	}
	return false
}

// own writes what a node itself says about its values: const, else enum, else type (a name or
// an array of names). A node without type but with properties or additionalProperties is taken
// as an object, and one with items or prefixItems as an array. ok is false, and nothing is
// written, when the node says none of this (annotation-only).
func (g *gen) own(s jsonv.Value, ind, depth int) (m meta, ok bool) {
	if c, ok := s.Get("const"); ok {
		return g.literal(c), true
	}
	if e := s.Lookup("enum"); e.Kind() == jsonv.Array {
		if e.Len() == 0 {
			return g.never(), true
		}
		for i := range e.Len() {
			if i > 0 {
				g.str(" | ")
			}
			m.null = g.literal(e.Index(i)).null || m.null
		}
		if e.Len() > 1 {
			m.prec = precUnion
		}
		return m, true
	}
	switch ty := s.Lookup("type"); ty.Kind() {
	case jsonv.String:
		return g.typeName(ty.AsString(), s, ind, depth), true
	case jsonv.Array:
		// Each distinct name is written once: a repeated "object" must not render the
		// properties again (nested repeats would multiply the work at every level).
		var seen []string
		for i := range ty.Len() {
			n := ty.Index(i)
			name := n.AsString()
			if name == "integer" {
				name = "number"
			}
			if n.Kind() != jsonv.String || slices.Contains(seen, name) {
				continue
			}
			if len(seen) > 0 {
				g.str(" | ")
			}
			seen = append(seen, name)
			tm := g.typeName(name, s, ind, depth)
			m.null, m.top = m.null || tm.null, m.top || tm.top
			if len(seen) == 1 {
				m.prec = tm.prec
			} else {
				m.prec = precUnion
			}
		}
		if len(seen) > 0 {
			return m, true
		}
	}
	for _, k := range [...]string{"properties", "additionalProperties"} {
		if _, ok := s.Get(k); ok {
			return g.object(s, ind, depth), true
		}
	}
	for _, k := range [...]string{"items", "prefixItems"} {
		if _, ok := s.Get(k); ok {
			return g.array(s, ind, depth), true
		}
	}
	return meta{}, false
}

// literal writes a JSON value as a TypeScript literal type. JSON text is valid TypeScript type
// syntax for every JSON value (strings, numbers, true/false, null, and object or tuple literals).
func (g *gen) literal(v jsonv.Value) meta {
	g.buf = jsonv.AppendJSON(g.buf, v)
	return meta{null: v.Kind() == jsonv.Null}
}

// typeName writes one type name of node s.
func (g *gen) typeName(name string, s jsonv.Value, ind, depth int) meta {
	switch name {
	case "string", "boolean":
		g.str(name)
	case "number", "integer":
		g.str("number")
	case "null":
		g.str("null")
		return meta{null: true}
	case "object":
		return g.object(s, ind, depth)
	case "array":
		return g.array(s, ind, depth)
	default:
		return g.unknown()
	}
	return meta{}
}

// object writes an object node: a multi-line literal of its properties (members at ind+1,
// closing brace at ind), or a Record when it declares none.
func (g *gen) object(s jsonv.Value, ind, depth int) meta {
	var props []jsonv.Member
	if p := s.Lookup("properties"); p.Kind() == jsonv.Object {
		props = p.Members()
	}
	ap := s.Lookup("additionalProperties")
	closed := ap.Kind() == jsonv.Bool && !ap.AsBool()
	if s.Lookup("patternProperties").Len() > 0 {
		// Keys matching a pattern are allowed beyond the listed properties; a Record cannot
		// say which, so the object is rendered open.
		closed, ap = false, jsonv.Value{}
	}

	if len(props) == 0 {
		g.str("Record<string, ")
		switch start := len(g.buf); {
		case closed:
			g.str("never")
		case ap.Kind() == jsonv.Object:
			if g.render(ap, ind, depth).top {
				g.buf = g.buf[:start]
				g.str("JsonValue")
			}
		default:
			g.str("JsonValue")
		}
		g.str(">")
		return meta{}
	}
	required := s.Lookup("required")
	g.str("{\n")
	for _, p := range props {
		if d := p.Value.Lookup("description"); d.Kind() == jsonv.String {
			g.jsdoc(ind+1, d.AsString())
		}
		g.pad(ind + 1)
		g.key(p.Key)
		if !isRequired(required, p.Key) {
			g.str("?")
		}
		g.str(": ")
		g.render(p.Value, ind+1, depth)
		g.str(";\n")
	}
	g.pad(ind)
	g.str("}")
	if closed {
		return meta{}
	}
	// A Record of a narrower value type would clash with the listed properties' types in an
	// intersection, so extras of a schema are typed as JSON here.
	g.str(" & Record<string, JsonValue>")
	return meta{prec: precInter}
}

// isRequired reports whether the required array lists key.
func isRequired(required jsonv.Value, key string) bool {
	for i := range required.Len() {
		if k := required.Index(i); k.Kind() == jsonv.String && k.AsString() == key {
			return true
		}
	}
	return false
}

// array writes an array node as T[]. Tuples (prefixItems, or draft-07 array-form items) are
// written JsonValue[].
func (g *gen) array(s jsonv.Value, ind, depth int) meta {
	items, ok := s.Get("items")
	_, tuple := s.Get("prefixItems")
	if k := items.Kind(); tuple || !ok || k != jsonv.Object && k != jsonv.Bool {
		g.str("JsonValue[]")
		return meta{}
	}
	start := len(g.buf)
	g.render(items, ind, depth)
	// As upstream: parenthesize when | or & occurs anywhere in the item text, even where it
	// would not be needed (inside a nested member or a JSDoc line).
	if bytes.ContainsAny(g.buf[start:], "|&") {
		g.insert(start, "(")
		g.str(")")
	}
	g.str("[]")
	return meta{}
}

// union writes oneOf/anyOf branches as a union. Intersections need no parentheses inside it: &
// binds tighter than |.
func (g *gen) union(branches jsonv.Value, ind, depth int) meta {
	n := branches.Len()
	if n == 0 {
		return g.never()
	}
	var m meta
	for i := range n {
		if i > 0 {
			g.str(" | ")
		}
		bm := g.render(branches.Index(i), ind, depth)
		if n == 1 {
			return bm
		}
		m.null, m.top = m.null || bm.null, m.top || bm.top
	}
	m.prec = precUnion
	return m
}

// isIdent reports whether name matches ^[A-Za-z_$][A-Za-z0-9_$]*$ and may be written bare.
func isIdent(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// key writes a property or tool key: bare when it is an identifier, else a JSON string.
func (g *gen) key(name string) {
	if isIdent(name) {
		g.str(name)
		return
	}
	g.buf = jsonv.AppendString(g.buf, name)
}

// jsdoc writes a one-line JSDoc comment at level ind when desc is non-empty: whitespace runs
// (JavaScript's \s) collapse to one space, the text is trimmed, and every "*/" becomes "*\/".
// A whitespace-only description writes "/**  */", as upstream does.
func (g *gen) jsdoc(ind int, desc string) {
	if desc == "" {
		return
	}
	g.pad(ind)
	g.str("/** ")
	if plainDoc(desc) {
		g.str(desc)
	} else {
		g.docText(desc)
	}
	g.str(" */\n")
}

// plainDoc reports whether desc needs no rewriting: printable ASCII, single inner spaces, no
// space at either end, no "*/".
func plainDoc(desc string) bool {
	for i := 0; i < len(desc); i++ {
		switch c := desc[i]; {
		case c < 0x20 || c >= 0x7f:
			return false
		case c == ' ' && (i == 0 || i == len(desc)-1 || desc[i+1] == ' '):
			return false
		case c == '*' && i+1 < len(desc) && desc[i+1] == '/':
			return false
		}
	}
	return true
}

// docText writes desc with each run of JavaScript whitespace collapsed to one space, both ends
// trimmed, and every "*/" written as "*\/".
func (g *gen) docText(desc string) {
	start, space, last := len(g.buf), false, rune(0)
	for _, r := range desc {
		if isJSSpace(r) {
			space = len(g.buf) > start
			continue
		}
		if space {
			g.str(" ")
			space, last = false, ' '
		}
		if r == '/' && last == '*' {
			g.str(`\`)
		}
		g.buf = utf8.AppendRune(g.buf, r)
		last = r
	}
}

// isJSSpace reports whether r matches JavaScript's \s (WhiteSpace and LineTerminator).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}
