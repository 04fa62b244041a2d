package jsruntime

import (
	"fmt"
	"math"

	"github.com/dop251/goja"

	"github.com/runcode-dev/runcode/jsonv"
)

// maxNesting caps the nesting the guarded built-ins that walk a value's structure follow
// (flat, flatMap, JSON.stringify): goja follows it by recursing in Go, and Go's stack is not
// bounded by MaxStackDepth (a million levels end the process with a fatal stack overflow). It is
// the JSON depth every other walk keeps to (JSON.parse, the boundary), so what a program can
// stringify it can parse and return.
const maxNesting = jsonv.MaxDepth

// slowStringMethods are the String.prototype methods wrapped in Go: localeCompare, whose single
// native step (a collation of both strings) takes time proportional to their lengths and is
// capped so that one call ends within about a quarter of a second on a loaded 2-core machine
// (8M non-ASCII characters took 1.9s), and replace and replaceAll, whose replacement template is
// bounded (see boundedReplacement). The other methods once capped here (normalize, split,
// toLowerCase, toUpperCase, toLocaleLowerCase, toLocaleUpperCase, trim, trimStart, trimEnd and
// replaceAll's receiver) are linear in the goja fork and poll the interrupt flag as they go
// (forkTable), so no size below the heap is refused.
var slowStringMethods = []struct {
	name   string
	maxLen int
	// argIsString: the first argument is converted to a string and capped too.
	argIsString bool
	// replaceArg: the second argument is a replacement, bounded (see boundedReplacement).
	replaceArg bool
}{
	{"localeCompare", 1 << 20, true, false},
	{"replace", math.MaxInt, false, true},
	{"replaceAll", math.MaxInt, false, true},
}

// guardSlowStrings wraps the slowStringMethods with Go functions that convert the receiver (and
// a string argument) once, refuse strings over the method's cap with a RangeError, and call the
// original with the converted strings (so a toString with side effects runs once, as natively).
func (rl *realm) guardSlowStrings(maxString int64) error {
	vm := rl.vm
	proto, ok := vm.GlobalObject().Get("String").(*goja.Object).Get("prototype").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: String.prototype is missing")
	}
	for _, m := range slowStringMethods {
		orig, ok := goja.AssertFunction(proto.Get(m.name))
		if !ok {
			return fmt.Errorf("jsruntime: String.prototype.%s is missing", m.name)
		}
		length := proto.Get(m.name).(*goja.Object).Get("length")
		name, maxLen, argIsString, replaceArg := m.name, m.maxLen, m.argIsString, m.replaceArg
		wrapper := vm.ToValue(func(call goja.FunctionCall) goja.Value {
			if goja.IsUndefined(call.This) || goja.IsNull(call.This) {
				panic(vm.NewTypeError("String.prototype." + name + " called on null or undefined"))
			}
			s := rl.cappedString(name, "string", call.This, maxLen)
			args := call.Arguments
			if argIsString {
				// The rest (localeCompare's locales and options) pass through.
				args = append([]goja.Value{rl.cappedString(name, "argument", call.Argument(0), maxLen)}, call.Arguments[min(1, len(call.Arguments)):]...)
			}
			if replaceArg {
				args = []goja.Value{call.Argument(0), rl.boundedReplacement(s, call.Argument(1), maxString)}
			}
			v, err := orig(s, args...)
			if err != nil {
				panic(err)
			}
			return v
		}).(*goja.Object)
		_ = wrapper.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		_ = wrapper.DefineDataProperty("length", length, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		if err := proto.DefineDataProperty(name, wrapper, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	return nil
}

// cappedString converts v to a string and throws a RangeError naming method when it is longer
// than maxLen.
func (rl *realm) cappedString(method, what string, v goja.Value, maxLen int) goja.Value {
	s := v.ToString()
	if str, ok := s.(goja.String); ok && str.Length() > maxLen {
		panic(rl.rangeError(fmt.Sprintf("String.prototype.%s: the %s is %d characters long, over this method's limit of %d",
			method, what, str.Length(), maxLen)))
	}
	return s
}

// species(C) is C[Symbol.species], read from Go so that the prelude need not build the Symbol
// constructor.
func (rl *realm) species(call goja.FunctionCall) goja.Value {
	o, ok := call.Argument(0).(*goja.Object)
	if !ok {
		return goja.Undefined()
	}
	if v := o.GetSymbol(goja.SymSpecies); v != nil {
		return v
	}
	return goja.Undefined()
}

// maxBoundName caps the name a bound function gets ("bound " + the target's name): goja copies
// the name for each bind, so a chain of binds costs memory quadratic in its length (50,000
// chained binds passed a 512 MiB heap in 1.3s). At this cap a chain whose names grow ends after
// about 680 binds, having copied about 3 MB.
const maxBoundName = 4096

// guardBind wraps Function.prototype.bind with a Go function that refuses to make a bound
// function whose name would be longer than maxBoundName characters.
func (rl *realm) guardBind() error {
	vm := rl.vm
	proto := rl.intr.functionProto
	origValue := proto.Get("bind")
	orig, ok := goja.AssertFunction(origValue)
	if !ok {
		return fmt.Errorf("jsruntime: Function.prototype.bind is missing")
	}
	wrapper := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		if target, ok := call.This.(*goja.Object); ok {
			if name, ok := target.Get("name").(goja.String); ok && name.Length()+len("bound ") > maxBoundName {
				panic(rl.rangeError(fmt.Sprintf("Function.prototype.bind: the bound function's name would be %d characters long, over the limit of %d",
					name.Length()+len("bound "), maxBoundName)))
			}
		}
		v, err := orig(call.This, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	return defineMethod(vm, proto, "bind", wrapper, 1)
}
