package jsruntime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/internal/suggest"
	"github.com/runcode-dev/runcode/jsonv"
)

// buildBindings builds the program function's arguments for bound in the realm: each
// namespace's object, then each declared error class (console comes last; setup appends it).
// The functions call the host functions of the run that owns the realm when they are called, so
// the arguments can be built before that run exists. Building costs the same whatever the
// number of functions: see lazyObject.
func (rl *realm) buildBindings(bound []boundNamespace) ([]goja.Value, error) {
	vm := rl.vm
	objects := make([]goja.Value, 0, len(bound))
	var classes []goja.Value
	var named map[string]*goja.Object // the classes made so far, for namespaces that share one
	for i := range bound {
		ns := &bound[i]
		var class *goja.Object
		if ec := ns.errorClass; ec != nil {
			class = named[ec.Name]
			if class == nil {
				c, err := rl.makeErrorClass(goja.Undefined(), vm.ToValue(ec.Name), vm.ToValue(ec.MemberNameProperty))
				if err != nil {
					return nil, err
				}
				class = c.(*goja.Object)
				classes = append(classes, class)
				if named == nil {
					named = map[string]*goja.Object{}
				}
				named[ec.Name] = class
			}
		}
		objects = append(objects, rl.newLazyObject(i, ns.members, ns.members.top, class).proxy)
	}
	return append(objects, classes...), nil
}

// lazyObject is a namespace's object, or a group's, as the program sees it: a proxy whose Go
// traps build a member (a binding function, or a group's object) the first time the program
// reads it, over a null-prototype target that holds the members built so far. What the program
// can observe is the object an eager build would give: a null prototype; own, enumerable,
// non-writable, non-configurable members, listed in an ordinary object's order (array indices
// ascending, then the rest in declaration order); extensible, like an ordinary object.
//
// Reading a member (get), testing one (in), and describing one (getOwnPropertyDescriptor) build
// at most that member. Listing the keys, and any change (set, defineProperty, delete,
// preventExtensions), build all of them, after which the target is complete and every trap but
// get and ownKeys is dropped, so goja's own object semantics apply. A lookup that misses is
// recorded for the failure message of a program that calls it (see run.explainMissing);
// looking up a missing member still gives undefined, so probing (typeof tools.x, tools.x?.())
// keeps its meaning.
type lazyObject struct {
	rl      *realm
	ns      int
	members *Members
	lvl     *level
	class   *goja.Object
	target  *goja.Object
	proxy   *goja.Object
	traps   *goja.ProxyTrapConfig
	built   map[int]goja.Value // by position, once built (a map: a run builds few)
}

func (rl *realm) newLazyObject(ns int, members *Members, lvl *level, class *goja.Object) *lazyObject {
	lo := &lazyObject{rl: rl, ns: ns, members: members, lvl: lvl, class: class, target: rl.vm.CreateObject(nil)}
	lo.traps = &goja.ProxyTrapConfig{
		Get:                      lo.get,
		Has:                      lo.has,
		GetOwnPropertyDescriptor: lo.describe,
		OwnKeys:                  lo.ownKeys,
		Set:                      lo.set,
		DefineProperty:           lo.defineProperty,
		DeleteProperty:           lo.deleteProperty,
		PreventExtensions:        lo.preventExtensions,
	}
	if lo.isComplete() {
		lo.complete()
	}
	lo.proxy = rl.vm.ToValue(rl.vm.NewProxy(lo.target, lo.traps)).(*goja.Object)
	rl.namespaces = append(rl.namespaces, lo.proxy)
	return lo
}

