package sdkgen

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
)

// maxShapeText is the longest object type text (at indentation 0, JSDoc included) considered
// for naming. It bounds the work of finding repeats: a schema node is copied once per enclosing
// object shorter than this, so nesting cannot make it quadratic.
const maxShapeText = 4096

// shapeTable finds the object types that the tools of one declaration file repeat and names
// them, so that each is written once ("type Entity = {…}") and referred to by name.
//
// Declarations renders the tools twice. The first pass (collect) records every occurrence of an
// object type with properties, keyed by its text at indentation 0: two schemas are one shape
// when they render the same text, descriptions included, whatever their JSON looks like. choose
// then names the shapes whose repetition costs more than a declaration, and the second pass
// writes those names in place of the repeats. A name never clashes with another shape's, a
// tool's alias (those contain "_") or a global of TypeScript's libraries (libnames.txt), so the
// declaration file works in any editor setup.
type shapeTable struct {
	collect bool
	occ     []occurrence
	stack   []int                  // the occurrences being rendered (collect)
	keyOf   map[jsonv.Value]string // node → text (collect); nodes compare by identity
	named   map[string]*shape      // text → shape (second pass)
	byNode  map[jsonv.Value]*shape // node → its shape (second pass)
	order   []*shape               // the named shapes in order of first occurrence
}

// occurrence is one place where an object type is written.
type occurrence struct {
	node   jsonv.Value
	key    string // its text at indentation 0; "" when it may not be named
	parent int    // the enclosing occurrence, -1 at the top
	hint   string // the name it would take
	meta   meta
}

// shape is a named object type.
type shape struct {
	name string
	node jsonv.Value
	meta meta
	text []byte // its declaration's body (second pass)
}

func newShapeTable() *shapeTable {
	return &shapeTable{collect: true, keyOf: map[jsonv.Value]string{}}
}

// isShapeCandidate reports whether schema node s is an object type that may be named: it has
// properties.
func isShapeCandidate(s jsonv.Value) bool {
	return s.Kind() == jsonv.Object && s.Lookup("properties").Len() > 0
}

// shapeRender renders node s, a shape candidate, through the table: during collection it
// records the occurrence; afterwards it writes the shape's name when s is a named shape (other
// than the one being declared). ok is false when the table has nothing to do with s.
func (g *gen) shapeRender(s jsonv.Value, ind, depth int) (m meta, ok bool) {
	t := g.sc.shapes
	if !t.collect {
		sh := t.byNode[s]
		if sh == nil || g.declaring == sh {
			return meta{}, false
		}
		g.str(sh.name)
		return meta{null: sh.meta.null, top: sh.meta.top, loose: sh.meta.loose}, true
	}
	idx := len(t.occ)
	parent := -1
	if n := len(t.stack); n > 0 {
		parent = t.stack[n-1]
	}
	hint := pascal(g.hint)
	if g.element {
		hint = singular(hint)
	}
	if title := s.Lookup("title"); title.Kind() == jsonv.String && pascal(title.AsString()) != "" {
		hint = pascal(title.AsString())
	}
	t.occ = append(t.occ, occurrence{node: s, parent: parent, hint: hint})
	t.stack = append(t.stack, idx)
	refs, start := g.refs, len(g.buf)
	m = g.renderNode(s, ind, depth)
	t.stack = t.stack[:len(t.stack)-1]
	if g.refs == refs && len(g.buf)-start <= maxShapeText {
		key := dedent(g.buf[start:], ind)
		t.occ[idx].key, t.occ[idx].meta = key, m
		t.keyOf[s] = key
	}
	return m, true
}

// namedShape reports whether node s is written as the name of a shape.
func (g *gen) namedShape(s jsonv.Value) bool {
	if g.sc == nil || g.sc.shapes == nil || g.sc.shapes.collect {
		return false
	}
	sh := g.sc.shapes.byNode[s]
	return sh != nil && sh != g.declaring
}

// occMark returns the number of occurrences collected so far.
func (g *gen) occMark() int {
	if g.sc == nil || g.sc.shapes == nil {
		return 0
	}
	return len(g.sc.shapes.occ)
}

// occReset forgets the occurrences collected since occMark returned n: their text was not kept.
func (g *gen) occReset(n int) {
	if g.sc != nil && g.sc.shapes != nil && g.sc.shapes.collect {
		g.sc.shapes.occ = g.sc.shapes.occ[:n]
	}
}

// dedent returns text written at indentation level ind as it reads at level 0.
func dedent(text []byte, ind int) string {
	if ind == 0 || !bytes.Contains(text, []byte("\n")) {
		return string(text)
	}
	return strings.ReplaceAll(string(text), "\n"+strings.Repeat("  ", ind), "\n")
}

