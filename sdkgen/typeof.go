package sdkgen

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/jsonv"
)

// maxDepth is the deepest schema nesting rendered; a node nested deeper renders unknown. It is
// four times the 5,000 levels the upstream generator is required to render (a chain of 5,000
// definitions, each a union with a reference to the next, is 10,000 nodes deep), and it bounds
// the recursion a hostile schema can cause. References count: the body of a referenced schema
// is one level deeper than the reference.
const maxDepth = 20000

// maxInline bounds how many references TypeOf expands in place, so that a schema whose
// definitions reference each other several times cannot make the text grow exponentially.
const maxInline = 256

// TypeOf renders one JSON Schema as TypeScript type text at indentation level indent (two spaces
// per level; it matters only for multi-line object literals, whose members are written one level
// deeper and whose closing brace is written at indent).
//
// The mapping follows the upstream Code Mode generator for its schema subset (type, oneOf,
// properties, required, additionalProperties, items, enum, const) and extends it: anyOf (a
// union), allOf (an intersection), type arrays, OpenAPI nullable, tuples (prefixItems, or
// draft-07 array-form items, with the rest of the elements from items or additionalItems and
// elements past minItems optional), additionalProperties schemas and patternProperties (index
// signatures), a const or enum of any JSON value, and local references ($ref to "#", to
// "#/$defs/…", "#/definitions/…" or any other JSON pointer into schema). Properties carry their
// description and their annotations (default, format, bounds, pattern, deprecated, examples) as
// JSDoc.
//
// TypeOf has no place to declare named types, so it writes a referenced schema in place; a
// reference to a schema it is already expanding (recursion) renders unknown, as does one past
// the first 256 expansions. Declarations names referenced schemas instead, and so renders
// recursive schemas in full.
//
// A node using a keyword whose meaning a TypeScript type cannot carry (not, if/then/else, schema
// dependencies, $dynamicRef, a reference that does not resolve inside schema) renders unknown;
// only that node, never its parents or siblings. The schema true (or any non-object value)
// renders JsonValue and false renders never. Nodes nested more than 20,000 levels deep render
// unknown. TypeOf never panics.
func TypeOf(schema jsonv.Value, indent int) string {
	g := gen{root: schema, inline: []string{""}, budget: maxInline}
	g.render(schema, max(indent, 0), 0)
	return string(g.buf)
}

// gen accumulates TypeScript text. Every node is written in place, so a parent never copies its
// children's text (nested objects would otherwise cost the cube of their depth).
type gen struct {
	buf []byte
	// root is the schema document references resolve against.
	root jsonv.Value
	// sc names referenced schemas (Declarations); nil means references are expanded in place
	// (TypeOf).
	sc  *scope
	doc int // the document of sc being rendered (docArgs or docOutput)
	// exposed lists the aliases whose body is being written at its top level: not inside an
	// object member, array element or tuple element. A reference to one of them here would make
	// a type alias circular, which TypeScript rejects.
	exposed []*alias
	// inline is the stack of JSON pointers being expanded in place (TypeOf); budget is how many
	// more expansions are allowed.
	inline []string
	budget int
	// hint is what an object type written here would be named after if it were a shape
	// (shapeTable): the name of the property holding it, or of the collection it is an element
	// of when element is set. It is made a type name only when a shape is recorded.
	hint    string
	element bool
	// refs counts the references written (Declarations), so that a shape can tell whether its
	// text depends on its tool's aliases.
	refs int
	// declaring is the shape whose declaration is being written, which must not refer to itself.
	declaring *shape
	// inlining reports that an object type is being tried on one line, so the objects inside it
	// are written on the same line.
	inlining bool
	// docs counts the descriptions written in JSDoc.
	docs int
}

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
	// loose reports that the type may not be assignable to JsonValue: it contains unknown or an
	// optional tuple element (whose type includes undefined). An index signature of JsonValue
	// cannot then cover it.
	loose bool
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
func (g *gen) unknown() meta   { g.str("unknown"); return meta{null: true, top: true, loose: true} }
func (g *gen) never() meta     { g.str("never"); return meta{} }

// nested starts writing a member, element or index signature type: a place where a reference
// to an alias being defined is allowed. It returns what to restore to g.exposed afterwards.
func (g *gen) nested() []*alias {
	saved := g.exposed
	g.exposed = nil
	return saved
}

