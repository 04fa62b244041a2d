package jsruntime

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/jsonv"
)

// bindingShape is what two requests must share for the program function's arguments built for
// one to serve the other: the globals, function names and error classes, in order (the host
// functions themselves are looked up per call, in the run).
func bindingShape(nss []Namespace) string {
	var b strings.Builder
	for _, ns := range nss {
		b.WriteString(ns.Global)
		for _, fn := range ns.Functions {
			b.WriteByte(0)
			b.WriteString(fn.Name)
		}
		b.WriteByte(1)
		if ec := ns.ErrorClass; ec != nil {
			b.WriteString(ec.Name)
			b.WriteByte(0)
			b.WriteString(ec.MemberNameProperty)
		}
		b.WriteByte(2)
	}
	return b.String()
}

// namesOnly copies nss without the host functions, so that a remembered shape does not keep a
// finished run's host functions alive.
func namesOnly(nss []Namespace) []Namespace {
	out := make([]Namespace, len(nss))
	for i, ns := range nss {
		out[i] = Namespace{Global: ns.Global, ErrorClass: ns.ErrorClass, Functions: make([]Function, len(ns.Functions))}
		for j, fn := range ns.Functions {
			out[i].Functions[j] = Function{Name: fn.Name}
		}
	}
	return out
}

// buildBindings builds the program function's arguments for nss in the realm: each
// namespace's object, then each declared error class (console comes last; setup appends it).
// A namespace object is null-prototype, its members own, enumerable, non-writable,
// non-configurable functions, in order. The functions call the host functions of the run that
// owns the realm when they are called, so the arguments can be built before that run exists.
func (rl *realm) buildBindings(nss []Namespace) ([]goja.Value, error) {
	vm := rl.vm
	objects := make([]goja.Value, 0, len(nss))
	var classes []goja.Value
	for i := range nss {
		ns := &nss[i]
		var class *goja.Object
		if ec := ns.ErrorClass; ec != nil {
			c, err := rl.makeErrorClass(goja.Undefined(), vm.ToValue(ec.Name), vm.ToValue(ec.MemberNameProperty))
			if err != nil {
				return nil, err
			}
			class = c.(*goja.Object)
			classes = append(classes, class)
		}
		obj := vm.CreateObject(nil)
		for j, fn := range ns.Functions {
			f := vm.ToValue(rl.bindingFunc(i, j, class)).(*goja.Object)
			_ = f.DefineDataProperty("name", vm.ToValue(fn.Name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			_ = obj.DefineDataProperty(fn.Name, f, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		}
		objects = append(objects, obj)
	}
	return append(objects, classes...), nil
}

// bindingFunc is the JavaScript side of function j of namespace i: it snapshots its one
// argument as lossless JSON, calls the host function synchronously, and returns a promise that
// the host's settle callback settles through the loop. It never throws. A host that settles
// with the Undefined value and no error rejects the promise, as for any resolution that is not
// lossless JSON.
func (rl *realm) bindingFunc(i, j int, class *goja.Object) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		r := rl.owner
		fn := r.req.Bindings[i].Functions[j]
		promise, resolve, reject := r.vm.NewPromise()
		arg, err := r.exportJSON(call.Argument(0))
		if err != nil {
			reason, err := r.newError(class, fn.Name, withPlace(msgBadArguments, err, "argument"))
			if err != nil {
				panic(err) // uncatchable: let it unwind the VM
			}
			if err := reject(reason); err != nil {
				panic(err)
			}
			return r.vm.ToValue(promise)
		}
		r.pending++
		var settled atomic.Bool
		settle := func(v jsonv.Value, herr error) {
			if !settled.CompareAndSwap(false, true) {
				return
			}
			if herr == nil {
				herr = incomingError(v)
			}
			r.post(func() error {
				r.pending--
				if herr != nil {
					reason, err := r.newError(class, fn.Name, herr.Error())
					if err != nil {
						return err
					}
					return reject(reason)
				}
				return resolve(r.toJS(v))
			})
		}
		// A host function that panics rejects its call instead of taking the host down.
		func() {
			defer func() {
				if p := recover(); p != nil {
					settle(jsonv.Value{}, fmt.Errorf("binding %q failed: %v", fn.Name, p))
				}
			}()
			fn.Call(r.host, arg, settle)
		}()
		return r.vm.ToValue(promise)
	}
}

// incomingError is the error a host call fails with when the value it settled with is not
// lossless JSON (Undefined) or cannot reach the program unaltered (see checkIncoming), or nil.
// The process pool applies it in the parent.
func incomingError(v jsonv.Value) error {
	if !v.IsDefined() {
		return errors.New(msgBadResult)
	}
	if err := checkIncoming(v); err != nil {
		return errors.New(withPlace(msgBadResult, err, "result"))
	}
	return nil
}

// newError constructs a rejection reason: new class(member, message), or new Error(message)
// when the namespace has no error class.
func (r *run) newError(class *goja.Object, member, message string) (goja.Value, error) {
	if class == nil {
		return r.vm.New(r.intr.errorCtor, r.vm.ToValue(message))
	}
	return r.vm.New(class, r.vm.ToValue(member), r.vm.ToValue(message))
}
