package jsruntime

import (
	"errors"
	"reflect"
	"strconv"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/jsonv"
)

// errNotLossless reports a JavaScript value that is not lossless JSON.
var errNotLossless = errors.New("value is not lossless JSON")

var proxyType = reflect.TypeOf(goja.Proxy{})

// intrinsics are the realm's built-ins captured before the program runs, so that nothing the
// program does to globals or prototypes changes how values are checked or errors are built.
type intrinsics struct {
	objectProto    *goja.Object
	arrayProto     *goja.Object
	errorProto     *goja.Object
	errorCtor      *goja.Object
	rangeErrorCtor *goja.Object
	functionProto  *goja.Object
}

func captureIntrinsics(vm *goja.Runtime) intrinsics {
	global := vm.GlobalObject()
	ctor := func(name string) *goja.Object { return global.Get(name).(*goja.Object) }
	proto := func(name string) *goja.Object { return ctor(name).Get("prototype").(*goja.Object) }
	return intrinsics{
		objectProto:    proto("Object"),
		arrayProto:     proto("Array"),
		errorProto:     proto("Error"),
		errorCtor:      ctor("Error"),
		rangeErrorCtor: ctor("RangeError"),
		functionProto:  proto("Function"),
	}
}

// exportJSON snapshots v as lossless JSON: each property is read once, key order is kept, and
// anything JSON cannot carry exactly is rejected (see convert). A JavaScript exception raised
// while reading (a throwing getter or proxy trap) is returned as an error; uncatchable errors
// (interrupts, stack overflow) propagate as panics.
func (r *run) exportJSON(v goja.Value) (out jsonv.Value, err error) {
	c := converter{intr: r.intr}
	if ex := r.vm.Try(func() { out, err = c.convert(v) }); ex != nil {
		return jsonv.Value{}, ex
	}
	return out, err
}

type converter struct {
	intr *intrinsics
	// The containers on the current path, for cycle detection: the first few in path (most
	// values are shallow, and a map per conversion cost more than the rest of a small one), the
	// deeper ones in deep.
	path  [8]*goja.Object
	depth int
	deep  map[*goja.Object]bool
}

func (c *converter) onPath(o *goja.Object) bool {
	for _, p := range c.path[:min(c.depth, len(c.path))] {
		if p == o {
			return true
		}
	}
	return c.deep[o]
}

func (c *converter) push(o *goja.Object) {
	if c.depth < len(c.path) {
		c.path[c.depth] = o
	} else {
		if c.deep == nil {
			c.deep = map[*goja.Object]bool{}
		}
		c.deep[o] = true
	}
	c.depth++
}

func (c *converter) pop(o *goja.Object) {
	c.depth--
	if c.depth < len(c.path) {
		c.path[c.depth] = nil
	} else {
		delete(c.deep, o)
	}
}

// convert accepts null, booleans, strings, finite numbers other than -0, dense ordinary arrays
// and plain objects (prototype Object.prototype or null, own enumerable string keys only) of
// such values. It rejects undefined, functions, symbols, BigInt, Date, Map, class instances,
// proxies, sparse arrays, NaN, ±Infinity, -0 and cycles.
func (c *converter) convert(v goja.Value) (jsonv.Value, error) {
	if v == nil || goja.IsUndefined(v) {
		return jsonv.Value{}, errNotLossless
	}
	if goja.IsNull(v) {
		return jsonv.NullValue(), nil
	}
	if _, ok := v.(*goja.Symbol); ok {
		return jsonv.Value{}, errNotLossless // Symbol.Export returns its description
	}
	o, ok := v.(*goja.Object)
	if !ok {
		switch x := v.Export().(type) {
		case bool:
			return jsonv.BoolValue(x), nil
		case string:
			return jsonv.StringValue(x), nil
		case int64:
			return jsonv.NumberValue(float64(x))
		case float64:
			return jsonv.NumberValue(x)
		}
		return jsonv.Value{}, errNotLossless
	}
	if c.onPath(o) || o.ExportType() == proxyType {
		return jsonv.Value{}, errNotLossless
	}
	proto := o.Prototype()
	switch o.ClassName() {
	case "Array":
		if proto != c.intr.arrayProto {
			return jsonv.Value{}, errNotLossless
		}
		c.push(o)
		defer c.pop(o)
		return c.array(o)
	case "Object":
		if proto != nil && proto != c.intr.objectProto {
			return jsonv.Value{}, errNotLossless
		}
		c.push(o)
		defer c.pop(o)
		return c.object(o)
	}
	return jsonv.Value{}, errNotLossless
}

// array converts a dense array whose only own properties are its indices and length.
func (c *converter) array(o *goja.Object) (jsonv.Value, error) {
	n := o.Get("length").ToInteger()
	names := o.GetOwnPropertyNames()
	if int64(len(names)) != n+1 || len(o.Symbols()) > 0 {
		return jsonv.Value{}, errNotLossless
	}
	items := make([]jsonv.Value, 0, n)
	for i, name := range names[:n] {
		if name != strconv.Itoa(i) {
			return jsonv.Value{}, errNotLossless
		}
		item, err := c.convert(o.Get(name))
		if err != nil {
			return jsonv.Value{}, err
		}
		items = append(items, item)
	}
	return jsonv.ArrayValue(items...), nil
}

// object converts a plain object whose own properties are all enumerable string keys.
func (c *converter) object(o *goja.Object) (jsonv.Value, error) {
	keys := o.Keys()
	if len(keys) != len(o.GetOwnPropertyNames()) || len(o.Symbols()) > 0 {
		return jsonv.Value{}, errNotLossless
	}
	members := make([]jsonv.Member, 0, len(keys))
	for _, k := range keys {
		val, err := c.convert(o.Get(k))
		if err != nil {
			return jsonv.Value{}, err
		}
		members = append(members, jsonv.Member{Key: k, Value: val})
	}
	return jsonv.ObjectValue(members...), nil
}

// toJS builds a fresh native JavaScript value from v: plain objects and arrays with the
// realm's prototypes, keys in order, every key (even "__proto__") an own data property.
func (r *run) toJS(v jsonv.Value) goja.Value {
	switch v.Kind() {
	case jsonv.Null:
		return goja.Null()
	case jsonv.Bool:
		return r.vm.ToValue(v.AsBool())
	case jsonv.Number:
		return r.vm.ToValue(v.AsNumber())
	case jsonv.String:
		return r.vm.ToValue(v.AsString())
	case jsonv.Array:
		items := v.Items()
		vals := make([]any, len(items))
		for i, it := range items {
			vals[i] = r.toJS(it)
		}
		return r.vm.NewArray(vals...)
	case jsonv.Object:
		o := r.vm.NewObject()
		for _, m := range v.Members() {
			_ = o.DefineDataProperty(m.Key, r.toJS(m.Value), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
		}
		return o
	}
	return goja.Undefined()
}
