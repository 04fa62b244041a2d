package jsruntime

import (
	"math"
	"math/big"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/jsonv"
)

// consoleMethods are the methods of the program's console: the five upstream levels, which log
// alike, then table and dir (see DECISIONS.md).
var consoleMethods = [...]string{"log", "info", "warn", "error", "debug", "table", "dir"}

// inspectIntrinsics are the built-ins the inspector calls, captured when the realm is made,
// before any program runs.
type inspectIntrinsics struct {
	getOwnPropertyDescriptor goja.Callable
	functionToString         goja.Callable
	functionProto            *goja.Object
	asyncFunctionProto       *goja.Object
	generatorFunctionProto   *goja.Object
}

// consoleObject builds the program's console: a null-prototype object whose methods each append
// one log line. log, info, warn, error and debug render their arguments (strings verbatim,
// anything else as Node's util.inspect does) joined by a space; table renders a table as Node's
// console.table; dir renders its first argument as util.inspect, strings included.
func (rl *realm) consoleObject() *goja.Object {
	vm := rl.vm
	rl.captureInspectIntrinsics()
	obj := vm.CreateObject(nil)
	logFn := func(call goja.FunctionCall) goja.Value {
		r := rl.owner
		parts := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			parts[i] = r.inspectArg(a)
		}
		r.logInspected(strings.Join(parts, " "))
		return goja.Undefined()
	}
	tableFn := func(call goja.FunctionCall) goja.Value {
		r := rl.owner
		r.logInspected(r.consoleTable(call.Argument(0), call.Argument(1)))
		return goja.Undefined()
	}
	dirFn := func(call goja.FunctionCall) goja.Value {
		r := rl.owner
		in := r.newInspector()
		if opts, ok := call.Argument(1).(*goja.Object); ok {
			switch d := opts.Get("depth"); {
			case d == nil || goja.IsUndefined(d):
			case goja.IsNull(d):
				in.depth = math.MaxInt
			default:
				if f := d.ToFloat(); f >= math.MaxInt32 {
					in.depth = math.MaxInt
				} else if !math.IsNaN(f) {
					in.depth = int(f)
				}
			}
		}
		r.logInspected(in.finish(in.formatValue(call.Argument(0), 0)))
		return goja.Undefined()
	}
	for _, name := range consoleMethods {
		fn := logFn
		switch name {
		case "table":
			fn = tableFn
		case "dir":
			fn = dirFn
		}
		f := vm.ToValue(fn).(*goja.Object)
		_ = f.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = obj.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	return obj
}

func (rl *realm) captureInspectIntrinsics() {
	vm := rl.vm
	object := vm.GlobalObject().Get("Object").(*goja.Object)
	gopd, _ := goja.AssertFunction(object.Get("getOwnPropertyDescriptor"))
	fnProto := rl.intr.functionProto
	toString, _ := goja.AssertFunction(fnProto.Get("toString"))
	rl.inspect = inspectIntrinsics{getOwnPropertyDescriptor: gopd, functionToString: toString, functionProto: fnProto}
}

// Limits of the rendering, as Node's util.inspect with depth 4, maxArrayLength 100 and
// maxStringLength 10000 (upstream's console options), breakLength 80 and compact 3 (Node's
// defaults).
const (
	inspectDepth     = 4
	inspectMaxArray  = 100
	inspectMaxString = 10000
	inspectBreak     = 80
	inspectCompact   = 3
	inspectMinLine   = 16 // Node's kMinLineWidth
	// inspectPoll is how many values the inspector formats between checks that the run has not
	// been stopped: one console call formats values in one native step, which could otherwise
	// outlast a budget (shared references make 100^5 entries out of five arrays).
	inspectPoll = 256
)

// logInspected logs a line the inspector rendered, unless an inspector cut it short because the
// run was stopped meanwhile.
func (r *run) logInspected(line string) {
	if r.inspectCut {
		r.inspectCut = false
		return
	}
	r.log(line)
}

// inspectArg renders one console argument: strings verbatim, anything else as Node's
// util.inspect does.
func (r *run) inspectArg(v goja.Value) string {
	if s, ok := v.(goja.String); ok {
		return s.String()
	}
	in := r.newInspector()
	return in.finish(in.formatValue(v, 0))
}

func (r *run) newInspector() *inspector {
	return &inspector{r: r, rl: r.realm, depth: inspectDepth, maxArray: inspectMaxArray, breakLength: inspectBreak}
}

// finish returns s, or "" when the inspection was cut short because the run was stopped (the
// run then ends with its recorded failure).
func (in *inspector) finish(s string) string {
	if in.stopped {
		in.r.inspectCut = true
		return ""
	}
	return s
}

// inspector is a port of Node 22's util.inspect (lib/internal/util/inspect.js: formatValue,
// formatRaw, formatProperty, reduceToSingleString, groupArrayElements) without colors, custom
// inspect functions, showHidden or getters. What it cannot see in goja (iterator and weak
// collection contents, proxies' handlers) it renders as an ordinary object; see docs/programs.md.
type inspector struct {
	r           *run
	rl          *realm
	seen        []*goja.Object
	circular    map[*goja.Object]int
	indentation int
	// currentDepth is the depth of the most recently formatted object (Node's ctx.currentDepth).
	currentDepth int
	depth        int
	maxArray     int
	breakLength  int
	visited      int
	// produced is a lower bound of the rendered length: each string shows at least its text,
	// each object one character.
	produced int
	stopped  bool
}

// Node's extras types: how the entries of an object are laid out.
const (
	kObjectType = iota
	kArrayType
	kArrayExtrasType
)

