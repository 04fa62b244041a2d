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

var proxyType = reflect.TypeOf(goja.Proxy{})

// boundaryError is a value that cannot cross runcode's boundary as JSON: one JSON.stringify
// throws on (a BigInt, a cycle, a getter or toJSON that throws), one nested deeper than
// jsonv.MaxDepth, or text that would be altered (a JavaScript string that is not well-formed
// UTF-16 going out, a Go string that is not UTF-8 coming in). It names the place.
type boundaryError struct {
	reason string
	// path holds the steps from the root to the place, innermost first (checkUTF8 adds them
	// while its walk unwinds; the converter knows the whole path when it fails).
	path []string
	// cycle is set for a circular reference, and cycleTo is then how many steps from the root
	// the object referred back to is (describe names it after reason).
	cycle   bool
	cycleTo int
}

// Error describes the value that could not cross the boundary and why.
func (e *boundaryError) Error() string { return e.describe("value") }

// describe renders the error as "<root><path>: <reason>" with root naming the whole value
// ("result", "argument"): result.items[3].id: BigInt, ….
func (e *boundaryError) describe(root string) string {
	msg := renderPath(root, e.path, len(e.path)) + ": " + e.reason
	if e.cycle {
		msg += " " + renderPath(root, e.path, e.cycleTo)
	}
	return msg
}

