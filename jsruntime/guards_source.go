package jsruntime

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime/internal/srcscan"
)

// maxJSONParseDepth bounds the nesting of arrays and objects in the text given to JSON.parse:
// the depth every JSON value crossing the boundary is held to.
const maxJSONParseDepth = jsonv.MaxDepth

// Messages of the source guards (thrown as RangeError in the program, or the failure of a
// program text).
const (
	msgSourceTooDeep = "%s nests too deeply: more than %d levels of brackets and chained operators"
	msgArrowsTooDeep = "%s nests more than %d arrow functions in one another"
)

// sourceNestingError returns the message for source text that nests beyond the limits
// (see srcscan.Nesting), or "" when it does not. what names the text ("eval source", …).
func sourceNestingError(what, src string) string {
	nesting, arrows := srcscan.Nesting(src)
	return nestingError(what, nesting, arrows)
}

// nestingError returns the message for text of the measured nesting, or "" when it is allowed.
func nestingError(what string, nesting, arrows int) string {
	switch {
	case nesting > srcscan.MaxNesting:
		return fmt.Sprintf(msgSourceTooDeep, what, srcscan.MaxNesting)
	case arrows > srcscan.MaxArrows:
		return fmt.Sprintf(msgArrowsTooDeep, what, srcscan.MaxArrows)
	}
	return ""
}

// asyncProbe and generatorProbe evaluate to an async function and a generator function: the
// way to reach goja's AsyncFunction and GeneratorFunction constructors, which have no global
// name. Each is compiled once per process; a Program is immutable and safe to run in many
// runtimes.
var (
	asyncProbe = sync.OnceValues(func() (*goja.Program, error) {
		return goja.Compile("sourceguard.js", "(async function () {})", true)
	})
	generatorProbe = sync.OnceValues(func() (*goja.Program, error) {
		return goja.Compile("sourceguard.js", "(function* () {})", true)
	})
)