var (
	mapExportType   = reflect.TypeOf([][2]any{})
	setExportType   = reflect.TypeOf([]any{})
	promiseType     = reflect.TypeOf((*goja.Promise)(nil))
	arrayBufferType = reflect.TypeOf(goja.ArrayBuffer{})
	bigIntType      = reflect.TypeOf((*big.Int)(nil))
)

// poll reports whether the inspection must stop: it checks every inspectPoll values that the
// run has not been stopped.
func (in *inspector) poll() bool {
	if in.stopped {
		return true
	}
	in.visited++
	if in.visited%inspectPoll == 0 && in.r.recorded() != nil {
		in.stopped = true
	}
	return in.stopped
}

// charge counts n more characters of output. Once the line being rendered cannot fit the output
// cap, the run ends with the output limit, without rendering the rest.
func (in *inspector) charge(n int) {
	in.produced += n
	if in.produced > in.r.led.room() && !in.stopped {
		in.r.stop(&Failure{Kind: KindOutputLimit, Message: "output limit"})
		in.stopped = true
	}
}

func (in *inspector) formatValue(v goja.Value, recurseTimes int) string {
	if in.poll() {
		return ""
	}
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return in.formatPrimitive(v)
	}
	in.charge(1)
	if o.ExportType() == proxyType && !in.rl.isNamespace(o) {
		// Node formats a proxy's target without running its traps.
		for i := 0; o.ExportType() == proxyType; i++ {
			p, _ := o.Export().(goja.Proxy)
			o = p.Target()
			if o == nil || i > 10000 {
				return "<Revoked Proxy>"
			}
		}
	}
	for _, s := range in.seen {
		if s == o {
			if in.circular == nil {
				in.circular = map[*goja.Object]int{}
			}
			index, ok := in.circular[o]
			if !ok {
				index = len(in.circular) + 1
				in.circular[o] = index
			}
			return "[Circular *" + strconv.Itoa(index) + "]"
		}
	}
	if in.rl.urlProto != nil {
		switch {
		case inherits(o, in.rl.urlProto):
			return in.formatURL(o, recurseTimes)
		case inherits(o, in.rl.paramsProto):
			return in.formatParams(o, recurseTimes)
		}
	}
	return in.formatRaw(o, recurseTimes)
}

func inherits(o, proto *goja.Object) bool {
	for p, i := o.Prototype(), 0; p != nil && i < 10000; p, i = p.Prototype(), i+1 {
		if p == proto {
			return true
		}
	}
	return false
}

// formatURL renders a URL as Node's URL[util.inspect.custom]: "URL { href: …, …, hash: … }".
func (in *inspector) formatURL(o *goja.Object, recurseTimes int) string {
	if recurseTimes > in.depth {
		return "[URL]"
	}
	obj := in.r.vm.NewObject()
	for _, k := range []string{"href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "searchParams", "hash"} {
		_ = obj.Set(k, o.Get(k))
	}
	sub := &inspector{r: in.r, rl: in.rl, depth: in.depth - recurseTimes, maxArray: in.maxArray, breakLength: in.breakLength}
	s := "URL " + sub.formatValue(obj, 0)
	in.stopped = in.stopped || sub.stopped
	return strings.ReplaceAll(s, "\n", "\n"+strings.Repeat(" ", in.indentation))
}

// formatParams renders a URLSearchParams as Node's URLSearchParams[util.inspect.custom]:
// "URLSearchParams { 'a' => '1' }".
func (in *inspector) formatParams(o *goja.Object, recurseTimes int) string {
	if recurseTimes > in.depth {
		return "[Object]"
	}
	lv, err := in.rl.paramsList(goja.Undefined(), o)
	if err != nil {
		panic(err)
	}
	list, _ := lv.(*goja.Object)
	var output []string
	if list != nil {
		sub := &inspector{r: in.r, rl: in.rl, depth: in.depth - recurseTimes - 1, maxArray: in.maxArray, breakLength: in.breakLength}
		n := list.Get("length").ToInteger()
		for i := int64(0); i+1 < n; i += 2 {
			output = append(output, sub.formatValue(list.Get(strconv.FormatInt(i, 10)), 0)+" => "+sub.formatValue(list.Get(strconv.FormatInt(i+1, 10)), 0))
		}
		in.stopped = in.stopped || sub.stopped
	}
	name := "URLSearchParams"
	if c, ok := in.constructorName(o); ok {
		name = c
	}
	length := -2
	for _, s := range output {
		length += utf16Len(s) + 2
	}
	switch {
	case length > in.breakLength:
		return name + " {\n  " + strings.Join(output, ",\n  ") + " }"
	case len(output) > 0:
		return name + " { " + strings.Join(output, ", ") + " }"
	}
	return name + " {}"
}

// descriptor is an own property's descriptor; ok is false when the property does not exist.
type descriptor struct {
	value, get, set goja.Value
	enumerable, ok  bool
}

// describe returns o's own property key (a string or a *goja.Symbol) without running a getter.
func (in *inspector) describe(o *goja.Object, key goja.Value) descriptor {
	d, err := in.rl.inspect.getOwnPropertyDescriptor(goja.Undefined(), o, key)
	if err != nil {
		panic(err)
	}
	do, ok := d.(*goja.Object)
	if !ok {
		return descriptor{}
	}
	return descriptor{value: do.Get("value"), get: do.Get("get"), set: do.Get("set"), enumerable: do.Get("enumerable").ToBoolean(), ok: true}
}

