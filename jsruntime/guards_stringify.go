package jsruntime

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// JSON.stringify replaces goja's, which recurses in Go once per level of nesting (a million
// levels end the process with a fatal stack overflow), finds cycles by scanning the stack of
// open objects for each object (a 100,000-deep array took 31s in one native step) and builds
// output of any size in one step (a DAG of arrays, a = [a, a] forty times over, makes 2**40
// "[]"s). This one follows the specification (SerializeJSONProperty and its helpers) with a set
// for the open objects, stops at maxNesting levels and at maxString characters of output with a
// RangeError, and polls its run every stringifyPoll values and stringifyPollBytes of output, so a run stopped by a budget ends
// within a few milliseconds of it.

// stringifyPoll and stringifyPollBytes are how many values, and bytes of output, stringify
// produces between checks of its run's stop.
const (
	stringifyPoll      = 1 << 12
	stringifyPollBytes = 1 << 16
)

// stringifier is the state of one JSON.stringify call.
type stringifier struct {
	rl           *realm
	replacer     goja.Callable // nil: none
	propertyList []string      // nil: every enumerable own property
	gap, indent  string
	// indents holds every level's indent as a prefix (see deeper).
	indents string
	buf     []byte
	open    map[*goja.Object]struct{} // the objects being serialized, for cycles
	depth   int
	steps   int
	written int // bytes written since the last poll
	maxLen  int
	// objectKeys is the Object.keys captured when the realm was prepared, for checkKeys.
	objectKeys goja.Callable
}

// installStringify replaces JSON.stringify with the Go implementation.
func (rl *realm) installStringify(maxString int64) error {
	vm := rl.vm
	jsonObj, ok := vm.GlobalObject().Get("JSON").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: JSON is missing")
	}
	objectKeys, ok := goja.AssertFunction(vm.GlobalObject().Get("Object").(*goja.Object).Get("keys"))
	if !ok {
		return fmt.Errorf("jsruntime: Object.keys is missing")
	}
	maxLen := int(min(maxString, math.MaxInt32))
	f := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		s := &stringifier{rl: rl, maxLen: maxLen, objectKeys: objectKeys}
		return s.run(call)
	}).(*goja.Object)
	return defineMethod(vm, jsonObj, "stringify", f, 3)
}

func (s *stringifier) run(call goja.FunctionCall) goja.Value {
	vm := s.rl.vm
	if r, ok := call.Argument(1).(*goja.Object); ok {
		if f, ok := goja.AssertFunction(r); ok {
			s.replacer = f
		} else if s.isArray(r) {
			s.propertyList = s.replacerList(r)
		}
	}
	space := call.Argument(2)
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			space = vm.ToValue(space.ToFloat())
		case "String":
			space = space.ToString()
		}
	}
	if str, ok := space.(goja.String); ok {
		s.gap = prefixUnits(str, 10)
	} else if k := space.ExportType(); k != nil && (k == typeInt64 || k == typeFloat64) {
		n := min(toInteger(space.ToFloat()), 10)
		if n >= 1 {
			s.gap = strings.Repeat(" ", int(n))
		}
	}
	holder := vm.NewObject()
	_ = holder.Set("", call.Argument(0))
	if !s.property(holder, "", call.Argument(0), true) {
		return goja.Undefined()
	}
	return vm.ToValue(string(s.buf))
}

// replacerList is the property list of an array replacer: its strings and numbers (and String
// and Number objects), as strings, without repeats.
func (s *stringifier) replacerList(r *goja.Object) []string {
	n := toLength(r.Get("length"))
	if n > float64(s.maxLen) {
		panic(s.rl.rangeError("JSON.stringify: the replacer array is too long"))
	}
	list := []string{}
	seen := map[string]bool{}
	for i := 0; i < int(n); i++ {
		v := r.Get(strconv.Itoa(i))
		var item string
		switch {
		case isStringValue(v) || isNumberValue(v):
			item = v.String()
		default:
			o, ok := v.(*goja.Object)
			if !ok || (o.ClassName() != "String" && o.ClassName() != "Number") {
				continue
			}
			item = v.ToString().String()
		}
		if !seen[item] {
			seen[item] = true
			list = append(list, item)
		}
	}
	return list
}

