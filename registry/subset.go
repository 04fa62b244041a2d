package registry

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
)

// The upstream Code Mode enforces a subset of JSON Schema on every schema it accepts; runcode
// accepts full JSON Schema instead (DECISIONS row 1) and offers the subset check for those who
// want a schema to stay inside it, such as the schema of a structured output that must also work
// with the upstream harness or with a model provider's structured-output mode.

// SchemaViolations lists what takes a schema outside the subset, in walk order. It is the cause
// (Err) of the *Error that CheckSubsetSchema and CheckObjectSubsetSchema return:
// errors.As(err, &violations) retrieves it.
type SchemaViolations []string

// Error joins the violations with "; ".
func (v SchemaViolations) Error() string { return strings.Join(v, "; ") }

// The keywords of the subset.
var (
	// subsetConstraints are the constraint keywords, in the order the checks name them.
	subsetConstraints = []string{"properties", "required", "additionalProperties", "items", "enum", "const"}
	subsetTypes       = []string{"object", "array", "string", "number", "integer", "boolean", "null"}
)

// CheckSubsetSchema reports whether schema stays inside the JSON Schema subset the upstream
// Code Mode enforces, with the upstream's rules and messages:
//
//   - constraint keywords: type (one of object, array, string, number, integer, boolean, null;
//     one string, not an array), oneOf (at least two branches), properties, required and
//     additionalProperties (a boolean) on objects, items on arrays, enum and const on the scalar
//     types; annotations: description and title (strings), default and examples;
//   - a node is annotation-only ({} accepts any JSON value), has one type, or has oneOf (and
//     then none of the other constraint keywords);
//   - any JSON root is allowed (CheckObjectSubsetSchema also requires an object root).
//
// It walks the whole schema and returns nil, or an *Error with code CodeUnsupportedSchema
// (name "JsonSchemaError") whose message is "unsupported JSON schema: " and every violation,
// each naming its place from the root "schema" (schema.properties.a.items,
// schema.oneOf[1]), joined with "; "; its cause is the SchemaViolations. A schema nesting
// deeper than jsonv.MaxDepth is refused as one violation without being walked.
//
// The registry accepts full JSON Schema; it uses the check to choose how to validate: a
// schema inside the subset is validated by the subset validator (never compiled, at any
// depth), any other by the full compiler within MaxSchemaDepth and MaxSchemaValues.
func CheckSubsetSchema(schema jsonv.Value) error {
	var c subsetCheck
	root := &subsetPath{seg: "schema"}
	if schema.Depth() > jsonv.MaxDepth {
		c.fail(root, " nests deeper than %d levels", jsonv.MaxDepth)
	} else {
		c.node(schema, root)
	}
	return subsetError(c.violations)
}

// CheckObjectSubsetSchema is CheckSubsetSchema for a structured output: a schema inside the
// subset must also have type "object" at its root.
func CheckObjectSubsetSchema(schema jsonv.Value) error {
	if err := CheckSubsetSchema(schema); err != nil {
		return err
	}
	if t := schema.Lookup("type"); t.Kind() != jsonv.String || t.AsString() != "object" {
		return subsetError(SchemaViolations{`schema.type must be "object" (structured output is object-rooted)`})
	}
	return nil
}

func subsetError(v SchemaViolations) error {
	if len(v) == 0 {
		return nil
	}
	return &Error{Code: CodeUnsupportedSchema, Name: "JsonSchemaError", Message: "unsupported JSON schema: " + v.Error(), Err: v}
}

// subsetPath is the place of a schema node or a value, rendered only for a violation: building
// every place as a string would cost quadratic time in the depth.
type subsetPath struct {
	parent *subsetPath
	seg    string // ".items", "[1]", or the root label
}

func (p *subsetPath) child(seg string) *subsetPath { return &subsetPath{parent: p, seg: seg} }

// String renders the path: schema.properties.a.oneOf[1].
func (p *subsetPath) String() string {
	var segs []string
	for ; p != nil; p = p.parent {
		segs = append(segs, p.seg)
	}
	slices.Reverse(segs)
	return strings.Join(segs, "")
}

// subsetCheck collects the violations of one schema.
type subsetCheck struct {
	violations SchemaViolations
	// quiet only notes that the schema is outside the subset, rendering nothing: a hostile
	// schema with a violation at each of thousands of levels would cost quadratic time to
	// describe.
	quiet  bool
	failed bool
}