// render writes the type of schema s at indentation level ind; depth counts the schema nodes
// above s.
func (g *gen) render(s jsonv.Value, ind, depth int) meta {
	if g.sc != nil && g.sc.shapes != nil && depth < maxDepth && isShapeCandidate(s) {
		if m, ok := g.shapeRender(s, ind, depth); ok {
			return m
		}
	}
	return g.renderNode(s, ind, depth)
}

// renderNode writes the type of schema s itself, as render does.
func (g *gen) renderNode(s jsonv.Value, ind, depth int) meta {
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

	// The node's type is the intersection of its reference, what it says itself and its
	// combinators.
	var x intersection
	x.start = len(g.buf)
	if ref, ok := refOf(s); ok {
		p := x.begin(g)
		x.end(g, p, g.ref(ref, ind, depth), true)
	}
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
		m = meta{prec: precUnion, null: true, loose: m.loose}
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
		x.m = meta{prec: precInter, null: x.m.null && m.null, loose: x.m.loose || m.loose}
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
	for _, k := range [...]string{"$dynamicRef", "not", "dependentSchemas"} {
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
			m.null, m.top, m.loose = m.null || tm.null, m.top || tm.top, m.loose || tm.loose
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
	for _, k := range [...]string{"properties", "additionalProperties", "patternProperties"} {
		if _, ok := s.Get(k); ok {
			return g.object(s, ind, depth), true
		}
	}
	for _, k := range [...]string{"items", "prefixItems", "additionalItems"} {
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
// closing brace at ind), or a Record or index signature when it declares none.
//
// Keys beyond the listed properties are typed by additionalProperties: true leaves the object
// open ("& Record<string, JsonValue>"), false closes it, and a schema becomes an index
// signature. Absent, it closes an object that lists properties or patternProperties, so a
// misspelled key is a type error (the upstream leaves such objects open; DECISIONS row 15), and
// leaves open one that lists nothing ({"type":"object"} is any object). patternProperties add their schemas to the index signature (a
// TypeScript key type cannot say which keys match a pattern). TypeScript requires every
// property to be assignable to the index signature; when that cannot be shown, the index
// signature is JsonValue (or unknown when a property is not plain JSON either).
func (g *gen) object(s jsonv.Value, ind, depth int) meta {
	var props []jsonv.Member
	if p := s.Lookup("properties"); p.Kind() == jsonv.Object {
		props = p.Members()
	}
	var extras []jsonv.Value
	if pp := s.Lookup("patternProperties"); pp.Kind() == jsonv.Object {
		for _, m := range pp.Members() {
			extras = append(extras, m.Value)
		}
	}
	_, listed := s.Get("properties")
	if _, ok := s.Get("patternProperties"); ok {
		listed = true
	}
	ap := s.Lookup("additionalProperties")
	var open bool
	switch ap.Kind() {
	case jsonv.Bool:
		open = ap.AsBool()
	case jsonv.Object:
		extras = append(extras, ap)
	case jsonv.Undefined:
		// Exact unless the schema lists nothing: {"type":"object"} is any object.
		open = !listed
	default:
		open = true
	}
	closed := !open && len(extras) == 0

	if len(props) == 0 {
		switch {
		case closed:
			g.str("Record<string, never>")
		case open:
			g.str("Record<string, JsonValue>")
		default:
			start := len(g.buf)
			g.str("{ [key: string]: ")
			m := g.indexType(extras, ind, depth)
			if m.top {
				g.buf = g.buf[:start]
				g.str("Record<string, JsonValue>")
				return meta{}
			}
			g.str(" }")
			return meta{loose: m.loose}
		}
		return meta{}
	}

	if !g.inlining && g.inlineable(s) {
		// Try one line; an object wider than maxInlineWidth with a description is written again,
		// a property per line.
		start, occ, docs := len(g.buf), g.occMark(), g.docs
		g.inlining = true
		m := g.properties(s, props, extras, open, ind, depth, true)
		g.inlining = false
		if len(g.buf)-start <= maxInlineWidth || g.docs == docs {
			return m
		}
		g.buf = g.buf[:start]
		g.occReset(occ)
	}
	return g.properties(s, props, extras, open, ind, depth, g.inlining)
}

// properties writes the literal of object node s with its properties props: on one line
// (inline), or with each property on its own line at level ind+1, after its JSDoc. extras are
// the schemas of further keys (an index signature), and open adds "& Record<string, JsonValue>".
func (g *gen) properties(s jsonv.Value, props []jsonv.Member, extras []jsonv.Value, open bool, ind, depth int, inline bool) meta {
	required := s.Lookup("required")
	type member struct {
		text     [2]int // where its type text is
		optional bool
		m        meta
	}
	var members []member // kept only for an index signature to check
	index := !open && len(extras) > 0
	var out meta
	if inline {
		g.str("{ ")
	} else {
		g.str("{\n")
	}
	saved := g.nested()
	for i, p := range props {
		if inline {
			if i > 0 {
				g.str("; ")
			}
		} else {
			g.pad(ind + 1)
		}
		g.docComment(p.Value)
		g.key(p.Key)
		var mb member
		if !isRequired(required, p.Key) {
			mb.optional = true
			g.str("?")
		}
		g.str(": ")
		mb.text[0] = len(g.buf)
		hint, element := g.hint, g.element
		g.hint, g.element = p.Key, false
		mb.m = g.render(p.Value, ind+1, depth)
		g.hint, g.element = hint, element
		mb.text[1] = len(g.buf)
		out.loose = out.loose || mb.m.loose
		if index {
			members = append(members, mb)
		}
		if !inline {
			g.str(";\n")
		}
	}
	if index {
		line := len(g.buf)
		if inline {
			g.str("; ")
		} else {
			g.pad(ind + 1)
		}
		g.str("[key: string]: ")
		start := len(g.buf)
		m := g.indexType(extras, ind+1, depth)
		if m.top {
			g.buf = g.buf[:line] // any JSON beyond the properties: the object is open
			open = true
		} else {
			x := string(g.buf[start:])
			optional, covered, loose := false, true, false
			for _, mb := range members {
				optional = optional || mb.optional
				loose = loose || mb.m.loose
				covered = covered && covers(x, string(g.buf[mb.text[0]:mb.text[1]]))
			}
			switch {
			case covered:
			case loose:
				g.buf = append(g.buf[:start], "unknown"...)
				optional = false // unknown includes undefined
			default:
				g.buf = append(g.buf[:start], "JsonValue"...)
			}
			if optional {
				g.str(" | undefined") // an optional property's type includes undefined
			}
			if !inline {
				g.str(";\n")
			}
			out.loose = out.loose || m.loose
		}
	}
	g.exposed = saved
	if inline {
		g.str(" }")
	} else {
		g.pad(ind)
		g.str("}")
	}
	if !open {
		return out
	}
	// A Record of a narrower value type would clash with the listed properties' types in an
	// intersection, so extras are typed as JSON here.
	g.str(" & Record<string, JsonValue>")
	out.prec = precInter
	return out
}

// An object type is written on one line, { a: string; /** B. */ b?: number }, when it has at
// most maxInlineNodes schema nodes and, if a property has a description, the line is at most
// maxInlineWidth bytes long; otherwise each property has its own line, after its JSDoc.
const (
	maxInlineNodes = 16
	maxInlineWidth = 100
)

// inlineable reports whether object node s may be tried on one line: it has at most
// maxInlineNodes schema nodes (a named shape or, in Declarations, a reference counts as one;
// TypeOf writes references in place, so there they rule a line out) and, in the layout of a
// declaration file, no property with a JSDoc comment.
func (g *gen) inlineable(s jsonv.Value) bool {
	budget, width, described := maxInlineNodes, 2, false
	editor := g.sc != nil && g.sc.editor
	var walk func(n jsonv.Value, top bool) bool
	walk = func(n jsonv.Value, top bool) bool {
		if n.Kind() != jsonv.Object {
			return true
		}
		if budget--; budget < 0 {
			return false
		}
		if _, ok := refOf(n); ok && g.sc == nil {
			return false // TypeOf writes the referenced schema here
		}
		if !top && g.namedShape(n) {
			return true
		}
		for _, k := range [...]string{"properties", "patternProperties"} {
			if ps := n.Lookup(k); ps.Kind() == jsonv.Object {
				for _, p := range ps.Members() {
					if editor && k == "properties" && hasDoc(p.Value) || !walk(p.Value, false) {
						return false
					}
					// A lower bound of the line's width: "key: T; " and "/** description */ "
					// (a description that docText would rewrite counts only its comment marks).
					width += len(p.Key) + 5
					if d := p.Value.Lookup("description"); d.Kind() == jsonv.String {
						width += 8
						if plainDoc(d.AsString()) {
							width += len(d.AsString())
						}
						described = true
					}
				}
			}
		}
		for _, k := range [...]string{"items", "prefixItems", "anyOf", "oneOf", "allOf", "additionalProperties", "additionalItems"} {
			v, ok := n.Get(k)
			if !ok {
				continue
			}
			if v.Kind() != jsonv.Array {
				if !walk(v, false) {
					return false
				}
				continue
			}
			for i := range v.Len() {
				if !walk(v.Index(i), false) {
					return false
				}
			}
		}
		return true
	}
	// With a description the line must fit: rule it out before trying when it cannot.
	return walk(s, true) && !(described && width > maxInlineWidth)
}

// hasDoc reports whether docComment writes a comment for property schema s.
func hasDoc(s jsonv.Value) bool {
	if s.Kind() != jsonv.Object {
		return false
	}
	if d := s.Lookup("description"); d.Kind() == jsonv.String && strings.IndexFunc(d.AsString(), func(r rune) bool { return !isJSSpace(r) }) >= 0 {
		return true
	}
	return hasTags(s)
}

// indexType writes the value type of an index signature: the union of schemas. A schema that
// admits any JSON value makes the result top.
func (g *gen) indexType(schemas []jsonv.Value, ind, depth int) meta {
	saved := g.nested()
	defer func() { g.exposed = saved }()
	var m meta
	for i, sc := range schemas {
		if i > 0 {
			g.str(" | ")
		}
		sm := g.render(sc, ind, depth)
		m.null, m.top, m.loose = m.null || sm.null, m.top || sm.top, m.loose || sm.loose
	}
	if len(schemas) > 1 {
		m.prec = precUnion
	}
	return m
}

// covers reports whether type text p is evidently assignable to type text x: the same text,
// never, or a union of names and literals each of which x lists itself or by its primitive type.
// It errs on the side of false.
func covers(x, p string) bool {
	if p == x || p == "never" {
		return true
	}
	xs, ok := unionMembers(x)
	if !ok {
		return false
	}
	ps, ok := unionMembers(p)
	if !ok {
		return false
	}
	for _, m := range ps {
		if slices.Contains(xs, m) || m == "never" {
			continue
		}
		var base string
		switch c := m[0]; {
		case c == '"':
			base = "string"
		case c == '-' || c >= '0' && c <= '9':
			base = "number"
		case m == "true" || m == "false":
			base = "boolean"
		}
		if base == "" || !slices.Contains(xs, base) {
			return false
		}
	}
	return true
}

// unionMembers splits the text of a union of single-token types (names and literals) into its
// members; ok is false for any other text.
func unionMembers(t string) (members []string, ok bool) {
	for t != "" {
		var m string
		if t[0] == '"' {
			i := 1
			for i < len(t) && t[i] != '"' {
				if t[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(t) {
				return nil, false
			}
			m, t = t[:i+1], t[i+1:]
		} else {
			i := strings.IndexByte(t, ' ')
			if i < 0 {
				i = len(t)
			}
			m, t = t[:i], t[i:]
			if m == "" || strings.ContainsAny(m, "{}()[]&|,:;<>\n") {
				return nil, false
			}
		}
		members = append(members, m)
		if t == "" {
			break
		}
		if !strings.HasPrefix(t, " | ") {
			return nil, false
		}
		t = t[3:]
	}
	return members, len(members) > 0
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

// array writes an array node: T[], or a tuple. A tuple is prefixItems (2020-12) with the rest
// of the elements typed by items, or draft-07 array-form items with the rest typed by
// additionalItems; an absent rest schema allows any JSON values, false none. Elements at
// positions from minItems on are optional, and maxItems cuts the tuple short.
func (g *gen) array(s jsonv.Value, ind, depth int) meta {
	items, hasItems := s.Get("items")
	prefix := s.Lookup("prefixItems")
	var rest jsonv.Value
	switch {
	case prefix.Kind() == jsonv.Array:
		if items.Kind() != jsonv.Array {
			rest = items
		}
	case items.Kind() == jsonv.Array:
		prefix, rest = items, s.Lookup("additionalItems")
	default:
		if k := items.Kind(); !hasItems || k != jsonv.Object && k != jsonv.Bool {
			g.str("JsonValue[]")
			return meta{}
		}
		return g.arrayOf(items, ind, depth)
	}

	elems := prefix.Items()
	closed := rest.Kind() == jsonv.Bool && !rest.AsBool()
	if mx, ok := bound(s, "maxItems"); ok && mx <= len(elems) {
		elems, closed = elems[:mx], true
	}
	if k := rest.Kind(); k != jsonv.Object && k != jsonv.Bool {
		rest = jsonv.BoolValue(true)
	}
	if len(elems) == 0 {
		if closed {
			g.str("[]")
			return meta{}
		}
		return g.arrayOf(rest, ind, depth)
	}
	minItems, _ := bound(s, "minItems")
	var out meta
	saved := g.nested()
	defer func() { g.exposed = saved }()
	g.str("[")
	for i, e := range elems {
		if i > 0 {
			g.str(", ")
		}
		start := len(g.buf)
		m := g.render(e, ind, depth)
		out.loose = out.loose || m.loose
		if i >= minItems {
			if m.prec != precAtom {
				g.insert(start, "(")
				g.str(")")
			}
			g.str("?")
			out.loose = true // the element's type includes undefined
		}
	}
	if !closed {
		g.str(", ...")
		out.loose = g.arrayOf(rest, ind, depth).loose || out.loose
	}
	g.str("]")
	return out
}

// arrayOf writes items[]. As upstream, the item text is parenthesized when | or & occurs
// anywhere in it, even where it would not be needed (inside a nested member or a JSDoc line).
func (g *gen) arrayOf(items jsonv.Value, ind, depth int) meta {
	saved, element := g.nested(), g.element
	defer func() { g.exposed, g.element = saved, element }()
	g.element = true
	start := len(g.buf)
	m := g.render(items, ind, depth)
	if bytes.ContainsAny(g.buf[start:], "|&") {
		g.insert(start, "(")
		g.str(")")
	}
	g.str("[]")
	return meta{loose: m.loose}
}

// bound returns a non-negative integer keyword of s (minItems, maxItems, …), capped so that
// it can index a slice; ok is false when s has no such number.
func bound(s jsonv.Value, key string) (n int, ok bool) {
	v := s.Lookup(key)
	if v.Kind() != jsonv.Number {
		return 0, false
	}
	f := v.AsNumber()
	switch {
	case f < 0:
		return 0, true
	case f > 1<<30:
		return 1 << 30, true
	}
	return int(f), true
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
		m.null, m.top, m.loose = m.null || bm.null, m.top || bm.top, m.loose || bm.loose
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

// The text docText puts between the "*" and "/" of a "*/" that would end the comment.
const (
	// proseBreak is U+200B ZERO WIDTH SPACE: an editor shows the text as written (hover and
	// completion render "**/*.go", not the upstream's "**\/*.go"), and a model reads the
	// same characters with an invisible one between them.
	proseBreak = "\u200b"
	// codeBreak escapes the slash, which JSON strings and regular expressions read as "/", so a
	// @default, @example or @pattern keeps its meaning.
	codeBreak = `\`
)

// jsdoc writes a one-line JSDoc comment at level ind holding desc, cleaned as docText does;
// nothing when desc has no text.
func (g *gen) jsdoc(ind int, desc string) {
	start := len(g.buf)
	g.pad(ind)
	g.str("/** ")
	text := len(g.buf)
	g.docText(desc, proseBreak)
	if len(g.buf) == text {
		g.buf = g.buf[:start]
		return
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

// docText writes desc as comment text: each run of JavaScript whitespace collapsed to one
// space, both ends trimmed, and brk between the characters of every "*/", so that the text
// cannot end the comment.
func (g *gen) docText(desc, brk string) {
	if plainDoc(desc) {
		g.str(desc)
		return
	}
	start, space := len(g.buf), false
	for _, r := range desc {
		if isJSSpace(r) {
			space = len(g.buf) > start
			continue
		}
		if space {
			g.str(" ")
			space = false
		}
		if r == '/' && len(g.buf) > start && g.buf[len(g.buf)-1] == '*' {
			g.str(brk)
		}
		g.buf = utf8.AppendRune(g.buf, r)
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
