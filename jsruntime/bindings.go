package jsruntime

import (
	"fmt"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/jsonv"
)

// namespaceObject builds the object the program sees for ns: a null-prototype object whose
// members are own, enumerable, non-writable, non-configurable functions, in order. class is the
// namespace's error class (nil: rejections are plain Errors).
func (r *run) namespaceObject(ns *Namespace, class *goja.Object) *goja.Object {
	obj := r.vm.CreateObject(nil)
	for _, fn := range ns.Functions {
		f := r.vm.ToValue(r.bindingFunc(fn, class)).(*goja.Object)
		_ = f.DefineDataProperty("name", r.vm.ToValue(fn.Name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = obj.DefineDataProperty(fn.Name, f, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	return obj
}

// bindingFunc is the JavaScript side of one host function: it snapshots its one argument as
// lossless JSON, calls the host function synchronously, and returns a promise that the host's
// settle callback settles through the loop. It never throws. A host that settles with the
// Undefined value and no error resolves the promise to undefined.
func (r *run) bindingFunc(fn Function, class *goja.Object) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		promise, resolve, reject := r.vm.NewPromise()
		arg, err := r.exportJSON(call.Argument(0))
		if err != nil {
			reason, err := r.newError(class, fn.Name, msgBadArguments)
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

// newError constructs a rejection reason: new class(member, message), or new Error(message)
// when the namespace has no error class.
func (r *run) newError(class *goja.Object, member, message string) (goja.Value, error) {
	if class == nil {
		return r.vm.New(r.intr.errorCtor, r.vm.ToValue(message))
	}
	return r.vm.New(class, r.vm.ToValue(member), r.vm.ToValue(message))
}
