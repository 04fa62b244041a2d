package jsruntime

import (
	"errors"
	"fmt"
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
	}
}

// exportJSON snapshots v as lossless JSON: each property is read once, key order is kept, and
// anything JSON cannot carry exactly is rejected (see convert). A JavaScript exception raised
// while reading (a throwing getter or proxy trap) is returned as an error; uncatchable errors
// (interrupts, stack overflow) propagate as panics.
func (r *run) exportJSON(v goja.Value) (out jsonv.Value, err error) {
	c := converter{intr: r.intr}
	if ex := r.vm.Try(func() { out, err = c.convert(v) }); ex != nil {
		return jsonv.Value{}, ex
	}
	return out, err
}

type converter struct {
	intr *intrinsics
	// The containers on the current path, for cycle detection: the first few in path (most
	// values are shallow, and a map per conversion cost more than the rest of a small one), the
	// deeper ones in deep.
	path  [8]*goja.Object
	depth int
	deep  map[*goja.Object]bool
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
// proxies, sparse arrays, NaN, ±Infinity, -0 and cycles.
func (c *converter) convert(v goja.Value) (jsonv.Value, error) {
	if v == nil || goja.IsUndefined(v) {
		return jsonv.Value{}, errNotLossless
	}
	if goja.IsNull(v) {
		return jsonv.NullValue(), nil
	}
	if _, ok := v.(*goja.Symbol); ok {
		return jsonv.Value{}, errNotLossless // Symbol.Export returns its description
	}
	o, ok := v.(*goja.Object)
	if !ok {
		switch x := v.Export().(type) {
		case bool:
			return jsonv.BoolValue(x), nil
		case string:
			if err := loneSurrogate("string", v, x); err != nil {
				return jsonv.Value{}, err
			}
			return jsonv.StringValue(x), nil
		case int64:
			return jsonv.NumberValue(float64(x))
		case float64:
			return jsonv.NumberValue(x)
		}
		return jsonv.Value{}, errNotLossless
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

// array converts a dense array whose only own properties are its indices and length.
func (c *converter) array(o *goja.Object) (jsonv.Value, error) {
	n := o.Get("length").ToInteger()
	names := o.GetOwnPropertyNames()
	if int64(len(names)) != n+1 || len(o.Symbols()) > 0 {
		return jsonv.Value{}, errNotLossless
	}
	items := make([]jsonv.Value, 0, n)
	for i, name := range names[:n] {
		if name != strconv.Itoa(i) {
			return jsonv.Value{}, errNotLossless
		}
		item, err := c.convert(o.Get(name))
		if err != nil {
			return jsonv.Value{}, under(err, indexStep(i))
		}
		items = append(items, item)
	}
	return jsonv.ArrayValue(items...), nil
}

// object converts a plain object whose own properties are all enumerable string keys.
func (c *converter) object(o *goja.Object) (jsonv.Value, error) {
	keys := o.Keys()
	if len(keys) != len(o.GetOwnPropertyNames()) || len(o.Symbols()) > 0 {
		return jsonv.Value{}, errNotLossless
	}
	if err := c.checkKeys(o, keys); err != nil {
		return jsonv.Value{}, err
	}
	members := make([]jsonv.Member, 0, len(keys))
	for _, k := range keys {
		val, err := c.convert(o.Get(k))
		if err != nil {
			return jsonv.Value{}, under(err, keyStep(k))
		}
		members = append(members, jsonv.Member{Key: k, Value: val})
	}
	return jsonv.ObjectValue(members...), nil
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