// choose ends the collection: it names each shape that occurs more than once where naming it
// saves text (a declaration "type <Name> = <text>" plus the name at each use, against the text
// at each use), taking names from the first occurrence's hint ("Item" when there is none): a
// reserved name gets "Type" appended, and a name already taken a number.
func (t *shapeTable) choose(reserved func(string) bool) {
	t.collect = false
	children := make([][]int, len(t.occ))
	var roots []int
	count := map[string]int{}
	for i, o := range t.occ {
		if o.parent < 0 {
			roots = append(roots, i)
		} else {
			children[o.parent] = append(children[o.parent], i)
		}
		if o.key != "" {
			count[o.key]++
		}
	}
	chosen := map[string]bool{}
	for k, n := range count {
		if n > 1 {
			chosen[k] = true
		}
	}
	// Naming an enclosing shape writes the repeats inside it once, so uses are counted as
	// written; a shape that no longer pays for itself is dropped, until none is.
	for {
		uses := map[string]int{}
		seen := map[string]bool{}
		var visit func(i int)
		visit = func(i int) {
			k := t.occ[i].key
			if chosen[k] {
				uses[k]++
				if seen[k] {
					return
				}
				seen[k] = true
			}
			for _, c := range children[i] {
				visit(c)
			}
		}
		for _, r := range roots {
			visit(r)
		}
		// A shape's text shrinks where the shapes inside it are named.
		length := map[string]int{}
		var measure func(i int) int // the text of occurrence i as written
		measure = func(i int) int {
			n := len(t.occ[i].key)
			for _, c := range children[i] {
				if k := t.occ[c].key; chosen[k] {
					n -= len(k) - shapeNameCost
				} else if k != "" {
					n -= len(k) - measure(c)
				}
			}
			if k := t.occ[i].key; k != "" {
				length[k] = n
			}
			return n
		}
		for _, r := range roots {
			measure(r)
		}
		dropped := false
		for k := range chosen {
			if !worthNaming(length[k], uses[k]) {
				delete(chosen, k)
				dropped = true
			}
		}
		if !dropped {
			break
		}
	}
	t.named = map[string]*shape{}
	used := map[string]bool{} // names taken
	for _, o := range t.occ {
		if !chosen[o.key] || t.named[o.key] != nil {
			continue
		}
		base := o.hint
		if base == "" {
			base = "Item"
		}
		if reserved(base) {
			base += "Type" // "File" is a DOM global: FileType
		}
		name := base
		for i := 2; used[name] || reserved(name); i++ {
			name = base + strconv.Itoa(i)
		}
		used[name] = true
		sh := &shape{name: name, node: o.node, meta: o.meta}
		t.named[o.key] = sh
		t.order = append(t.order, sh)
	}
	t.byNode = make(map[jsonv.Value]*shape, len(t.named))
	for node, key := range t.keyOf {
		if sh := t.named[key]; sh != nil {
			t.byNode[node] = sh
		}
	}
}

// usesNamed reports whether one of the occurrences occ[from:to] is a named shape.
func (t *shapeTable) usesNamed(from, to int) bool {
	for _, o := range t.occ[from:to] {
		if t.named[o.key] != nil {
			return true
		}
	}
	return false
}

// shapeNameCost is what a shape's name is assumed to cost at each use and in its declaration.
const shapeNameCost = 10

// worthNaming reports whether a shape of text length n written uses times is shorter declared
// once and named at each use: "type <Name> = <text>\n\n" and the name per use, against the text
// per use.
func worthNaming(n, uses int) bool {
	return uses > 1 && uses*n > n+len("type  = \n\n")+shapeNameCost*(uses+1)
}

// singular returns the PascalCase name of one element of a collection named name: "Entities" →
// "Entity", "Edits" → "Edit", "Boxes" → "Box", "Address" and "Data" unchanged.
func singular(name string) string {
	switch {
	case strings.HasSuffix(name, "ies") && len(name) > 3:
		return name[:len(name)-3] + "y"
	case strings.HasSuffix(name, "sses"), strings.HasSuffix(name, "xes"), strings.HasSuffix(name, "ches"), strings.HasSuffix(name, "shes"):
		return name[:len(name)-2]
	case strings.HasSuffix(name, "ss"), strings.HasSuffix(name, "us"), strings.HasSuffix(name, "is"):
		return name
	case strings.HasSuffix(name, "s") && len(name) > 1:
		return name[:len(name)-1]
	}
	return name
}