// fail records the violation at the place at: the rendered path, then the formatted rest.
func (c *subsetCheck) fail(at *subsetPath, format string, args ...any) {
	c.failed = true
	if !c.quiet {
		c.violations = append(c.violations, at.String()+fmt.Sprintf(format, args...))
	}
}

// inSubset reports whether CheckSubsetSchema accepts schema, in time linear in its size
// and without describing what is wrong.
func inSubset(schema jsonv.Value) bool {
	if schema.Depth() > jsonv.MaxDepth {
		return false
	}
	c := subsetCheck{quiet: true}
	c.node(schema, nil)
	return !c.failed
}

// node checks the node at the place at and its children, in the upstream's order. Recursion is
// bounded by jsonv.MaxDepth, which CheckSubsetSchema checked. A jsonv.Value is a tree of
// lossless JSON, so the upstream's checks for circular schemas and for annotations that are not
// lossless JSON never fire.
func (c *subsetCheck) node(node jsonv.Value, at *subsetPath) {
	if c.quiet && c.failed {
		return // the answer is known
	}
	if node.Kind() != jsonv.Object {
		c.fail(at, " must be a schema object")
		return
	}
	for i := range node.Len() {
		switch m := node.Member(i); m.Key {
		case "type", "oneOf", "properties", "required", "additionalProperties", "items", "enum", "const",
			"description", "title", "default", "examples":
		default:
			if c.quiet { // the usual way out of the subset, answered without formatting
				c.failed = true
				return
			}
			c.fail(at, ".%s is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)", m.Key)
		}
	}
	for _, key := range []string{"description", "title"} {
		if a, ok := node.Get(key); ok && a.Kind() != jsonv.String {
			c.fail(at, ".%s must be a string", key)
		}
	}
	typ, hasType := node.Get("type")
	oneOf, hasOneOf := node.Get("oneOf")
	switch {
	case hasType && hasOneOf:
		c.fail(at, " cannot declare both type and oneOf")
		return
	case !hasType && !hasOneOf:
		for _, key := range subsetConstraints {
			if _, ok := node.Get(key); ok {
				if c.quiet {
					c.failed = true
					return
				}
				c.fail(at, ".%s requires type or oneOf", key)
			}
		}
		return
	case hasOneOf:
		if oneOf.Kind() != jsonv.Array || oneOf.Len() < 2 {
			c.fail(at, ".oneOf must be an array of at least two schemas")
		} else {
			for i := range oneOf.Len() {
				c.node(oneOf.Index(i), c.child(at, ".oneOf[", "", i))
			}
		}
		for _, key := range subsetConstraints {
			if _, ok := node.Get(key); ok {
				c.fail(at, ".%s is not supported beside oneOf", key)
			}
		}
		return
	}
	t := typ.AsString()
	switch {
	case typ.Kind() == jsonv.Array:
		c.fail(at, ".type must be a single type string (type arrays are not supported)")
		return
	case typ.Kind() != jsonv.String || !slices.Contains(subsetTypes, t):
		c.fail(at, ".type must be one of object/array/string/number/integer/boolean/null")
		return
	}
	for _, key := range subsetConstraints {
		if _, ok := node.Get(key); ok && !subsetAllows(t, key) {
			c.fail(at, ".%s is not supported on type %q", key, t)
		}
	}
	switch t {
	case "object":
		c.object(node, at)
	case "array":
		if items, ok := node.Get("items"); ok {
			c.node(items, c.child(at, ".items", "", -1))
		}
	default:
		c.scalar(node, at, t)
	}
}

// child is the place below at: prefix and key, then index and "]" when index >= 0. A quiet
// check tracks no places.
func (c *subsetCheck) child(at *subsetPath, prefix, key string, index int) *subsetPath {
	if c.quiet {
		return nil
	}
	seg := prefix + key
	if index >= 0 {
		seg += strconv.Itoa(index) + "]"
	}
	return at.child(seg)
}

// subsetAllows reports whether a node of type t may carry the constraint keyword key.
func subsetAllows(t, key string) bool {
	switch key {
	case "properties", "required", "additionalProperties":
		return t == "object"
	case "items":
		return t == "array"
	default: // enum, const
		return t != "object" && t != "array"
	}
}

