package jsruntime

import (
	_ "embed"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// regexpTimeoutOnce guards the one process-wide setting this package makes.
//
// regexp2 (goja's engine for patterns Go's RE2 cannot run) reads its package variable
// DefaultMatchTimeout when a pattern is compiled, and goja offers no per-runtime knob: the
// compiled regexp is private to goja. So New sets DefaultMatchTimeout exactly once, through this
// sync.Once, before any of its runs can compile a pattern: every run of every runtime starts
// after some New returned, so the write happens-before every read this package causes. Other
// code in the process that uses regexp2 (or goja) directly and concurrently with the first New
// would race with that write, and its patterns get the timeout too.
var regexpTimeoutOnce sync.Once

func setRegexpTimeout() {
	regexpTimeoutOnce.Do(func() { regexp2.DefaultMatchTimeout = regexpMatchTimeout })
}

// msgDisposed is the message of a call on a closed runtime.
const msgDisposed = "runtime disposed"

// oneStepLimits are the size caps of built-ins that allocate in one native step, derived from
// the heap bound: one step may allocate at most a quarter of it.
func oneStepLimits(maxHeap int64) (maxString, maxElements, maxBytes int64) {
	step := max(maxHeap/4, 1<<20)
	return step, step / 16, step
}

// realm is a fresh goja.Runtime made ready for one run: stack limit set, intrinsics captured,
// the prelude installed. Preparing it is most of the fixed cost of a run and depends only on
// the Config, so Goja prepares realms ahead of the runs that take them (see Config.Prewarm).
type realm struct {
	vm   *goja.Runtime
	intr intrinsics
	// makeErrorClass builds the injected error classes; the prelude returns it.
	makeErrorClass goja.Callable
	// limits and host are the prelude's arguments, passed to the polyfills too.
	limits, host *goja.Object
	// console is the program's console (see consoleObject).
	console *goja.Object
	// inspect are the built-ins the console's inspector calls (see captureInspectIntrinsics).
	inspect inspectIntrinsics
	// urlProto, paramsProto and paramsList are the URL polyfill's, for the inspector (see
	// registerURL).
	urlProto, paramsProto *goja.Object
	paramsList            goja.Callable
	// bindings, when not nil, are the program function's arguments (without console) built
	// ahead for requests bound like shape (see sameShape).
	bindings []goja.Value
	shape    []boundNamespace

	// owner is the run the realm serves, set before any of its JavaScript runs: the console and
	// binding functions, built before the run existed, reach the run through it.
	owner *run
	// regexpSource is RegExp.prototype's source getter (see checkSourceFolding).
	regexpSource goja.Value
	// generatorsGuarded records that guardGenerators ran (see guards_source.go).
	generatorsGuarded bool
	// namespaces are the namespace and group objects built in the realm (see lazyObject).
	namespaces []*goja.Object
}

// newRealm creates a goja.Runtime and installs the prelude: size guards, the regexp timeout
// check, the console. Everything it installs is built from intrinsics captured before any
// program runs. When shape is not nil it also builds the program function's arguments for
// requests bound like it.
func newRealm(cfg Config, prelude *goja.Program, shape []boundNamespace) (*realm, error) {
	vm := goja.New()
	vm.SetMaxCallStackSize(cfg.MaxStackDepth)
	// JSON.parse (the goja fork's: linear, interruptible, no Go recursion) refuses text nesting
	// deeper than every JSON value crossing the boundary may, so a reviver's walk (which
	// recurses in Go per level) stays shallow.
	vm.SetJSONParseMaxDepth(maxJSONParseDepth)
	// eval and Function compile the program's text: a sourceMappingURL comment in it must not
	// make goja read a file (see compileWrapped).
	vm.SetParserOptions(parser.WithDisableSourceMaps)
	rl := &realm{vm: vm, intr: captureIntrinsics(vm)}
	if err := rl.guardRegExpConstructor(); err != nil {
		return nil, err
	}
	maxString, maxElements, maxBytes := oneStepLimits(cfg.MaxHeapBytes)
	if err := rl.guardBuffers(maxBytes); err != nil {
		return nil, err
	}
	if err := rl.guardSources(); err != nil {
		return nil, err
	}
	if err := rl.installIntl(maxString); err != nil {
		return nil, err
	}
	if err := rl.guardSlowStrings(maxString); err != nil {
		return nil, err
	}
	if err := rl.guardReplacements(maxString); err != nil {
		return nil, err
	}
	if err := rl.guardBind(); err != nil {
		return nil, err
	}
	if err := rl.installStringify(maxString); err != nil {
		return nil, err
	}
	limits := vm.NewObject()
	_ = limits.Set("maxString", maxString)
	_ = limits.Set("maxElements", maxElements)
	_ = limits.Set("maxNesting", maxNesting)
	host := vm.NewObject()
	_ = host.Set("call", rl.callFunction)
	_ = host.Set("plainArray", rl.plainArray)
	_ = host.Set("isProxy", rl.isProxy)
	_ = host.Set("iterable", rl.iterable)
	_ = host.Set("apply", rl.applyFunction)
	_ = host.Set("species", rl.species)
	rl.limits, rl.host = limits, host
	fnValue, err := vm.RunProgram(prelude)
	if err != nil {
		return nil, err
	}
	fn, ok := goja.AssertFunction(fnValue)
	if !ok {
		return nil, fmt.Errorf("jsruntime: prelude did not return a function")
	}
	factory, err := fn(goja.Undefined(), limits, host)
	if err != nil {
		return nil, err
	}
	rl.makeErrorClass, ok = goja.AssertFunction(factory)
	if !ok {
		return nil, fmt.Errorf("jsruntime: prelude did not return a function")
	}
	rl.console = rl.consoleObject()
	if shape != nil {
		if rl.bindings, err = rl.buildBindings(shape); err != nil {
			return nil, err
		}
		rl.shape = shape
	}
	return rl, nil
}

// callFunction(f, this, ...args) calls f: the guards and polyfills call the built-ins they
// captured through it rather than through Function.prototype.call or Reflect, which the program
// can replace (and which goja would have to build for every realm).
func (rl *realm) callFunction(call goja.FunctionCall) goja.Value {
	var args []goja.Value
	if len(call.Arguments) > 2 {
		args = call.Arguments[2:]
	}
	return rl.invoke(call.Argument(0), call.Argument(1), args)
}

// invoke calls fn with this and args for callFunction and applyFunction, rethrowing what it
// throws.
func (rl *realm) invoke(fn, this goja.Value, args []goja.Value) goja.Value {
	f, ok := goja.AssertFunction(fn)
	if !ok {
		panic(rl.vm.NewTypeError("not a function"))
	}
	v, err := f(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// plainArray(o) reports whether o is an ordinary Array (not a proxy, not an array-like), whose
// length is a data property that only the array's own mutation changes.
func (rl *realm) plainArray(call goja.FunctionCall) goja.Value {
	o, ok := call.Argument(0).(*goja.Object)
	return rl.vm.ToValue(ok && o.ClassName() == "Array" && o.ExportType() != proxyType)
}

// isProxy(o) reports whether o is a Proxy (whose traps are the program's code).
func (rl *realm) isProxy(call goja.FunctionCall) goja.Value {
	o, ok := call.Argument(0).(*goja.Object)
	return rl.vm.ToValue(ok && o.ExportType() == proxyType)
}

// iterable(o) reports whether o[Symbol.iterator] is neither undefined nor null (read once, as
// Array.from does; from Go, so that the prelude need not build the Symbol constructor).
func (rl *realm) iterable(call goja.FunctionCall) goja.Value {
	o, ok := call.Argument(0).(*goja.Object)
	if !ok {
		return rl.vm.ToValue(false)
	}
	m := o.GetSymbol(goja.SymIterator)
	return rl.vm.ToValue(m != nil && !goja.IsUndefined(m) && !goja.IsNull(m))
}

// applyFunction(f, this, args) calls f with the elements of args, an arguments object or array
// the prelude made (read by index here, not through the iterator protocol the program can
// replace).
func (rl *realm) applyFunction(call goja.FunctionCall) goja.Value {
	list, ok := call.Argument(2).(*goja.Object)
	if !ok {
		panic(rl.vm.NewTypeError("not an argument list"))
	}
	n := list.Get("length").ToInteger()
	args := make([]goja.Value, 0, min(max(n, 0), 64))
	for i := int64(0); i < n; i++ {
		args = append(args, list.Get(strconv.FormatInt(i, 10)))
	}
	return rl.invoke(call.Argument(0), call.Argument(1), args)
}

// polyfills are the built-ins goja lacks that polyfillSource can install, by the name that
// makes a program ask for one (see polyfillsNamed).
var polyfills = []string{"asyncIterator", "dispose", "asyncDispose", "structuredClone", "withResolvers",
	"groupBy", "fromAsync", "queueMicrotask", "atob", "btoa", "TextEncoder", "TextDecoder",
	"setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate",
	"performance", "crypto", "isWellFormed", "toWellFormed", "Array.from", "URL", "Iterator"}

// polyfillAliases are further names that ask for a polyfill. The iterator helpers are methods
// of every iterator, named like common array methods (map, filter); a program that uses them
// names where it gets an iterator from.
var polyfillAliases = map[string][]string{
	"Iterator": {".values()", ".keys()", ".entries()", "matchAll", "function*", "function *", "toArray"},
}

// polyfillsNamed returns the polyfills (a bit per entry of polyfills) whose names, or aliases,
// occur in code. A program gets the missing built-ins it names; one that reaches for them
// without writing their names (globalThis["at" + "ob"]) finds them undefined, as on an engine
// without them.
func polyfillsNamed(code string) uint64 {
	var set uint64
	for i, name := range polyfills {
		if strings.Contains(code, name) {
			set |= 1 << i
			continue
		}
		for _, alias := range polyfillAliases[name] {
			if strings.Contains(code, alias) {
				set |= 1 << i
				break
			}
		}
	}
	return set
}

// installPolyfills runs the polyfill program for the set polyfillsNamed returned.
func (rl *realm) installPolyfills(prg *goja.Program, set uint64) error {
	vm := rl.vm
	for name, fn := range map[string]func(goja.FunctionCall) goja.Value{
		"atob": rl.atob, "btoa": rl.btoa, "utf8Encode": rl.utf8Encode, "utf8Decode": rl.utf8Decode,
		"timerAdd": rl.timerAdd, "timerClear": rl.timerClear, "timerRef": rl.timerRef, "timerRefresh": rl.timerRefresh,
		"now": rl.now, "timeOrigin": rl.timeOrigin, "randomFill": rl.randomFill, "randomUUID": rl.randomUUID,
		"urlParse": rl.urlParse, "urlSet": rl.urlSet, "formEncode": rl.formEncode, "formDecode": rl.formDecode,
		"registerURL": rl.registerURL, "loneSurrogate": rl.loneSurrogate, "wellFormed": rl.wellFormed,
	} {
		_ = rl.host.Set(name, fn)
	}
	fnValue, err := vm.RunProgram(prg)
	if err != nil {
		return err
	}
	fn, ok := goja.AssertFunction(fnValue)
	if !ok {
		return fmt.Errorf("jsruntime: polyfills did not compile to a function")
	}
	want := func(call goja.FunctionCall) goja.Value {
		name := call.Argument(0).String()
		for i, p := range polyfills {
			if p == name {
				return vm.ToValue(set&(1<<i) != 0)
			}
		}
		return vm.ToValue(false)
	}
	_, err = fn(goja.Undefined(), rl.limits, rl.host, vm.ToValue(want))
	return err
}

// bufferCtors are the constructors that allocate their backing store in one native step, with
// the bytes per element of each. goja lacks Float16Array; guardBuffers skips what is missing.
var bufferCtors = []struct {
	name     string
	bytesPer float64
}{
	{"ArrayBuffer", 1}, {"Int8Array", 1}, {"Uint8Array", 1}, {"Uint8ClampedArray", 1},
	{"Int16Array", 2}, {"Uint16Array", 2}, {"Float16Array", 2}, {"Int32Array", 4},
	{"Uint32Array", 4}, {"Float32Array", 4}, {"Float64Array", 8}, {"BigInt64Array", 8},
	{"BigUint64Array", 8},
}

// guardBuffers replaces ArrayBuffer and the typed-array constructors with proxies whose
// construct trap refuses to allocate more than maxBytes at once (goja would otherwise end the
// process with a fatal out-of-memory error). Each prototype's constructor points at the proxy,
// so ta.constructor cannot reach the original. The traps are Go functions: a proxy with a
// native handler costs a fraction of one with a JavaScript handler, and this runs per realm.
func (rl *realm) guardBuffers(maxBytes int64) error {
	vm := rl.vm
	global := vm.GlobalObject()
	hasInstance := vm.ToValue(rl.ordinaryHasInstance).(*goja.Object)
	_ = hasInstance.DefineDataProperty("name", vm.ToValue("[Symbol.hasInstance]"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	for _, c := range bufferCtors {
		orig, ok := global.Get(c.name).(*goja.Object)
		if !ok {
			continue
		}
		construct, ok := goja.AssertConstructor(orig)
		if !ok {
			return fmt.Errorf("jsruntime: %s is not a constructor", c.name)
		}
		isBuffer, bytesPer := c.name == "ArrayBuffer", c.bytesPer
		var guarded *goja.Object
		trap := func(target *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			if n := allocationLength(args, isBuffer); n*bytesPer > float64(maxBytes) {
				msg := "Array buffer allocation failed"
				if !isBuffer {
					msg = "Invalid typed array length: " + strconv.FormatFloat(n, 'f', -1, 64)
				}
				panic(rl.rangeError(msg))
			}
			if newTarget == guarded {
				newTarget = target
			}
			o, err := construct(newTarget, args...)
			if err != nil {
				panic(err)
			}
			return o
		}
		guarded = vm.ToValue(vm.NewProxy(orig, &goja.ProxyTrapConfig{Construct: trap})).(*goja.Object)
		// goja's instanceof throws for a proxy on the right ("Expecting a function in
		// instanceof check"). A Symbol.hasInstance on ArrayBuffer and on %TypedArray% (which
		// every typed-array constructor inherits from), reached through the proxy, takes that
		// path instead.
		if c.name == "ArrayBuffer" || c.name == "Int8Array" {
			owner := orig
			if c.name != "ArrayBuffer" {
				owner = orig.Prototype()
			}
			if err := owner.DefineDataPropertySymbol(goja.SymHasInstance, hasInstance, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
				return err
			}
		}
		proto, ok := orig.Get("prototype").(*goja.Object)
		if !ok {
			return fmt.Errorf("jsruntime: %s.prototype is missing", c.name)
		}
		if err := proto.DefineDataProperty("constructor", guarded, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
		if err := global.DefineDataProperty(c.name, guarded, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	return nil
}

// ordinaryHasInstance is OrdinaryHasInstance(this, v): whether this.prototype is on v's
// prototype chain. this is the guarded constructor or a subclass of it.
func (rl *realm) ordinaryHasInstance(call goja.FunctionCall) goja.Value {
	c, ok := call.This.(*goja.Object)
	if !ok {
		return rl.vm.ToValue(false)
	}
	if _, callable := goja.AssertFunction(c); !callable {
		return rl.vm.ToValue(false)
	}
	o, ok := call.Argument(0).(*goja.Object)
	if !ok {
		return rl.vm.ToValue(false)
	}
	proto, ok := c.Get("prototype").(*goja.Object)
	if !ok {
		panic(rl.vm.NewTypeError("Function has non-object prototype in instanceof check"))
	}
	for p := o.Prototype(); p != nil; p = p.Prototype() {
		if p.SameAs(proto) {
			return rl.vm.ToValue(true)
		}
	}
	return rl.vm.ToValue(false)
}

// allocationLength is the element count a buffer constructor is asked for: ToIntegerOrInfinity
// of a length argument, or the length of an array-like source (an ArrayBuffer source allocates
// nothing).
func allocationLength(args []goja.Value, isBuffer bool) float64 {
	var a goja.Value = goja.Undefined()
	if len(args) > 0 {
		a = args[0]
	}
	if o, ok := a.(*goja.Object); ok && !isBuffer {
		if _, ok := o.Export().(goja.ArrayBuffer); ok {
			return 0
		}
		switch l := o.Get("length").Export().(type) {
		case int64:
			return float64(l)
		case float64:
			return toInteger(l)
		}
		return 0
	}
	return toInteger(a.ToFloat())
}

// toInteger is ToIntegerOrInfinity.
func toInteger(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return math.Trunc(f)
}

// rangeError returns a RangeError built from the captured constructor.
func (rl *realm) rangeError(msg string) *goja.Object {
	e, err := rl.vm.New(rl.intr.rangeErrorCtor, rl.vm.ToValue(msg))
	if err != nil {
		panic(err)
	}
	return e
}

// throwDOM throws an Error named name, as a DOMException would be.
func (rl *realm) throwDOM(name, message string) {
	e, err := rl.vm.New(rl.intr.errorCtor, rl.vm.ToValue(message))
	if err != nil {
		panic(err)
	}
	_ = e.DefineDataProperty("name", rl.vm.ToValue(name), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	panic(e)
}

// btoa encodes a string of Latin-1 characters as base64.
func (rl *realm) btoa(call goja.FunctionCall) goja.Value {
	s := call.Argument(0).String()
	b := make([]byte, 0, len(s))
	for _, c := range s {
		if c > 0xFF {
			rl.throwDOM("InvalidCharacterError", "Invalid character")
		}
		b = append(b, byte(c))
	}
	return rl.vm.ToValue(base64.StdEncoding.EncodeToString(b))
}

// atob decodes forgiving base64 (ASCII whitespace ignored, padding optional) to a Latin-1 string.
func (rl *realm) atob(call goja.FunctionCall) goja.Value {
	s := strings.Map(func(c rune) rune {
		if c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' {
			return -1
		}
		return c
	}, call.Argument(0).String())
	if len(s)%4 == 0 {
		s = strings.TrimSuffix(strings.TrimSuffix(s, "="), "=")
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil || len(s)%4 == 1 {
		rl.throwDOM("InvalidCharacterError", "The string to be decoded is not correctly encoded.")
	}
	var sb strings.Builder
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return rl.vm.ToValue(sb.String())
}

// utf8Encode returns the UTF-8 bytes of a string (lone surrogates become U+FFFD) in a new
// ArrayBuffer.
func (rl *realm) utf8Encode(call goja.FunctionCall) goja.Value {
	return rl.vm.ToValue(rl.vm.NewArrayBuffer([]byte(call.Argument(0).String())))
}

// utf8Decode decodes bytes [offset, offset+length) of an ArrayBuffer as UTF-8. fatal makes
// invalid input a TypeError; otherwise each invalid byte becomes U+FFFD. A leading BOM is
// dropped unless ignoreBOM.
func (rl *realm) utf8Decode(call goja.FunctionCall) goja.Value {
	buf, ok := call.Argument(0).Export().(goja.ArrayBuffer)
	if !ok {
		panic(rl.vm.NewTypeError("The provided value is not of type '(ArrayBuffer or ArrayBufferView)'"))
	}
	data := buf.Bytes()
	off, n := call.Argument(1).ToInteger(), call.Argument(2).ToInteger()
	if off < 0 || n < 0 || off+n > int64(len(data)) {
		panic(rl.vm.NewTypeError("invalid view"))
	}
	b := data[off : off+n]
	if !call.Argument(4).ToBoolean() {
		b = bytesTrimBOM(b)
	}
	if utf8.Valid(b) {
		return rl.vm.ToValue(string(b))
	}
	if call.Argument(3).ToBoolean() {
		panic(rl.vm.NewTypeError("The encoded data was not valid for encoding utf-8"))
	}
	return rl.vm.ToValue(strings.ToValidUTF8(string(b), "\uFFFD"))
}

func bytesTrimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// preludeSource (js/prelude.js) evaluates to a function of (limits, host) that runs once per
// realm. It installs size guards on the built-ins that allocate in one native step and returns a
// factory for the injected error classes. Everything is built from intrinsics captured there,
// before any program can change them; host.call is a Go function calling its first argument, so
// the guards do not depend on Function.prototype or Reflect.
//
//go:embed js/prelude.js
var preludeSource string

// polyfillSource (js/polyfills.js) evaluates to a function of (limits, host, want) that installs
// the built-ins goja lacks that want(name) asks for. A run installs those its program's text
// names (see polyfillsNamed): most programs use none, and building them all cost more than the
// rest of a trivial run. They capture the intrinsics they use when they are installed, before
// the program runs.
//
//go:embed js/polyfills.js
var polyfillSource string
