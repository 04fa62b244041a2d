package jsruntime

import (
	"errors"
	"fmt"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"math"
	"math/big"
	"runtime"
	"time"

	"github.com/dop251/goja"

	"github.com/runcode-dev/runcode/jsruntime/internal/intl"
)

// maxLocales caps the locale list a program may pass to an Intl constructor: the list is read
// in one native step.
const maxLocales = 1000

// intlRealm is the Intl state of one realm: the Go side of every Intl object the program made,
// found by the object (the map lives as long as the realm, which serves one run).
type intlRealm struct {
	rl    *realm
	state map[*goja.Object]any
	// valueOf are Number.prototype.valueOf, BigInt.prototype.valueOf and
	// Date.prototype.getTime, captured before the program runs (thisNumberValue, thisTimeValue).
	numberValue, bigintValue, timeValue goja.Callable
	// maxString caps what one native step may build (see oneStepLimits).
	maxString int64
	// iteratorProto is %IteratorPrototype%, captured before the program runs: the prototype
	// of the Segments iterators' prototype.
	iteratorProto *goja.Object
}

// installIntl installs the Intl namespace and replaces the built-ins that format by locale
// (Number.prototype.toLocaleString and the others) with ones that go through it.
func (rl *realm) installIntl(maxString int64) error {
	vm := rl.vm
	global := vm.GlobalObject()
	ir := &intlRealm{rl: rl, state: map[*goja.Object]any{}, maxString: maxString}
	fn := func(ctor, name string) goja.Callable {
		f, _ := goja.AssertFunction(global.Get(ctor).(*goja.Object).Get("prototype").(*goja.Object).Get(name))
		return f
	}
	ir.numberValue, ir.bigintValue, ir.timeValue = fn("Number", "valueOf"), fn("BigInt", "valueOf"), fn("Date", "getTime")
	if ir.numberValue == nil || ir.bigintValue == nil || ir.timeValue == nil {
		return errors.New("jsruntime: Number, BigInt or Date prototype methods are missing")
	}
	arrayIter, _ := goja.AssertFunction(vm.NewArray().GetSymbol(goja.SymIterator))
	if arrayIter == nil {
		return errors.New("jsruntime: Array.prototype[Symbol.iterator] is missing")
	}
	it, err := arrayIter(vm.NewArray())
	if err != nil {
		return err
	}
	ir.iteratorProto = it.ToObject(vm).Prototype().Prototype()
	// The namespace is built when the program first reads it: its constructors and prototypes
	// are a quarter of a realm's allocations, and most programs never touch them. The getter
	// then replaces itself with the data property ECMA-402 specifies.
	var ns *goja.Object
	build := func() *goja.Object {
		if ns == nil {
			ns = ir.namespace()
			_ = global.DefineDataProperty("Intl", ns, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
		return ns
	}
	getter := vm.ToValue(func(goja.FunctionCall) goja.Value { return build() })
	setter := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		build()
		_ = global.DefineDataProperty("Intl", call.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return goja.Undefined()
	})
	if err := global.DefineAccessorProperty("Intl", getter, setter, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	ir.installDateMethods()
	ir.installLocaleCompare()
	ir.installLocaleCase()
	numberProto := global.Get("Number").(*goja.Object).Get("prototype").(*goja.Object)
	ir.method(numberProto, "toLocaleString", 0, func(call goja.FunctionCall) goja.Value {
		v, err := ir.numberValue(call.This)
		ir.check(err)
		nf := ir.newNumberFormat(call.Argument(0), call.Argument(1))
		return vm.ToValue(nf.Format(intl.Float(v.ToFloat())))
	})
	bigintProto := global.Get("BigInt").(*goja.Object).Get("prototype").(*goja.Object)
	ir.method(bigintProto, "toLocaleString", 0, func(call goja.FunctionCall) goja.Value {
		v, err := ir.bigintValue(call.This)
		ir.check(err)
		nf := ir.newNumberFormat(call.Argument(0), call.Argument(1))
		return vm.ToValue(nf.Format(ir.toNumber(v)))
	})
	return nil
}

// namespace builds the Intl object and its constructors.
func (ir *intlRealm) namespace() *goja.Object {
	vm := ir.rl.vm
	ns := vm.NewObject()
	_ = ns.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue("Intl"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	ir.method(ns, "getCanonicalLocales", 1, func(call goja.FunctionCall) goja.Value {
		tags, err := intl.CanonicalizeLocaleList(ir.localeList(call.Argument(0)))
		ir.check(err)
		return ir.stringArray(tags)
	})
	ir.method(ns, "supportedValuesOf", 1, func(call goja.FunctionCall) goja.Value {
		panic(ir.rl.rangeError("Intl.supportedValuesOf is not supported by this runtime"))
	})
	ir.installNumberFormat(ns)
	ir.installDateTimeFormat(ns)
	ir.installCollator(ns)
	ir.installPluralRules(ns)
	ir.installListFormat(ns)
	ir.installRelativeTimeFormat(ns)
	ir.installSegmenter(ns)
	return ns
}

// boundAccessor defines proto[name] as ECMA-402 defines format and compare: an accessor whose
// getter ("get name") returns, per object, one anonymous function of the given length bound to
// it, built on the first read and kept in the slot bind returns (bind also checks the receiver).
func (ir *intlRealm) boundAccessor(proto *goja.Object, name string, length int, bind func(this goja.Value) (*goja.Value, func(goja.FunctionCall) goja.Value)) {
	vm := ir.rl.vm
	getter := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		slot, fn := bind(call.This)
		if *slot == nil {
			f := vm.ToValue(ir.wrap(fn)).(*goja.Object)
			_ = f.DefineDataProperty("name", vm.ToValue(""), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			_ = f.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			*slot = f
		}
		return *slot
	}).(*goja.Object)
	_ = getter.DefineDataProperty("name", vm.ToValue("get "+name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = proto.DefineAccessorProperty(name, getter, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// method defines a non-enumerable method with a name and length, as built-ins have.
func (ir *intlRealm) method(o *goja.Object, name string, length int, f func(goja.FunctionCall) goja.Value) *goja.Object {
	vm := ir.rl.vm
	fo := vm.ToValue(ir.wrap(f)).(*goja.Object)
	_ = fo.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = fo.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = o.DefineDataProperty(name, fo, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return fo
}

// wrap turns a Go runtime error (a bug in the formatting code: an index out of range) inside f
// into a catchable JavaScript error, so that it cannot end the host process.
func (ir *intlRealm) wrap(f func(goja.FunctionCall) goja.Value) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		defer ir.recoverInternal()
		return f(call)
	}
}

func (ir *intlRealm) recoverInternal() {
	if r := recover(); r != nil {
		if e, ok := r.(runtime.Error); ok {
			panic(ir.rl.vm.NewGoError(fmt.Errorf("jsruntime: internal error in Intl: %v", e)))
		}
		panic(r)
	}
}

// constructor builds a constructor named name whose instances get state from build, with a
// prototype whose Symbol.toStringTag is tag, installed on ns.
func (ir *intlRealm) constructor(ns *goja.Object, name string, length int,
	build func(locales, options goja.Value) any) (ctor, proto *goja.Object) {
	vm := ir.rl.vm
	proto = vm.NewObject()
	ctor = vm.ToValue(func(call goja.ConstructorCall) *goja.Object {
		defer ir.recoverInternal()
		if requiresNew(name) && !inheritsFrom(call.This, proto) {
			// goja reports no NewTarget to Go constructors; a call through a receiver
			// (Intl.Segmenter()) is told from new by the receiver's prototype chain.
			panic(vm.NewTypeError("Constructor Intl." + name + " requires 'new'"))
		}
		st := build(call.Argument(0), call.Argument(1))
		this := call.This
		if call.NewTarget == nil {
			// Called as a function (Intl.NumberFormat()): goja passes the receiver as this,
			// but ECMA-402 makes a new instance.
			this = vm.NewObject()
			_ = this.SetPrototype(proto)
		}
		ir.state[this] = st
		return this
	}).(*goja.Object)
	_ = proto.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue("Intl."+name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = ctor.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = ctor.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = ctor.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	ir.method(ctor, "supportedLocalesOf", 1, func(call goja.FunctionCall) goja.Value {
		ir.options(call.Argument(1))
		tags, err := intl.SupportedLocalesOf(ir.localeList(call.Argument(0)))
		ir.check(err)
		return ir.stringArray(tags)
	})
	_ = ns.DefineDataProperty(name, ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return ctor, proto
}

// inheritsFrom reports whether proto is on o's prototype chain.
func inheritsFrom(o, proto *goja.Object) bool {
	for p := o.Prototype(); p != nil; p = p.Prototype() {
		if p == proto {
			return true
		}
	}
	return false
}

// requiresNew reports whether the Intl constructor name throws when called without new, as
// V8's Intl.Segmenter does.
func requiresNew(name string) bool { return name == "Segmenter" }

// this returns the state of this for method, which must be an instance of T.
func thisState[T any](ir *intlRealm, this goja.Value, method string) T {
	if o, ok := this.(*goja.Object); ok {
		if st, ok := ir.state[o].(T); ok {
			return st
		}
	}
	panic(ir.rl.vm.NewTypeError("Method " + method + " called on incompatible receiver " + this.String()))
}

// check throws err as the JavaScript error it stands for.
func (ir *intlRealm) check(err error) {
	if err == nil {
		return
	}
	var re *intl.RangeError
	var te *intl.TypeError
	var ex *goja.Exception
	switch {
	case errors.As(err, &re):
		panic(ir.rl.rangeError(re.Msg))
	case errors.As(err, &te):
		panic(ir.rl.vm.NewTypeError(te.Msg))
	case errors.As(err, &ex):
		panic(ex)
	}
	panic(ir.rl.vm.NewGoError(err))
}

func (ir *intlRealm) stringArray(s []string) goja.Value {
	vals := make([]any, len(s))
	for i, v := range s {
		vals[i] = v
	}
	return ir.rl.vm.NewArray(vals...)
}

// localeList is CanonicalizeLocaleList's reading of the program's locales argument: undefined
// is none, a string one, anything else an array-like of strings (or Intl.Locale-likes).
func (ir *intlRealm) localeList(v goja.Value) []string {
	vm := ir.rl.vm
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	if goja.IsNull(v) {
		panic(vm.NewTypeError("Cannot convert undefined or null to object"))
	}
	if s, ok := v.Export().(string); ok && !isObject(v) {
		return []string{s}
	}
	o := v.ToObject(vm)
	n := o.Get("length")
	length := 0.0
	if n != nil {
		length = n.ToFloat()
	}
	if length != length || length < 0 {
		length = 0
	}
	if length > maxLocales {
		panic(ir.rl.rangeError("Intl: a locale list of more than 1000 entries is not supported"))
	}
	var out []string
	for i := 0; i < int(length); i++ {
		e := o.Get(itoa(i))
		if e == nil {
			continue
		}
		if goja.IsUndefined(e) || goja.IsNull(e) {
			panic(vm.NewTypeError("Intl: locale list entries must be strings or objects"))
		}
		if _, isStr := e.Export().(string); !isStr && !isObject(e) {
			panic(vm.NewTypeError("Intl: locale list entries must be strings or objects"))
		}
		out = append(out, e.String())
	}
	return out
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

// jsOptions reads an options object for the intl package (GetOption's conversions).
type jsOptions struct {
	ir *intlRealm
	o  *goja.Object
}

func (j jsOptions) get(name string) (goja.Value, bool) {
	v := j.o.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return nil, false
	}
	return v, true
}

func (j jsOptions) String(name string) (string, bool, error) {
	v, ok := j.get(name)
	if !ok {
		return "", false, nil
	}
	if _, sym := v.(*goja.Symbol); sym {
		return "", false, &intl.TypeError{Msg: "Cannot convert a Symbol value to a string"}
	}
	return v.String(), true, nil
}

func (j jsOptions) Number(name string) (float64, bool, error) {
	v, ok := j.get(name)
	if !ok {
		return 0, false, nil
	}
	return v.ToNumber().ToFloat(), true, nil
}

func (j jsOptions) Bool(name string) (bool, bool, error) {
	v, ok := j.get(name)
	if !ok {
		return false, false, nil
	}
	return v.ToBoolean(), true, nil
}

func (j jsOptions) BoolOrString(name string) (bool, string, bool, bool, error) {
	v, ok := j.get(name)
	if !ok {
		return false, "", false, false, nil
	}
	if b, isBool := v.Export().(bool); isBool {
		return b, "", true, true, nil
	}
	if !v.ToBoolean() {
		return false, "", true, true, nil
	}
	return false, v.String(), false, true, nil
}

// options converts an options argument: undefined is none, null a TypeError, anything else
// ToObject.
func (ir *intlRealm) options(v goja.Value) intl.Options {
	if v == nil || goja.IsUndefined(v) {
		return intl.NoOptions{}
	}
	if goja.IsNull(v) {
		panic(ir.rl.vm.NewTypeError("Cannot convert undefined or null to object"))
	}
	return jsOptions{ir: ir, o: v.ToObject(ir.rl.vm)}
}

func (ir *intlRealm) locale(locales goja.Value) intl.Locale {
	loc, err := intl.ResolveLocale(ir.localeList(locales))
	ir.check(err)
	return loc
}

// resolved builds a resolvedOptions() object.
func (ir *intlRealm) resolved(fields []intl.Field) goja.Value {
	o := ir.rl.vm.NewObject()
	for _, f := range fields {
		if s, ok := f.Value.([]string); ok {
			_ = o.Set(f.Name, ir.stringArray(s))
			continue
		}
		_ = o.Set(f.Name, f.Value)
	}
	return o
}

// parts builds a formatToParts() array.
func (ir *intlRealm) parts(ps []intl.Part) goja.Value {
	vm := ir.rl.vm
	vals := make([]any, len(ps))
	for i, p := range ps {
		o := vm.NewObject()
		_ = o.Set("type", p.Type)
		_ = o.Set("value", p.Value)
		if p.Unit != "" {
			_ = o.Set("unit", p.Unit)
		}
		if p.Source != "" {
			_ = o.Set("source", p.Source)
		}
		vals[i] = o
	}
	return vm.NewArray(vals...)
}

// ---- NumberFormat

func (ir *intlRealm) newNumberFormat(locales, options goja.Value) *intl.NumberFormat {
	loc := ir.locale(locales)
	nf, err := intl.NewNumberFormat(loc, ir.options(options))
	ir.check(err)
	return nf
}

// numberFormatState is an Intl.NumberFormat's state: the format and its bound format function.
type numberFormatState struct {
	nf    *intl.NumberFormat
	bound goja.Value
}

// toNumber is ToIntlMathematicalValue: BigInts exactly, strings in decimal notation exactly,
// everything else through ToNumber.
func (ir *intlRealm) toNumber(v goja.Value) intl.Number {
	if v == nil {
		return intl.Float(math.NaN())
	}
	switch x := v.Export().(type) {
	case *big.Int:
		return intl.BigInt(x.String())
	case string:
		if !isObject(v) {
			if n, ok := intl.DecimalString(x); ok {
				return n
			}
		}
	}
	return intl.Float(v.ToNumber().ToFloat())
}

func (ir *intlRealm) installNumberFormat(ns *goja.Object) {
	vm := ir.rl.vm
	_, proto := ir.constructor(ns, "NumberFormat", 0, func(locales, options goja.Value) any {
		return &numberFormatState{nf: ir.newNumberFormat(locales, options)}
	})
	ir.boundAccessor(proto, "format", 1, func(this goja.Value) (*goja.Value, func(goja.FunctionCall) goja.Value) {
		st := thisState[*numberFormatState](ir, this, "get Intl.NumberFormat.prototype.format")
		return &st.bound, func(c goja.FunctionCall) goja.Value {
			return vm.ToValue(st.nf.Format(ir.toNumber(c.Argument(0))))
		}
	})
	ir.method(proto, "formatToParts", 1, func(call goja.FunctionCall) goja.Value {
		st := thisState[*numberFormatState](ir, call.This, "Intl.NumberFormat.prototype.formatToParts")
		return ir.parts(st.nf.FormatToParts(ir.toNumber(call.Argument(0))))
	})
	ir.method(proto, "resolvedOptions", 0, func(call goja.FunctionCall) goja.Value {
		st := thisState[*numberFormatState](ir, call.This, "Intl.NumberFormat.prototype.resolvedOptions")
		return ir.resolved(st.nf.ResolvedOptions())
	})
}

// ---- DateTimeFormat

// dateTimeFormatState is an Intl.DateTimeFormat's state.
type dateTimeFormatState struct {
	df    *intl.DateTimeFormat
	bound goja.Value
}

func (ir *intlRealm) newDateTimeFormat(locales, options goja.Value, required, defaults string) *intl.DateTimeFormat {
	loc := ir.locale(locales)
	df, err := intl.NewDateTimeFormat(loc, ir.options(options), required, defaults)
	ir.check(err)
	return df
}

// dateValue is the time value format(date) formats: now for undefined, else ToNumber(date).
func (ir *intlRealm) dateValue(v goja.Value) float64 {
	if v == nil || goja.IsUndefined(v) {
		return float64(time.Now().UnixMilli())
	}
	return v.ToNumber().ToFloat()
}

func (ir *intlRealm) installDateTimeFormat(ns *goja.Object) {
	vm := ir.rl.vm
	_, proto := ir.constructor(ns, "DateTimeFormat", 0, func(locales, options goja.Value) any {
		return &dateTimeFormatState{df: ir.newDateTimeFormat(locales, options, "any", "date")}
	})
	ir.boundAccessor(proto, "format", 1, func(this goja.Value) (*goja.Value, func(goja.FunctionCall) goja.Value) {
		st := thisState[*dateTimeFormatState](ir, this, "get Intl.DateTimeFormat.prototype.format")
		return &st.bound, func(c goja.FunctionCall) goja.Value {
			s, err := st.df.Format(ir.dateValue(c.Argument(0)))
			ir.check(err)
			return vm.ToValue(s)
		}
	})
	ir.method(proto, "formatToParts", 1, func(call goja.FunctionCall) goja.Value {
		st := thisState[*dateTimeFormatState](ir, call.This, "Intl.DateTimeFormat.prototype.formatToParts")
		ps, err := st.df.FormatToParts(ir.dateValue(call.Argument(0)))
		ir.check(err)
		return ir.parts(ps)
	})
	ir.method(proto, "resolvedOptions", 0, func(call goja.FunctionCall) goja.Value {
		st := thisState[*dateTimeFormatState](ir, call.This, "Intl.DateTimeFormat.prototype.resolvedOptions")
		return ir.resolved(st.df.ResolvedOptions())
	})

}

// installDateMethods replaces Date.prototype's toLocale*String with ones that format through
// DateTimeFormat.
func (ir *intlRealm) installDateMethods() {
	vm := ir.rl.vm
	dateProto := vm.GlobalObject().Get("Date").(*goja.Object).Get("prototype").(*goja.Object)
	for _, m := range []struct{ name, required, defaults string }{
		{"toLocaleString", "any", "all"}, {"toLocaleDateString", "date", "date"}, {"toLocaleTimeString", "time", "time"},
	} {
		ir.method(dateProto, m.name, 0, func(call goja.FunctionCall) goja.Value {
			v, err := ir.timeValue(call.This)
			ir.check(err)
			t := v.ToFloat()
			if t != t {
				return vm.ToValue("Invalid Date")
			}
			df := ir.newDateTimeFormat(call.Argument(0), call.Argument(1), m.required, m.defaults)
			s, err := df.Format(t)
			ir.check(err)
			return vm.ToValue(s)
		})
	}
}

// ---- Collator

// collatorState is an Intl.Collator's state.
type collatorState struct {
	c     *intl.Collator
	bound goja.Value
}

func (ir *intlRealm) newCollator(locales, options goja.Value) *intl.Collator {
	loc := ir.locale(locales)
	c, err := intl.NewCollator(loc, ir.options(options))
	ir.check(err)
	return c
}

func (ir *intlRealm) installCollator(ns *goja.Object) {
	vm := ir.rl.vm
	_, proto := ir.constructor(ns, "Collator", 0, func(locales, options goja.Value) any {
		return &collatorState{c: ir.newCollator(locales, options)}
	})
	ir.boundAccessor(proto, "compare", 2, func(this goja.Value) (*goja.Value, func(goja.FunctionCall) goja.Value) {
		st := thisState[*collatorState](ir, this, "get Intl.Collator.prototype.compare")
		return &st.bound, func(c goja.FunctionCall) goja.Value {
			r, err := st.c.Compare(c.Argument(0).String(), c.Argument(1).String())
			ir.check(err)
			return vm.ToValue(r)
		}
	})
	ir.method(proto, "resolvedOptions", 0, func(call goja.FunctionCall) goja.Value {
		st := thisState[*collatorState](ir, call.This, "Intl.Collator.prototype.resolvedOptions")
		return ir.resolved(st.c.ResolvedOptions())
	})

}

// installLocaleCompare replaces String.prototype.localeCompare.
func (ir *intlRealm) installLocaleCompare() {
	vm := ir.rl.vm
	// String.prototype.localeCompare compares through a collator for its locales and options;
	// guardSlowStrings, installed after, caps the lengths.
	stringProto := vm.GlobalObject().Get("String").(*goja.Object).Get("prototype").(*goja.Object)
	ir.method(stringProto, "localeCompare", 1, func(call goja.FunctionCall) goja.Value {
		if goja.IsUndefined(call.This) || goja.IsNull(call.This) {
			panic(vm.NewTypeError("String.prototype.localeCompare called on null or undefined"))
		}
		s := call.This.String()
		that := call.Argument(0).String()
		c := ir.newCollator(call.Argument(1), call.Argument(2))
		r, err := c.Compare(s, that)
		ir.check(err)
		return vm.ToValue(r)
	})
}

// installLocaleCase replaces String.prototype.toLocaleUpperCase and toLocaleLowerCase: with a
// locale whose language has its own case mappings (Turkish and Azerbaijani dotted and dotless i,
// Lithuanian dots above, Greek accents in upper case) they map through golang.org/x/text/cases
// for that language, as V8 does through ICU; any other locale, and none, maps as toUpperCase
// and toLowerCase do (goja's own methods, kept). A locale that is not a well-formed tag is a
// RangeError. Both are linear and interruptible (see forkTable).
func (ir *intlRealm) installLocaleCase() {
	vm := ir.rl.vm
	stringProto := vm.GlobalObject().Get("String").(*goja.Object).Get("prototype").(*goja.Object)
	for _, m := range []struct {
		name, plain string
		upper       bool
	}{{"toLocaleUpperCase", "toUpperCase", true}, {"toLocaleLowerCase", "toLowerCase", false}} {
		plain, _ := goja.AssertFunction(stringProto.Get(m.plain))
		ir.method(stringProto, m.name, 0, func(call goja.FunctionCall) goja.Value {
			if goja.IsUndefined(call.This) || goja.IsNull(call.This) {
				panic(vm.NewTypeError("String.prototype." + m.name + " called on null or undefined"))
			}
			tags, err := intl.CanonicalizeLocaleList(ir.localeList(call.Argument(0)))
			ir.check(err)
			var lang language.Tag
			if len(tags) > 0 {
				lang = language.Make(tags[0])
			}
			switch base, _ := lang.Base(); base.String() {
			case "tr", "az", "lt", "el":
				caser := cases.Lower(lang)
				if m.upper {
					caser = cases.Upper(lang)
				}
				s, _ := call.This.ToString().(goja.String)
				return vm.CaseString(s, caser) // in chunks, polling the interrupt flag
			}
			v, err := plain(call.This)
			ir.check(err)
			return v
		})
	}
}

// ---- PluralRules, ListFormat, RelativeTimeFormat

// formatterState is the state of the Intl objects without a bound method.
type formatterState[T any] struct{ f T }

func (ir *intlRealm) installPluralRules(ns *goja.Object) {
	vm := ir.rl.vm
	_, proto := ir.constructor(ns, "PluralRules", 0, func(locales, options goja.Value) any {
		pr, err := intl.NewPluralRules(ir.locale(locales), ir.options(options))
		ir.check(err)
		return &formatterState[*intl.PluralRules]{pr}
	})
	ir.method(proto, "select", 1, func(call goja.FunctionCall) goja.Value {
		st := thisState[*formatterState[*intl.PluralRules]](ir, call.This, "Intl.PluralRules.prototype.select")
		return vm.ToValue(st.f.Select(intl.Float(call.Argument(0).ToNumber().ToFloat())))
	})
	ir.method(proto, "resolvedOptions", 0, func(call goja.FunctionCall) goja.Value {
		st := thisState[*formatterState[*intl.PluralRules]](ir, call.This, "Intl.PluralRules.prototype.resolvedOptions")
		return ir.resolved(st.f.ResolvedOptions())
	})
}

// stringList is StringListFromIterable: the strings of an iterable, refusing other values and
// a total length over maxString.
func (ir *intlRealm) stringList(v goja.Value) []string {
	vm := ir.rl.vm
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	var out []string
	total := 0
	vm.ForOf(v, func(e goja.Value) bool {
		if _, ok := e.Export().(string); !ok || isObject(e) {
			panic(vm.NewTypeError("Iterable yielded " + e.String() + " which is not a string"))
		}
		s := e.String()
		total += len(s)
		if int64(total) > ir.maxString {
			panic(ir.rl.rangeError("Invalid string length"))
		}
		out = append(out, s)
		return true
	})
	return out
}

func (ir *intlRealm) installListFormat(ns *goja.Object) {
	vm := ir.rl.vm
	_, proto := ir.constructor(ns, "ListFormat", 0, func(locales, options goja.Value) any {
		lf, err := intl.NewListFormat(ir.locale(locales), ir.options(options))
		ir.check(err)
		return &formatterState[*intl.ListFormat]{lf}
	})
	ir.method(proto, "format", 1, func(call goja.FunctionCall) goja.Value {
		st := thisState[*formatterState[*intl.ListFormat]](ir, call.This, "Intl.ListFormat.prototype.format")
		return vm.ToValue(intl.Join(st.f.FormatToParts(ir.stringList(call.Argument(0)))))
	})
	ir.method(proto, "formatToParts", 1, func(call goja.FunctionCall) goja.Value {
		st := thisState[*formatterState[*intl.ListFormat]](ir, call.This, "Intl.ListFormat.prototype.formatToParts")
		return ir.parts(st.f.FormatToParts(ir.stringList(call.Argument(0))))
	})
	ir.method(proto, "resolvedOptions", 0, func(call goja.FunctionCall) goja.Value {
		st := thisState[*formatterState[*intl.ListFormat]](ir, call.This, "Intl.ListFormat.prototype.resolvedOptions")
		return ir.resolved(st.f.ResolvedOptions())
	})
}

func (ir *intlRealm) installRelativeTimeFormat(ns *goja.Object) {
	vm := ir.rl.vm
	_, proto := ir.constructor(ns, "RelativeTimeFormat", 0, func(locales, options goja.Value) any {
		rf, err := intl.NewRelativeTimeFormat(ir.locale(locales), ir.options(options))
		ir.check(err)
		return &formatterState[*intl.RelativeTimeFormat]{rf}
	})
	format := func(call goja.FunctionCall, method string) []intl.Part {
		st := thisState[*formatterState[*intl.RelativeTimeFormat]](ir, call.This, method)
		v := call.Argument(0).ToNumber().ToFloat()
		ps, err := st.f.FormatToParts(v, call.Argument(1).String())
		ir.check(err)
		return ps
	}
	ir.method(proto, "format", 2, func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(intl.Join(format(call, "Intl.RelativeTimeFormat.prototype.format")))
	})
	ir.method(proto, "formatToParts", 2, func(call goja.FunctionCall) goja.Value {
		return ir.parts(format(call, "Intl.RelativeTimeFormat.prototype.formatToParts"))
	})
	ir.method(proto, "resolvedOptions", 0, func(call goja.FunctionCall) goja.Value {
		st := thisState[*formatterState[*intl.RelativeTimeFormat]](ir, call.This, "Intl.RelativeTimeFormat.prototype.resolvedOptions")
		return ir.resolved(st.f.ResolvedOptions())
	})
}
