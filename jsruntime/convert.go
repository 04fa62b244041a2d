package jsruntime

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/jsonv"
)

// errNotLossless reports a JavaScript value that is not lossless JSON.
var errNotLossless = errors.New("value is not lossless JSON")

var proxyType = reflect.TypeOf(goja.Proxy{})

// boundaryError is a value that JSON could carry, but not across runcode's boundary: one nested
// deeper than jsonv.MaxDepth, or text that would be altered (a JavaScript string that is not
// well-formed UTF-16 going out, a Go string that is not UTF-8 coming in). It names the place.
type boundaryError struct {
	what   string // "value", "string" or "key"
	reason string
	// path holds the steps from the root to the place, innermost first (they are added while
	// the walk unwinds).
	path []string
}

// Error describes the value that could not cross the boundary and why.
func (e *boundaryError) Error() string { return e.describe("value") }

// describe renders the error with root naming the whole value ("result", "argument").
func (e *boundaryError) describe(root string) string {
	var b strings.Builder
	b.WriteString(root)
	const shown = 12 // steps of a long path shown at each end
	n := len(e.path)
	for i := n - 1; i >= 0; i-- {
		if n > 2*shown && i == n-1-shown {
			fmt.Fprintf(&b, "…(%d more)…", n-2*shown)
			i = shown - 1
		}
		b.WriteString(e.path[i])
	}
	return fmt.Sprintf("the %s at %s %s", e.what, b.String(), e.reason)
}

// under records that err, if a boundaryError, happened under step.
func under(err error, step func() string) error {
	if be, ok := err.(*boundaryError); ok {
		be.path = append(be.path, step())
	}
	return err
}

// indexStep and keyStep render path steps: [3], .name, ["odd key"].
func indexStep(i int) func() string { return func() string { return "[" + strconv.Itoa(i) + "]" } }

func keyStep(k string) func() string {
	return func() string {
		if identifierRE.MatchString(k) {
			return "." + k
		}
		return "[" + string(jsonv.AppendString(nil, k)) + "]"
	}
}

var errTooDeep = &boundaryError{what: "value", reason: fmt.Sprintf("nests deeper than %d levels", jsonv.MaxDepth)}

func tooDeep() error { e := *errTooDeep; return &e }

// loneSurrogate returns the error for a JavaScript string whose Go form has replacement
// characters, when one of them stands for a lone surrogate rather than a real U+FFFD, or nil.
func loneSurrogate(what string, v goja.Value, s string) error {
	if !strings.ContainsRune(s, utf8.RuneError) {
		return nil
	}
	js, ok := v.(goja.String)
	if !ok {
		return nil
	}
	n := js.Length()
	for i := 0; i < n; i++ {
		c := js.CharAt(i)
		switch {
		case c >= 0xD800 && c < 0xDC00:
			if i+1 < n {
				if d := js.CharAt(i + 1); d >= 0xDC00 && d < 0xE000 {
					i++
					continue
				}
			}
		case c >= 0xDC00 && c < 0xE000:
		default:
			continue
		}
		return &boundaryError{what: what, reason: fmt.Sprintf("is not well-formed UTF-16: lone surrogate U+%04X at index %d", c, i)}
	}
	return nil
}

// intrinsics are the realm's built-ins captured before the program runs, so that nothing the
// program does to globals or prototypes changes how values are checked or errors are built.
type intrinsics struct {
	objectProto    *goja.Object
	arrayProto     *goja.Object
	errorProto     *goja.Object
	errorCtor      *goja.Object
	rangeErrorCtor *goja.Object
	functionProto  *goja.Object
	// preventExtensions is Object.preventExtensions (see lazyObject).
	preventExtensions goja.Callable
}

func captureIntrinsics(vm *goja.Runtime) intrinsics {
	global := vm.GlobalObject()
	ctor := func(name string) *goja.Object { return global.Get(name).(*goja.Object) }
	proto := func(name string) *goja.Object { return ctor(name).Get("prototype").(*goja.Object) }
	return intrinsics{
		objectProto:    proto("Object"),
		arrayProto:     proto("Array"),
		errorProto:     proto("Error"),
		errorCtor:      ctor("Error"),
		rangeErrorCtor: ctor("RangeError"),
		functionProto:  proto("Function"),
		preventExtensions: func() goja.Callable {
			f, _ := goja.AssertFunction(ctor("Object").Get("preventExtensions"))
			return f
		}(),
	}
}

