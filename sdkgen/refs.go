package sdkgen

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
)

// The documents of one tool: references in a schema resolve against the schema's own root.
const (
	docArgs = iota
	docOutput
)

// rootNames name an alias of a whole document (the target of "$ref": "#").
var rootNames = [...]string{docArgs: "Args", docOutput: "Output"}

// scope names the referenced schemas of one tool. Each target (a document and a JSON pointer
// into it) becomes one type alias <Prefix>_<Name>: Prefix is the tool's name in PascalCase,
// unique among the tools; Name is the definition's name in PascalCase ("Args" or "Output" for a
// whole document), unique within the tool. Neither part contains "_", so no two aliases and no
// fixed declaration (JsonValue, ToolCallError, …) or shape share a name.
type scope struct {
	prefix string
	docs   [2]jsonv.Value
	names  map[string]bool
	byKey  map[aliasKey]*alias
	order  []*alias // in order of first reference
	// shapes names the object types the tools repeat (nil: none are named).
	shapes *shapeTable
	// editor selects the layout of a declaration file: an object type with a documented
	// property is never written on one line (see DTS).
	editor bool
}

type aliasKey struct {
	doc int
	ptr string
}

// aliasState tracks an alias's definition, so that a recursive reference names it while its
// body is still being written.
type aliasState uint8

const (
	aliasDefining aliasState = iota
	aliasDone
)

// alias is one named type: type <name> = <text>.
type alias struct {
	name   string
	schema jsonv.Value
	state  aliasState
	meta   meta
	text   []byte
}

func newScope(prefix string, args, output jsonv.Value) *scope {
	return &scope{prefix: prefix, docs: [2]jsonv.Value{args, output}}
}

// render appends document doc, written at indentation level ind, to *buf and returns its text:
// the alias name when the document refers to itself. hint names the document's object type if
// it is a repeated shape; the arguments object is never named.
func (sc *scope) render(buf *[]byte, doc, ind int, hint string) []byte {
	g := gen{buf: *buf, root: sc.docs[doc], sc: sc, doc: doc, hint: hint}
	start := len(g.buf)
	if doc == docArgs {
		g.renderNode(sc.docs[doc], ind, 0) // the arguments are always written in place
	} else {
		g.render(sc.docs[doc], ind, 0)
	}
	*buf = g.buf
	if a := sc.byKey[aliasKey{doc, ""}]; a != nil {
		return []byte(a.name)
	}
	return g.buf[start:len(g.buf):len(g.buf)]
}

// refOf returns the reference of a schema node: $ref, or the draft 2019-09 $recursiveRef
// (which, without $recursiveAnchor handling, means the same). A reference that is not a string
// is returned as "", which does not resolve.
func refOf(s jsonv.Value) (string, bool) {
	for _, k := range [...]string{"$ref", "$recursiveRef"} {
		if r, ok := s.Get(k); ok {
			return r.AsString(), true
		}
	}
	return "", false
}

// resolve resolves a local reference ("#" or "#/json/pointer", percent-encoded as a URI
// fragment) against root. It returns the decoded pointer, which identifies the target.
func resolve(root jsonv.Value, ref string) (ptr string, target jsonv.Value, ok bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", jsonv.Value{}, false
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return "", jsonv.Value{}, false
	}
	if frag == "" {
		return "", root, true
	}
	if frag[0] != '/' {
		return "", jsonv.Value{}, false // a plain-name fragment ($anchor) is not supported
	}
	v := root
	for _, seg := range strings.Split(frag[1:], "/") {
		seg = strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
		switch v.Kind() {
		case jsonv.Object:
			if v, ok = v.Get(seg); !ok {
				return "", jsonv.Value{}, false
			}
		case jsonv.Array:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= v.Len() || seg != strconv.Itoa(i) {
				return "", jsonv.Value{}, false
			}
			v = v.Index(i)
		default:
			return "", jsonv.Value{}, false
		}
	}
	return frag, v, true
}