// guardSources replaces the built-ins that parse source text at run time with Go wrappers that
// measure the text first (srcscan.Nesting) and throw a RangeError where goja's recursive parser
// would overflow the Go stack, which no recover can catch:
//
//   - eval: the wrapper evaluates in the global scope. goja makes a call direct only when the
//     callee is its own eval, so with the wrapper installed every eval is indirect: code in
//     eval sees globals, not the calling function's variables.
//   - Function, AsyncFunction and GeneratorFunction (reached through the prototypes'
//     constructor properties): the parameters and body are converted to strings once, measured,
//     and handed to the original as those strings. GeneratorFunction is guarded lazily (see
//     guardGenerators): a generator exists only where some source text has a '*'.
//
// JSON.parse needs no wrapper: the goja fork's parser (third_party/goja/runcode_jsonparse.go)
// does not recurse in Go, polls the interrupt flag as it goes, and refuses text nesting deeper
// than maxJSONParseDepth (newRealm sets the limit).
//
// The originals are held only by the wrappers' Go closures; every property that led to them
// (the globals, Function.prototype.constructor, the async and generator function prototypes'
// constructor) leads to the wrappers.
func (rl *realm) guardSources() error {
	vm := rl.vm
	global := vm.GlobalObject()

	eval, ok := goja.AssertFunction(global.Get("eval"))
	if !ok {
		return fmt.Errorf("jsruntime: eval is missing")
	}
	guardedEval := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		if src, ok := call.Argument(0).(goja.String); ok {
			text := src.String()
			rl.checkSource("eval source", text)
			rl.checkRegexpLiterals("eval source", text)
		}
		v, err := eval(goja.Undefined(), call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	if err := defineMethod(vm, global, "eval", guardedEval, 1); err != nil {
		return err
	}

	function, err := rl.guardFunctionConstructor("Function", global.Get("Function").(*goja.Object).Get("prototype"))
	if err != nil {
		return err
	}
	if err := global.DefineDataProperty("Function", function, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	// The program function is async, so AsyncFunction is always within reach.
	if err := rl.guardProbed("AsyncFunction", asyncProbe); err != nil {
		return err
	}

	return nil
}

// checkSource throws a RangeError in the program when src nests beyond the limits, and guards
// GeneratorFunction first when src could make a generator.
func (rl *realm) checkSource(what, src string) {
	if msg := sourceNestingError(what, src); msg != "" {
		panic(rl.rangeError(msg))
	}
	if strings.Contains(src, "*") {
		if err := rl.guardGenerators(); err != nil {
			panic(err)
		}
	}
}

// guardGenerators guards GeneratorFunction, once per realm. It is lazy because creating goja's
// generator intrinsics costs about 100 allocations, and a program can reach GeneratorFunction
// only through a generator function or object, which only source text with a '*' creates:
// the program's (run setup checks the compiled code), or text given to eval or a Function
// constructor (checkSource). The prelude and polyfills define no generators; run setup guards
// generators whenever polyfills are installed all the same.
func (rl *realm) guardGenerators() error {
	if rl.generatorsGuarded {
		return nil
	}
	rl.generatorsGuarded = true
	return rl.guardProbed("GeneratorFunction", generatorProbe)
}

// guardProbed guards the constructor of the function probe evaluates to, which is reachable
// only as its prototype's constructor property.
func (rl *realm) guardProbed(name string, probe func() (*goja.Program, error)) error {
	prg, err := probe()
	if err != nil {
		return err
	}
	fn, err := rl.vm.RunProgram(prg)
	if err != nil {
		return err
	}
	f, ok := fn.(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: the %s probe is not a function", name)
	}
	_, err = rl.guardFunctionConstructor(name, f.Prototype())
	return err
}

// guardFunctionConstructor replaces the constructor property of proto, a Function-family
// constructor's prototype, with a constructor that measures the source the original would
// compile, then constructs through the original. The wrapper's prototype property is proto, so
// instanceof and subclassing (class F extends Function) behave as with the original.
func (rl *realm) guardFunctionConstructor(name string, protoValue goja.Value) (*goja.Object, error) {
	vm := rl.vm
	proto, ok := protoValue.(*goja.Object)
	if !ok {
		return nil, fmt.Errorf("jsruntime: %s.prototype is missing", name)
	}
	orig, ok := proto.Get("constructor").(*goja.Object)
	if !ok {
		return nil, fmt.Errorf("jsruntime: %s is missing", name)
	}
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
		var src, params strings.Builder
		for i, a := range call.Arguments {
			args[i] = a.ToString()
			if i > 0 && i < len(call.Arguments)-1 {
				src.WriteByte(',')
			} else if i > 0 {
				src.WriteString("\n) {\n")
			}
			src.WriteString(args[i].String())
			if i < len(call.Arguments)-1 {
				if i > 0 {
					params.WriteByte(',')
				}
				params.WriteString(args[i].String())
			}
		}
		rl.checkSource(what, src.String())
		if wrap, ok := functionSourceWrappers[name]; ok && mayHoldCostlyRegexp(src.String()) {
			// The text goja parses: the wrapper around the parameters and the body.
			body := ""
			if len(args) > 0 {
				body = args[len(args)-1].String()
			}
			rl.checkRegexpLiterals(what, wrap[0]+params.String()+"\n) {\n"+body+wrap[1])
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
	if err := proto.DefineDataProperty("constructor", guarded, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return nil, err
	}
	return guarded, nil
}

// defineMethod installs f, a Go function replacing the built-in method name of obj, as built-in
// methods are installed: named like it, writable, configurable and not enumerable.
func defineMethod(vm *goja.Runtime, obj *goja.Object, name string, f *goja.Object, length int) error {
	if err := nameFunction(vm, f, name, length); err != nil {
		return err
	}
	return obj.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// defineSymbolMethod is defineMethod for the method under sym, whose name is name
// ("[Symbol.split]").
func defineSymbolMethod(vm *goja.Runtime, obj *goja.Object, sym *goja.Symbol, name string, f *goja.Object, length int) error {
	if err := nameFunction(vm, f, name, length); err != nil {
		return err
	}
	return obj.DefineDataPropertySymbol(sym, f, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// nameFunction gives a Go function the name and length properties of the built-in it replaces.
func nameFunction(vm *goja.Runtime, f *goja.Object, name string, length int) error {
	if err := f.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	return f.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}
