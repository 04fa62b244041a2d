package goja

// runcode: faster sorting and string iteration (RUNCODE.md, change 8).
//
// Array.prototype.sort and toSorted of an ordinary array sort a copy of its values with
// a merge sort (RUNCODE.md, change 8). Upstream called sort.Stable on the array, which calls the
// comparator about 1.5 times as often as V8 (insertion-sorted blocks of 20, then in-place
// SymMerge: 6.6M calls for 300,000 numbers, Node 4.4M) and could not be interrupted while it
// compared without a comparator.

import (
	"io"
	"sort"
)

// sortRun is the length of the runs the merge sort starts from (binary insertion sort).
const sortRun = 32

// stableSort sorts ctx's values stably. An ordinary array whose elements are all data values is
// sorted as a copy, written back only when the sort completes (so a comparator that throws
// leaves it as it was, as in V8); anything else goes through sort.Stable.
func (r *Runtime) stableSort(ctx *arraySortCtx) {
	a, ok := ctx.obj.(*arrayObject)
	if !ok {
		sort.Stable(ctx)
		return
	}
	for _, v := range a.values {
		if _, ok := v.(*valueProperty); ok {
			sort.Stable(ctx)
			return
		}
	}
	values := append([]Value(nil), a.values...)
	calls := 0
	mergeSortValues(values, func(x, y Value) bool {
		if calls++; calls%4096 == 0 {
			r.pollInterrupt()
		}
		return ctx.sortCompare(x, y) < 0
	})
	if len(a.values) == len(values) {
		copy(a.values, values)
		return
	}
	// The comparator changed the array's length: write the sorted values as the specification's
	// SortIndexedProperties does.
	for i, v := range values {
		if v != nil {
			a.setOwnIdx(valueInt(i), v, true)
		}
	}
}

// mergeSortValues sorts v stably by less: runs of sortRun by binary insertion, then bottom-up
// merges through a buffer, skipping a merge whose halves are already in order. It calls less
// about n·log2(n) − n times.
func mergeSortValues(v []Value, less func(x, y Value) bool) {
	n := len(v)
	for lo := 0; lo < n; lo += sortRun {
		hi := min(lo+sortRun, n)
		for i := lo + 1; i < hi; i++ {
			x := v[i]
			if !less(x, v[i-1]) {
				continue
			}
			l, h := lo, i-1
			for l < h {
				m := int(uint(l+h) >> 1)
				if less(x, v[m]) {
					h = m
				} else {
					l = m + 1
				}
			}
			copy(v[l+1:i+1], v[l:i])
			v[l] = x
		}
	}
	if n <= sortRun {
		return
	}
	buf := make([]Value, n)
	src, dst := v, buf
	for width := sortRun; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			if mid >= hi || !less(src[mid], src[mid-1]) {
				copy(dst[lo:hi], src[lo:hi])
				continue
			}
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if less(src[j], src[i]) {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if &src[0] != &v[0] {
		copy(v, src)
	}
}

// asciiChars are the one-character strings of the ASCII characters, as values.
var asciiChars = func() (t [utf8RuneSelf]Value) {
	for i := range t {
		t[i] = asciiString(string(rune(i)))
	}
	return
}()

const utf8RuneSelf = 0x80

// iterateString is iterate for a string iterator whose next is the intrinsic one (none of the
// iterator, its prototype or the prototype's next replaced): it reads the code points directly
// instead of making a result object per character through next (which made [...s] of 3M
// characters take 1.5s), and polls the interrupt flag every 4,096 characters. It reports
// whether it iterated.
func (r *Runtime) iterateString(ir *iteratorRecord, step func(Value)) bool {
	si, ok := ir.iterator.self.(*stringIterObject)
	if !ok || r.stringIterNext == nil || si.prototype != r.global.StringIteratorPrototype || si.getOwnPropStr("next") != nil {
		return false
	}
	proto, ok := si.prototype.self.(*baseObject)
	if !ok {
		return false
	}
	if p, ok := proto.getOwnPropStr("next").(*valueProperty); !ok || p.accessor || p.value != r.stringIterNext {
		return false
	}
	for n := 1; ; n++ {
		if si.reader == nil {
			return true
		}
		c, _, err := si.reader.ReadRune()
		if err == io.EOF {
			si.reader = nil
			return true
		}
		if n%4096 == 0 {
			r.pollInterrupt()
		}
		var v Value
		if c < utf8RuneSelf {
			v = asciiChars[c]
		} else {
			v = stringFromRune(c)
		}
		if ret := tryFunc(func() { step(v) }); ret != nil {
			_ = tryFunc(func() { ir.returnIter() })
			panic(ret)
		}
	}
}

// isJSFunction reports whether v is a function written in JavaScript, whose calls copy their
// arguments onto the VM stack (so the caller may reuse the argument slice).
func isJSFunction(v Value) bool {
	o, ok := v.(*Object)
	if !ok {
		return false
	}
	switch o.self.(type) {
	case *funcObject, *arrowFuncObject, *methodFuncObject:
		return true
	}
	return false
}