// ref writes a reference: the referenced schema's alias (Declarations), or the schema itself
// (TypeOf). A reference that does not resolve, or that would make a type refer to itself
// without an object or array in between, renders unknown.
func (g *gen) ref(ref string, ind, depth int) meta {
	ptr, target, ok := resolve(g.root, ref)
	if !ok {
		return g.unknown()
	}
	if g.sc == nil {
		if slices.Contains(g.inline, ptr) || g.budget <= 0 {
			return g.unknown()
		}
		g.budget--
		g.inline = append(g.inline, ptr)
		m := g.render(target, ind, depth)
		g.inline = g.inline[:len(g.inline)-1]
		return m
	}
	g.refs++
	a, fresh := g.sc.alias(g.doc, ptr, target)
	if slices.Contains(g.exposed, a) {
		return g.unknown()
	}
	if fresh {
		sub := gen{root: g.root, sc: g.sc, doc: g.doc, exposed: append(slices.Clone(g.exposed), a), hint: defName(ptr)}
		a.meta = sub.render(target, 0, depth)
		a.text, a.state = sub.buf, aliasDone
	}
	g.str(a.name)
	if a.state != aliasDone {
		return meta{loose: true} // recursive: not known yet, so assume the worst
	}
	return meta{null: a.meta.null, top: a.meta.top, loose: a.meta.loose}
}

// alias returns the alias of a target, creating it (fresh) on first use. An output target
// identical to the args target at the same pointer, and referencing nothing, shares its alias.
func (sc *scope) alias(doc int, ptr string, target jsonv.Value) (a *alias, fresh bool) {
	key := aliasKey{doc, ptr}
	if a := sc.byKey[key]; a != nil {
		return a, false
	}
	if sc.byKey == nil {
		sc.byKey, sc.names = map[aliasKey]*alias{}, map[string]bool{}
	}
	if doc == docOutput && ptr != "" {
		if a := sc.byKey[aliasKey{docArgs, ptr}]; a != nil {
			if t := target.String(); t == a.schema.String() && !strings.Contains(t, `Ref"`) {
				sc.byKey[key] = a
				return a, false
			}
		}
	}
	base := defName(ptr)
	if base == "" {
		base = rootNames[doc]
	}
	n := base
	for i := 2; sc.names[n]; i++ {
		n = base + strconv.Itoa(i)
	}
	sc.names[n] = true
	a = &alias{name: sc.prefix + "_" + n, schema: target}
	sc.byKey[key] = a
	sc.order = append(sc.order, a)
	return a, true
}

// nameKeywords are the keywords whose next pointer segment is a name chosen by the schema's
// author.
var nameKeywords = [...]string{"$defs", "definitions", "properties", "patternProperties", "dependentSchemas"}

// defName returns the PascalCase name of the schema a pointer reaches: the last name segment
// (after $defs, definitions, properties, …), "Def" when there is none or it has no letters or
// digits, and "" for the whole document.
func defName(ptr string) string {
	if ptr == "" {
		return ""
	}
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	name := ""
	for i := 0; i < len(segs); i++ {
		if slices.Contains(nameKeywords[:], segs[i]) && i+1 < len(segs) {
			name = segs[i+1]
			i++
		}
	}
	if p := pascal(name); p != "" {
		return p
	}
	return "Def"
}

// pascal returns s in PascalCase: runs of ASCII letters and digits, each with its first letter
// upper-cased, everything else dropped ("read_file" → "ReadFile", "my-mcp.search" →
// "MyMcpSearch", "UserID" → "UserID").
func pascal(s string) string {
	var b []byte
	start := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			if start {
				c -= 'a' - 'A'
			}
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			start = true
			continue
		}
		b = append(b, c)
		start = false
	}
	return string(b)
}

// prefixes returns each tool's alias prefix (tools sorted as Declarations sorts them): its name
// in PascalCase ("Tool" when that is empty, "T"-prefixed when it starts with a digit), with a
// number appended when an earlier tool took it.
func prefixes(sorted []Tool) []string {
	out := make([]string, len(sorted))
	used := make(map[string]bool, len(sorted))
	for i, t := range sorted {
		base := pascal(t.Name)
		switch {
		case base == "":
			base = "Tool"
		case base[0] >= '0' && base[0] <= '9':
			base = "T" + base
		}
		n := base
		for j := 2; used[n]; j++ {
			n = base + strconv.Itoa(j)
		}
		used[n] = true
		out[i] = n
	}
	return out
}
