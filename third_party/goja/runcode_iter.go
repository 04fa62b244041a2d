package goja

// runcode: iteration of arrays, Maps and Sets without an iterator result object per element.
//
// for…of, spread, destructuring and Array.from drive an iterator through its next method, which
// for the intrinsic array, Map and Set iterators makes a {value, done} object per element that
// the loop reads two properties from and drops. When the next method read at GetIterator is the
// intrinsic one and the iterator is of the matching internal type, calling it is exactly the
// iterator's own next() followed by reading the two own data properties of the fresh result
// object, so the record takes the element directly (fastNext) and skips the object. Anything
// the fast step cannot do without running JavaScript or throwing (an array hole, an accessor or
// non-plain element, an array-like or typed array being iterated) reports !ok and the step goes
// through next as before, so a patched next, a patched Symbol.iterator (which returns another
// iterator or reads the original next) and arrays mutated during the loop behave as the spec
// says: the length and the element are read at each step, as ArrayIterator next does.

// fastIterator is an intrinsic iterator that can step without a result object.
type fastIterator interface {
	// fastNext is next without the result object: the value and whether the iteration is
	// done; ok is false (and nothing changed) when the step needs the full next.
	fastNext() (value Value, done, ok bool)
}

// fastIteratorFor returns iter's fastIterator when next (the method GetIterator read) is the
// intrinsic next of iter's kind, or nil.
func (r *Runtime) fastIteratorFor(iter *Object, next *Object) fastIterator {
	if next == nil {
		return nil
	}
	switch it := iter.self.(type) {
	case *arrayIterObject:
		if next == r.arrayIterNext {
			return it
		}
	case *mapIterObject:
		if next == r.mapIterNext {
			return it
		}
	case *setIterObject:
		if next == r.setIterNext {
			return it
		}
	}
	return nil
}

func (ai *arrayIterObject) fastNext() (Value, bool, bool) {
	if ai.obj == nil {
		return nil, true, true
	}
	a, ok := ai.obj.self.(*arrayObject)
	if !ok {
		return nil, false, false
	}
	index := ai.nextIdx
	if index >= int64(a.length) {
		ai.obj = nil
		return nil, true, true
	}
	if ai.kind == iterationKindKey {
		ai.nextIdx++
		return valueInt(index), false, true
	}
	if index >= int64(len(a.values)) {
		return nil, false, false
	}
	v := a.values[index]
	if v == nil {
		return nil, false, false // a hole: the prototype chain may answer
	}
	if _, ok := v.(*valueProperty); ok {
		return nil, false, false
	}
	ai.nextIdx++
	if ai.kind == iterationKindValue {
		return v, false, true
	}
	return ai.val.runtime.newArrayValues([]Value{valueInt(index), v}), false, true
}

func (o *mapIterObject) fastNext() (Value, bool, bool) {
	if o.iter == nil {
		return nil, true, true
	}
	entry := o.iter.next()
	if entry == nil {
		o.iter = nil
		return nil, true, true
	}
	switch o.kind {
	case iterationKindKey:
		return entry.key, false, true
	case iterationKindValue:
		return entry.value, false, true
	}
	return o.val.runtime.newArrayValues([]Value{entry.key, entry.value}), false, true
}

func (o *setIterObject) fastNext() (Value, bool, bool) {
	if o.iter == nil {
		return nil, true, true
	}
	entry := o.iter.next()
	if entry == nil {
		o.iter = nil
		return nil, true, true
	}
	if o.kind == iterationKindValue {
		return entry.key, false, true
	}
	return o.val.runtime.newArrayValues([]Value{entry.key, entry.key}), false, true
}

// iterateFast is iterate for a record with a fastIterator: elements the fast step can take are
// passed to step directly; others go through next. As iterate, an exception thrown by step
// closes the iterator (its return method) before it propagates; one thrown by next does not.
// It reports whether it iterated.
func (ir *iteratorRecord) iterateFast(step func(Value)) (iterated bool) {
	fi := ir.fast
	if fi == nil {
		return false
	}
	inStep := false
	defer func() {
		if inStep {
			if x := recover(); x != nil {
				_ = tryFunc(func() { ir.returnIter() })
				panic(x)
			}
		}
	}()
	r := ir.iterator.runtime
	for n := 1; ; n++ {
		if n%4096 == 0 {
			r.pollInterrupt()
		}
		v, done, ok := fi.fastNext()
		if !ok {
			res := r.toObject(ir.next(FunctionCall{This: ir.iterator}))
			if iteratorComplete(res) {
				return true
			}
			v = iteratorValue(res)
		} else if done {
			return true
		}
		inStep = true
		step(v)
		inStep = false
	}
}

// arrayIterNextIntact reports whether %ArrayIteratorPrototype%.next is the intrinsic one, so that
// iterating a fresh array iterator is reading the array's elements. checkStdArrayIter (the
// shortcut of Array.from, new Set and new WeakSet for a plain array) checked only
// Symbol.iterator, so a patched next went unseen there.
func (r *Runtime) arrayIterNextIntact() bool {
	p, ok := r.getArrayIteratorPrototype().self.getOwnPropStr("next").(*Object)
	return ok && p == r.arrayIterNext
}