// inspectKey is a property key: a string or a symbol.
type inspectKey struct {
	name string
	sym  *goja.Symbol
}

func (k inspectKey) value(vm *goja.Runtime) goja.Value {
	if k.sym != nil {
		return k.sym
	}
	return vm.ToValue(k.name)
}

// keys returns o's own enumerable string keys (without array indices when skipIndices) and
// enumerable symbol keys, in property order.
func (in *inspector) keys(o *goja.Object, skipIndices bool) []inspectKey {
	var out []inspectKey
	for _, k := range o.Keys() {
		if skipIndices && isArrayIndex(k) {
			continue
		}
		out = append(out, inspectKey{name: k})
	}
	for _, s := range o.Symbols() {
		if in.describe(o, s).enumerable {
			out = append(out, inspectKey{sym: s})
		}
	}
	return out
}

func isArrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < math.MaxUint32
}

// constructorName is Node's getConstructorName: the name of the first constructor found on the
// prototype chain (an own "constructor" data property naming a function the object is an
// instance of); ok is false for an object without one (a null-prototype object).
func (in *inspector) constructorName(o *goja.Object) (name string, ok bool) {
	p := o
	for i := 0; p != nil && i < 10000; i++ {
		d := in.describe(p, in.r.vm.ToValue("constructor"))
		if c, isObj := d.value.(*goja.Object); isObj {
			if _, callable := goja.AssertFunction(c); callable {
				if n, isStr := c.Get("name").(goja.String); isStr && n.String() != "" && instanceOf(o, c) {
					return n.String(), true
				}
			}
		}
		p = p.Prototype()
	}
	return "", false
}

// instanceOf is OrdinaryHasInstance(c, o), without Symbol.hasInstance.
func instanceOf(o, c *goja.Object) bool {
	proto, ok := c.Get("prototype").(*goja.Object)
	if !ok {
		return false
	}
	for p, i := o.Prototype(), 0; p != nil && i < 10000; p, i = p.Prototype(), i+1 {
		if p == proto {
			return true
		}
	}
	return false
}

// getPrefix is Node's getPrefix: "Foo(2) [tag] ", or "[Fallback(2): null prototype] ".
func getPrefix(constructor string, hasCtor bool, tag, fallback, size string) string {
	if !hasCtor {
		if tag != "" && fallback != tag {
			return "[" + fallback + size + ": null prototype] [" + tag + "] "
		}
		return "[" + fallback + size + ": null prototype] "
	}
	result := constructor + size + " "
	if tag != "" {
		pos := strings.Index(constructor, tag)
		if pos == -1 {
			result += "[" + tag + "] "
		} else if end := pos + len(tag); end != len(constructor) && strings.ToLower(constructor[end:end+1]) == constructor[end:end+1] {
			result += "[" + tag + "] "
		}
	}
	return result
}

