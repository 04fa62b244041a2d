package jsruntime

import (
	"github.com/dop251/goja"

	"github.com/runcode-dev/runcode/jsruntime/internal/intl"
)

// segmentsState is the Go side of a Segments object: the segmenter's work on one string.
type segmentsState struct {
	input goja.String
	segs  *intl.Segments
	word  bool
}

// segmentIteratorState is the Go side of a Segments iterator: the next segment's number. Each
// next() finds one segment, so the program's own loop (which budgets interrupt) drives the work.
type segmentIteratorState struct {
	s *segmentsState
	k int
}

func (ir *intlRealm) installSegmenter(ns *goja.Object) {
	vm := ir.rl.vm
	_, proto := ir.constructor(ns, "Segmenter", 0, func(locales, options goja.Value) any {
		sg, err := intl.NewSegmenter(ir.locale(locales), ir.options(options))
		ir.check(err)
		return &formatterState[*intl.Segmenter]{sg}
	})
	segmentsProto := vm.NewObject()
	iterProto := vm.NewObject()
	_ = iterProto.SetPrototype(ir.iteratorProto)
	_ = iterProto.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue("Segmenter String Iterator"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)

	// segmentData is CreateSegmentDataObject.
	segmentData := func(st *segmentsState, start, end int, wordLike bool) goja.Value {
		o := vm.NewObject()
		_ = o.Set("segment", st.input.Substring(start, end))
		_ = o.Set("index", start)
		_ = o.Set("input", st.input)
		if st.word {
			_ = o.Set("isWordLike", wordLike)
		}
		return o
	}
	ir.method(proto, "segment", 1, func(call goja.FunctionCall) goja.Value {
		st := thisState[*formatterState[*intl.Segmenter]](ir, call.This, "Intl.Segmenter.prototype.segment")
		if _, sym := call.Argument(0).(*goja.Symbol); sym {
			panic(vm.NewTypeError("Cannot convert a Symbol value to a string"))
		}
		// ToString: goja's ToString returns other primitives as they are; their text has no
		// lone surrogates, so its Go form converts back unchanged.
		v := call.Argument(0).ToString()
		if _, sym := v.(*goja.Symbol); sym {
			panic(vm.NewTypeError("Cannot convert a Symbol value to a string"))
		}
		input, ok := v.(goja.String)
		if !ok {
			input = vm.ToValue(v.String()).(goja.String)
		}
		if input.Length() > intl.MaxSegmentLength {
			// Refused before copying: Segment would refuse it too.
			ir.check(intl.ErrSegmentTooLong)
		}
		units := make([]uint16, input.Length())
		for i := range units {
			units[i] = input.CharAt(i)
		}
		segs, err := st.f.Segment(units)
		ir.check(err)
		o := vm.NewObject()
		_ = o.SetPrototype(segmentsProto)
		ir.state[o] = &segmentsState{input: input, segs: segs, word: st.f.Granularity() == "word"}
		return o
	})
	ir.method(proto, "resolvedOptions", 0, func(call goja.FunctionCall) goja.Value {
		st := thisState[*formatterState[*intl.Segmenter]](ir, call.This, "Intl.Segmenter.prototype.resolvedOptions")
		return ir.resolved(st.f.ResolvedOptions())
	})
	ir.method(segmentsProto, "containing", 1, func(call goja.FunctionCall) goja.Value {
		st := thisState[*segmentsState](ir, call.This, "%Segments.prototype%.containing")
		n := call.Argument(0).ToNumber().ToFloat() // ToIntegerOrInfinity
		if n != n {
			n = 0
		}
		if n < 0 || n >= float64(st.input.Length()) {
			return goja.Undefined()
		}
		start, end, like, ok := st.segs.Containing(int(n))
		if !ok {
			return goja.Undefined()
		}
		return segmentData(st, start, end, like)
	})
	iterFn := vm.ToValue(ir.wrap(func(call goja.FunctionCall) goja.Value {
		st := thisState[*segmentsState](ir, call.This, "%Segments.prototype%[@@iterator]")
		it := vm.NewObject()
		_ = it.SetPrototype(iterProto)
		ir.state[it] = &segmentIteratorState{s: st}
		return it
	})).(*goja.Object)
	_ = iterFn.DefineDataProperty("name", vm.ToValue("[Symbol.iterator]"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = iterFn.DefineDataProperty("length", vm.ToValue(0), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = segmentsProto.DefineDataPropertySymbol(goja.SymIterator, iterFn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	ir.method(iterProto, "next", 0, func(call goja.FunctionCall) goja.Value {
		it := thisState[*segmentIteratorState](ir, call.This, "%SegmentIterator.prototype%.next")
		res := vm.NewObject()
		start, end, like, ok := it.s.segs.At(it.k)
		if !ok {
			_ = res.Set("value", goja.Undefined())
			_ = res.Set("done", true)
			return res
		}
		it.k++
		_ = res.Set("value", segmentData(it.s, start, end, like))
		_ = res.Set("done", false)
		return res
	})
}