// renderPath renders root and the first n steps of path (innermost first), eliding the middle
// of a long one.
func renderPath(root string, path []string, n int) string {
	var b strings.Builder
	b.WriteString(root)
	const shown = 12 // steps of a long path shown at each end
	last := len(path) - n
	for i := len(path) - 1; i >= last; i-- {
		if n > 2*shown && i == len(path)-1-shown {
			fmt.Fprintf(&b, "…(%d more)…", n-2*shown)
			i = last + shown - 1
		}
		b.WriteString(path[i])
	}
	return b.String()
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

func keyStep(k string) func() string { return func() string { return renderKeyStep(k) } }

func renderKeyStep(k string) string {
	if identifierRE.MatchString(k) {
		return "." + k
	}
	return "[" + string(jsonv.AppendString(nil, k)) + "]"
}

func tooDeep() error {
	return &boundaryError{reason: fmt.Sprintf("nests deeper than %d levels", jsonv.MaxDepth)}
}

// loneSurrogate returns the reason a JavaScript string whose Go form has replacement characters
// cannot cross, when one of them stands for a lone surrogate rather than a real U+FFFD, or "".
func loneSurrogate(v goja.Value, s string) string {
	if !strings.ContainsRune(s, utf8.RuneError) {
		return ""
	}
	js, ok := v.(goja.String)
	if !ok {
		return ""
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
		return fmt.Sprintf("string is not well-formed UTF-16 (lone surrogate U+%04X at index %d)", c, i)
	}
	return ""
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

// conversion is the outcome of converting one JavaScript value to JSON at the boundary.
type conversion struct {
	// value is the JSON; Undefined when JSON.stringify gives undefined for the value (it is
	// undefined, a function or a symbol).
	value jsonv.Value
	// size is the byte length of value's compact JSON.
	size int
	// lost counts the places where the conversion silently lost data (see loss); first is the
	// first of them.
	lost  int
	first loss
	err   error
}

// note renders the conversion's lost data as one line for the model ("" when nothing was
// lost): subject names the value's root ("result", "argument"), and call, when not empty, the
// binding call it was the argument of.
func (cv *conversion) note(subject, call string) string {
	if cv.lost == 0 {
		return ""
	}
	l := cv.first
	where := subject + l.path
	if l.path == "" {
		where = "the " + subject
	}
	if call != "" {
		where += " of " + call
	}
	article := "a "
	if l.kind == "Error" {
		article = "an "
	}
	effect, hint := ", which JSON turns into {}", ""
	switch l.kind {
	case "function", "symbol":
		effect = ", which JSON leaves out"
		if l.inArray {
			effect = ", which JSON turns into null"
		}
	case "Error":
		effect = ", whose message and stack JSON leaves out"
	}
	switch l.kind {
	case "Map":
		hint = " (use Object.fromEntries(map) to keep its entries)"
	case "Set":
		hint = " (use [...set] to keep its values)"
	case "Promise":
		hint = " (await it to keep its value)"
	case "Error":
		hint = " (use String(error) or error.message to keep it)"
	case "RegExp":
		hint = " (use String(regexp) to keep it)"
	case "symbol":
		hint = " (use String(symbol) to keep its description)"
	}
	line := "Note: " + where + " is " + article + l.kind + effect + hint + "."
	switch more := cv.lost - 1; {
	case more == 1:
		line += " 1 more value lost data too."
	case more > 1:
		line += fmt.Sprintf(" %d more values lost data too.", more)
	}
	return line
}

// loss is a place where converting to JSON silently lost data, as JSON.stringify does: a Map,
// a Set, a Promise, a RegExp or an Error becomes an object of its own enumerable properties
// (most often {}), a function or a symbol is left out (null in an array).
type loss struct {
	path    string // from the root: ".cache", "[2].f"; "" for the root itself
	kind    string // "Map", "Set", "Promise", "RegExp", "Error", "function", "symbol"
	inArray bool
}

// exportJSON converts v, the argument of a binding call, to JSON as JSON.stringify does (see
// converter.convert), reading each property once and keeping key order. Its JSON may take at
// most maxString bytes (see oneStepLimits): no JavaScript string could hold more.
func (r *run) exportJSON(v goja.Value) conversion {
	maxString, _, _ := oneStepLimits(r.cfg.MaxHeapBytes)
	return r.export(v, int(min(maxString, int64(^uint(0)>>1))))
}

// exportWithin is exportJSON for a value whose compact JSON may take at most budget bytes: it
// counts the JSON's bytes as it converts and fails with errOverBudget as soon as they pass
// budget, so a value over it costs time in proportion to budget, not to the value.
func (r *run) exportWithin(v goja.Value, budget int) conversion { return r.export(v, budget) }

func (r *run) export(v goja.Value, budget int) conversion {
	c := converter{run: r, vm: r.vm, left: budget}
	var cv conversion
	if ex := r.vm.Try(func() { cv.value, _, cv.err = c.convert(v, rootStep) }); ex != nil {
		// A getter, proxy trap, toJSON or valueOf threw: the walk stopped where it was.
		be := c.failHere("converting it threw: " + r.renderReason(ex.Value()))
		cv.value, cv.err = jsonv.Value{}, be
	}
	cv.size = budget - c.left
	cv.lost, cv.first = c.lost, c.first
	return cv
}

// convertPoll is how many values the converter converts between checks of its run's stop: the
// walk is Go code, which goja's interrupt does not reach, and a value reachable many times over
// (a DAG) can take seconds to walk.
const convertPoll = 1 << 12

// errOverBudget reports a value whose JSON is longer than the budget it was converted under.
var errOverBudget = errors.New("value's JSON exceeds the output budget")

// step is one step of the path from the root value to the one being converted: an array
// index, or an object key (index -1).
type step struct {
	key   string
	index int
}

// rootStep is the root value's step: its key for toJSON is "".
var rootStep = step{index: -1}

func (s step) String() string {
	if s.index >= 0 {
		return "[" + strconv.Itoa(s.index) + "]"
	}
	return renderKeyStep(s.key)
}

// jsKey is the key toJSON is called with.
func (s step) jsKey(vm *goja.Runtime) goja.Value {
	if s.index >= 0 {
		return vm.ToValue(strconv.Itoa(s.index))
	}
	return vm.ToValue(s.key)
}

// converter converts one JavaScript value to JSON with JSON.stringify's semantics (see convert).
type converter struct {
	vm *goja.Runtime
	// The containers on the current path, for cycle detection: the first few in path (most
	// values are shallow, and a map per conversion cost more than the rest of a small one), the
	// deeper ones in deep, with their depth.
	path  [8]*goja.Object
	depth int
	deep  map[*goja.Object]int
	// steps is the path from the root to the value being converted: steps[:d] leads to the
	// container at depth d.
	steps []step
	// left is how many more bytes the JSON may take.
	left int
	num  [32]byte // scratch for numbers' text
	// run is polled every convertPoll values; once it has been stopped (a budget ran out, or
	// it was aborted) the walk ends with errStopped.
	run   *run
	count int
	// lost counts the places where data was silently lost; first is the first of them.
	lost  int
	first loss
}

// charge counts n bytes of JSON against the budget and reports whether they fit. Each
// container charges its brackets (an array its commas too) before its members are read, and
// each scalar its text before it is copied, so the walk stops within one scalar of the budget.
func (c *converter) charge(n int) bool {
	c.left -= n
	return c.left >= 0
}

// onPath reports whether o is a container on the current path, and at which depth.
func (c *converter) onPath(o *goja.Object) (int, bool) {
	for i, p := range c.path[:min(c.depth, len(c.path))] {
		if p == o {
			return i, true
		}
	}
	d, ok := c.deep[o]
	return d, ok
}

func (c *converter) push(o *goja.Object) {
	if c.depth < len(c.path) {
		c.path[c.depth] = o
	} else {
		if c.deep == nil {
			c.deep = map[*goja.Object]int{}
		}
		c.deep[o] = c.depth
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

// failHere returns a boundaryError for the value being converted.
func (c *converter) failHere(reason string) *boundaryError {
	be := &boundaryError{reason: reason, path: make([]string, len(c.steps))}
	for i, s := range c.steps {
		be.path[len(c.steps)-1-i] = s.String()
	}
	return be
}

// lose records that the value being converted lost data (see loss).
func (c *converter) lose(kind string, inArray bool) {
	if c.lost++; c.lost > 1 {
		return
	}
	var b strings.Builder
	for _, s := range c.steps {
		b.WriteString(s.String())
	}
	c.first = loss{path: b.String(), kind: kind, inArray: inArray}
}

// convert is JSON.stringify's SerializeJSONProperty for v, the value at key of its holder
// (c.steps leads to it): ok is false when JSON.stringify leaves the value out (undefined, a
// function, a symbol). Like JSON.stringify it calls toJSON (so a Date becomes its ISO string),
// unwraps Number, String and Boolean objects, gives NaN and ±Infinity as null (and -0 as 0),
// serializes an array's elements up to its length (holes, undefined, functions and symbols as
// null) and any other object's own enumerable string-keyed properties (a Map, a Set, a class
// instance: their own properties, usually none), reading each property once; proxies are seen
// through. A BigInt, a cycle, a string or key that is not well-formed UTF-16, and nesting deeper
// than jsonv.MaxDepth fail, naming the place; JSON's first byte past the budget ends the walk
// with errOverBudget, whatever follows. Data lost silently (see loss) is counted.
func (c *converter) convert(v goja.Value, key step) (jsonv.Value, bool, error) {
	if c.count++; c.count%convertPoll == 0 && c.run != nil && c.run.recorded() != nil {
		return jsonv.Value{}, false, errStopped
	}
	if v == nil {
		return jsonv.Value{}, false, nil
	}
	o, isObj := v.(*goja.Object)
	if isObj || isBigIntValue(v) {
		holder := o
		if !isObj {
			holder = v.ToObject(c.vm)
		}
		if toJSON, ok := goja.AssertFunction(holder.Get("toJSON")); ok {
			res, err := toJSON(v, key.jsKey(c.vm))
			if err != nil {
				panic(err) // the exception, caught and placed by export
			}
			v = res
			if v == nil {
				return jsonv.Value{}, false, nil
			}
			o, isObj = v.(*goja.Object)
		}
	}
	if isObj {
		switch o.ClassName() {
		case "Number":
			v = c.vm.ToValue(v.ToFloat())
			isObj = false
		case "String":
			v, isObj = v.ToString(), false
		case "Boolean":
			if o.ExportType() != proxyType {
				v, isObj = c.vm.ToValue(o.Export()), false
			}
		default:
			if o.ExportType() == typeBigInt {
				return jsonv.Value{}, false, c.failHere(msgBigInt)
			}
		}
	}
	switch {
	case goja.IsUndefined(v):
		return jsonv.Value{}, false, nil
	case goja.IsNull(v):
		if !c.charge(len("null")) {
			return jsonv.Value{}, false, errOverBudget
		}
		return jsonv.NullValue(), true, nil
	}
	if _, ok := v.(*goja.Symbol); ok {
		c.lose("symbol", key.index >= 0)
		return jsonv.Value{}, false, nil
	}
	if !isObj {
		out, err := c.scalar(v)
		return out, err == nil, err
	}
	if _, callable := goja.AssertFunction(o); callable {
		c.lose("function", key.index >= 0)
		return jsonv.Value{}, false, nil
	}
	if d, cyclic := c.onPath(o); cyclic {
		be := c.failHere("circular reference to")
		be.cycle, be.cycleTo = true, d
		return jsonv.Value{}, false, be
	}
	if c.depth >= jsonv.MaxDepth {
		return jsonv.Value{}, false, c.failHere(tooDeep().(*boundaryError).reason)
	}
	isArray, err := c.isArray(o)
	if err != nil {
		return jsonv.Value{}, false, err
	}
	c.push(o)
	var out jsonv.Value
	if isArray {
		out, err = c.array(o)
	} else {
		out, err = c.object(o)
	}
	c.pop(o)
	if err != nil {
		return jsonv.Value{}, false, err
	}
	if !isArray {
		c.lostIn(o, out)
	}
	return out, true, nil
}

// msgBigInt is the reason a BigInt cannot cross.
const msgBigInt = "BigInt, which JSON cannot hold (convert it with String() or Number())"

// lostIn records the data an object of a built-in class with internal state lost when it was
// serialized as out, its own enumerable properties.
func (c *converter) lostIn(o *goja.Object, out jsonv.Value) {
	switch o.ClassName() {
	case "RegExp":
		c.lose("RegExp", false)
		return
	case "Error":
		if _, ok := out.Get("message"); !ok {
			c.lose("Error", false)
		}
		return
	}
	// goja gives Maps, Sets and Promises the class name Object; what they export tells them
	// apart (an Array, which also exports a slice, is not serialized here).
	switch o.ExportType() {
	case typeMapEntries:
		c.lose("Map", false)
	case typeSetValues:
		c.lose("Set", false)
	case typePromise:
		c.lose("Promise", false)
	}
}

// The types goja exports a Map, a Set and a Promise as.
var (
	typeMapEntries = reflect.TypeOf([][2]any(nil))
	typeSetValues  = reflect.TypeOf([]any(nil))
	typePromise    = reflect.TypeOf((*goja.Promise)(nil))
)

// isArray is IsArray: an Array, or a proxy whose target is one (a revoked proxy fails).
func (c *converter) isArray(o *goja.Object) (bool, error) {
	for o.ExportType() == proxyType {
		p, _ := o.Export().(goja.Proxy)
		if o = p.Target(); o == nil {
			return false, c.failHere("a revoked Proxy")
		}
	}
	return o.ClassName() == "Array", nil
}

// scalar converts a primitive other than null, undefined and a symbol.
func (c *converter) scalar(v goja.Value) (jsonv.Value, error) {
	if js, ok := v.(goja.String); ok && js.Length()+2 > c.left {
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
		if reason := loneSurrogate(v, x); reason != "" {
			return jsonv.Value{}, c.failHere(reason)
		}
		if !c.charge(jsonv.StringByteLen(x)) {
			return jsonv.Value{}, errOverBudget
		}
		return jsonv.StringValue(x), nil
	case int64:
		return c.number(float64(x))
	case float64:
		return c.number(x)
	}
	// The only other primitive is a BigInt (toJSON, when it has one, was called already).
	return jsonv.Value{}, c.failHere(msgBigInt)
}

// number converts a number as JSON.stringify writes it: NaN and ±Infinity as null, -0 as 0.
func (c *converter) number(f float64) (jsonv.Value, error) {
	n, err := jsonv.NumberValue(f)
	switch {
	case errors.Is(err, jsonv.ErrNotJSON) && f == 0:
		n, err = jsonv.Int(0), nil
	case err != nil:
		if !c.charge(len("null")) {
			return jsonv.Value{}, errOverBudget
		}
		return jsonv.NullValue(), nil
	}
	if !c.charge(len(jsonv.AppendNumber(c.num[:0], n.AsNumber()))) {
		return jsonv.Value{}, errOverBudget
	}
	return n, nil
}

// maxPrealloc bounds the items an array's conversion allocates room for up front: a sparse
// array's length says nothing about its memory.
const maxPrealloc = 1 << 12

// array converts an array's elements from 0 to its length: holes and values JSON.stringify
// leaves out become null.
func (c *converter) array(o *goja.Object) (jsonv.Value, error) {
	n := toLength(o.Get("length"))
	// Brackets and commas first: an array too long for the budget fails before its elements
	// are read (each takes at least one byte, and a comma).
	if n > float64(c.left) || !c.charge(2+int(max(n-1, 0))) {
		c.left = -1
		return jsonv.Value{}, errOverBudget
	}
	items := make([]jsonv.Value, 0, min(int(n), maxPrealloc))
	for i := 0; i < int(n); i++ {
		c.steps = append(c.steps, step{index: i})
		item, ok, err := c.convert(o.Get(strconv.Itoa(i)), step{index: i})
		c.steps = c.steps[:len(c.steps)-1]
		switch {
		case err != nil:
			return jsonv.Value{}, err
		case !ok:
			if !c.charge(len("null")) {
				return jsonv.Value{}, errOverBudget
			}
			item = jsonv.NullValue()
		}
		items = append(items, item)
	}
	return jsonv.ArrayOf(items), nil
}

// object converts an object's own enumerable string-keyed properties, in order, leaving out
// those JSON.stringify leaves out.
func (c *converter) object(o *goja.Object) (jsonv.Value, error) {
	keys := o.Keys()
	if !c.charge(2) {
		return jsonv.Value{}, errOverBudget
	}
	if err := c.checkKeys(o, keys); err != nil {
		return jsonv.Value{}, err
	}
	members := make([]jsonv.Member, 0, len(keys))
	for _, k := range keys {
		// The key, its colon and the comma before it, if any: given back when the member is
		// left out. A value that is kept charges at least one byte, which checks the budget.
		cost := jsonv.StringByteLen(k) + 1
		if len(members) > 0 {
			cost++
		}
		c.left -= cost
		c.steps = append(c.steps, step{key: k, index: -1})
		val, ok, err := c.convert(o.Get(k), step{key: k, index: -1})
		c.steps = c.steps[:len(c.steps)-1]
		switch {
		case err != nil:
			return jsonv.Value{}, err
		case !ok:
			c.left += cost
			continue
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
			return c.failHere(fmt.Sprintf("key %s is not well-formed UTF-16 (it has a lone surrogate)", jsonv.AppendString(nil, k)))
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
			return &boundaryError{reason: fmt.Sprintf("string is not valid UTF-8 (byte offset %d)", invalidUTF8At(s))}
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
				return &boundaryError{reason: fmt.Sprintf("key %s is not valid UTF-8 (byte offset %d)", jsonv.AppendString(nil, m.Key), invalidUTF8At(m.Key))}
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
		// One form of the text: ToValue's string would keep the Go string beside its UTF-16
		// (a non-ASCII result held twice for as long as the program holds it).
		return goja.NewStringValue(v.AsString())
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
