package goja

import "github.com/dop251/goja/unistring"

// runcode: a named property of a primitive string without the wrapper.
//
// Reading s.length or calling s.startsWith(…) on a primitive string went through baseObject,
// which loads the string into the runtime's String singleton (boxing it in an interface and
// re-putting "length" into its property map) only to find the name on String.prototype: in
// a loop over the parts of a log line this was an eighth of the run. The singleton's own
// properties are the string's indices and "length" (nothing else is ever stored on it: it
// only serves reads), so for any other name the answer is String.prototype's, read with the
// primitive as the receiver, exactly as the singleton's getStr would read it.

// stringPropFast reads the property name of v when v is a primitive string and the name is
// not an index of it; ok is false for other values and names.
func (r *Runtime) stringPropFast(v Value, name unistring.String) (prop Value, ok bool) {
	switch v.(type) {
	case asciiString, unicodeString:
	default:
		return nil, false
	}
	if name == "length" {
		// v.(String) reuses v's data word; converting the asciiString itself would allocate.
		return intToValue(int64(v.(String).Length())), true
	}
	if strToGoIdx(name) >= 0 {
		return nil, false
	}
	return r.getStringPrototype().self.getStr(name, v), true
}