func (in *inspector) formatRaw(o *goja.Object, recurseTimes int) string {
	constructor, hasCtor := in.constructorName(o)
	tag := ""
	if t, ok := o.GetSymbol(goja.SymToStringTag).(goja.String); ok && t.String() != "" {
		if !in.describe(o, goja.SymToStringTag).enumerable {
			tag = t.String()
		}
	}
	var (
		keys       []inspectKey
		base       string
		braces     = [2]string{"{", "}"}
		formatter  func(recurseTimes int) []string
		extrasType = kObjectType
		extraKeys  []string
	)
	exportType := o.ExportType()
	class := o.ClassName()
	_, isFunc := goja.AssertFunction(o)
	switch {
	case class == "Array":
		length := o.Get("length").ToInteger()
		prefix := ""
		if constructor != "Array" || tag != "" {
			prefix = getPrefix(constructor, hasCtor, tag, "Array", "("+strconv.FormatInt(length, 10)+")")
		}
		keys = in.arrayExtraKeys(o, length)
		braces = [2]string{prefix + "[", "]"}
		if length == 0 && len(keys) == 0 {
			return braces[0] + "]"
		}
		extrasType = kArrayExtrasType
		formatter = func(rt int) []string { return in.formatArray(o, length, rt) }
	case exportType == setExportType && class == "Object", exportType == mapExportType:
		isMap := exportType == mapExportType
		fallback := "Set"
		if isMap {
			fallback = "Map"
		}
		entries := in.collection(o, isMap)
		size := int64(len(entries))
		if isMap {
			size /= 2
		}
		if sz, ok := o.Get("size").Export().(int64); ok {
			size = sz
		}
		prefix := getPrefix(constructor, hasCtor, tag, fallback, "("+strconv.FormatInt(size, 10)+")")
		keys = in.keys(o, false)
		if size == 0 && len(keys) == 0 {
			return prefix + "{}"
		}
		braces = [2]string{prefix + "{", "}"}
		formatter = func(rt int) []string { return in.formatCollection(entries, size, isMap, rt) }
	case isTypedArray(exportType) && class == "Object" && !isFunc:
		length := o.Get("length").ToInteger()
		fallback := ""
		if !hasCtor {
			if t, ok := o.GetSymbol(goja.SymToStringTag).(goja.String); ok {
				fallback = t.String()
			}
		}
		prefix := getPrefix(constructor, hasCtor, tag, fallback, "("+strconv.FormatInt(length, 10)+")")
		keys = in.arrayExtraKeys(o, length)
		braces = [2]string{prefix + "[", "]"}
		if length == 0 && len(keys) == 0 {
			return braces[0] + "]"
		}
		extrasType = kArrayExtrasType
		formatter = func(int) []string { return in.formatTypedArray(o, length) }
	default:
		keys = in.keys(o, false)
		switch {
		case isFunc:
			base = in.functionBase(o, constructor, hasCtor, tag)
			if len(keys) == 0 {
				return base
			}
		case constructor == "Object" && hasCtor:
			if class == "Arguments" {
				braces[0] = "[Arguments] {"
			} else if tag != "" {
				braces[0] = getPrefix(constructor, hasCtor, tag, "Object", "") + "{"
			}
			if len(keys) == 0 {
				return braces[0] + "}"
			}
		case class == "RegExp":
			base = jsString(o)
			if prefix := getPrefix(constructor, hasCtor, tag, "RegExp", ""); prefix != "RegExp " {
				base = prefix + base
			}
			if len(keys) == 0 || recurseTimes > in.depth {
				return base
			}
		case class == "Date":
			base = "Invalid Date"
			if t, ok := o.Export().(time.Time); ok {
				base = t.UTC().Format("2006-01-02T15:04:05.000Z")
			}
			if prefix := getPrefix(constructor, hasCtor, tag, "Date", ""); prefix != "Date " {
				base = prefix + base
			}
			if len(keys) == 0 {
				return base
			}
		case in.r.isError(o):
			base, keys = in.formatError(o, constructor, hasCtor, tag, keys)
			if len(keys) == 0 {
				return base
			}
		case exportType == arrayBufferType:
			prefix := getPrefix(constructor, hasCtor, tag, "ArrayBuffer", "")
			formatter = func(int) []string { return in.formatArrayBuffer(o) }
			braces[0] = prefix + "{"
			extraKeys = []string{"byteLength"}
		case exportType == promiseType:
			braces[0] = getPrefix(constructor, hasCtor, tag, "Promise", "") + "{"
			formatter = func(rt int) []string { return in.formatPromise(o, rt) }
		case class == "Number" || class == "String" || class == "Boolean" || (exportType == bigIntType && class == "Object"):
			base = in.boxedBase(o, class, constructor, hasCtor, tag, &keys)
			if len(keys) == 0 {
				return base
			}
		default:
			if len(keys) == 0 {
				return in.ctxStyle(constructor, hasCtor, tag) + "{}"
			}
			braces[0] = in.ctxStyle(constructor, hasCtor, tag) + "{"
		}
	}
	if recurseTimes > in.depth {
		name := strings.TrimSuffix(in.ctxStyle(constructor, hasCtor, tag), " ")
		if hasCtor {
			name = "[" + name + "]"
		}
		return name
	}
	recurseTimes++
	in.seen = append(in.seen, o)
	in.currentDepth = recurseTimes
	var output []string
	if formatter != nil {
		output = formatter(recurseTimes)
	}
	for _, k := range extraKeys {
		in.indentation += 2
		s := in.formatValue(o.Get(k), recurseTimes)
		in.indentation -= 2
		output = append(output, "["+k+"]: "+s)
	}
	for _, k := range keys {
		output = append(output, in.formatProperty(o, k, recurseTimes, extrasType))
	}
	if index, ok := in.circular[o]; ok {
		ref := "<ref *" + strconv.Itoa(index) + ">"
		if base == "" {
			base = ref
		} else {
			base = ref + " " + base
		}
	}
	in.seen = in.seen[:len(in.seen)-1]
	return in.reduceToSingleString(output, base, braces, extrasType, recurseTimes, o)
}

// ctxStyle is Node's getCtxStyle for an ordinary object.
func (in *inspector) ctxStyle(constructor string, hasCtor bool, tag string) string {
	fallback := ""
	if !hasCtor {
		fallback = "Object"
	}
	return getPrefix(constructor, hasCtor, tag, fallback, "")
}

