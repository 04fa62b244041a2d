package goja

import (
	"math"

	"github.com/dop251/goja/unistring"
)

// runcode: a compact property store for small objects.
//
// Upstream kept every object's string-keyed properties in a Go map (baseObject.values) next to
// the ordered list of their names (propNames): a map of a few entries costs about 340 bytes (its
// header and an 8-slot group), more than the object itself, and every array had one for its
// `length`. An object now starts with no map: the value of propNames[i] is propVals[i], and a
// lookup scans propNames (names are mostly interned strings, so a comparison is usually a length
// check or a pointer check). When an object gains its compactPropsMax+1-th property the values
// move into a map (propMap) and propVals is dropped; from then on the object behaves exactly as
// upstream's (and stays so after deletions). Templated objects (the built-in prototypes and
// constructors) use the map from the start, since their map holds entries whose names are not
// (yet) in propNames.
//
// Invariant in compact mode (propMap == nil): len(propVals) == len(propNames), and every change
// to propNames' order (append, delete, fixPropOrder, errorObject's stack move) is applied to
// propVals in the same way. propNames may be shared with a running key iterator (the copy marker
// of prepareNamesForCopy); propVals never is, so it is always changed in place.

// compactPropsMax is the largest number of string-keyed properties an object keeps without a map.
const compactPropsMax = 16

// propIndex is the position of name in propNames in compact mode, or -1.
func (o *baseObject) propIndex(name unistring.String) int {
	for i, n := range o.propNames {
		if n == name {
			return i
		}
	}
	return -1
}

// ownStr is the stored value of the own property name (a Value or a *valueProperty), or nil.
func (o *baseObject) ownStr(name unistring.String) Value {
	if o.propMap != nil {
		return o.propMap[name]
	}
	for i, n := range o.propNames {
		if n == name {
			return o.propVals[i]
		}
	}
	return nil
}

// hasOwnStr reports whether name is an own property (whatever its stored value).
func (o *baseObject) hasOwnStr(name unistring.String) bool {
	if o.propMap != nil {
		_, exists := o.propMap[name]
		return exists
	}
	return o.propIndex(name) >= 0
}

// replaceOwnStr stores v as the value of the existing own property name.
func (o *baseObject) replaceOwnStr(name unistring.String, v Value) {
	if o.propMap != nil {
		o.propMap[name] = v
		return
	}
	if i := o.propIndex(name); i >= 0 {
		o.propVals[i] = v
	}
}

// addOwnStr adds name, which is not an own property, with the value v, last in order.
func (o *baseObject) addOwnStr(name unistring.String, v Value) {
	names := copyNamesIfNeeded(o.propNames, 1)
	o.propNames = append(names, name)
	if o.propMap != nil {
		o.propMap[name] = v
		return
	}
	if len(o.propNames) > compactPropsMax {
		m := make(map[unistring.String]Value, len(o.propNames))
		for i, n := range o.propNames[:len(o.propVals)] {
			m[n] = o.propVals[i]
		}
		m[name] = v
		o.propMap = m
		o.propVals = nil
		return
	}
	o.propVals = append(o.propVals, v)
}

// putOwnStr sets the value of name, adding it last if it is not an own property.
func (o *baseObject) putOwnStr(name unistring.String, v Value) {
	if o.propMap != nil {
		if _, exists := o.propMap[name]; !exists {
			names := copyNamesIfNeeded(o.propNames, 1)
			o.propNames = append(names, name)
		}
		o.propMap[name] = v
		return
	}
	if i := o.propIndex(name); i >= 0 {
		o.propVals[i] = v
		return
	}
	o.addOwnStr(name, v)
}

// moveLastPropFirst moves the last own property to the front of the order (errorObject's stack).
func (o *baseObject) moveLastPropFirst() {
	n := len(o.propNames)
	if n < 2 {
		return
	}
	last := o.propNames[n-1]
	copy(o.propNames[1:], o.propNames)
	o.propNames[0] = last
	if o.propMap == nil {
		v := o.propVals[n-1]
		copy(o.propVals[1:], o.propVals)
		o.propVals[0] = v
	}
}

// jsonShapeCacheSize bounds the distinct key sequences one JSON.parse shares.
const jsonShapeCacheSize = 1 << 10

// jsonShapeKey finds the shared names of a JSON object: its first key and how many it has.
type jsonShapeKey struct {
	first unistring.String
	n     int
}

// jsonShape is the property names that JSON.parse's objects of one key sequence share. names has
// room for one more name, which holds the copy marker (prepareNamesForCopy), so an object that
// adds, deletes or reorders a property copies the names first and the others are unaffected.
type jsonShape struct {
	names    []unistring.String
	hasIndex bool // some name is an array index (fixPropOrder moves it first)
}

func newJSONShape(names []unistring.String) jsonShape {
	sh := jsonShape{names: make([]unistring.String, len(names), len(names)+1)}
	copy(sh.names, names)
	sh.names[:cap(sh.names)][len(names)] = copyMarker
	for _, n := range names {
		if strToArrayIdx(n) != math.MaxUint32 {
			sh.hasIndex = true
		}
	}
	return sh
}

// matches reports whether keys are the shape's names, in order.
func (sh jsonShape) matches(keys []unistring.String) bool {
	if len(keys) != len(sh.names) {
		return false
	}
	for i, k := range keys {
		if sh.names[i] != k {
			return false
		}
	}
	return true
}