// build returns the member at pos, building it (and defining it on the target) the first time.
func (lo *lazyObject) build(pos int) goja.Value {
	if v, ok := lo.built[pos]; ok {
		return v
	}
	var v goja.Value
	if slot := lo.lvl.slots[pos]; slot >= 0 {
		f := lo.rl.vm.ToValue(lo.rl.bindingFunc(lo.ns, slot, lo.class)).(*goja.Object)
		_ = f.DefineDataProperty("name", lo.rl.vm.ToValue(lo.lvl.names[pos]), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		v = f
	} else {
		v = lo.rl.newLazyObject(lo.ns, lo.members, lo.members.groups[-1-slot], lo.class).proxy
	}
	_ = lo.target.DefineDataProperty(lo.lvl.names[pos], v, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	if lo.built == nil {
		lo.built = map[int]goja.Value{}
	}
	lo.built[pos] = v
	if lo.isComplete() {
		// The changes' traps make the change through the proxy itself, which must no longer
		// trap it: however the last member came to be built, the target is complete now.
		lo.complete()
	}
	return v
}

// isComplete reports whether every member has been built.
func (lo *lazyObject) isComplete() bool { return len(lo.built) == len(lo.lvl.names) }

// buildAll builds every member, completing the target.
func (lo *lazyObject) buildAll() {
	if lo.isComplete() {
		return
	}
	for pos := range lo.lvl.names {
		lo.build(pos)
	}
	lo.complete()
}

// complete drops the traps a complete target answers as an ordinary object would. get stays,
// to record missed lookups, and ownKeys, for the order.
func (lo *lazyObject) complete() {
	*lo.traps = goja.ProxyTrapConfig{Get: lo.get, OwnKeys: lo.ownKeys}
}

func (lo *lazyObject) get(target *goja.Object, name string, _ goja.Value) goja.Value {
	if pos, ok := lo.lvl.index[name]; ok {
		return lo.build(pos)
	}
	v := target.Get(name)
	if v == nil && lo.rl.owner != nil {
		lo.rl.owner.noteMissing(lo.ns, lo.lvl, name)
	}
	return v
}

// has answers for an incomplete target, to which nothing but members has been added (any change
// completes it first).
func (lo *lazyObject) has(_ *goja.Object, name string) bool {
	_, ok := lo.lvl.index[name]
	return ok
}

func (lo *lazyObject) describe(_ *goja.Object, name string) goja.PropertyDescriptor {
	pos, ok := lo.lvl.index[name]
	if !ok {
		return goja.PropertyDescriptor{} // undefined: nothing but members is there yet
	}
	return goja.PropertyDescriptor{Value: lo.build(pos), Writable: goja.FLAG_FALSE, Enumerable: goja.FLAG_TRUE, Configurable: goja.FLAG_FALSE}
}

// ownKeys lists the members in an ordinary object's order, then the keys the program added, in
// the target's order.
func (lo *lazyObject) ownKeys(target *goja.Object) *goja.Object {
	lo.buildAll()
	keys := make([]any, 0, len(lo.lvl.names))
	for _, pos := range lo.lvl.keys {
		keys = append(keys, lo.lvl.names[pos])
	}
	if names := target.GetOwnPropertyNames(); len(names) > len(lo.lvl.names) {
		for _, name := range names {
			if _, member := lo.lvl.index[name]; !member {
				keys = append(keys, name)
			}
		}
	}
	for _, sym := range target.Symbols() {
		keys = append(keys, sym)
	}
	return lo.rl.vm.NewArray(keys...)
}

// The changes complete the target, then make the change through the proxy, which no longer
// traps it: what a change that fails throws is goja's own TypeError ("Cannot assign to read
// only property 'x'"). Only the Reflect forms that return false instead of throwing differ, and
// only for the first change of an object: that one throws too.

func (lo *lazyObject) set(_ *goja.Object, name string, value, receiver goja.Value) bool {
	lo.buildAll()
	// An assignment to an object that inherits from the namespace is made again on that object:
	// it reaches the proxy, which no longer traps it, and creates the property on the object.
	o, ok := receiver.(*goja.Object)
	if !ok {
		o = lo.proxy
	}
	rethrow(o.Set(name, value))
	return true
}

func (lo *lazyObject) defineProperty(_ *goja.Object, name string, desc goja.PropertyDescriptor) bool {
	lo.buildAll()
	if desc.IsAccessor() {
		rethrow(lo.proxy.DefineAccessorProperty(name, desc.Getter, desc.Setter, desc.Configurable, desc.Enumerable))
	} else {
		rethrow(lo.proxy.DefineDataProperty(name, desc.Value, desc.Writable, desc.Configurable, desc.Enumerable))
	}
	return true
}

func (lo *lazyObject) deleteProperty(_ *goja.Object, name string) bool {
	lo.buildAll()
	rethrow(lo.proxy.Delete(name))
	return true
}

// rethrow throws err, an exception goja's API returned, in the program.
func rethrow(err error) {
	if err != nil {
		panic(err)
	}
}

func (lo *lazyObject) preventExtensions(*goja.Object) bool {
	lo.buildAll()
	_, err := lo.rl.intr.preventExtensions(goja.Undefined(), lo.proxy)
	return err == nil
}

// isNamespace reports whether o is one of the realm's namespace (or group) objects.
func (rl *realm) isNamespace(o *goja.Object) bool {
	return slices.Contains(rl.namespaces, o)
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

// missingMember is a lookup of a member the object lvl of namespace ns lacks, on line of the
// program.
type missingMember struct {
	ns   int
	lvl  *level
	name string
	line int
}

// noteMissing remembers a missed lookup of name in the object lvl of namespace ns (the latest
// maxMissing).
func (r *run) noteMissing(ns int, lvl *level, name string) {
	if len(r.missing) == maxMissing {
		r.missing = append(r.missing[:0], r.missing[1:]...)
	}
	line := -1
	if frames := r.vm.CaptureCallStack(1, nil); len(frames) == 1 {
		if p := frames[0].Position(); p.Filename == sourceFile {
			line = p.Line
		}
	}
	r.missing = append(r.missing, missingMember{ns, lvl, name, line})
}

// explainMissing rewrites "….x is not a function", the TypeError of a call of a missing member
// (V8's message, which runcode's goja gives; "Object has no member 'x'" where goja cannot name
// the callee), in msg (the rendering of thrown) when it follows a missed lookup of x on a
// namespace on the line where it was thrown: "tools.x is not a tool (did you mean y?)", naming
// the closest members.
func (r *run) explainMissing(thrown *goja.Object, msg string) string {
	if len(r.missing) == 0 {
		return msg
	}
	message := jsString(thrown.Get("message"))
	for i := len(r.missing) - 1; i >= 0; i-- {
		m := r.missing[i]
		callee, isCall := strings.CutSuffix(message, " is not a function")
		named := isCall && strings.HasSuffix(callee, "."+m.name) || message == "Object has no member '"+m.name+"'"
		if !named || !thrownOnLine(thrown, m.line) {
			continue
		}
		ns := &r.bound[m.ns]
		noun := ns.noun
		if noun == "" {
			noun = "function"
		}
		explained := memberPath(ns.global, m.lvl.group, m.name) + " is not a " + noun + suggest.Phrase(suggest.Closest(m.name, m.lvl.names), func(s string) string { return s })
		return strings.Replace(msg, message, explained, 1)
	}
	return msg
}

// bindingFunc is the JavaScript side of function j of namespace i: it converts its one
// argument to JSON as JSON.stringify does (see converter.convert; none is {}), calls the host
// function synchronously, and returns a promise that the host's settle callback settles through
// the loop. It never throws. A host that settles with the Undefined value and no error rejects
// the promise, as for any resolution that is not lossless JSON.
func (rl *realm) bindingFunc(i, j int, class *goja.Object) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		r := rl.owner
		ns := &r.bound[i]
		fn := ns.members.list[j]
		promise, resolve, reject := r.vm.NewPromise()
		place := "argument"
		var conv conversion
		if ns.positional {
			place = "arguments"
			conv = r.exportJSON(r.vm.NewArray(argumentsOf(call)...))
		} else {
			conv = r.exportJSON(call.Argument(0))
		}
		if err := conv.err; err != nil {
			msg := withPlace(msgBadArguments, err, place)
			if errors.Is(err, errOverBudget) {
				maxString, _, _ := oneStepLimits(r.cfg.MaxHeapBytes)
				msg = fmt.Sprintf("%s: argument: its JSON is longer than %d bytes", msgBadArguments, maxString)
			}
			reason, err := r.callRejection(class, ns.global, fn, r.vm.CaptureCallStack(callSiteDepth, nil), msg, "")
			if err != nil {
				panic(err) // uncatchable: let it unwind the VM
			}
			if err := reject(reason); err != nil {
				panic(err)
			}
			return r.vm.ToValue(promise)
		}
		arg := conv.value
		if !arg.IsDefined() {
			arg = jsonv.ObjectValue() // f() is f({})
		}
		r.addNote(conv.note(place, memberPath(ns.global, fn.Group, fn.Name)))
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
			if herr == nil && (v.IsDefined() || !ns.undefinedOK) {
				herr = incomingError(v)
			}
			r.post(func() error {
				r.pending--
				if herr != nil {
					reason, err := r.callRejection(class, ns.global, fn, frames, herr.Error(), errorCode(herr))
					if err != nil {
						return err
					}
					return reject(reason)
				}
				return resolve(r.toJS(v))
			})
		}
		ns.dispatch(r.host, ns.call, j, arg, settle)
		return r.vm.ToValue(promise)
	}
}