// exportJSON snapshots v as lossless JSON: each property is read once, key order is kept, and
// anything JSON cannot carry exactly is rejected (see convert). A JavaScript exception raised
// while reading (a throwing getter or proxy trap) is returned as an error; uncatchable errors
// (interrupts, stack overflow) propagate as panics.
func (r *run) exportJSON(v goja.Value) (out jsonv.Value, err error) {
	c := converter{intr: r.intr, run: r}
	if ex := r.vm.Try(func() { out, err = c.convert(v) }); ex != nil {
		return jsonv.Value{}, ex
	}
	return out, err
}

// exportWithin is exportJSON for a value whose compact JSON may take at most budget bytes: it
// counts the JSON's bytes as it converts and fails with errOverBudget as soon as they pass
// budget, so a value over it costs time in proportion to budget, not to the value. size is the
// byte length of out's compact JSON.
func (r *run) exportWithin(v goja.Value, budget int) (out jsonv.Value, size int, err error) {
	c := converter{intr: r.intr, run: r, limited: true, left: budget}
	if ex := r.vm.Try(func() { out, err = c.convert(v) }); ex != nil {
		return jsonv.Value{}, 0, ex
	}
	return out, budget - c.left, err
}

// convertPoll is how many values the converter converts between checks of its run's stop: the
// walk is Go code, which goja's interrupt does not reach, and a value reachable many times over
// (a DAG) can take seconds to walk.
const convertPoll = 1 << 12

// errOverBudget reports a value whose JSON is longer than the budget it was converted under.
var errOverBudget = errors.New("value's JSON exceeds the output budget")

type converter struct {
	intr *intrinsics
	// The containers on the current path, for cycle detection: the first few in path (most
	// values are shallow, and a map per conversion cost more than the rest of a small one), the
	// deeper ones in deep.
	path  [8]*goja.Object
	depth int
	deep  map[*goja.Object]bool
	// limited is set when the JSON may take at most left more bytes (see exportWithin).
	limited bool
	left    int
	num     [32]byte // scratch for numbers' text
	// run, when set, is polled every convertPoll values; once it has been stopped (a budget ran
	// out, or it was aborted) the walk ends with errStopped.
	run   *run
	steps int
}

// charge counts n bytes of JSON against the budget, if any, and reports whether they fit.
// Each container charges its brackets, commas and colons before its members are read, and each
// scalar its text before it is copied, so the walk stops within one scalar of the budget.
func (c *converter) charge(n int) bool {
	if !c.limited {
		return true
	}
	c.left -= n
	return c.left >= 0
}

func (c *converter) onPath(o *goja.Object) bool {
	for _, p := range c.path[:min(c.depth, len(c.path))] {
		if p == o {
			return true
		}
	}
	return c.deep[o]
}

func (c *converter) push(o *goja.Object) {
	if c.depth < len(c.path) {
		c.path[c.depth] = o
	} else {
		if c.deep == nil {
			c.deep = map[*goja.Object]bool{}
		}
		c.deep[o] = true
	}
	c.depth++
}

func (c *converter) pop(o *goja.Object) {
	c.depth--
	if c.depth < len(c.path) {
		c.path[c.depth] = nil
	} else {
		delete(c.deep, o)
	}
}