func isTypedArray(t reflect.Type) bool {
	if t == nil || t.Kind() != reflect.Slice {
		return false
	}
	switch t.Elem().Kind() {
	case reflect.Int8, reflect.Uint8, reflect.Int16, reflect.Uint16, reflect.Int32, reflect.Uint32,
		reflect.Int64, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// arrayExtraKeys returns an array's own enumerable keys that are not indices. Listing the keys
// of a long array takes one native step proportional to its length, so arrays longer than
// maxKeyScan are shown without their extra keys.
func (in *inspector) arrayExtraKeys(o *goja.Object, length int64) []inspectKey {
	const maxKeyScan = 1 << 16
	if length > maxKeyScan {
		return nil
	}
	return in.keys(o, true)
}

func (in *inspector) formatArray(o *goja.Object, length int64, recurseTimes int) []string {
	shown := min(length, int64(in.maxArray))
	var output []string
	index := int64(0)
	for index < length && int64(len(output)) < shown {
		key := strconv.FormatInt(index, 10)
		d := in.describe(o, in.r.vm.ToValue(key))
		if !d.ok {
			// A hole: count it and the ones after it (Node's formatSpecialArray).
			next := in.nextIndex(o, index+1, length)
			n := next - index
			output = append(output, "<"+strconv.FormatInt(n, 10)+" empty item"+plural(n)+">")
			index = next
			continue
		}
		output = append(output, in.formatPropertyValue(o, d, recurseTimes, kArrayType))
		index++
		if in.stopped {
			return output
		}
	}
	if remaining := length - index; remaining > 0 {
		if int64(len(output)) < shown {
			output = append(output, "<"+strconv.FormatInt(remaining, 10)+" empty item"+plural(remaining)+">")
		} else {
			output = append(output, "... "+strconv.FormatInt(remaining, 10)+" more item"+plural(remaining))
		}
	}
	return output
}

// nextIndex returns the first index from i on that o has as an own property, or length. It
// probes index by index, then, past a run of holes, lists the keys once.
func (in *inspector) nextIndex(o *goja.Object, i, length int64) int64 {
	const probes = 1024
	for end := min(i+probes, length); i < end; i++ {
		if in.describe(o, in.r.vm.ToValue(strconv.FormatInt(i, 10))).ok {
			return i
		}
	}
	if i >= length {
		return length
	}
	next := length
	for _, k := range o.Keys() {
		if !isArrayIndex(k) {
			continue
		}
		if n, _ := strconv.ParseInt(k, 10, 64); n >= i && n < next {
			next = n
		}
	}
	return next
}

func (in *inspector) formatTypedArray(o *goja.Object, length int64) []string {
	shown := min(length, int64(in.maxArray))
	output := make([]string, 0, shown+1)
	for i := int64(0); i < shown; i++ {
		output = append(output, in.formatPrimitive(o.Get(strconv.FormatInt(i, 10))))
	}
	if remaining := length - shown; remaining > 0 {
		output = append(output, "... "+strconv.FormatInt(remaining, 10)+" more item"+plural(remaining))
	}
	return output
}

func (in *inspector) formatArrayBuffer(o *goja.Object) []string {
	buf, _ := o.Export().(goja.ArrayBuffer)
	if buf.Detached() {
		return []string{"(detached)"}
	}
	data := buf.Bytes()
	var b strings.Builder
	for i, c := range data[:min(len(data), in.maxArray)] {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatUint(uint64(c)|0x100, 16)[1:])
	}
	if remaining := len(data) - in.maxArray; remaining > 0 {
		b.WriteString(" ... " + strconv.Itoa(remaining) + " more byte" + plural(int64(remaining)))
	}
	return []string{"[Uint8Contents]: <" + b.String() + ">"}
}

// collection returns up to maxArray+1 entries of a Map (keys and values alternating) or Set,
// read through the entries and values methods of the realm's Map and Set.
func (in *inspector) collection(o *goja.Object, isMap bool) []goja.Value {
	ctorName, method := "Set", "values"
	if isMap {
		ctorName, method = "Map", "entries"
	}
	ctor, ok := in.r.vm.GlobalObject().Get(ctorName).(*goja.Object)
	if !ok {
		return nil
	}
	proto, ok := ctor.Get("prototype").(*goja.Object)
	if !ok {
		return nil
	}
	iterate, ok := goja.AssertFunction(proto.Get(method))
	if !ok {
		return nil
	}
	itv, err := iterate(o)
	if err != nil {
		return nil // not a real Map or Set of this realm's
	}
	it, ok := itv.(*goja.Object)
	if !ok {
		return nil
	}
	next, ok := goja.AssertFunction(it.Get("next"))
	if !ok {
		return nil
	}
	var out []goja.Value
	for i := 0; i <= in.maxArray; i++ {
		rv, err := next(it)
		if err != nil {
			panic(err)
		}
		res, ok := rv.(*goja.Object)
		if !ok || res.Get("done").ToBoolean() {
			break
		}
		v := res.Get("value")
		if isMap {
			pair, ok := v.(*goja.Object)
			if !ok {
				break
			}
			out = append(out, pair.Get("0"), pair.Get("1"))
		} else {
			out = append(out, v)
		}
	}
	return out
}

// formatCollection is Node's formatMap and formatSet.
func (in *inspector) formatCollection(entries []goja.Value, size int64, isMap bool, recurseTimes int) []string {
	step := 1
	if isMap {
		step = 2
	}
	shown := min(int64(len(entries)/step), int64(in.maxArray), size)
	output := make([]string, 0, shown+1)
	in.indentation += 2
	for i := int64(0); i < shown; i++ {
		if isMap {
			output = append(output, in.formatValue(entries[2*i], recurseTimes)+" => "+in.formatValue(entries[2*i+1], recurseTimes))
		} else {
			output = append(output, in.formatValue(entries[i], recurseTimes))
		}
	}
	if remaining := size - shown; remaining > 0 {
		output = append(output, "... "+strconv.FormatInt(remaining, 10)+" more item"+plural(remaining))
	}
	in.indentation -= 2
	return output
}

func (in *inspector) formatPromise(o *goja.Object, recurseTimes int) []string {
	p, _ := o.Export().(*goja.Promise)
	switch p.State() {
	case goja.PromiseStatePending:
		return []string{"<pending>"}
	case goja.PromiseStateRejected:
		in.indentation += 2
		s := in.formatValue(p.Result(), recurseTimes)
		in.indentation -= 2
		return []string{"<rejected> " + s}
	}
	in.indentation += 2
	s := in.formatValue(p.Result(), recurseTimes)
	in.indentation -= 2
	return []string{s}
}

// boxedBase is Node's getBoxedBase for Number, String, Boolean and BigInt objects.
func (in *inspector) boxedBase(o *goja.Object, class, constructor string, hasCtor bool, tag string, keys *[]inspectKey) string {
	var prim goja.Value
	typ := class
	switch class {
	case "Number":
		prim = in.r.vm.ToValue(o.Export())
	case "Boolean":
		prim = in.r.vm.ToValue(o.Export())
	case "String":
		prim = o.ToString()
		kept := (*keys)[:0]
		for _, k := range *keys {
			if k.sym != nil || !isArrayIndex(k.name) {
				kept = append(kept, k)
			}
		}
		*keys = kept
	default:
		typ = "BigInt"
		prim = in.r.vm.ToValue(o.Export())
	}
	base := "[" + typ
	if typ != constructor {
		if !hasCtor {
			base += " (null prototype)"
		} else {
			base += " (" + constructor + ")"
		}
	}
	saved := in.indentation
	in.indentation = 0
	base += ": " + in.formatPrimitive(prim) + "]"
	in.indentation = saved
	if tag != "" && tag != constructor {
		base += " [" + tag + "]"
	}
	return base
}

// functionBase is Node's getFunctionBase: "[Function: f]", "[class A extends B]",
// "[AsyncFunction: f]".
func (in *inspector) functionBase(o *goja.Object, constructor string, hasCtor bool, tag string) string {
	src := ""
	if v, err := in.rl.inspect.functionToString(o); err == nil {
		src = v.String()
	}
	if strings.HasPrefix(src, "class") && strings.HasSuffix(src, "}") {
		if body := src[5 : len(src)-1]; strings.Contains(body, "{") && !strings.Contains(body[:strings.Index(body, "{")], "(") {
			name := "(anonymous)"
			if in.describe(o, in.r.vm.ToValue("name")).ok {
				if n := o.Get("name"); n != nil && n.ToBoolean() {
					name = n.String()
				}
			}
			b := "class " + name
			if constructor != "Function" && hasCtor {
				b += " [" + constructor + "]"
			}
			if tag != "" && constructor != tag {
				b += " [" + tag + "]"
			}
			if hasCtor {
				if p := o.Prototype(); p != nil {
					if n, ok := p.Get("name").(goja.String); ok && n.String() != "" {
						b += " extends " + n.String()
					}
				}
			} else {
				b += " extends [null prototype]"
			}
			return "[" + b + "]"
		}
	}
	typ := "Function"
	switch {
	case strings.HasPrefix(src, "async function*") || strings.HasPrefix(src, "async *"):
		typ = "AsyncGeneratorFunction"
	case strings.HasPrefix(src, "function*") || strings.HasPrefix(src, "*"):
		typ = "GeneratorFunction"
	case strings.HasPrefix(src, "async"):
		typ = "AsyncFunction"
	}
	b := "[" + typ
	if !hasCtor {
		b += " (null prototype)"
	}
	name := o.Get("name")
	if s, ok := name.(goja.String); ok && s.String() == "" || name == nil || goja.IsUndefined(name) {
		b += " (anonymous)"
	} else if s, ok := name.(goja.String); ok {
		b += ": " + s.String()
	} else {
		b += ": " + in.formatValue(name, 0)
	}
	b += "]"
	if constructor != typ && hasCtor {
		b += " " + constructor
	}
	if tag != "" && constructor != tag {
		b += " [" + tag + "]"
	}
	return b
}

// gojaFrame matches goja's stack frames ("\tat f (main.ts:3:7(12))"): the tab and the bytecode
// offset after the column differ from V8's "    at f (main.ts:3:7)".
var gojaFrame = regexp.MustCompile(`(?m)^\tat (.*?)\(\d+\)(\)?)$`)

// nodeStack rewrites goja's stack frames in V8's form.
func nodeStack(stack string) string {
	if !strings.Contains(stack, "\n\tat ") {
		return stack
	}
	return gojaFrame.ReplaceAllString(stack, "    at $1$2")
}

// errorToString is Error.prototype.toString.
func errorToString(o *goja.Object) string {
	name, msg := "Error", ""
	if n := o.Get("name"); n != nil && !goja.IsUndefined(n) {
		name = jsString(n)
	}
	if m := o.Get("message"); m != nil && !goja.IsUndefined(m) {
		msg = jsString(m)
	}
	switch {
	case name == "":
		return msg
	case msg == "":
		return name
	}
	return name + ": " + msg
}

// formatError is Node's formatError: the stack (goja's frames in V8's form, see nodeStack),
// improved to name the class, in brackets when it has no frames, and the keys left to show.
func (in *inspector) formatError(o *goja.Object, constructor string, hasCtor bool, tag string, keys []inspectKey) (string, []inspectKey) {
	var stack string
	if s := o.Get("stack"); s != nil && s.ToBoolean() {
		if _, isStr := s.(goja.String); isStr {
			stack = fixLineOneColumns(strings.TrimSuffix(s.String(), "\n"), in.r.lineOneShift)
			stack = nodeStack(stack)
		} else {
			in.seen = append(in.seen, o)
			in.indentation += 4
			r := in.formatValue(s, 0)
			in.indentation -= 4
			in.seen = in.seen[:len(in.seen)-1]
			stack = errorToString(o) + "\n    " + r
		}
	} else {
		stack = errorToString(o)
	}
	message, name := o.Get("message"), o.Get("name")
	kept := keys[:0:0]
	for _, k := range keys {
		switch {
		case k.sym != nil:
		case k.name == "stack":
			continue
		case k.name == "message" && (!isString(message) || strings.Contains(stack, message.String())):
			continue
		case k.name == "name" && (!isString(name) || strings.Contains(stack, name.String())):
			continue
		}
		kept = append(kept, k)
	}
	keys = kept
	nameStr := "Error"
	if name != nil && !goja.IsUndefined(name) && !goja.IsNull(name) {
		nameStr = jsString(name)
	}
	if d := in.describe(o, in.r.vm.ToValue("cause")); d.ok && !hasKey(keys, "cause") {
		keys = append(keys, inspectKey{name: "cause"})
	}
	if d := in.describe(o, in.r.vm.ToValue("errors")); d.ok && !hasKey(keys, "errors") {
		if e, ok := d.value.(*goja.Object); ok && e.ClassName() == "Array" {
			keys = append(keys, inspectKey{name: "errors"})
		}
	}
	stack = improveStack(stack, constructor, hasCtor, nameStr, tag)
	pos := -1
	if m := jsStringOr(message); m != "" {
		if i := strings.Index(stack, m); i != -1 {
			pos = i + len(m)
		}
	}
	from := max(pos, 0)
	if i := strings.Index(stack[from:], "\n    at"); i == -1 {
		stack = "[" + stack + "]"
	}
	if in.indentation != 0 {
		stack = strings.ReplaceAll(stack, "\n", "\n"+strings.Repeat(" ", in.indentation))
	}
	return stack, keys
}

func isString(v goja.Value) bool {
	_, ok := v.(goja.String)
	return ok
}

func jsStringOr(v goja.Value) string {
	if s, ok := v.(goja.String); ok {
		return s.String()
	}
	return ""
}

func hasKey(keys []inspectKey, name string) bool {
	for _, k := range keys {
		if k.sym == nil && k.name == name {
			return true
		}
	}
	return false
}

// improveStack is Node's improveStack: a stack that starts with an error name the class does
// not show is prefixed with the class ("MyError: m" for a subclass named MyError).
func improveStack(stack, constructor string, hasCtor bool, name, tag string) string {
	n := len(name)
	if hasCtor && !(strings.HasSuffix(name, "Error") && strings.HasPrefix(stack, name) &&
		(len(stack) == n || stack[n] == ':' || stack[n] == '\n')) {
		return stack
	}
	fallback := "Error"
	if !hasCtor {
		m := regexp.MustCompile(`^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n {4}at)`).FindStringSubmatch(stack)
		if m == nil {
			m = regexp.MustCompile(`^([a-z_A-Z0-9-]*Error)$`).FindStringSubmatch(stack)
		}
		fallback = ""
		if m != nil {
			fallback = m[1]
		}
		n = len(fallback)
		if fallback == "" {
			fallback = "Error"
		}
	}
	prefix := strings.TrimSuffix(getPrefix(constructor, hasCtor, tag, fallback, ""), " ")
	if name != prefix {
		if strings.Contains(prefix, name) {
			if n == 0 {
				stack = prefix + ": " + stack
			} else {
				stack = prefix + stack[n:]
			}
		} else {
			stack = prefix + " [" + name + "]" + stack[n:]
		}
	}
	return stack
}

var keyRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z_0-9]*$`)

// formatProperty is Node's formatProperty: "key: value", or the value alone for array entries.
func (in *inspector) formatProperty(o *goja.Object, k inspectKey, recurseTimes, typ int) string {
	d := in.describe(o, k.value(in.r.vm))
	str := in.formatPropertyValue(o, d, recurseTimes, typ)
	if typ == kArrayType {
		return str
	}
	var name string
	switch {
	case k.sym != nil:
		name = "[" + escapeControls(jsString(k.sym)) + "]"
	case k.name == "__proto__":
		name = "['__proto__']"
	case d.ok && !d.enumerable:
		name = "[" + escapeControls(k.name) + "]"
	case keyRE.MatchString(k.name):
		name = k.name
	default:
		name = strEscape(k.name)
	}
	return name + ": " + str
}

func (in *inspector) formatPropertyValue(o *goja.Object, d descriptor, recurseTimes, typ int) string {
	switch {
	case d.value != nil && !goja.IsUndefined(d.value):
		in.indentation += 2
		s := in.formatValue(d.value, recurseTimes)
		in.indentation -= 2
		return s
	case d.get != nil && !goja.IsUndefined(d.get):
		if d.set != nil && !goja.IsUndefined(d.set) {
			return "[Getter/Setter]"
		}
		return "[Getter]"
	case d.set != nil && !goja.IsUndefined(d.set):
		return "[Setter]"
	}
	return "undefined"
}

// reduceToSingleString is Node's: entries on one line when they fit the break length and the
// object has at most compact (3) levels of nesting below it, else one entry a line; arrays of
// more than six entries grouped in columns.
func (in *inspector) reduceToSingleString(output []string, base string, braces [2]string, extrasType, recurseTimes int, o *goja.Object) string {
	entries := len(output)
	if extrasType == kArrayExtrasType && entries > 6 {
		output = in.groupArrayElements(output, o)
	}
	basePart := ""
	if base != "" {
		basePart = base + " "
	}
	if in.currentDepth-recurseTimes < inspectCompact && entries == len(output) {
		start := len(output) + in.indentation + utf16Len(braces[0]) + utf16Len(base) + 10
		if in.isBelowBreakLength(output, start, base) {
			joined := strings.Join(output, ", ")
			if !strings.Contains(joined, "\n") {
				return basePart + braces[0] + " " + joined + " " + braces[1]
			}
		}
	}
	ind := "\n" + strings.Repeat(" ", in.indentation)
	return basePart + braces[0] + ind + "  " + strings.Join(output, ","+ind+"  ") + ind + braces[1]
}

func (in *inspector) isBelowBreakLength(output []string, start int, base string) bool {
	total := len(output) + start
	if total+len(output) > in.breakLength {
		return false
	}
	for _, s := range output {
		total += utf16Len(s)
		if total > in.breakLength {
			return false
		}
	}
	return base == "" || !strings.Contains(base, "\n")
}

// groupArrayElements is Node's: more than six short array entries laid out in columns.
func (in *inspector) groupArrayElements(output []string, o *goja.Object) []string {
	const separatorSpace = 2
	totalLength, maxLength := 0, 0
	outputLength := len(output)
	if in.maxArray < len(output) {
		outputLength-- // the "... more items" entry
	}
	dataLen := make([]int, outputLength)
	for i := range outputLength {
		l := utf16Len(output[i])
		dataLen[i] = l
		totalLength += l + separatorSpace
		maxLength = max(maxLength, l)
	}
	actualMax := maxLength + separatorSpace
	if !(actualMax*3+in.indentation < in.breakLength && (float64(totalLength)/float64(actualMax) > 5 || maxLength <= 6)) {
		return output
	}
	averageBias := math.Sqrt(float64(actualMax) - float64(totalLength)/float64(len(output)))
	biasedMax := math.Max(float64(actualMax)-3-averageBias, 1)
	columns := min(
		int(math.Round(math.Sqrt(2.5*biasedMax*float64(outputLength))/biasedMax)),
		(in.breakLength-in.indentation)/actualMax,
		inspectCompact*4,
		15,
	)
	if columns <= 1 {
		return output
	}
	maxLineLength := make([]int, 0, columns)
	for i := range columns {
		lineLength := 0
		for j := i; j < len(output); j += columns {
			if j < outputLength {
				lineLength = max(lineLength, dataLen[j])
			}
		}
		maxLineLength = append(maxLineLength, lineLength+separatorSpace)
	}
	numeric := true
	if o != nil {
		for i := range output {
			switch v := o.Get(strconv.Itoa(i)); {
			case v == nil:
				numeric = false
			default:
				if _, isObj := v.(*goja.Object); isObj || !isNumberLike(v) {
					numeric = false
				}
			}
			if !numeric {
				break
			}
		}
	}
	var grouped []string
	for i := 0; i < outputLength; i += columns {
		end := min(i+columns, outputLength)
		var b strings.Builder
		j := i
		for ; j < end-1; j++ {
			b.WriteString(pad(output[j]+", ", maxLineLength[j-i], numeric))
		}
		if numeric {
			b.WriteString(pad(output[j], maxLineLength[j-i]-separatorSpace, true))
		} else {
			b.WriteString(output[j])
		}
		grouped = append(grouped, b.String())
	}
	if in.maxArray < len(output) {
		grouped = append(grouped, output[outputLength])
	}
	return grouped
}

// formatPrimitive is Node's formatPrimitive: strings quoted (and split at line breaks when
// long), numbers as JavaScript prints them, -0 as "-0", bigints with "n".
func (in *inspector) formatPrimitive(v goja.Value) string {
	if _, ok := v.(*goja.Symbol); ok {
		return jsString(v)
	}
	if s, ok := v.(goja.String); ok {
		str := s.String()
		in.charge(len(str))
		trailer := ""
		if n := utf16Len(str); n > inspectMaxString {
			units := utf16.Encode([]rune(str))
			remaining := n - inspectMaxString
			str = string(utf16.Decode(units[:inspectMaxString]))
			trailer = "... " + strconv.Itoa(remaining) + " more character" + plural(int64(remaining))
		}
		if n := utf16Len(str); n > inspectMinLine && n > in.breakLength-in.indentation-4 && strings.Contains(str, "\n") {
			lines := strings.SplitAfter(str, "\n")
			if lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			for i, l := range lines {
				lines[i] = strEscape(l)
			}
			return strings.Join(lines, " +\n"+strings.Repeat(" ", in.indentation+2)) + trailer
		}
		return strEscape(str) + trailer
	}
	return formatPrimitive(v)
}

func isNumberLike(v goja.Value) bool {
	if _, isObj := v.(*goja.Object); isObj || v == nil {
		return false
	}
	switch v.Export().(type) {
	case int64, float64, *big.Int:
		return true
	}
	return false
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func formatPrimitive(v goja.Value) string {
	if _, ok := v.(*goja.Symbol); ok {
		return jsString(v)
	}
	switch x := v.Export().(type) {
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		case x == 0 && math.Signbit(x):
			return "-0"
		}
		return jsonv.FormatNumber(x)
	case string:
		return strEscape(x)
	case *big.Int:
		return x.String() + "n"
	}
	return jsString(v)
}

// strEscape quotes a string as util.inspect does: single quotes unless the string contains one
// and no double quote (then double quotes) or no backtick or "${" (then backticks); control
// characters, C1 controls and the backslash escaped.
func strEscape(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 {
		if strings.IndexByte(s, '"') < 0 {
			q = '"'
		} else if strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "${") {
			q = '`'
		}
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, c := range s {
		if c == rune(q) && q == '\'' || c == '\\' {
			b.WriteByte('\\')
			b.WriteRune(c)
			continue
		}
		b.WriteString(escapeRune(c))
	}
	b.WriteByte(q)
	return b.String()
}

// escapeControls escapes control characters as strEscape does, without quoting.
func escapeControls(s string) string {
	var b strings.Builder
	for _, c := range s {
		b.WriteString(escapeRune(c))
	}
	return b.String()
}

func escapeRune(c rune) string {
	switch {
	case c == '\n':
		return `\n`
	case c == '\t':
		return `\t`
	case c == '\r':
		return `\r`
	case c == '\b':
		return `\b`
	case c == '\f':
		return `\f`
	case c < 0x20 || (c > 0x7e && c < 0xa0):
		return `\x` + strings.ToUpper(strconv.FormatInt(int64(c)|0x100, 16)[1:])
	}
	return string(c)
}

// pad pads s with spaces to width, on the left when numeric (padStart) else on the right.
func pad(s string, width int, numeric bool) string {
	n := width - utf16Len(s)
	if n <= 0 {
		return s
	}
	if numeric {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}
