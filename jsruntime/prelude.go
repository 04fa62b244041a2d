package jsruntime

import (
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
)

// regexpTimeoutOnce guards the one process-wide setting this package makes.
//
// regexp2 (goja's engine for patterns Go's RE2 cannot run) reads its package variable
// DefaultMatchTimeout when a pattern is compiled, and goja offers no per-runtime knob: the
// compiled regexp is private to goja. So New sets DefaultMatchTimeout exactly once, through this
// sync.Once, before any of its runs can compile a pattern: every run of every runtime starts
// after some New returned, so the write happens-before every read this package causes. Other
// code in the process that uses regexp2 (or goja) directly and concurrently with the first New
// would race with that write, and its patterns get the timeout too.
var regexpTimeoutOnce sync.Once

func setRegexpTimeout() {
	regexpTimeoutOnce.Do(func() { regexp2.DefaultMatchTimeout = RegexpMatchTimeout })
}

// Messages of the guards.
const (
	msgRegexpTimeout = "regular expression match exceeded the %dms match timeout: %s"
	msgDisposed      = "runtime disposed"
)

// oneStepLimits are the size caps of built-ins that allocate in one native step, derived from
// the heap bound: one step may allocate at most a quarter of it.
func oneStepLimits(maxHeap int64) (maxString, maxElements, maxBytes int64) {
	step := max(maxHeap/4, 1<<20)
	return step, step / 16, step
}

// installPrelude runs the prelude in the fresh VM: size guards, the missing built-ins, the
// regexp timeout check, and it returns the error-class factory. Everything it installs is built
// from intrinsics captured before the program runs.
func (r *run) installPrelude() (goja.Callable, error) {
	vm := r.vm
	if err := r.guardRegexps(); err != nil {
		return nil, err
	}
	maxString, maxElements, maxBytes := oneStepLimits(r.cfg.MaxHeapBytes)
	limits := vm.NewObject()
	_ = limits.Set("maxString", maxString)
	_ = limits.Set("maxElements", maxElements)
	_ = limits.Set("maxBytes", maxBytes)
	host := vm.NewObject()
	_ = host.Set("atob", r.atob)
	_ = host.Set("btoa", r.btoa)
	_ = host.Set("utf8Encode", r.utf8Encode)
	_ = host.Set("utf8Decode", r.utf8Decode)
	fnValue, err := vm.RunProgram(r.prelude)
	if err != nil {
		return nil, err
	}
	fn, ok := goja.AssertFunction(fnValue)
	if !ok {
		return nil, fmt.Errorf("jsruntime: prelude did not return a function")
	}
	factory, err := fn(goja.Undefined(), limits, host)
	if err != nil {
		return nil, err
	}
	makeErrorClass, ok := goja.AssertFunction(factory)
	if !ok {
		return nil, fmt.Errorf("jsruntime: prelude did not return a function")
	}
	return makeErrorClass, nil
}