func (c *subsetCheck) object(node jsonv.Value, at *subsetPath) {
	props, hasProps := node.Get("properties")
	if hasProps {
		if props.Kind() != jsonv.Object {
			c.fail(at, ".properties must be an object of schemas")
		} else {
			for i := range props.Len() {
				m := props.Member(i)
				c.node(m.Value, c.child(at, ".properties.", m.Key, -1))
			}
		}
	}
	if req, ok := node.Get("required"); ok {
		if !allOfKind(req, jsonv.String) {
			c.fail(at, ".required must be an array of strings")
		} else {
			for i := range req.Len() {
				if name := req.Index(i); !hasKey(props, name.AsString()) {
					c.fail(at, ".required names %s which is not in properties", jsonv.AppendString(nil, name.AsString()))
				}
			}
		}
	}
	if ap, ok := node.Get("additionalProperties"); ok && ap.Kind() != jsonv.Bool {
		c.fail(at, ".additionalProperties must be a boolean")
	}
}

func (c *subsetCheck) scalar(node jsonv.Value, at *subsetPath, t string) {
	enum, hasEnum := node.Get("enum")
	enumOK := hasEnum && enum.Kind() == jsonv.Array && enum.Len() > 0
	if enumOK {
		for i := range enum.Len() {
			enumOK = enumOK && subsetTypeMatches(t, enum.Index(i))
		}
	}
	if hasEnum && !enumOK {
		c.fail(at, ".enum must be a non-empty array of %s values", t)
	}
	k, hasConst := node.Get("const")
	constOK := hasConst && subsetTypeMatches(t, k)
	if hasConst && !constOK {
		c.fail(at, ".const must be a %s value", t)
	}
	if enumOK && constOK && !containsValue(enum, k) {
		c.fail(at, ".const must be one of %s.enum when both are declared", at)
	}
}

// subsetTypeMatches reports whether x is a value of the subset type t. jsonv numbers are finite
// and never -0, which the upstream rejects as numbers.
func subsetTypeMatches(t string, x jsonv.Value) bool {
	switch t {
	case "string":
		return x.Kind() == jsonv.String
	case "number":
		return x.Kind() == jsonv.Number
	case "integer":
		return x.Kind() == jsonv.Number && x.AsNumber() == math.Trunc(x.AsNumber())
	case "boolean":
		return x.Kind() == jsonv.Bool
	case "null":
		return x.Kind() == jsonv.Null
	}
	return false
}

// hasKey reports whether object v has the member key.
func hasKey(v jsonv.Value, key string) bool {
	_, ok := v.Get(key)
	return ok
}

// allOfKind reports whether v is an array whose items are all of kind k.
func allOfKind(v jsonv.Value, k jsonv.Kind) bool {
	if v.Kind() != jsonv.Array {
		return false
	}
	for i := range v.Len() {
		if v.Index(i).Kind() != k {
			return false
		}
	}
	return true
}

// containsValue reports whether the array list holds the scalar x.
func containsValue(list, x jsonv.Value) bool {
	for i := range list.Len() {
		if list.Index(i) == x { // scalars compare by value, as in fastSchema.accepts
			return true
		}
	}
	return false
}

// ValidateSubsetValue validates value against a schema inside the subset (see
// CheckSubsetSchema; keywords outside it are ignored) with the upstream's rules and messages,
// and returns the violations in walk order, none when value conforms. Paths start at rootLabel
// ("value" is the upstream's default; "" leaves paths bare and names the root "arguments"):
// <path>.<key> for an object member, <path>[<i>] for an array element, each quoted:
//
//	"value.file" must be a string
//	missing required property "value.servers[1].host"
//	"value.extra" is not a declared property (additionalProperties: false)
//	"value" must match exactly one oneOf branch (matched 2)
//	"value.color" must be one of ["red","green"]
//
// A schema or value nesting deeper than jsonv.MaxDepth is one violation. Time is linear in
// the schema's size times the value's.
func ValidateSubsetValue(schema, value jsonv.Value, rootLabel string) []string {
	c := subsetValidation{}
	return c.run(schema, value, rootLabel)
}

// maxRegistryViolations is how many violations the registry renders for one value; the rest
// are counted. Each names a path as deep as the value, so rendering them all could cost the
// square of a deep value's size.
const maxRegistryViolations = 100