// convert accepts null, booleans, strings, finite numbers other than -0, dense ordinary arrays
// and plain objects (prototype Object.prototype or null, own enumerable string keys only) of
// such values. It rejects undefined, functions, symbols, BigInt, Date, Map, class instances,
// proxies, sparse arrays, NaN, ±Infinity, -0 and cycles. Under a budget, the first byte past it
// ends the walk with errOverBudget, whatever follows.
func (c *converter) convert(v goja.Value) (jsonv.Value, error) {
	if c.steps++; c.steps%convertPoll == 0 && c.run != nil && c.run.recorded() != nil {
		return jsonv.Value{}, errStopped
	}
	if v == nil || goja.IsUndefined(v) {
		return jsonv.Value{}, errNotLossless
	}
	if goja.IsNull(v) {
		if !c.charge(len("null")) {
			return jsonv.Value{}, errOverBudget
		}
		return jsonv.NullValue(), nil
	}
	if _, ok := v.(*goja.Symbol); ok {
		return jsonv.Value{}, errNotLossless // Symbol.Export returns its description
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return c.scalar(v)
	}
	if c.onPath(o) || o.ExportType() == proxyType {
		return jsonv.Value{}, errNotLossless
	}
	if c.depth >= jsonv.MaxDepth {
		return jsonv.Value{}, tooDeep()
	}
	proto := o.Prototype()
	switch o.ClassName() {
	case "Array":
		if proto != c.intr.arrayProto {
			return jsonv.Value{}, errNotLossless
		}
		c.push(o)
		defer c.pop(o)
		return c.array(o)
	case "Object":
		if proto != nil && proto != c.intr.objectProto {
			return jsonv.Value{}, errNotLossless
		}
		c.push(o)
		defer c.pop(o)
		return c.object(o)
	}
	return jsonv.Value{}, errNotLossless
}

// scalar converts a primitive other than null, undefined and a symbol.
func (c *converter) scalar(v goja.Value) (jsonv.Value, error) {
	if js, ok := v.(goja.String); ok && c.limited && js.Length()+2 > c.left {
		// Each UTF-16 unit takes at least one byte of JSON: over budget without copying it.
		c.left = -1
		return jsonv.Value{}, errOverBudget
	}
	switch x := v.Export().(type) {
	case bool:
		n := len("false")
		if x {
			n = len("true")
		}
		if !c.charge(n) {
			return jsonv.Value{}, errOverBudget
		}
		return jsonv.BoolValue(x), nil
	case string:
		if err := loneSurrogate("string", v, x); err != nil {
			return jsonv.Value{}, err
		}
		if c.limited && !c.charge(jsonv.StringByteLen(x)) {
			return jsonv.Value{}, errOverBudget
		}
		return jsonv.StringValue(x), nil
	case int64:
		return c.number(float64(x))
	case float64:
		return c.number(x)
	}
	return jsonv.Value{}, errNotLossless
}

func (c *converter) number(f float64) (jsonv.Value, error) {
	n, err := jsonv.NumberValue(f)
	if err != nil || !c.limited {
		return n, err
	}
	if !c.charge(len(jsonv.AppendNumber(c.num[:0], f))) {
		return jsonv.Value{}, errOverBudget
	}
	return n, nil
}

// array converts a dense array whose only own properties are its indices and length.
func (c *converter) array(o *goja.Object) (jsonv.Value, error) {
	n := o.Get("length").ToInteger()
	// Brackets and commas first: an array too long for the budget fails before its indices
	// are listed.
	if c.limited && (n > int64(c.left) || !c.charge(2+int(max(n-1, 0)))) {
		c.left = -1
		return jsonv.Value{}, errOverBudget
	}
	names := o.GetOwnPropertyNames()
	if int64(len(names)) != n+1 || len(o.Symbols()) > 0 {
		return jsonv.Value{}, errNotLossless
	}
	items := make([]jsonv.Value, 0, n)
	for i, name := range names[:n] {
		if !isIndex(name, i) {
			return jsonv.Value{}, errNotLossless
		}
		item, err := c.convert(o.Get(name))
		if err != nil {
			return jsonv.Value{}, under(err, indexStep(i))
		}
		items = append(items, item)
	}
	return jsonv.ArrayOf(items), nil
}