// guardRegexps replaces RegExp.prototype.exec and test with Go wrappers around the originals
// that turn a match timeout into a thrown RangeError. goja discards regexp2's timeout error and
// reports "no match", so a failed match that took at least RegexpMatchTimeout is taken to be a
// timeout. With exec replaced, goja's String and Symbol.* regexp methods take their generic
// path, which calls exec, so every match in the realm goes through the wrapper; the originals
// are held only here, out of the program's reach.
func (r *run) guardRegexps() error {
	vm := r.vm
	proto, ok := vm.GlobalObject().Get("RegExp").(*goja.Object).Get("prototype").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: RegExp.prototype is missing")
	}
	for _, name := range []string{"exec", "test"} {
		orig, ok := goja.AssertFunction(proto.Get(name))
		if !ok {
			return fmt.Errorf("jsruntime: RegExp.prototype.%s is missing", name)
		}
		wrapper := vm.ToValue(func(call goja.FunctionCall) goja.Value {
			start := time.Now()
			res, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			if (goja.IsNull(res) || res == goja.Value(vm.ToValue(false))) && time.Since(start) >= RegexpMatchTimeout {
				pattern := "?"
				if o, ok := call.This.(*goja.Object); ok {
					if s := o.Get("source"); s != nil {
						pattern = "/" + s.String() + "/"
					}
				}
				msg := fmt.Sprintf(msgRegexpTimeout, RegexpMatchTimeout.Milliseconds(), pattern)
				e, err := vm.New(r.intr.rangeErrorCtor, vm.ToValue(msg))
				if err != nil {
					panic(err)
				}
				panic(e)
			}
			return res
		}).(*goja.Object)
		_ = wrapper.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		_ = wrapper.DefineDataProperty("length", vm.ToValue(1), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		if err := proto.DefineDataProperty(name, wrapper, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	return nil
}

// throwDOM throws an Error named name, as a DOMException would be.
func (r *run) throwDOM(name, message string) {
	e, err := r.vm.New(r.intr.errorCtor, r.vm.ToValue(message))
	if err != nil {
		panic(err)
	}
	_ = e.DefineDataProperty("name", r.vm.ToValue(name), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	panic(e)
}

// btoa encodes a string of Latin-1 characters as base64.
func (r *run) btoa(call goja.FunctionCall) goja.Value {
	s := call.Argument(0).String()
	b := make([]byte, 0, len(s))
	for _, c := range s {
		if c > 0xFF {
			r.throwDOM("InvalidCharacterError", "Invalid character")
		}
		b = append(b, byte(c))
	}
	return r.vm.ToValue(base64.StdEncoding.EncodeToString(b))
}

// atob decodes forgiving base64 (ASCII whitespace ignored, padding optional) to a Latin-1 string.
func (r *run) atob(call goja.FunctionCall) goja.Value {
	s := strings.Map(func(c rune) rune {
		if c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' {
			return -1
		}
		return c
	}, call.Argument(0).String())
	if len(s)%4 == 0 {
		s = strings.TrimSuffix(strings.TrimSuffix(s, "="), "=")
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil || len(s)%4 == 1 {
		r.throwDOM("InvalidCharacterError", "The string to be decoded is not correctly encoded.")
	}
	var sb strings.Builder
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return r.vm.ToValue(sb.String())
}

// utf8Encode returns the UTF-8 bytes of a string (lone surrogates become U+FFFD) in a new
// ArrayBuffer.
func (r *run) utf8Encode(call goja.FunctionCall) goja.Value {
	return r.vm.ToValue(r.vm.NewArrayBuffer([]byte(call.Argument(0).String())))
}

// utf8Decode decodes bytes [offset, offset+length) of an ArrayBuffer as UTF-8. fatal makes
// invalid input a TypeError; otherwise each invalid byte becomes U+FFFD. A leading BOM is
// dropped unless ignoreBOM.
func (r *run) utf8Decode(call goja.FunctionCall) goja.Value {
	buf, ok := call.Argument(0).Export().(goja.ArrayBuffer)
	if !ok {
		panic(r.vm.NewTypeError("The provided value is not of type '(ArrayBuffer or ArrayBufferView)'"))
	}
	data := buf.Bytes()
	off, n := call.Argument(1).ToInteger(), call.Argument(2).ToInteger()
	if off < 0 || n < 0 || off+n > int64(len(data)) {
		panic(r.vm.NewTypeError("invalid view"))
	}
	b := data[off : off+n]
	if !call.Argument(4).ToBoolean() {
		b = bytesTrimBOM(b)
	}
	if utf8.Valid(b) {
		return r.vm.ToValue(string(b))
	}
	if call.Argument(3).ToBoolean() {
		panic(r.vm.NewTypeError("The encoded data was not valid for encoding utf-8"))
	}
	return r.vm.ToValue(strings.ToValidUTF8(string(b), "\uFFFD"))
}

func bytesTrimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// preludeSource evaluates to a function of (limits, host) that runs once per run before the
// program. It polyfills the well-known symbols esbuild's lowered async iteration and `using`
// need, installs size guards on the built-ins that allocate in one native step, adds the
// commonly used built-ins goja lacks, and returns a factory for the injected error classes.
// Everything is built from intrinsics captured here, before the program can change them.
const preludeSource = `(function (limits, host) {
	"use strict";
	const G = globalThis;
	const O = Object, defineProperty = O.defineProperty, getPrototypeOf = O.getPrototypeOf;
	const symbolFor = Symbol.for, toStr = String, apply = Reflect.apply, construct = Reflect.construct;
	const RangeErr = RangeError, TypeErr = TypeError, BaseError = Error, P = Proxy, Prom = Promise;
	const trunc = Math.trunc, isArray = Array.isArray, ObjectKeys = O.keys, hasOwn = O.hasOwn;
	const iteratorSym = Symbol.iterator;
	const { maxString, maxElements, maxBytes } = limits;

	// Define as a built-in method would be: writable, non-enumerable, configurable.
	const method = (target, name, value) =>
		defineProperty(target, name, { __proto__: null, value, writable: true, enumerable: false, configurable: true });

	for (const n of ["asyncIterator", "dispose", "asyncDispose"]) {
		if (!Symbol[n]) defineProperty(Symbol, n, { __proto__: null, value: symbolFor("Symbol." + n) });
	}

	const toInteger = (x) => { x = +x; return x !== x ? 0 : trunc(x); };
	const stringLength = () => new RangeErr("Invalid string length");
	const arrayLength = () => new RangeErr("Invalid array length");
	const thisString = (self, name) => {
		if (self === null || self === undefined) throw new TypeErr("String.prototype." + name + " called on null or undefined");
		return toStr(self);
	};

	// --- Size guards on built-ins that allocate in one native step ---
	const SP = String.prototype, AP = Array.prototype;
	const repeat0 = SP.repeat, padStart0 = SP.padStart, padEnd0 = SP.padEnd;
	const join0 = AP.join, fill0 = AP.fill, from0 = Array.from;
	method(SP, "repeat", { repeat(count) {
		const s = thisString(this, "repeat"), n = toInteger(count);
		if (n > 0 && n !== Infinity && s.length * n > maxString) throw stringLength();
		return apply(repeat0, s, [n]);
	} }.repeat);
	const pad = (pad0, name) => ({ [name](maxLength, fillString = undefined) {
		const s = thisString(this, name), n = toInteger(maxLength);
		const f = fillString === undefined ? undefined : toStr(fillString);
		if (n > s.length && n > maxString && f !== "") throw stringLength();
		return apply(pad0, s, f === undefined ? [n] : [n, f]);
	} })[name];
	method(SP, "padStart", pad(padStart0, "padStart"));
	method(SP, "padEnd", pad(padEnd0, "padEnd"));
	method(AP, "join", { join(separator) {
		if (this === null || this === undefined) throw new TypeErr("Array.prototype.join called on null or undefined");
		const o = O(this), len = toInteger(o.length);
		const sep = separator === undefined ? "," : toStr(separator);
		if (len > maxElements || (len > 1 && (len - 1) * sep.length > maxString)) throw stringLength();
		return apply(join0, o, [sep]);
	} }.join);
	method(AP, "fill", { fill(value, start = undefined, end = undefined) {
		if (this === null || this === undefined) throw new TypeErr("Array.prototype.fill called on null or undefined");
		const o = O(this), len = toInteger(o.length);
		let s = toInteger(start), e = end === undefined ? len : toInteger(end);
		s = s < 0 ? Math.max(len + s, 0) : Math.min(s, len);
		e = e < 0 ? Math.max(len + e, 0) : Math.min(e, len);
		if (e - s > maxElements) throw arrayLength();
		return apply(fill0, o, [value, s, e]);
	} }.fill);
	method(Array, "from", { from(items, mapFn = undefined, thisArg = undefined) {
		if (items !== null && items !== undefined) {
			const len = O(items).length;
			if (typeof len === "number" && len > maxElements) throw arrayLength();
		}
		return apply(from0, this, [items, mapFn, thisArg]);
	} }.from);

	// Typed arrays and ArrayBuffer: proxies whose construct trap checks the byte length. Each
	// prototype's constructor points at the proxy, so ta.constructor cannot reach the original.
	const guardCtor = (name, bytesPer) => {
		const C = G[name];
		if (typeof C !== "function") return;
		const isBuffer = name === "ArrayBuffer";
		const guarded = new P(C, { __proto__: null, construct(target, args, newTarget) {
			const a = args[0];
			let n = 0;
			if (isBuffer || a === null || typeof a !== "object") n = toInteger(a);
			else if (!(a instanceof ArrayBuffer0)) { const l = a.length; n = typeof l === "number" ? l : 0; }
			if (n * bytesPer > maxBytes) throw new RangeErr(isBuffer ? "Array buffer allocation failed" : "Invalid typed array length: " + n);
			return construct(target, args, newTarget === guarded ? target : newTarget);
		} });
		defineProperty(C.prototype, "constructor", { __proto__: null, value: guarded, writable: true, enumerable: false, configurable: true });
		method(G, name, guarded);
	};
	const ArrayBuffer0 = ArrayBuffer;
	guardCtor("ArrayBuffer", 1);
	for (const [n, b] of [["Int8Array", 1], ["Uint8Array", 1], ["Uint8ClampedArray", 1], ["Int16Array", 2],
		["Uint16Array", 2], ["Float16Array", 2], ["Int32Array", 4], ["Uint32Array", 4], ["Float32Array", 4],
		["Float64Array", 8], ["BigInt64Array", 8], ["BigUint64Array", 8]]) guardCtor(n, b);
	const Uint8 = G.Uint8Array;

	// --- Built-ins goja lacks ---
	// Map, Set, Date and RegExp are captured when a polyfill first needs them, not here: touching
	// them makes goja build their constructors and prototypes, which cost more than the rest of a
	// trivial run. A program that changed them first only changes its own polyfill's behaviour.
	const push = AP.push, pop = AP.pop;
	let MapC, SetC, DateC, RegExpC, mapGet, mapSet, mapHas, setAdd, mapEntries, setValues, getTime;
	const intrinsics = () => {
		if (MapC !== undefined) return;
		MapC = G.Map; SetC = G.Set; DateC = G.Date; RegExpC = G.RegExp;
		mapGet = MapC.prototype.get; mapSet = MapC.prototype.set; mapHas = MapC.prototype.has;
		setAdd = SetC.prototype.add; mapEntries = MapC.prototype.entries; setValues = SetC.prototype.values;
		getTime = DateC.prototype.getTime;
	};
	const cloneError = (msg) => { const e = new BaseError(msg); defineProperty(e, "name", { __proto__: null, value: "DataCloneError" }); return e; };

	// structuredClone for JSON-like values, Date, RegExp, Map, Set, and shared or cyclic
	// references, without recursion (deep nesting is fine).
	method(G, "structuredClone", { structuredClone(value) {
		if (arguments.length === 0) throw new TypeErr("structuredClone requires 1 argument");
		intrinsics();
		const seen = new MapC();
		const work = [];
		const copy = (v) => {
			if (typeof v === "function") throw cloneError(toStr(v).slice(0, 60) + " could not be cloned.");
			if (typeof v === "symbol") throw cloneError("Symbol() could not be cloned.");
			if (v === null || typeof v !== "object") return v;
			if (apply(mapHas, seen, [v])) return apply(mapGet, seen, [v]);
			let out;
			if (isArray(v)) out = new Array(v.length);
			else if (v instanceof DateC) out = new DateC(apply(getTime, v, []));
			else if (v instanceof RegExpC) out = new RegExpC(v.source, v.flags);
			else if (v instanceof MapC) out = new MapC();
			else if (v instanceof SetC) out = new SetC();
			else if (v instanceof BaseError) { out = new BaseError(v.message); if (v.name !== "Error") out.name = v.name; }
			else out = {};
			apply(mapSet, seen, [v, out]);
			apply(push, work, [[v, out]]);
			return out;
		};
		const root = copy(value);
		while (work.length) {
			const [src, dst] = apply(pop, work, []);
			if (src instanceof MapC) {
				for (const [k, x] of apply(mapEntries, src, [])) apply(mapSet, dst, [copy(k), copy(x)]);
			} else if (src instanceof SetC) {
				for (const x of apply(setValues, src, [])) apply(setAdd, dst, [copy(x)]);
			} else if (!(src instanceof DateC) && !(src instanceof RegExpC) && !(src instanceof BaseError)) {
				for (const k of ObjectKeys(src)) defineProperty(dst, k, { __proto__: null, value: copy(src[k]), writable: true, enumerable: true, configurable: true });
			}
		}
		return root;
	} }.structuredClone);

	method(Prom, "withResolvers", { withResolvers() {
		let resolve, reject;
		const promise = new this((a, b) => { resolve = a; reject = b; });
		return { promise, resolve, reject };
	} }.withResolvers);

	method(O, "groupBy", { groupBy(items, callback) {
		if (typeof callback !== "function") throw new TypeErr("callback is not a function");
		const out = O.create(null);
		let i = 0;
		for (const x of items) {
			const k = callback(x, i++);
			const key = typeof k === "symbol" ? k : toStr(k);
			if (hasOwn(out, key)) apply(push, out[key], [x]); else out[key] = [x];
		}
		return out;
	} }.groupBy);
	method(G.Map, "groupBy", { groupBy(items, callback) {
		if (typeof callback !== "function") throw new TypeErr("callback is not a function");
		intrinsics();
		const out = new MapC();
		let i = 0;
		for (const x of items) {
			let k = callback(x, i++);
			if (k === 0) k = 0; // -0 to +0
			if (apply(mapHas, out, [k])) apply(push, apply(mapGet, out, [k]), [x]); else apply(mapSet, out, [k, [x]]);
		}
		return out;
	} }.groupBy);

	method(Array, "fromAsync", { async fromAsync(items, mapFn = undefined, thisArg = undefined) {
		if (mapFn !== undefined && typeof mapFn !== "function") throw new TypeErr("mapFn is not a function");
		if (items === null || items === undefined) throw new TypeErr("items is not iterable");
		const out = [];
		const add = async (v, i) => apply(push, out, [mapFn === undefined ? v : await apply(mapFn, thisArg, [v, i])]);
		const asyncIt = items[Symbol.asyncIterator];
		if (asyncIt != null || items[iteratorSym] != null) {
			const it = asyncIt != null ? apply(asyncIt, items, []) : apply(items[iteratorSym], items, []);
			for (let i = 0; ; i++) {
				const r = await it.next();
				if (r.done) break;
				await add(asyncIt != null ? r.value : await r.value, i);
			}
		} else {
			const o = O(items), len = toInteger(o.length);
			if (len > maxElements) throw arrayLength();
			for (let i = 0; i < len; i++) await add(await o[i], i);
		}
		return out;
	} }.fromAsync);

	method(G, "queueMicrotask", { queueMicrotask(callback) {
		if (typeof callback !== "function") throw new TypeErr("The \"callback\" argument must be of type function.");
		Prom.resolve().then(() => callback());
	} }.queueMicrotask);

	const atob0 = host.atob, btoa0 = host.btoa, encode0 = host.utf8Encode, decode0 = host.utf8Decode;
	method(G, "atob", { atob(data) {
		if (arguments.length === 0) throw new TypeErr("atob requires 1 argument");
		return atob0(toStr(data));
	} }.atob);
	method(G, "btoa", { btoa(data) {
		if (arguments.length === 0) throw new TypeErr("btoa requires 1 argument");
		return btoa0(toStr(data));
	} }.btoa);

	class TextEncoder {
		get encoding() { return "utf-8"; }
		encode(input = "") { return new Uint8(encode0(toStr(input))); }
		encodeInto(source, destination) {
			const s = toStr(source);
			let read = 0, written = 0;
			for (const ch of s) {
				const bytes = new Uint8(encode0(ch));
				if (written + bytes.length > destination.length) break;
				for (let i = 0; i < bytes.length; i++) destination[written + i] = bytes[i];
				written += bytes.length;
				read += ch.length;
			}
			return { read, written };
		}
	}
	const labels = ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"];
	class TextDecoder {
		#fatal; #ignoreBOM;
		constructor(label = "utf-8", options = undefined) {
			const l = toStr(label).trim().toLowerCase();
			if (!labels.includes(l)) throw new RangeErr("The encoding label provided ('" + toStr(label) + "') is invalid.");
			this.#fatal = !!(options && options.fatal);
			this.#ignoreBOM = !!(options && options.ignoreBOM);
		}
		get encoding() { return "utf-8"; }
		get fatal() { return this.#fatal; }
		get ignoreBOM() { return this.#ignoreBOM; }
		decode(input = undefined) {
			if (input === undefined) return "";
			if (input instanceof ArrayBuffer0) return decode0(input, 0, input.byteLength, this.#fatal, this.#ignoreBOM);
			const buffer = input && input.buffer;
			if (!(buffer instanceof ArrayBuffer0)) throw new TypeErr("The \"input\" argument must be an instance of ArrayBuffer or ArrayBufferView.");
			return decode0(buffer, input.byteOffset, input.byteLength, this.#fatal, this.#ignoreBOM);
		}
	}
	method(G, "TextEncoder", TextEncoder);
	method(G, "TextDecoder", TextDecoder);

	return function makeErrorClass(name, member) {
		const C = class extends BaseError {
			constructor(memberName, message) {
				super(message);
				defineProperty(this, "name", { __proto__: null, value: name, enumerable: true });
				defineProperty(this, member, { __proto__: null, value: toStr(memberName), enumerable: true });
			}
		};
		defineProperty(C, "name", { __proto__: null, value: name });
		return C;
	};
})`