// property is SerializeJSONProperty(key, holder) for value, holder[key] already read (useValue)
// or to be read. It reports whether it wrote anything (false: the value is not serializable,
// undefined in the result).
func (s *stringifier) property(holder *goja.Object, key string, value goja.Value, useValue bool) bool {
	vm := s.rl.vm
	if s.steps++; s.steps%stringifyPoll == 0 {
		s.poll()
	}
	if !useValue {
		value = holder.Get(key)
	}
	if value == nil {
		value = goja.Undefined()
	}
	if o, isObj := value.(*goja.Object); isObj || isBigIntValue(value) {
		if !isObj {
			o = value.ToObject(vm)
		}
		if toJSON, ok := goja.AssertFunction(o.Get("toJSON")); ok {
			v, err := toJSON(value, vm.ToValue(key))
			if err != nil {
				panic(err)
			}
			value = v
		}
	}
	if s.replacer != nil {
		v, err := s.replacer(holder, vm.ToValue(key), value)
		if err != nil {
			panic(err)
		}
		value = v
	}
	if o, ok := value.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			value = vm.ToValue(value.ToFloat())
		case "String":
			value = value.ToString()
		case "Boolean":
			if o.ExportType() != proxyType {
				value = vm.ToValue(o.Export())
			}
		case "RawJSON":
			s.write(o.Get("rawJSON").String())
			return true
		default:
			if o.ExportType() == typeBigInt {
				panic(vm.NewTypeError("Do not know how to serialize a BigInt"))
			}
		}
	}
	switch {
	case value == nil || goja.IsUndefined(value):
		return false
	case goja.IsNull(value):
		s.write("null")
	case isStringValue(value):
		s.quote(value.(goja.String))
	case isBoolValue(value):
		if value.ToBoolean() {
			s.write("true")
		} else {
			s.write("false")
		}
	case isNumberValue(value):
		if f := value.ToFloat(); math.IsNaN(f) || math.IsInf(f, 0) {
			s.write("null")
		} else {
			s.write(value.String())
		}
	case isBigIntValue(value):
		panic(vm.NewTypeError("Do not know how to serialize a BigInt"))
	default:
		o, ok := value.(*goja.Object)
		if !ok {
			return false // a symbol
		}
		if _, callable := goja.AssertFunction(o); callable {
			return false
		}
		if s.isArray(o) {
			s.enter(o)
			s.array(o)
		} else {
			s.enter(o)
			s.object(o)
		}
		delete(s.open, o)
		s.depth--
	}
	return true
}

// deeper returns indent followed by one more gap. The indents of all levels are prefixes of one
// string grown by doubling, so a deep value's open levels share it instead of holding a copy each
// (a copy per level is quadratic: 10,000 levels indented by 10 held 500 MB).
func (s *stringifier) deeper(indent string) string {
	n := len(indent) + len(s.gap)
	if len(s.indents) < n {
		s.indents = strings.Repeat(s.gap, 2*(n/len(s.gap))+1)
	}
	return s.indents[:n]
}

// enter records o as open, refusing a cycle and nesting past maxNesting.
func (s *stringifier) enter(o *goja.Object) {
	if s.open == nil {
		s.open = map[*goja.Object]struct{}{}
	}
	if _, cyclic := s.open[o]; cyclic {
		panic(s.rl.vm.NewTypeError("Converting circular structure to JSON"))
	}
	if s.depth >= maxNesting {
		panic(s.rl.rangeError("JSON.stringify: values nested deeper than " + strconv.Itoa(maxNesting) + " levels"))
	}
	s.open[o] = struct{}{}
	s.depth++
}

func (s *stringifier) array(o *goja.Object) {
	n := toLength(o.Get("length"))
	if n == 0 {
		s.write("[]")
		return
	}
	// Each element writes at least one character and a separator.
	if n > float64(s.maxLen-len(s.buf))/2 {
		panic(s.rl.rangeError("Invalid string length"))
	}
	stepback := s.indent
	s.indent = s.deeper(s.indent)
	s.write("[")
	for i := 0; i < int(n); i++ {
		if i > 0 {
			s.write(",")
		}
		s.newline()
		if !s.property(o, strconv.Itoa(i), nil, false) {
			s.write("null")
		}
	}
	s.indent = stepback
	s.newline()
	s.write("]")
}

func (s *stringifier) object(o *goja.Object) {
	keys := s.propertyList
	if keys == nil {
		keys = o.Keys()
		s.checkKeys(o, keys)
	}
	stepback := s.indent
	s.indent = s.deeper(s.indent)
	s.write("{")
	mark := len(s.buf)
	empty := true
	for _, k := range keys {
		undo := len(s.buf)
		if !empty {
			s.write(",")
		}
		s.newline()
		s.quoteName(k)
		if s.gap != "" {
			s.write(": ")
		} else {
			s.write(":")
		}
		if s.property(o, k, nil, false) {
			empty = false
		} else {
			s.truncate(undo)
		}
	}
	s.indent = stepback
	if empty {
		s.truncate(mark)
	} else {
		s.newline()
	}
	s.write("}")
}

