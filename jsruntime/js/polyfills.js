// The polyfills: built-ins goja lacks, evaluated by installPolyfills (prelude.go) for a run
// whose program names one of them, and called with (limits, host, want): want(name) says
// whether the program asked for that polyfill. Each captures the intrinsics it uses when it is
// installed, before the program runs.
(function (limits, host, want) {
	"use strict";
	const G = globalThis;
	const O = Object, defineProperty = O.defineProperty;
	const symbolFor = Symbol.for, toStr = String, call = host.call;
	const RangeErr = RangeError, TypeErr = TypeError, BaseError = Error, Prom = Promise;
	const trunc = Math.trunc, isArray = Array.isArray, ObjectKeys = O.keys, hasOwn = O.hasOwn;
	const iteratorSym = Symbol.iterator, AP = Array.prototype, ArrayBuffer0 = ArrayBuffer;
	const { maxElements } = limits;
	const method = (target, name, value) =>
		defineProperty(target, name, { __proto__: null, value, writable: true, enumerable: false, configurable: true });
	const toInteger = (x) => { x = +x; return x !== x ? 0 : trunc(x); };
	const arrayLength = () => new RangeErr("Invalid array length");

	// The well-known symbols esbuild's lowered async iteration and using refer to.
	for (const n of ["asyncIterator", "dispose", "asyncDispose"]) {
		if (!Symbol[n] && (want(n) || (n === "asyncIterator" && want("fromAsync")))) defineProperty(Symbol, n, { __proto__: null, value: symbolFor("Symbol." + n) });
	}
	// Map, Set, Date and RegExp are captured only for the polyfills that use them: touching them
	// makes goja build their constructors and prototypes.
	const push = AP.push, Uint8 = G.Uint8Array;
	let MapC, SetC, DateC, RegExpC, mapGet, mapSet, mapHas, setAdd, mapEntries, setValues, getTime;
	if (want("structuredClone") || want("groupBy")) {
		MapC = G.Map; SetC = G.Set; DateC = G.Date; RegExpC = G.RegExp;
		mapGet = MapC.prototype.get; mapSet = MapC.prototype.set; mapHas = MapC.prototype.has;
		setAdd = SetC.prototype.add; mapEntries = MapC.prototype.entries; setValues = SetC.prototype.values;
		getTime = DateC.prototype.getTime;
	}
	const cloneError = (msg) => { const e = new BaseError(msg); defineProperty(e, "name", { __proto__: null, value: "DataCloneError" }); return e; };

	// structuredClone for JSON-like values, Date, RegExp, Map, Set, and shared or cyclic
	// references, without recursion (deep nesting is fine).
	if (want("structuredClone")) method(G, "structuredClone", { structuredClone(value) {
		if (arguments.length === 0) throw new TypeErr("structuredClone requires 1 argument");
		const seen = new MapC();
		// The work list: sources and their copies, in two arrays indexed by hand (array
		// destructuring and for-of go through the iterator protocol, several times slower).
		const srcs = [], dsts = [];
		let pending = 0;
		const copy = (v) => {
			if (typeof v === "function") throw cloneError(toStr(v).slice(0, 60) + " could not be cloned.");
			if (typeof v === "symbol") throw cloneError("Symbol() could not be cloned.");
			if (v === null || typeof v !== "object") return v;
			if (call(mapHas, seen, v)) return call(mapGet, seen, v);
			let out;
			if (isArray(v)) out = new Array(v.length);
			else if (v instanceof DateC) out = new DateC(call(getTime, v));
			else if (v instanceof RegExpC) out = new RegExpC(v.source, v.flags);
			else if (v instanceof MapC) out = new MapC();
			else if (v instanceof SetC) out = new SetC();
			else if (v instanceof BaseError) { out = new BaseError(v.message); if (v.name !== "Error") out.name = v.name; }
			else out = {};
			call(mapSet, seen, v, out);
			srcs[pending] = v;
			dsts[pending++] = out;
			return out;
		};
		const root = copy(value);
		while (pending > 0) {
			const src = srcs[--pending], dst = dsts[pending];
			srcs[pending] = dsts[pending] = undefined;
			if (src instanceof MapC) {
				for (const [k, x] of call(mapEntries, src)) call(mapSet, dst, copy(k), copy(x));
			} else if (src instanceof SetC) {
				for (const x of call(setValues, src)) call(setAdd, dst, copy(x));
			} else if (!(src instanceof DateC) && !(src instanceof RegExpC) && !(src instanceof BaseError)) {
				const keys = ObjectKeys(src);
				for (let i = 0; i < keys.length; i++) {
					const k = keys[i];
					defineProperty(dst, k, { __proto__: null, value: copy(src[k]), writable: true, enumerable: true, configurable: true });
				}
			}
		}
		return root;
	} }.structuredClone);

	if (want("withResolvers")) method(Prom, "withResolvers", { withResolvers() {
		let resolve, reject;
		const promise = new this((a, b) => { resolve = a; reject = b; });
		return { promise, resolve, reject };
	} }.withResolvers);

	if (want("groupBy")) method(O, "groupBy", { groupBy(items, callback) {
		if (typeof callback !== "function") throw new TypeErr("callback is not a function");
		const out = O.create(null);
		let i = 0;
		for (const x of items) {
			const k = callback(x, i++);
			const key = typeof k === "symbol" ? k : toStr(k);
			if (hasOwn(out, key)) call(push, out[key], x); else out[key] = [x];
		}
		return out;
	} }.groupBy);
	if (want("groupBy")) method(G.Map, "groupBy", { groupBy(items, callback) {
		if (typeof callback !== "function") throw new TypeErr("callback is not a function");
		const out = new MapC();
		let i = 0;
		for (const x of items) {
			let k = callback(x, i++);
			if (k === 0) k = 0; // -0 to +0
			if (call(mapHas, out, k)) call(push, call(mapGet, out, k), x); else call(mapSet, out, k, [x]);
		}
		return out;
	} }.groupBy);

	if (want("fromAsync")) method(Array, "fromAsync", { async fromAsync(items, mapFn = undefined, thisArg = undefined) {
		if (mapFn !== undefined && typeof mapFn !== "function") throw new TypeErr("mapFn is not a function");
		if (items === null || items === undefined) throw new TypeErr("items is not iterable");
		const out = [];
		const add = async (v, i) => call(push, out, mapFn === undefined ? v : await call(mapFn, thisArg, v, i));
		const asyncIt = items[Symbol.asyncIterator];
		if (asyncIt != null || items[iteratorSym] != null) {
			const it = asyncIt != null ? call(asyncIt, items) : call(items[iteratorSym], items);
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

	if (want("queueMicrotask")) method(G, "queueMicrotask", { queueMicrotask(callback) {
		if (typeof callback !== "function") throw new TypeErr("The \"callback\" argument must be of type function.");
		Prom.resolve().then(() => callback());
	} }.queueMicrotask);

	const atob0 = host.atob, btoa0 = host.btoa, encode0 = host.utf8Encode, decode0 = host.utf8Decode;
	if (want("atob")) method(G, "atob", { atob(data) {
		if (arguments.length === 0) throw new TypeErr("atob requires 1 argument");
		return atob0(toStr(data));
	} }.atob);
	if (want("btoa")) method(G, "btoa", { btoa(data) {
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
	if (want("TextEncoder")) method(G, "TextEncoder", TextEncoder);
	if (want("TextDecoder")) method(G, "TextDecoder", TextDecoder);

});
