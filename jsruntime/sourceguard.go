package jsruntime

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// Size limits of JSON.parse. goja's JSON.parse cannot be interrupted, so one call can hold a run
// past its compute budget; its cost is mostly per value (about 0.25–0.5 µs per structural
// token; 8 MiB of "1," took 1.3 s) while one long string reads at about 200 MB/s. So the text
// is bounded in structural tokens, and in bytes for the strings: either limit alone keeps one
// call under about half a second (BenchmarkJSONParseCap).
const (
	// MaxJSONParseTokens bounds the '[', '{', ',' and ':' outside strings of the text.
	MaxJSONParseTokens = 1 << 20
	// MaxJSONParseText bounds the length of the text in bytes (UTF-8).
	MaxJSONParseText = 32 << 20
)

// Messages of the source guards (thrown as RangeError in the program, or the failure of a
// program text).
const (
	msgSourceTooDeep = "%s nests too deeply: more than %d levels of brackets and chained operators"
	msgArrowsTooDeep = "%s nests more than %d arrow functions in one another"
	msgJSONTooDeep   = "JSON.parse: text nests deeper than %d levels"
	msgJSONTooLong   = "JSON.parse: text of %d bytes exceeds the limit of %d"
	msgJSONTooMany   = "JSON.parse: text has more than %d structural tokens ([ { , :)"
)

// sourceNestingError returns the message for source text that nests beyond the limits
// (see sourceNesting), or "" when it does not. what names the text ("eval source", …).
func sourceNestingError(what, src string) string {
	nesting, arrows := sourceNesting(src)
	switch {
	case nesting > MaxSourceNesting:
		return fmt.Sprintf(msgSourceTooDeep, what, MaxSourceNesting)
	case arrows > MaxArrowNesting:
		return fmt.Sprintf(msgArrowsTooDeep, what, MaxArrowNesting)
	}
	return ""
}

// functionProbe evaluates to an async function and a generator function: the way to reach
// goja's AsyncFunction and GeneratorFunction constructors, which have no global name. Compiled
// once per process; a Program is immutable and safe to run in many runtimes.
var functionProbe = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("sourceguard.js", "[async function () {}, function* () {}]", true)
})

