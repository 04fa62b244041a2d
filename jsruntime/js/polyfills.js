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

	// --- Timers (timers.go schedules them on the run's loop) ---
	const timerAdd = host.timerAdd, timerClear = host.timerClear, timerRef = host.timerRef, timerRefresh = host.timerRefresh;
	const toPrimitiveSym = Symbol.toPrimitive, toStringTagSym = Symbol.toStringTag;
	// received describes a value as Node's ERR_INVALID_ARG_TYPE messages do.
	const received = (v) => {
		if (v === null || v === undefined) return " Received " + v;
		if (typeof v === "function") return " Received function " + (v.name || "<anonymous>");
		if (typeof v === "object") {
			const c = v.constructor;
			return c && typeof c === "function" && c.name ? " Received an instance of " + c.name : " Received " + toStr(v);
		}
		let shown = typeof v === "string" ? v : typeof v === "symbol" ? v.toString() : toStr(v);
		if (shown.length > 28) shown = shown.slice(0, 25) + "...";
		if (typeof v === "string") shown = "'" + shown + "'";
		else if (typeof v === "bigint") shown += "n";
		return " Received type " + typeof v + " (" + shown + ")";
	};
	const argType = (name, what, v) => {
		const e = new TypeErr("The \"" + name + "\" argument must be " + what + "." + received(v));
		defineProperty(e, "code", { __proto__: null, value: "ERR_INVALID_ARG_TYPE", writable: true, enumerable: false, configurable: true });
		return e;
	};
	const checkCallback = (callback) => {
		if (typeof callback !== "function") throw argType("callback", "of type function", callback);
	};
	const argsAfter = (args, from) => {
		const out = [];
		for (let i = from; i < args.length; i++) out[i - from] = args[i];
		return out;
	};
	let makeTimeout, timeoutID, makeImmediate, immediateID;
	class Timeout {
		#id = 0; #ref = true;
		static { makeTimeout = (kind, callback, delay, args) => { const t = new Timeout(); t.#id = timerAdd(t, callback, delay, kind, args); return t; };
			timeoutID = (t) => (#id in t ? t.#id : undefined); }
		ref() { this.#ref = true; timerRef(this.#id, true); return this; }
		unref() { this.#ref = false; timerRef(this.#id, false); return this; }
		hasRef() { return this.#ref; }
		refresh() { timerRefresh(this.#id); return this; }
		close() { timerClear(this.#id); return this; }
		[toPrimitiveSym]() { return this.#id; }
	}
	class Immediate {
		#id = 0; #ref = true;
		static { makeImmediate = (callback, args) => { const t = new Immediate(); t.#id = timerAdd(t, callback, 0, 2, args); return t; };
			immediateID = (t) => (#id in t ? t.#id : undefined); }
		ref() { this.#ref = true; timerRef(this.#id, true); return this; }
		unref() { this.#ref = false; timerRef(this.#id, false); return this; }
		hasRef() { return this.#ref; }
	}
	// clearTimeout and clearInterval take a Timeout or its id (a number, or a string of one).
	const clearTimer = (t) => {
		if (t === null || t === undefined) return;
		if (typeof t === "object") { const id = timeoutID(t); if (id !== undefined) timerClear(id); return; }
		if (typeof t === "number" || typeof t === "string") timerClear(+t);
	};
	if (want("setTimeout")) method(G, "setTimeout", { setTimeout(callback, delay = undefined, ...args) {
		checkCallback(callback);
		return makeTimeout(0, callback, delay, args);
	} }.setTimeout);
	if (want("setInterval")) method(G, "setInterval", { setInterval(callback, delay = undefined, ...args) {
		checkCallback(callback);
		return makeTimeout(1, callback, delay, args);
	} }.setInterval);
	if (want("setImmediate")) method(G, "setImmediate", { setImmediate(callback, ...args) {
		checkCallback(callback);
		return makeImmediate(callback, args);
	} }.setImmediate);
	if (want("clearTimeout")) method(G, "clearTimeout", { clearTimeout(timeout) { clearTimer(timeout); } }.clearTimeout);
	if (want("clearInterval")) method(G, "clearInterval", { clearInterval(timeout) { clearTimer(timeout); } }.clearInterval);
	if (want("clearImmediate")) method(G, "clearImmediate", { clearImmediate(immediate) {
		if (immediate !== null && typeof immediate === "object") { const id = immediateID(immediate); if (id !== undefined) timerClear(id); }
	} }.clearImmediate);

	// --- performance: now() in milliseconds since the run started, and timeOrigin ---
	if (want("performance")) {
		const now0 = host.now, origin = host.timeOrigin();
		class Performance {
			get timeOrigin() { return origin; }
			now() { return now0(); }
			toJSON() { return { timeOrigin: origin }; }
		}
		defineProperty(Performance.prototype, toStringTagSym, { __proto__: null, value: "Performance", configurable: true });
		method(G, "performance", new Performance());
	}

	// --- crypto: getRandomValues and randomUUID (no subtle) ---
	if (want("crypto")) {
		const TAProto = O.getPrototypeOf(G.Int8Array.prototype);
		const getter = (name) => O.getOwnPropertyDescriptor(TAProto, name).get;
		const taTag = getter(toStringTagSym), taBuffer = getter("buffer"), taOffset = getter("byteOffset"), taLength = getter("byteLength");
		const integerTypes = ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "BigInt64Array", "BigUint64Array"];
		const fill0 = host.randomFill, uuid0 = host.randomUUID;
		const domError = (name, code, message) => {
			const e = new BaseError(message);
			defineProperty(e, "name", { __proto__: null, value: name, writable: true, enumerable: false, configurable: true });
			defineProperty(e, "code", { __proto__: null, value: code, writable: true, enumerable: false, configurable: true });
			return e;
		};
		let cryptoObject;
		const checkThis = (self) => {
			if (self !== cryptoObject) {
				const e = new TypeErr("Value of \"this\" must be of type Crypto");
				defineProperty(e, "code", { __proto__: null, value: "ERR_INVALID_THIS", writable: true, enumerable: false, configurable: true });
				throw e;
			}
		};
		class Crypto {
			getRandomValues(array) {
				checkThis(this);
				if (arguments.length === 0) {
					const e = new TypeErr("Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.");
					defineProperty(e, "code", { __proto__: null, value: "ERR_MISSING_ARGS", writable: true, enumerable: false, configurable: true });
					throw e;
				}
				const tag = array !== null && typeof array === "object" ? call(taTag, array) : undefined;
				if (tag === undefined || !integerTypes.includes(tag)) throw domError("TypeMismatchError", 17, "The data argument must be an integer-type TypedArray");
				const n = call(taLength, array);
				if (n > 65536) throw domError("QuotaExceededError", 22, "The requested length exceeds 65,536 bytes");
				fill0(call(taBuffer, array), call(taOffset, array), n);
				return array;
			}
			randomUUID() { checkThis(this); return uuid0(); }
		}
		defineProperty(Crypto.prototype, toStringTagSym, { __proto__: null, value: "Crypto", configurable: true });
		cryptoObject = new Crypto();
		method(G, "crypto", cryptoObject);
	}

	// --- String.prototype.isWellFormed and toWellFormed ---
	const SP = String.prototype, slice = SP.slice;
	// loneSurrogate(s) is the index of the first lone surrogate in s, or -1; wellFormed(s) is s
	// with each replaced by U+FFFD (both in Go: one pass over the UTF-16 code units).
	const loneSurrogate = host.loneSurrogate, wellFormed = host.wellFormed;
	const stringThis = (self, name) => {
		if (self === null || self === undefined) throw new TypeErr("String.prototype." + name + " called on null or undefined");
		return toStr(self);
	};
	if (want("isWellFormed")) method(SP, "isWellFormed", { isWellFormed() {
		return loneSurrogate(stringThis(this, "isWellFormed")) < 0;
	} }.isWellFormed);
	if (want("toWellFormed")) method(SP, "toWellFormed", { toWellFormed() {
		return wellFormed(stringThis(this, "toWellFormed"));
	} }.toWellFormed);

	// --- TypedArray.from(string): goja's %TypedArray%.from refuses a primitive source ("Value is
	// not an object"), where the specification iterates it. A string is iterated here first. ---
	if (want("Array.from")) {
		const TA = O.getPrototypeOf(G.Int8Array), from0 = TA.from;
		method(TA, "from", { from(source, mapFn = undefined, thisArg = undefined) {
			if (typeof source === "string") {
				const chars = [];
				let n = 0;
				for (const ch of source) { if (n >= maxElements) throw arrayLength(); chars[n++] = ch; }
				source = chars;
			}
			return call(from0, this, source, mapFn, thisArg);
		} }.from);
	}


	// --- URL and URLSearchParams (WHATWG URL Standard; url.go parses and serializes) ---
	if (want("URL")) {
		const parse0 = host.urlParse, set0 = host.urlSet, formEncode = host.formEncode, formDecode = host.formDecode;
		const sort0 = AP.sort, slice0 = AP.slice, splice0 = AP.splice, join0 = AP.join, stringSplit = SP.split, stringIndexOf = SP.indexOf;
		const IteratorProto = O.getPrototypeOf(O.getPrototypeOf([][iteratorSym]()));
		const codeError = (C, code, message) => {
			const e = new C(message);
			defineProperty(e, "code", { __proto__: null, value: code, writable: true, enumerable: true, configurable: true });
			return e;
		};
		const missing = (names) => codeError(TypeErr, "ERR_MISSING_ARGS", "The " + names + " must be specified");
		const invalidURL = (input, base, hasBase) => {
			const e = codeError(TypeErr, "ERR_INVALID_URL", "Invalid URL");
			defineProperty(e, "input", { __proto__: null, value: input, writable: true, enumerable: true, configurable: true });
			if (hasBase) defineProperty(e, "base", { __proto__: null, value: base, writable: true, enumerable: true, configurable: true });
			return e;
		};
		// The application/x-www-form-urlencoded parser and serializer, over a flat list of names
		// and values.
		const parseForm = (s) => {
			const list = [];
			const parts = call(stringSplit, s, "&");
			for (let i = 0; i < parts.length; i++) {
				const part = parts[i];
				if (part === "") continue;
				const eq = call(stringIndexOf, part, "=");
				const name = eq < 0 ? part : call(slice, part, 0, eq), value = eq < 0 ? "" : call(slice, part, eq + 1);
				call(push, list, formDecode(name), formDecode(value));
			}
			return list;
		};
		const serializeForm = (list) => {
			const out = [];
			for (let i = 0; i < list.length; i += 2) call(push, out, formEncode(list[i]) + "=" + formEncode(list[i + 1]));
			return call(join0, out, "&");
		};
		const usv = (v) => wellFormed(toStr(v));
		let paramsList, paramsSetList, paramsFor, urlQueryChanged;
		class URLSearchParams {
			#list = []; #url = null;
			static {
				paramsList = (p) => p.#list;
				paramsSetList = (p, list) => { p.#list = list; };
				paramsFor = (url, query) => { const p = new URLSearchParams(); p.#list = parseForm(query); p.#url = url; return p; };
			}
			constructor(init = undefined) {
				if (init === undefined || init === null) return;
				if (typeof init === "object" || typeof init === "function") {
					if (init[iteratorSym] !== undefined) {
						for (const pair of init) {
							if (pair === null || (typeof pair !== "object" && typeof pair !== "function") || pair[iteratorSym] === undefined) {
								throw codeError(TypeErr, "ERR_INVALID_TUPLE", "Each query pair must be an iterable [name, value] tuple");
							}
							const kv = [...pair];
							if (kv.length !== 2) throw codeError(TypeErr, "ERR_INVALID_TUPLE", "Each query pair must be an iterable [name, value] tuple");
							call(push, this.#list, usv(kv[0]), usv(kv[1]));
						}
					} else {
						const keys = ObjectKeys(init);
						for (let i = 0; i < keys.length; i++) call(push, this.#list, usv(keys[i]), usv(init[keys[i]]));
					}
					return;
				}
				let s = usv(init);
				if (s[0] === "?") s = call(slice, s, 1);
				this.#list = parseForm(s);
			}
			#update() { if (this.#url !== null) urlQueryChanged(this.#url, serializeForm(this.#list)); }
			get size() { return this.#list.length / 2; }
			append(name, value) {
				if (arguments.length < 2) throw missing("\"name\" and \"value\" arguments");
				call(push, this.#list, usv(name), usv(value));
				this.#update();
			}
			delete(name, value = undefined) {
				if (arguments.length < 1) throw missing("\"name\" argument");
				const n = usv(name), v = value === undefined ? undefined : usv(value), list = this.#list;
				for (let i = 0; i < list.length;) {
					if (list[i] === n && (v === undefined || list[i + 1] === v)) call(splice0, list, i, 2); else i += 2;
				}
				this.#update();
			}
			get(name) {
				if (arguments.length < 1) throw missing("\"name\" argument");
				const n = usv(name), list = this.#list;
				for (let i = 0; i < list.length; i += 2) if (list[i] === n) return list[i + 1];
				return null;
			}
			getAll(name) {
				if (arguments.length < 1) throw missing("\"name\" argument");
				const n = usv(name), list = this.#list, out = [];
				for (let i = 0; i < list.length; i += 2) if (list[i] === n) call(push, out, list[i + 1]);
				return out;
			}
			has(name, value = undefined) {
				if (arguments.length < 1) throw missing("\"name\" argument");
				const n = usv(name), v = value === undefined ? undefined : usv(value), list = this.#list;
				for (let i = 0; i < list.length; i += 2) if (list[i] === n && (v === undefined || list[i + 1] === v)) return true;
				return false;
			}
			set(name, value) {
				if (arguments.length < 2) throw missing("\"name\" and \"value\" arguments");
				const n = usv(name), v = usv(value), list = this.#list;
				let found = false;
				for (let i = 0; i < list.length;) {
					if (list[i] !== n) { i += 2; continue; }
					if (found) { call(splice0, list, i, 2); continue; }
					list[i + 1] = v; found = true; i += 2;
				}
				if (!found) call(push, list, n, v);
				this.#update();
			}
			sort() {
				const list = this.#list, pairs = [];
				for (let i = 0; i < list.length; i += 2) call(push, pairs, [list[i], list[i + 1], i]);
				// By name in UTF-16 code units, stable.
				call(sort0, pairs, (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[2] - b[2]));
				const out = [];
				for (let i = 0; i < pairs.length; i++) call(push, out, pairs[i][0], pairs[i][1]);
				this.#list = out;
				this.#update();
			}
			forEach(callback, thisArg = undefined) {
				if (typeof callback !== "function") throw argType("callback", "of type function", callback);
				for (let i = 0; i < this.#list.length; i += 2) call(callback, thisArg, this.#list[i + 1], this.#list[i], this);
			}
			keys() { return new ParamsIterator(this, 0); }
			values() { return new ParamsIterator(this, 1); }
			entries() { return new ParamsIterator(this, 2); }
			[iteratorSym]() { return new ParamsIterator(this, 2); }
			toString() { return serializeForm(this.#list); }
		}
		defineProperty(URLSearchParams.prototype, toStringTagSym, { __proto__: null, value: "URLSearchParams", configurable: true });
		// The iterator walks the live list, as the standard's does.
		class ParamsIterator {
			#params; #kind; #index = 0;
			constructor(params, kind) { this.#params = params; this.#kind = kind; }
			next() {
				const list = paramsList(this.#params), i = this.#index;
				if (i >= list.length) return { value: undefined, done: true };
				this.#index = i + 2;
				const k = this.#kind;
				return { value: k === 0 ? list[i] : k === 1 ? list[i + 1] : [list[i], list[i + 1]], done: false };
			}
		}
		O.setPrototypeOf(ParamsIterator.prototype, IteratorProto);
		defineProperty(ParamsIterator.prototype, toStringTagSym, { __proto__: null, value: "URLSearchParams Iterator", configurable: true });
		defineProperty(ParamsIterator.prototype, "constructor", { __proto__: null, value: undefined });

		// The components url.go returns, by index.
		const HREF = 0, ORIGIN = 1, PROTOCOL = 2, USERNAME = 3, PASSWORD = 4, HOST = 5, HOSTNAME = 6, PORT = 7, PATHNAME = 8, SEARCH = 9, HASH = 10;
		class URL {
			#c; #params = null;
			static { urlQueryChanged = (url, query) => { const c = set0(url.#c[HREF], "search", query); if (c !== null) url.#c = c; }; }
			constructor(url, base = undefined) {
				if (arguments.length === 0) throw missing("\"url\" argument");
				const input = toStr(url), b = base === undefined ? undefined : toStr(base);
				const c = parse0(input, b);
				if (c === null) throw invalidURL(input, b, base !== undefined);
				this.#c = c;
			}
			static canParse(url, base = undefined) {
				if (arguments.length === 0) throw missing("\"url\" argument");
				return parse0(toStr(url), base === undefined ? undefined : toStr(base)) !== null;
			}
			static parse(url, base = undefined) {
				if (arguments.length === 0) throw missing("\"url\" argument");
				const c = parse0(toStr(url), base === undefined ? undefined : toStr(base));
				if (c === null) return null;
				const u = new URL("a:"); u.#c = c;
				return u;
			}
			#set(name, value) {
				const c = set0(this.#c[HREF], name, usv(value));
				if (c === null) return;
				this.#c = c;
				if (this.#params !== null && (name === "search" || name === "href")) paramsSetList(this.#params, parseForm(call(slice, c[SEARCH], 1)));
			}
			get href() { return this.#c[HREF]; }
			set href(value) {
				const input = usv(value), c = parse0(input, undefined);
				if (c === null) throw invalidURL(input, undefined, false);
				this.#c = c;
				if (this.#params !== null) paramsSetList(this.#params, parseForm(call(slice, c[SEARCH], 1)));
			}
			get origin() { return this.#c[ORIGIN]; }
			get protocol() { return this.#c[PROTOCOL]; }
			set protocol(v) { this.#set("protocol", v); }
			get username() { return this.#c[USERNAME]; }
			set username(v) { this.#set("username", v); }
			get password() { return this.#c[PASSWORD]; }
			set password(v) { this.#set("password", v); }
			get host() { return this.#c[HOST]; }
			set host(v) { this.#set("host", v); }
			get hostname() { return this.#c[HOSTNAME]; }
			set hostname(v) { this.#set("hostname", v); }
			get port() { return this.#c[PORT]; }
			set port(v) { this.#set("port", v); }
			get pathname() { return this.#c[PATHNAME]; }
			set pathname(v) { this.#set("pathname", v); }
			get search() { return this.#c[SEARCH]; }
			set search(v) {
				this.#set("search", v);
			}
			get searchParams() {
				if (this.#params === null) this.#params = paramsFor(this, call(slice, this.#c[SEARCH], 1));
				return this.#params;
			}
			get hash() { return this.#c[HASH]; }
			set hash(v) { this.#set("hash", v); }
			toString() { return this.#c[HREF]; }
			toJSON() { return this.#c[HREF]; }
		}
		for (const name of ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "searchParams", "hash", "toString", "toJSON"]) {
			const d = O.getOwnPropertyDescriptor(URL.prototype, name);
			d.enumerable = true;
			defineProperty(URL.prototype, name, d);
		}
		defineProperty(URL.prototype, toStringTagSym, { __proto__: null, value: "URL", configurable: true });
		host.registerURL(URL.prototype, URLSearchParams.prototype, (p) => call(slice0, paramsList(p)));
		method(G, "URL", URL);
		method(G, "URLSearchParams", URLSearchParams);
	}


	// --- Iterator helpers (ES2025): Iterator, Iterator.from and Iterator.prototype's map, filter,
	// take, drop, flatMap, reduce, toArray, forEach, some, every and find ---
	if (want("Iterator") && typeof G.Iterator !== "function") {
		const IteratorProto = O.getPrototypeOf(O.getPrototypeOf([][iteratorSym]()));
		const notFunction = (f) => new TypeErr(toStr(typeof f === "string" ? "\"" + f + "\"" : f) + " is not a function");
		const notObject = (name) => new TypeErr("Iterator.prototype." + name + " called on non-object");
		// direct(o, name) is GetIteratorDirect: the iterator and its next method, read once.
		const direct = (o, name) => {
			if (o === null || (typeof o !== "object" && typeof o !== "function")) throw notObject(name);
			return { iterator: o, next: o.next, done: false };
		};
		const step = (rec) => {
			const r = call(rec.next, rec.iterator);
			if (r === null || (typeof r !== "object" && typeof r !== "function")) throw new TypeErr("Iterator result " + toStr(r) + " is not an object");
			if (r.done) { rec.done = true; return undefined; }
			return r;
		};
		const close = (rec) => {
			const ret = rec.iterator.return;
			if (ret !== undefined && ret !== null) call(ret, rec.iterator);
		};
		// closeThrow closes the underlying iterator after an error in a callback and rethrows it.
		const closeThrow = (rec, e) => {
			try { close(rec); } catch { /* the callback's error wins */ }
			throw e;
		};
		const limit = (n) => {
			const v = +n;
			if (v !== v) throw new RangeErr(toStr(n) + " must be positive");
			const i = toInteger(v);
			if (i < 0) throw new RangeErr(toStr(n) + " must be positive");
			return i;
		};
		let makeHelper;
		// IteratorHelper is %IteratorHelperPrototype%: next runs the helper's step function;
		// return closes the underlying iterator.
		class IteratorHelper {
			#rec; #step; #done = false; #running = false; #inner = null;
			static { makeHelper = (rec, stepFn) => { const h = new IteratorHelper(); h.#rec = rec; h.#step = stepFn; return h; }; }
			next() {
				if (this.#running) throw new TypeErr("Generator is already running");
				if (this.#done) return { value: undefined, done: true };
				this.#running = true;
				try {
					const r = this.#step(this.#rec, this);
					if (r === undefined) { this.#done = true; return { value: undefined, done: true }; }
					return { value: r.value, done: false };
				} catch (e) {
					this.#done = true;
					throw e;
				} finally {
					this.#running = false;
				}
			}
			return() {
				if (this.#running) throw new TypeErr("Generator is already running");
				if (!this.#done) {
					this.#done = true;
					if (this.#inner !== null) { const inner = this.#inner; this.#inner = null; try { close(inner); } catch (e) { close(this.#rec); throw e; } }
					close(this.#rec);
				}
				return { value: undefined, done: true };
			}
			static inner(h, rec) { h.#inner = rec; }
			static getInner(h) { return h.#inner; }
		}
		const setInner = IteratorHelper.inner, getInner = IteratorHelper.getInner;
		delete IteratorHelper.inner; delete IteratorHelper.getInner;
		O.setPrototypeOf(IteratorHelper.prototype, IteratorProto);
		delete IteratorHelper.prototype.constructor;
		defineProperty(IteratorHelper.prototype, toStringTagSym, { __proto__: null, value: "Iterator Helper", configurable: true });

		// flattenable is GetIteratorFlattenable: an iterator or iterable object (strings too when
		// strings is set).
		const flattenable = (v, strings, name) => {
			if (v === null || (typeof v !== "object" && typeof v !== "function")) {
				if (!(strings && typeof v === "string")) throw new TypeErr(name + " called on non-object");
			}
			const m = v[iteratorSym];
			const it = m === undefined || m === null ? v : call(m, v);
			if (it === null || (typeof it !== "object" && typeof it !== "function")) throw new TypeErr(name + " called on non-object");
			return { iterator: it, next: it.next, done: false };
		};

		function Iterator() {
			if (new.target === undefined || new.target === Iterator) throw new TypeErr("Abstract class Iterator not directly constructable");
		}
		defineProperty(Iterator, "prototype", { __proto__: null, value: IteratorProto, writable: false, enumerable: false, configurable: false });
		method(IteratorProto, "constructor", Iterator);
		if (!hasOwn(IteratorProto, toStringTagSym)) defineProperty(IteratorProto, toStringTagSym, { __proto__: null, value: "Iterator", writable: true, configurable: true });

		class WrapForValidIterator {
			#rec;
			static { /* made by Iterator.from */ }
			constructor(rec) { this.#rec = rec; }
			next() { return call(this.#rec.next, this.#rec.iterator); }
			return() {
				const it = this.#rec.iterator, ret = it.return;
				if (ret === undefined || ret === null) return { value: undefined, done: true };
				return call(ret, it);
			}
		}
		O.setPrototypeOf(WrapForValidIterator.prototype, IteratorProto);
		delete WrapForValidIterator.prototype.constructor;
		method(Iterator, "from", { from(o) {
			const rec = flattenable(o, true, "Iterator.from");
			let p = rec.iterator;
			for (let i = 0; p !== null && i < 10000; i++) { p = O.getPrototypeOf(p); if (p === IteratorProto) return rec.iterator; }
			return new WrapForValidIterator(rec);
		} }.from);

		const helpers = {
			map(mapper) {
				const rec = direct(this, "map");
				if (typeof mapper !== "function") throw notFunction(mapper);
				let counter = 0;
				return makeHelper(rec, (r) => {
					const x = step(r);
					if (x === undefined) return undefined;
					try { return { value: mapper(x.value, counter++) }; } catch (e) { closeThrow(r, e); }
				});
			},
			filter(predicate) {
				const rec = direct(this, "filter");
				if (typeof predicate !== "function") throw notFunction(predicate);
				let counter = 0;
				return makeHelper(rec, (r) => {
					for (;;) {
						const x = step(r);
						if (x === undefined) return undefined;
						let keep;
						try { keep = predicate(x.value, counter++); } catch (e) { closeThrow(r, e); }
						if (keep) return { value: x.value };
					}
				});
			},
			take(n) {
				const rec = direct(this, "take");
				const remaining0 = limit(n);
				let remaining = remaining0;
				return makeHelper(rec, (r) => {
					if (remaining === 0) { close(r); return undefined; }
					if (remaining !== Infinity) remaining--;
					const x = step(r);
					return x === undefined ? undefined : { value: x.value };
				});
			},
			drop(n) {
				const rec = direct(this, "drop");
				let remaining = limit(n);
				return makeHelper(rec, (r) => {
					while (remaining > 0) {
						if (remaining !== Infinity) remaining--;
						if (step(r) === undefined) return undefined;
					}
					const x = step(r);
					return x === undefined ? undefined : { value: x.value };
				});
			},
			flatMap(mapper) {
				const rec = direct(this, "flatMap");
				if (typeof mapper !== "function") throw notFunction(mapper);
				let counter = 0;
				return makeHelper(rec, (r, h) => {
					for (;;) {
						let inner = getInner(h);
						if (inner === null) {
							const x = step(r);
							if (x === undefined) return undefined;
							try { inner = flattenable(mapper(x.value, counter++), false, "Iterator.prototype.flatMap"); } catch (e) { closeThrow(r, e); }
							setInner(h, inner);
						}
						let y;
						try { y = step(inner); } catch (e) { closeThrow(r, e); }
						if (y !== undefined) return { value: y.value };
						setInner(h, null);
					}
				});
			},
			reduce(reducer, ...init) {
				const rec = direct(this, "reduce");
				if (typeof reducer !== "function") throw notFunction(reducer);
				let acc, counter = 0;
				if (init.length === 0) {
					const first = step(rec);
					if (first === undefined) throw new TypeErr("Reduce of a done iterator with no initial value");
					acc = first.value;
					counter = 1;
				} else acc = init[0];
				for (;;) {
					const x = step(rec);
					if (x === undefined) return acc;
					try { acc = reducer(acc, x.value, counter++); } catch (e) { closeThrow(rec, e); }
				}
			},
			toArray() {
				const rec = direct(this, "toArray"), out = [];
				for (let n = 0; ; n++) {
					const x = step(rec);
					if (x === undefined) return out;
					if (n >= maxElements) closeThrow(rec, arrayLength());
					out[n] = x.value;
				}
			},
			forEach(fn) {
				const rec = direct(this, "forEach");
				if (typeof fn !== "function") throw notFunction(fn);
				for (let counter = 0; ; counter++) {
					const x = step(rec);
					if (x === undefined) return undefined;
					try { fn(x.value, counter); } catch (e) { closeThrow(rec, e); }
				}
			},
			some(predicate) {
				const rec = direct(this, "some");
				if (typeof predicate !== "function") throw notFunction(predicate);
				for (let counter = 0; ; counter++) {
					const x = step(rec);
					if (x === undefined) return false;
					let r;
					try { r = predicate(x.value, counter); } catch (e) { closeThrow(rec, e); }
					if (r) { close(rec); return true; }
				}
			},
			every(predicate) {
				const rec = direct(this, "every");
				if (typeof predicate !== "function") throw notFunction(predicate);
				for (let counter = 0; ; counter++) {
					const x = step(rec);
					if (x === undefined) return true;
					let r;
					try { r = predicate(x.value, counter); } catch (e) { closeThrow(rec, e); }
					if (!r) { close(rec); return false; }
				}
			},
			find(predicate) {
				const rec = direct(this, "find");
				if (typeof predicate !== "function") throw notFunction(predicate);
				for (let counter = 0; ; counter++) {
					const x = step(rec);
					if (x === undefined) return undefined;
					let r;
					try { r = predicate(x.value, counter); } catch (e) { closeThrow(rec, e); }
					if (r) { close(rec); return x.value; }
				}
			},
		};
		for (const name of ObjectKeys(helpers)) method(IteratorProto, name, helpers[name]);
		method(G, "Iterator", Iterator);
	}

	if (want("TextEncoder")) method(G, "TextEncoder", TextEncoder);
	if (want("TextDecoder")) method(G, "TextDecoder", TextDecoder);

});