// argumentsOf returns the arguments of call as values for a new array.
func argumentsOf(call goja.FunctionCall) []any {
	args := make([]any, len(call.Arguments))
	for i, a := range call.Arguments {
		args[i] = a
	}
	return args
}

// dispatch calls d, one of ns's host functions, for member j. A host function that panics
// settles its call with an error naming the function instead of taking the host down.
func (ns *boundNamespace) dispatch(ctx context.Context, d Dispatch, j int, args jsonv.Value, settle func(jsonv.Value, error)) {
	defer func() {
		if p := recover(); p != nil {
			settle(jsonv.Value{}, fmt.Errorf("binding %q failed: %v", ns.members.list[j].Name, p))
		}
	}()
	d(ctx, j, args, settle)
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

// callRejection constructs the rejection reason of a call of fn, a member of the namespace
// global, made where frames say: its error (see newError) with the call site's stack (see
// setCallSiteStack) and, when code is not empty, an own read-only enumerable "code" property
// (see CodedError).
func (r *run) callRejection(class *goja.Object, global string, fn Member, frames []goja.StackFrame, message, code string) (goja.Value, error) {
	reason, err := r.newError(class, memberName(fn.Group, fn.Name), message)
	if err != nil {
		return nil, err
	}
	if o, ok := reason.(*goja.Object); ok && code != "" {
		if err := o.DefineDataProperty("code", r.vm.ToValue(code), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return nil, err
		}
	}
	site := callSite{ns: global, group: fn.Group, member: fn.Name, frames: frames}
	if err := r.setCallSiteStack(reason, &site); err != nil {
		return nil, err
	}
	return reason, nil
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