// guardSources replaces the built-ins that parse text at run time with Go wrappers that
// measure the text first (sourceNesting, jsonNesting) and throw a RangeError where goja's
// recursive parser would overflow the Go stack, which no recover can catch:
//
//   - eval: the wrapper evaluates in the global scope. goja makes a call direct only when the
//     callee is its own eval, so with the wrapper installed every eval is indirect: code in
//     eval sees globals, not the calling function's variables.
//   - Function, AsyncFunction and GeneratorFunction (reached through the prototypes'
//     constructor properties): the parameters and body are converted to strings once, measured,
//     and handed to the original as those strings.
//   - JSON.parse: text longer than MaxJSONParseText bytes, with more than MaxJSONParseTokens
//     structural tokens, or nesting deeper than MaxJSONParseDepth is refused.
//
// The originals are held only by the wrappers' Go closures; every property that led to them
// (the globals, Function.prototype.constructor, the async and generator function prototypes'
// constructor, JSON.parse) leads to the wrappers.
func (rl *realm) guardSources() error {
	vm := rl.vm
	global := vm.GlobalObject()

	eval, ok := goja.AssertFunction(global.Get("eval"))
	if !ok {
		return fmt.Errorf("jsruntime: eval is missing")
	}
	guardedEval := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		if src, ok := call.Argument(0).(goja.String); ok {
			if msg := sourceNestingError("eval source", src.String()); msg != "" {
				panic(rl.rangeError(msg))
			}
		}
		v, err := eval(goja.Undefined(), call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	if err := nameFunction(vm, guardedEval, "eval", 1); err != nil {
		return err
	}
	if err := global.DefineDataProperty("eval", guardedEval, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}

	probe, err := functionProbe()
	if err != nil {
		return err
	}
	fns, err := vm.RunProgram(probe)
	if err != nil {
		return err
	}
	fnObj := fns.(*goja.Object)
	ctors := []struct {
		name     string
		instance goja.Value // a function whose prototype's constructor is the constructor
		global   bool
	}{
		{"Function", global.Get("Function").(*goja.Object).Get("prototype"), true},
		{"AsyncFunction", fnObj.Get("0").(*goja.Object).Prototype(), false},
		{"GeneratorFunction", fnObj.Get("1").(*goja.Object).Prototype(), false},
	}
	for _, c := range ctors {
		proto, ok := c.instance.(*goja.Object)
		if !ok {
			return fmt.Errorf("jsruntime: %s.prototype is missing", c.name)
		}
		orig, ok := proto.Get("constructor").(*goja.Object)
		if !ok {
			return fmt.Errorf("jsruntime: %s is missing", c.name)
		}
		guarded, err := rl.guardFunctionConstructor(c.name, orig, proto)
		if err != nil {
			return err
		}
		if err := proto.DefineDataProperty("constructor", guarded, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
		if c.global {
			if err := global.DefineDataProperty(c.name, guarded, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
				return err
			}
		}
	}

	json, ok := global.Get("JSON").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: JSON is missing")
	}
	parse, ok := goja.AssertFunction(json.Get("parse"))
	if !ok {
		return fmt.Errorf("jsruntime: JSON.parse is missing")
	}
	guardedParse := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		text := call.Argument(0).ToString() // once: a toString method runs once, as in goja's
		s := text.String()
		if len(s) > MaxJSONParseText {
			panic(rl.rangeError(fmt.Sprintf(msgJSONTooLong, len(s), MaxJSONParseText)))
		}
		switch depth, tokens := jsonNesting(s, MaxJSONParseDepth, MaxJSONParseTokens); {
		case depth > MaxJSONParseDepth:
			panic(rl.rangeError(fmt.Sprintf(msgJSONTooDeep, MaxJSONParseDepth)))
		case tokens > MaxJSONParseTokens:
			panic(rl.rangeError(fmt.Sprintf(msgJSONTooMany, MaxJSONParseTokens)))
		}
		v, err := parse(json, text, call.Argument(1))
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	if err := nameFunction(vm, guardedParse, "parse", 2); err != nil {
		return err
	}
	return json.DefineDataProperty("parse", guardedParse, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// guardFunctionConstructor returns a constructor that measures the source a Function-family
// constructor would compile, then constructs through orig. Its prototype property is proto, so
// instanceof and subclassing (class F extends Function) behave as with the original.
func (rl *realm) guardFunctionConstructor(name string, orig, proto *goja.Object) (*goja.Object, error) {
	vm := rl.vm
	construct, ok := goja.AssertConstructor(orig)
	if !ok {
		return nil, fmt.Errorf("jsruntime: %s is not a constructor", name)
	}
	what := name + " source"
	var guarded *goja.Object
	guarded = vm.ToValue(func(call goja.ConstructorCall) *goja.Object {
		// Convert each argument once (toString may be the program's), measure the source goja
		// would assemble from them, and pass the strings on.
		args := make([]goja.Value, len(call.Arguments))
		var src strings.Builder
		for i, a := range call.Arguments {
			args[i] = a.ToString()
			if i > 0 && i < len(call.Arguments)-1 {
				src.WriteByte(',')
			} else if i > 0 {
				src.WriteString("\n) {\n")
			}
			src.WriteString(args[i].String())
		}
		if msg := sourceNestingError(what, src.String()); msg != "" {
			panic(rl.rangeError(msg))
		}
		newTarget := call.NewTarget
		if newTarget == nil || newTarget == guarded {
			newTarget = orig
		}
		o, err := construct(newTarget, args...)
		if err != nil {
			panic(err)
		}
		return o
	}).(*goja.Object)
	if err := nameFunction(vm, guarded, name, 1); err != nil {
		return nil, err
	}
	if err := guarded.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return nil, err
	}
	return guarded, nil
}

// nameFunction gives a Go function the name and length properties of the built-in it replaces.
func nameFunction(vm *goja.Runtime, f *goja.Object, name string, length int) error {
	if err := f.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	return f.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}