// validateSubsetForRegistry is ValidateSubsetValue in the registry's message shape, that of
// the full validator's messages: a type mismatch also names the JSON type it got
// ("\"value.file\" must be a string, got number"), a failed const is reported alone, a value
// matching no oneOf branch gets the violations of every branch, and violations beyond
// maxRegistryViolations are summed up in one last message.
func validateSubsetForRegistry(schema, value jsonv.Value, rootLabel string) []string {
	c := subsetValidation{registry: true}
	return c.run(schema, value, rootLabel)
}

// subsetValidation collects the violations of one value.
type subsetValidation struct {
	// violations render the messages once the validation is over: a message names a path as
	// deep as the value, and those of oneOf branches that are dropped or left out past
	// maxRegistryViolations would cost time for nothing.
	violations []func() string
	// quiet only decides whether the value conforms (a oneOf branch's trial): it stops at the
	// first violation and renders nothing, so nested oneOf branches cost linear time.
	quiet  bool
	failed bool
	// registry selects the registry's message shape and bounds the violations rendered.
	registry bool
	omitted  int
}

func (c *subsetValidation) run(schema, value jsonv.Value, rootLabel string) []string {
	at := &subsetPath{seg: rootLabel}
	if schema.Depth() > jsonv.MaxDepth || value.Depth() > jsonv.MaxDepth {
		c.fail(at, " nests deeper than %d levels", jsonv.MaxDepth)
	} else {
		c.value(schema, value, at)
	}
	if len(c.violations) == 0 {
		return nil
	}
	out := make([]string, len(c.violations), len(c.violations)+1)
	for i, render := range c.violations {
		out[i] = render()
	}
	if c.omitted > 0 {
		out = append(out, fmt.Sprintf("and %d more violations", c.omitted))
	}
	return out
}

// quoted renders the path at as a message quotes it.
func quoted(at *subsetPath) string {
	p := at.String()
	if p == "" {
		p = argumentsLabel
	}
	return string(jsonv.AppendString(nil, p))
}

// report records one violation, rendered by message at the end unless the validation is quiet
// or has enough.
func (c *subsetValidation) report(message func() string) {
	c.failed = true
	switch {
	case c.quiet:
	case c.registry && len(c.violations) >= maxRegistryViolations:
		c.omitted++
	default:
		c.violations = append(c.violations, message)
	}
}

// adopt records the violations of b, a registry validation of the same value below c (which is
// one too). Nested oneOf hand their violations up level by level, so the first are taken over
// rather than copied.
func (c *subsetValidation) adopt(b *subsetValidation) {
	c.failed = c.failed || b.failed
	c.omitted += b.omitted
	if len(c.violations) == 0 {
		c.violations = b.violations
		return
	}
	for _, m := range b.violations {
		if len(c.violations) >= maxRegistryViolations {
			c.omitted++
		} else {
			c.violations = append(c.violations, m)
		}
	}
}

func (c *subsetValidation) fail(at *subsetPath, format string, args ...any) {
	c.report(func() string { return c.quoted(at) + fmt.Sprintf(format, args...) })
}

// quoted renders the path at as c's messages quote it: as a JSON string for the upstream's
// messages, as a Go string (strconv.Quote) for the registry's.
func (c *subsetValidation) quoted(at *subsetPath) string {
	if c.registry {
		return quotePath(at.String())
	}
	return quoted(at)
}

// done reports whether a quiet validation has found its answer.
func (c *subsetValidation) done() bool { return c.quiet && c.failed }

// member is the path of an object member: no leading dot below an empty root label. A quiet
// validation tracks no paths.
func (c *subsetValidation) member(at *subsetPath, key string) *subsetPath {
	switch {
	case c.quiet:
		return nil
	case at.parent == nil && at.seg == "":
		return at.child(key)
	}
	return at.child("." + key)
}

// element is the path of an array element.
func (c *subsetValidation) element(at *subsetPath, i int) *subsetPath {
	if c.quiet {
		return nil
	}
	return at.child("[" + strconv.Itoa(i) + "]")
}

// typeMismatch reports that the value v at at is not of type t.
func (c *subsetValidation) typeMismatch(at *subsetPath, t string, v jsonv.Value) {
	c.report(func() string {
		if c.registry {
			return c.quoted(at) + " must be " + article(t) + t + ", got " + v.Kind().String() // the full validator's names of JSON types
		}
		want := map[string]string{"object": "an object", "array": "an array", "string": "a string", "number": "a number",
			"integer": "an integer", "boolean": "a boolean", "null": "null"}[t]
		return c.quoted(at) + " must be " + want
	})
}