// checkKeys refuses an object with a property name that is not well-formed UTF-16: Object.Keys
// returns names as Go strings, in which a lone surrogate reads as U+FFFD, so that property
// could not be read back by name. Only names with a U+FFFD are compared with the originals.
func (s *stringifier) checkKeys(o *goja.Object, keys []string) {
	vm := s.rl.vm
	for _, k := range keys {
		if !strings.ContainsRune(k, utf8.RuneError) {
			continue
		}
		names, err := s.objectKeys(goja.Undefined(), o)
		if err != nil {
			panic(err)
		}
		list := names.(*goja.Object)
		for i, k := range keys {
			if !list.Get(strconv.Itoa(i)).StrictEquals(vm.ToValue(k)) {
				panic(vm.NewTypeError("JSON.stringify: a property name is not well-formed UTF-16"))
			}
		}
		return
	}
}

// newline starts a new line at the current indent when there is a gap.
func (s *stringifier) newline() {
	if s.gap != "" {
		s.write("\n")
		s.write(s.indent)
	}
}

func (s *stringifier) write(str string) {
	if len(s.buf)+len(str) > s.maxLen {
		panic(s.rl.rangeError("Invalid string length"))
	}
	s.buf = append(s.buf, str...)
	if s.written += len(str); s.written > stringifyPollBytes {
		s.poll()
	}
}

// poll throws when the run has been stopped (by a budget, an abort): the interrupt that stop
// raised then ends the run at its next instruction.
func (s *stringifier) poll() {
	s.written = 0
	if s.rl.owner != nil && s.rl.owner.recorded() != nil {
		panic(s.rl.rangeError("JSON.stringify: the run was stopped"))
	}
}

func (s *stringifier) truncate(n int) { s.buf = s.buf[:n] }

// quoteName writes a property name (a well-formed Go string, see checkKeys) as a JSON string.
func (s *stringifier) quoteName(k string) {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			s.quote(s.rl.vm.ToValue(k).(goja.String))
			return
		}
	}
	s.write(`"`)
	s.write(k)
	s.write(`"`)
}

// quote writes str as a JSON string: QuoteJSONString, lone surrogates escaped.
func (s *stringifier) quote(str goja.String) {
	if str.Length() > s.maxLen {
		panic(s.rl.rangeError("Invalid string length"))
	}
	s.write(`"`)
	r := str.Reader()
	for {
		c, _, err := r.ReadRune()
		if err == io.EOF {
			break
		}
		switch {
		case err != nil: // a lone surrogate
			s.write(`\u` + strconv.FormatInt(int64(c), 16))
		case c == '"':
			s.write(`\"`)
		case c == '\\':
			s.write(`\\`)
		case c == '\b':
			s.write(`\b`)
		case c == '\f':
			s.write(`\f`)
		case c == '\n':
			s.write(`\n`)
		case c == '\r':
			s.write(`\r`)
		case c == '\t':
			s.write(`\t`)
		case c < 0x20:
			s.write(`\u00` + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&0xF]))
		default:
			if len(s.buf)+utf8.RuneLen(c) > s.maxLen {
				panic(s.rl.rangeError("Invalid string length"))
			}
			s.buf = utf8.AppendRune(s.buf, c)
			if s.written++; s.written > stringifyPollBytes {
				s.poll()
			}
		}
	}
	s.write(`"`)
}

// prefixUnits is the first n UTF-16 code units of str, as a Go string.
func prefixUnits(str goja.String, n int) string {
	if str.Length() > n {
		str = str.Substring(0, n)
	}
	return str.String()
}

func toLength(v goja.Value) float64 {
	f := toInteger(v.ToFloat())
	if f <= 0 {
		return 0
	}
	return min(f, 1<<53-1)
}

func isStringValue(v goja.Value) bool { _, ok := v.(goja.String); return ok }
func isBoolValue(v goja.Value) bool   { return v.ExportType() == typeBool && !isObject(v) }
func isNumberValue(v goja.Value) bool {
	t := v.ExportType()
	return (t == typeInt64 || t == typeFloat64) && !isObject(v)
}
func isBigIntValue(v goja.Value) bool { return v.ExportType() == typeBigInt && !isObject(v) }
func isObject(v goja.Value) bool      { _, ok := v.(*goja.Object); return ok }

// isArray is IsArray: an Array, or a proxy whose target is one (a revoked proxy throws).
func (s *stringifier) isArray(o *goja.Object) bool {
	for o.ExportType() == proxyType {
		p, _ := o.Export().(goja.Proxy)
		if o = p.Target(); o == nil {
			panic(s.rl.vm.NewTypeError("Cannot perform 'IsArray' on a proxy that has been revoked"))
		}
	}
	return o.ClassName() == "Array"
}

var (
	typeInt64   = reflect.TypeOf(int64(0))
	typeFloat64 = reflect.TypeOf(float64(0))
	typeBool    = reflect.TypeOf(false)
	typeBigInt  = reflect.TypeOf((*big.Int)(nil))
)