// isIndex reports whether name is the canonical decimal form of i (what strconv.Itoa returns),
// without building that form.
func isIndex(name string, i int) bool {
	if name == "" || len(name) > 1 && name[0] == '0' {
		return false
	}
	n := 0
	for j := 0; j < len(name); j++ {
		c := name[j]
		if c < '0' || c > '9' || n > (math.MaxInt-9)/10 {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n == i
}

// object converts a plain object whose own properties are all enumerable string keys.
func (c *converter) object(o *goja.Object) (jsonv.Value, error) {
	keys := o.Keys()
	// Brackets, commas and colons first, then each key as it is reached.
	if c.limited && !c.charge(2+max(len(keys)-1, 0)+len(keys)) {
		return jsonv.Value{}, errOverBudget
	}
	if len(keys) != len(o.GetOwnPropertyNames()) || len(o.Symbols()) > 0 {
		return jsonv.Value{}, errNotLossless
	}
	if err := c.checkKeys(o, keys); err != nil {
		return jsonv.Value{}, err
	}
	members := make([]jsonv.Member, 0, len(keys))
	for _, k := range keys {
		if c.limited && !c.charge(jsonv.StringByteLen(k)) {
			return jsonv.Value{}, errOverBudget
		}
		val, err := c.convert(o.Get(k))
		if err != nil {
			return jsonv.Value{}, under(err, keyStep(k))
		}
		members = append(members, jsonv.Member{Key: k, Value: val})
	}
	return jsonv.ObjectOf(members), nil
}

// checkKeys refuses an object with a key that is not well-formed UTF-16. goja gives keys to Go
// with each lone surrogate replaced by U+FFFD, so such a key either names no property under its
// Go form or collides with another key.
func (c *converter) checkKeys(o *goja.Object, keys []string) error {
	var seen map[string]bool
	for _, k := range keys {
		if !strings.ContainsRune(k, utf8.RuneError) {
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		if seen[k] || o.Get(k) == nil {
			return &boundaryError{what: "key", reason: fmt.Sprintf("%s is not well-formed UTF-16 (it has a lone surrogate)", jsonv.AppendString(nil, k))}
		}
		seen[k] = true
	}
	return nil
}

// checkIncoming refuses a value a host function settled with that the program could not get
// unaltered: nested deeper than jsonv.MaxDepth, or holding a string or key that is not UTF-8
// (goja, and the process wire, would replace the bad bytes with U+FFFD). Both isolations call it
// before the value reaches the program (the process pool in the parent, before encoding), so
// the same value fails the same way.
func checkIncoming(v jsonv.Value) error {
	if v.Depth() > jsonv.MaxDepth {
		return tooDeep()
	}
	return checkUTF8(v)
}

func checkUTF8(v jsonv.Value) error {
	switch v.Kind() {
	case jsonv.String:
		if s := v.AsString(); !utf8.ValidString(s) {
			return &boundaryError{what: "string", reason: fmt.Sprintf("is not valid UTF-8 (byte offset %d)", invalidUTF8At(s))}
		}
	case jsonv.Array:
		for i, n := 0, v.Len(); i < n; i++ {
			if err := checkUTF8(v.Index(i)); err != nil {
				return under(err, indexStep(i))
			}
		}
	case jsonv.Object:
		for i, n := 0, v.Len(); i < n; i++ {
			m := v.Member(i)
			if !utf8.ValidString(m.Key) {
				return &boundaryError{what: "key", reason: fmt.Sprintf("%s is not valid UTF-8 (byte offset %d)", jsonv.AppendString(nil, m.Key), invalidUTF8At(m.Key))}
			}
			if err := checkUTF8(m.Value); err != nil {
				return under(err, keyStep(m.Key))
			}
		}
	}
	return nil
}

func invalidUTF8At(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n <= 1 {
				return i
			}
		}
	}
	return len(s)
}

// toJS builds a fresh native JavaScript value from v: plain objects and arrays with the
// realm's prototypes, keys in order, every key (even "__proto__") an own data property.
func (r *run) toJS(v jsonv.Value) goja.Value {
	switch v.Kind() {
	case jsonv.Null:
		return goja.Null()
	case jsonv.Bool:
		return r.vm.ToValue(v.AsBool())
	case jsonv.Number:
		return r.vm.ToValue(v.AsNumber())
	case jsonv.String:
		return r.vm.ToValue(v.AsString())
	case jsonv.Array:
		vals := make([]any, v.Len())
		for i := range vals {
			vals[i] = r.toJS(v.Index(i))
		}
		return r.vm.NewArray(vals...)
	case jsonv.Object:
		o := r.vm.NewObject()
		for i, n := 0, v.Len(); i < n; i++ {
			m := v.Member(i)
			_ = o.DefineDataProperty(m.Key, r.toJS(m.Value), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
		}
		return o
	}
	return goja.Undefined()
}