// value validates v at at against schema. Recursion is bounded by jsonv.MaxDepth, which run
// checked for both.
func (c *subsetValidation) value(schema, v jsonv.Value, at *subsetPath) {
	if c.done() {
		return
	}
	if oneOf, ok := schema.Get("oneOf"); ok && oneOf.Kind() == jsonv.Array {
		if c.registry && !c.quiet {
			c.oneOf(oneOf, v, at)
			return
		}
		matched := 0
		for i := range oneOf.Len() {
			b := subsetValidation{quiet: true}
			if b.value(oneOf.Index(i), v, nil); !b.failed {
				matched++
			}
			if c.quiet && matched > 1 {
				break // a quiet caller needs only whether exactly one matched
			}
		}
		if matched != 1 {
			c.fail(at, " must match exactly one oneOf branch (matched %d)", matched)
		}
		return
	}
	typ := schema.Lookup("type")
	if typ.Kind() != jsonv.String {
		return // annotation-only: any JSON value, and a jsonv.Value is lossless JSON
	}
	switch t := typ.AsString(); t {
	case "object":
		c.object(schema, v, at)
	case "array":
		if v.Kind() != jsonv.Array {
			c.typeMismatch(at, t, v)
			return
		}
		if items, ok := schema.Get("items"); ok {
			for i := 0; i < v.Len() && !c.done(); i++ {
				c.value(items, v.Index(i), c.element(at, i))
			}
		}
	default:
		if !subsetTypeMatches(t, v) {
			c.typeMismatch(at, t, v)
			return
		}
		k, hasConst := schema.Get("const")
		constFails := hasConst && k != v // v is a scalar: compared by value
		if constFails && c.registry {
			// The full validator stops at a failed const, and the registry says only that.
			c.fail(at, " must be %s", k)
			return
		}
		if enum, ok := schema.Get("enum"); ok && enum.Kind() == jsonv.Array && !containsValue(enum, v) {
			c.fail(at, " must be one of %s", enum)
		}
		if constFails {
			c.fail(at, " must be %s", k)
		}
	}
}

// oneOf validates v against the branches of oneOf in the registry's shape: when no branch
// matches, the violations of every branch, as the full validator reports them. Each branch is
// validated once, collecting what it finds (at most maxRegistryViolations rendered), so nested
// oneOf cost time linear in their size.
func (c *subsetValidation) oneOf(oneOf, v jsonv.Value, at *subsetPath) {
	matched := 0
	var failed []*subsetValidation
	for i := range oneOf.Len() {
		b := &subsetValidation{registry: true}
		if b.value(oneOf.Index(i), v, at); !b.failed {
			matched++
		} else if matched == 0 {
			failed = append(failed, b)
		}
	}
	switch {
	case matched == 0:
		for _, b := range failed {
			c.adopt(b)
		}
	case matched > 1:
		c.fail(at, " must match exactly one oneOf branch (matched %d)", matched)
	}
}

func (c *subsetValidation) object(schema, v jsonv.Value, at *subsetPath) {
	if v.Kind() != jsonv.Object {
		c.typeMismatch(at, "object", v)
		return
	}
	props := schema.Lookup("properties")
	required := schema.Lookup("required")
	for i := 0; i < required.Len() && !c.done(); i++ {
		name := required.Index(i).AsString()
		if _, ok := v.Get(name); !ok {
			c.report(func() string { return "missing required property " + c.quoted(c.member(at, name)) })
		}
	}
	for i := 0; i < props.Len() && !c.done(); i++ {
		m := props.Member(i)
		if x, ok := v.Get(m.Key); ok {
			c.value(m.Value, x, c.member(at, m.Key))
		}
	}
	if ap := schema.Lookup("additionalProperties"); ap.Kind() == jsonv.Bool && !ap.AsBool() {
		for i := 0; i < v.Len() && !c.done(); i++ {
			key := v.Member(i).Key
			if _, declared := props.Get(key); !declared {
				c.report(func() string {
					return c.quoted(c.member(at, key)) + " is not a declared property (additionalProperties: false)"
				})
			}
		}
	}
}
