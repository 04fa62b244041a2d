package jsruntime

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/internal/suggest"
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
			b.WriteString(fn.Group)
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
			out[i].Functions[j] = Function{Name: fn.Name, Group: fn.Group}
		}
	}
	return out
}

// buildBindings builds the program function's arguments for nss in the realm: each
// namespace's object, then each declared error class (console comes last; setup appends it).
// A namespace object is null-prototype, its members own, enumerable, non-writable,
// non-configurable functions, in order, a group's object (built the same way) in the place of
// its first function. The functions call the host functions of the run that owns the realm
// when they are called, so the arguments can be built before that run exists.
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
		var groups map[string]*goja.Object
		for j, fn := range ns.Functions {
			target := obj
			if fn.Group != "" {
				if target = groups[fn.Group]; target == nil {
					if groups == nil {
						groups = map[string]*goja.Object{}
					}
					target = vm.CreateObject(nil)
					groups[fn.Group] = target
					_ = obj.DefineDataProperty(fn.Group, rl.namespaceProxy(i, fn.Group, target), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
				}
			}
			f := vm.ToValue(rl.bindingFunc(i, j, class)).(*goja.Object)
			_ = f.DefineDataProperty("name", vm.ToValue(fn.Name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			_ = target.DefineDataProperty(fn.Name, f, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		}
		objects = append(objects, rl.namespaceProxy(i, "", obj))
	}
	return append(objects, classes...), nil
}

// namespaceProxy is what the program sees of namespace i's object (group "") or of the object
// of one of its groups: a proxy that reads the object unchanged and, when a lookup misses,
// records the name for the failure message of a program that calls it (see
// run.explainMissing). Looking up a missing member still gives undefined, so probing (typeof
// tools.x, tools.x?.()) keeps its meaning.
func (rl *realm) namespaceProxy(i int, group string, obj *goja.Object) *goja.Object {
	proxy := rl.vm.NewProxy(obj, &goja.ProxyTrapConfig{Get: func(target *goja.Object, name string, _ goja.Value) goja.Value {
		v := target.Get(name)
		if v == nil && rl.owner != nil {
			rl.owner.noteMissing(i, group, name)
		}
		return v
	}})
	p := rl.vm.ToValue(proxy).(*goja.Object)
	rl.namespaces = append(rl.namespaces, namespaceObject{proxy: p, target: obj})
	return p
}

// namespaceObject is a namespace's proxy and the object behind it.
type namespaceObject struct{ proxy, target *goja.Object }

// namespaceTarget returns the object behind o when o is one of the realm's namespace proxies.
func (rl *realm) namespaceTarget(o *goja.Object) (*goja.Object, bool) {
	for _, ns := range rl.namespaces {
		if ns.proxy == o {
			return ns.target, true
		}
	}
	return nil, false
}

// thrownOnLine reports whether the first frame of thrown's stack is on line of the program.
func thrownOnLine(thrown *goja.Object, line int) bool {
	stack := thrown.Get("stack")
	if isNullish(stack) {
		return false
	}
	_, frame, _ := strings.Cut(jsString(stack), "\n\tat ")
	frame, _, _ = strings.Cut(frame, "\n")
	if _, pos, ok := strings.Cut(frame, "("); ok && !strings.HasPrefix(frame, sourceFile) {
		frame = pos // "fn (main.ts:…)"
	}
	return strings.HasPrefix(frame, sourceFile+":"+strconv.Itoa(line)+":")
}

// maxMissing is how many missed lookups a run remembers for its failure message.
const maxMissing = 8

// missingMember is a lookup of a member namespace ns (or its group) lacks, on line of the
// program.
type missingMember struct {
	ns          int
	group, name string
	line        int
}

// noteMissing remembers a missed lookup of name in namespace ns, or in its group when group is
// not empty (the latest maxMissing).
func (r *run) noteMissing(ns int, group, name string) {
	if len(r.missing) == maxMissing {
		r.missing = append(r.missing[:0], r.missing[1:]...)
	}
	line := -1
	if frames := r.vm.CaptureCallStack(1, nil); len(frames) == 1 {
		if p := frames[0].Position(); p.Filename == sourceFile {
			line = p.Line
		}
	}
	r.missing = append(r.missing, missingMember{ns, group, name, line})
}

// explainMissing rewrites goja's "Object has no member 'x'", the TypeError of a call of a
// missing member, in msg (the rendering of thrown) when it follows a missed lookup of x on a
// namespace on the line where it was thrown: "tools.x is not a tool (did you mean y?)", naming
// the closest members.
func (r *run) explainMissing(thrown *goja.Object, msg string) string {
	if len(r.missing) == 0 {
		return msg
	}
	message := jsString(thrown.Get("message"))
	for i := len(r.missing) - 1; i >= 0; i-- {
		m := r.missing[i]
		if message != "Object has no member '"+m.name+"'" || !thrownOnLine(thrown, m.line) {
			continue
		}
		ns := &r.req.Bindings[m.ns]
		noun := ns.MemberNoun
		if noun == "" {
			noun = "function"
		}
		explained := memberPath(ns.Global, m.group, m.name) + " is not a " + noun + suggest.Phrase(suggest.Closest(m.name, memberNames(ns, m.group)), func(s string) string { return s })
		return strings.Replace(msg, message, explained, 1)
	}
	return msg
}

// memberNames lists the names of the members of ns's object (group "": its ungrouped functions
// and its groups) or of one of its group's objects, in order.
func memberNames(ns *Namespace, group string) []string {
	var names []string
	seen := map[string]bool{}
	for _, fn := range ns.Functions {
		switch {
		case fn.Group == group:
			names = append(names, fn.Name)
		case group == "" && !seen[fn.Group]:
			seen[fn.Group] = true
			names = append(names, fn.Group)
		}
	}
	return names
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
			reason, err := r.newError(class, memberName(fn.Group, fn.Name), withPlace(msgBadArguments, err, "argument"))
			if err != nil {
				panic(err) // uncatchable: let it unwind the VM
			}
			site := callSite{ns: r.req.Bindings[i].Global, group: fn.Group, member: fn.Name, frames: r.vm.CaptureCallStack(callSiteDepth, nil)}
			if err := r.setCallSiteStack(reason, &site); err != nil {
				panic(err)
			}
			if err := reject(reason); err != nil {
				panic(err)
			}
			return r.vm.ToValue(promise)
		}
		r.pending++
		// Where the program made the call: the rejection, created later on the loop with no
		// program frame on the stack, names it (see setCallSiteStack). Only the frames are kept
		// per call; the rest of the call site is known when it fails.
		frames := r.vm.CaptureCallStack(callSiteDepth, nil)
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
					reason, err := r.newError(class, memberName(fn.Group, fn.Name), herr.Error())
					if err != nil {
						return err
					}
					site := callSite{ns: r.req.Bindings[i].Global, group: fn.Group, member: fn.Name, frames: frames}
					if err := r.setCallSiteStack(reason, &site); err != nil {
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

// callSiteDepth bounds the frames a binding call remembers for its rejection's stack.
const callSiteDepth = 10

// callSite is where the program called a binding function: the namespace's global, the
// member's group and name, and the call stack at the call (most recent first; goja's frame of
// the binding function itself, which has no program position, among them).
type callSite struct {
	ns, group, member string
	frames            []goja.StackFrame
}

// setCallSiteStack replaces the stack of reason, a rejection created on the loop, where goja
// recorded only the error class's constructor, with the binding call and the program's frames
// at the call:
//
//	ToolCallError: <message>
//		at tools.read_file
//		at main.ts:3:17(12)
//
// so that an uncaught rejection names the call and the program's own line. It also remembers
// the call ("tools.read_file, main.ts:3:17") for the line of an unhandled rejection.
func (r *run) setCallSiteStack(reason goja.Value, site *callSite) error {
	o, ok := reason.(*goja.Object)
	if !ok {
		return nil
	}
	var b bytes.Buffer
	b.WriteString(jsString(o.Get("name")))
	if msg := jsString(o.Get("message")); msg != "" {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	where := memberPath(site.ns, site.group, site.member)
	b.WriteString("\n\tat ")
	b.WriteString(where)
	placed := false
	for i := range site.frames {
		f := &site.frames[i]
		p := f.Position()
		if p.Filename != sourceFile {
			continue // the binding function's own frame, or the realm's guards
		}
		if !placed {
			where += ", " + fixLineOneColumns(fmt.Sprintf("%s:%d:%d", sourceFile, p.Line, p.Column), r.lineOneShift)
			placed = true
		}
		b.WriteString("\n\tat ")
		f.Write(&b)
	}
	b.WriteByte('\n')
	if r.callSites == nil {
		r.callSites = map[*goja.Object]string{}
	}
	r.callSites[o] = where
	return o.DefineDataProperty("stack", r.vm.ToValue(b.String()), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// memberPath is how a program names member of the namespace global, or of its group when group
// is not empty: tools.read_file, tools.memory.read_graph, or tools["my-tool"] when a name is
// not an identifier.
func memberPath(global, group, member string) string {
	if group != "" {
		global = memberPath(global, "", group)
	}
	if isIdentifier(member) {
		return global + "." + member
	}
	return global + "[" + strconv.Quote(member) + "]"
}

// memberName is the name of a function within its namespace, as its error class's member name
// property gives it: the name, or "<group>.<name>".
func memberName(group, name string) string {
	if group == "" {
		return name
	}
	return group + "." + name
}

// isIdentifier reports whether s is an ASCII JavaScript identifier name (a conservative test:
// other names are written with brackets, which is always right).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}
