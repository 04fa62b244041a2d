package jsruntime

import (
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// RegExp.prototype[Symbol.split] is replaced for ordinary regular expressions. The exec wrapper
// of guardRegexps puts goja's regexp methods on their generic path, and goja's generic split
// follows the specification literally: a sticky match attempt at every position of the subject,
// each a native exec that, on a failed match, converts the whole subject again (a 27,000-character
// non-ASCII text split on / / took 200ms, 107 times goja's fast path; 65,536 characters split on
// a separator that never occurs took 24s in one native step). This one searches with a global
// copy of the regexp from each split point, so exec runs once per match (each through the exec
// wrapper: timeouts still throw), with the same result: the leftmost match at or after a
// position is the first position where a sticky attempt succeeds. A subclass, a replaced
// species, a replaced RegExp.prototype.exec or a proxy gets the native method.
func (rl *realm) guardSplit() error {
	vm := rl.vm
	ctor, ok := vm.GlobalObject().Get("RegExp").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: RegExp is missing")
	}
	construct, ok := goja.AssertConstructor(ctor)
	if !ok {
		return fmt.Errorf("jsruntime: RegExp is not a constructor")
	}
	proto, ok := ctor.Get("prototype").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: RegExp.prototype is missing")
	}
	execWrapper := proto.Get("exec") // guardRegexps' wrapper, installed before
	orig, ok := goja.AssertFunction(proto.GetSymbol(goja.SymSplit))
	if !ok {
		return fmt.Errorf("jsruntime: RegExp.prototype[Symbol.split] is missing")
	}
	wrapper := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		rx, ok := call.This.(*goja.Object)
		if !ok || rx.ClassName() != "RegExp" || rx.ExportType() == proxyType || !plainSpecies(rx, ctor) || !proto.Get("exec").SameAs(execWrapper) {
			if ok && rx.ClassName() == "RegExp" {
				rl.checkSourceFolding("RegExp.prototype[Symbol.split]", rx) // goja's copies it with the flags it reads
			}
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		}
		s := call.Argument(0).ToString().(goja.String)
		flags := rx.Get("flags").String()
		searcher, err := construct(nil, rx, vm.ToValue(strings.ReplaceAll(strings.ReplaceAll(flags, "y", ""), "g", "")+"g"))
		if err != nil {
			panic(err)
		}
		return rl.split(searcher, s, call.Argument(1), strings.ContainsAny(flags, "uv"))
	}).(*goja.Object)
	return defineSymbolMethod(vm, proto, goja.SymSplit, "[Symbol.split]", wrapper, 2)
}

// plainSpecies reports whether SpeciesConstructor(rx, RegExp) is the intrinsic RegExp.
func plainSpecies(rx, ctor *goja.Object) bool {
	c := rx.Get("constructor")
	if c == nil || goja.IsUndefined(c) {
		return true
	}
	co, ok := c.(*goja.Object)
	if !ok || !co.SameAs(ctor) {
		return false
	}
	s := co.GetSymbol(goja.SymSpecies)
	return s == nil || goja.IsUndefined(s) || goja.IsNull(s) || s.SameAs(ctor)
}

// split is the specification's split loop (RegExp.prototype[@@split] steps 14-25) with a global
// searcher in place of the sticky splitter.
func (rl *realm) split(searcher *goja.Object, s goja.String, limit goja.Value, unicode bool) goja.Value {
	vm := rl.vm
	lim := int64(1<<32 - 1)
	if !goja.IsUndefined(limit) {
		lim = int64(uint32(int64(toInteger(limit.ToFloat()))))
	}
	var parts []any
	if lim == 0 {
		return vm.NewArray()
	}
	exec, ok := goja.AssertFunction(searcher.Get("exec"))
	if !ok {
		panic(vm.NewTypeError("exec is not a function"))
	}
	size := s.Length()
	if size == 0 {
		z, err := exec(searcher, s)
		if err != nil {
			panic(err)
		}
		if goja.IsNull(z) {
			parts = append(parts, s)
		}
		return vm.NewArray(parts...)
	}
	p, q := 0, 0
	for q < size {
		if err := searcher.Set("lastIndex", q); err != nil {
			panic(err)
		}
		zv, err := exec(searcher, s)
		if err != nil {
			panic(err)
		}
		z, ok := zv.(*goja.Object)
		if !ok {
			break // no match at or after q
		}
		// A program's own exec may answer anything: the match position is kept within [q, size]
		// (so p <= start), as the sticky loop's q is.
		start := int(max(min(toInteger(z.Get("index").ToFloat()), float64(size)), float64(q)))
		if start >= size {
			break // only an empty match at the end, where the sticky loop stops
		}
		e := min(int(toLength(searcher.Get("lastIndex"))), size)
		if e == p {
			q = advanceIndex(s, start, unicode)
			continue
		}
		parts = append(parts, s.Substring(p, start))
		if int64(len(parts)) == lim {
			return vm.NewArray(parts...)
		}
		p = e
		captures := int(toLength(z.Get("length"))) - 1
		for i := 1; i <= captures; i++ {
			parts = append(parts, z.Get(fmt.Sprint(i)))
			if int64(len(parts)) == lim {
				return vm.NewArray(parts...)
			}
		}
		q = p
	}
	parts = append(parts, s.Substring(p, size))
	return vm.NewArray(parts...)
}

// advanceIndex is AdvanceStringIndex.
func advanceIndex(s goja.String, i int, unicode bool) int {
	if !unicode || i+1 >= s.Length() {
		return i + 1
	}
	if c := s.CharAt(i); c >= 0xD800 && c <= 0xDBFF {
		if d := s.CharAt(i + 1); d >= 0xDC00 && d <= 0xDFFF {
			return i + 2
		}
	}
	return i + 1
}
