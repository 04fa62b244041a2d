// The prelude: evaluated once per realm, before any program, by newRealm (prelude.go), which
// calls the function it evaluates to with (limits, host):
//   limits  { maxString, maxElements }: the one-step size caps (oneStepLimits);
//   host    Go helpers: call(f, this, ...args), apply(f, this, args), plainArray(o), isProxy(o),
//           iterable(o).
// It installs the guards on built-ins listed in GUARDS.md that are JavaScript, and returns
// makeErrorClass(name, member), the factory for the injected error classes. Everything it uses
// is captured here, before the program can replace it.
(function (limits, host) {
	"use strict";
	const O = Object, defineProperty = O.defineProperty, toStr = String, call = host.call;
	const RangeErr = RangeError, TypeErr = TypeError, BaseError = Error;
	const trunc = Math.trunc, mathMax = Math.max, mathMin = Math.min;
	const plainArray = host.plainArray, isProxy = host.isProxy, applyArgs = host.apply, iterable = host.iterable;
	const getOwnPropertyDescriptor = O.getOwnPropertyDescriptor, hasOwn = O.hasOwn;
	const { maxString, maxElements, maxNesting } = limits;
	const ArrayC = Array, isArray = ArrayC.isArray;

	// Define as a built-in method would be: writable, non-enumerable, configurable.
	const method = (target, name, value) =>
		defineProperty(target, name, { __proto__: null, value, writable: true, enumerable: false, configurable: true });
	const toInteger = (x) => { x = +x; return x !== x ? 0 : trunc(x); };
	const toLength = (x) => mathMax(toInteger(x), 0);
	const stringLength = () => new RangeErr("Invalid string length");
	const arrayLength = () => new RangeErr("Invalid array length");
	const thisString = (self, name) => {
		if (self === null || self === undefined) throw new TypeErr("String.prototype." + name + " called on null or undefined");
		return toStr(self);
	};

	// --- Size guards on built-ins that allocate in one native step ---
	// Each guard reads an array-like's length once and makes sure the native method works with
	// that length: a length getter (or proxy) that answers small to the guard and huge to the
	// native method must not get past it.
	const SP = String.prototype, AP = Array.prototype;
	const repeat0 = SP.repeat, padStart0 = SP.padStart, padEnd0 = SP.padEnd;
	const join0 = AP.join, fill0 = AP.fill, from0 = Array.from;
	method(SP, "repeat", { repeat(count) {
		const s = thisString(this, "repeat"), n = toInteger(count);
		if (n > 0 && n !== Infinity && s.length * n > maxString) throw stringLength();
		return call(repeat0, s, n);
	} }.repeat);
	const pad = (pad0, name) => ({ [name](maxLength, fillString = undefined) {
		const s = thisString(this, name), n = toInteger(maxLength);
		const f = fillString === undefined ? undefined : toStr(fillString);
		if (n > s.length && n > maxString && f !== "") throw stringLength();
		return f === undefined ? call(pad0, s, n) : call(pad0, s, n, f);
	} })[name];
	method(SP, "padStart", pad(padStart0, "padStart"));
	method(SP, "padEnd", pad(padEnd0, "padEnd"));
	// join and toLocaleString read and convert each element once, here, counting the result's
	// length before the native join builds it from the converted parts: elements of any size
	// count. An element that is itself an array recurses through these JavaScript functions, so
	// deep nesting ends at the call-stack limit (MaxStackDepth) rather than in Go's stack; an
	// array already being joined further up (a cycle) contributes "", as in V8 and goja.
	const joining = [];
	let joinDepth = 0;
	const joinParts = (o, len, sepLength, convert) => {
		for (let i = 0; i < joinDepth; i++) if (joining[i] === o) return undefined;
		if (len > maxElements || (len > 1 && (len - 1) * sepLength > maxString)) throw stringLength();
		joining[joinDepth++] = o;
		try {
			let total = len > 1 ? (len - 1) * sepLength : 0;
			const parts = [];
			for (let i = 0; i < len; i++) {
				const x = o[i];
				const part = typeof x === "string" ? x : x === undefined || x === null ? "" : convert(x);
				total += part.length;
				if (total > maxString) throw stringLength();
				parts[i] = part;
			}
			return parts;
		} finally {
			joining[--joinDepth] = undefined;
		}
	};
	method(AP, "join", { join(separator) {
		if (this === null || this === undefined) throw new TypeErr("Array.prototype.join called on null or undefined");
		const o = O(this), len = toLength(o.length);
		const sep = separator === undefined ? "," : toStr(separator);
		const parts = joinParts(o, len, sep.length, toStr);
		return parts === undefined ? "" : call(join0, parts, sep);
	} }.join);
	const localeString = (x) => {
		const f = x.toLocaleString;
		if (typeof f !== "function") throw new TypeErr("Property 'toLocaleString' of object " + toStr(x) + " is not a function");
		return toStr(call(f, x));
	};
	method(AP, "toLocaleString", { toLocaleString() {
		if (this === null || this === undefined) throw new TypeErr("Array.prototype.toLocaleString called on null or undefined");
		const o = O(this), len = toLength(o.length);
		const parts = joinParts(o, len, 1, localeString);
		return parts === undefined ? "" : call(join0, parts, ",");
	} }.toLocaleString);
	method(AP, "fill", { fill(value, start = undefined, end = undefined) {
		if (this === null || this === undefined) throw new TypeErr("Array.prototype.fill called on null or undefined");
		const o = O(this), len = toLength(o.length);
		let s = toInteger(start), e = end === undefined ? len : toInteger(end);
		s = s < 0 ? mathMax(len + s, 0) : mathMin(s, len);
		e = e < 0 ? mathMax(len + e, 0) : mathMin(e, len);
		if (e - s > maxElements) throw arrayLength();
		// An ordinary array's length is a data property, so the native fill sees this one; for
		// anything else (array-likes, proxies) the loop is here, where budgets interrupt it.
		if (plainArray(o)) return call(fill0, o, value, s, e);
		for (let i = s; i < e; i++) o[i] = value;
		return o;
	} }.fill);
	// The methods that allocate an array of the receiver's length up front (goja makes a dense
	// one: Array(2**32 - 1).map(f) would ask for 64 GiB). A length the native method reads again
	// must be the one checked: an ordinary array's is; an array-like's own data property is;
	// anything else (a length getter, a proxy) is replaced by a view with the checked length for
	// the methods that only read, and refused by sort, which writes back.
	const stableLength = (o) => {
		if (plainArray(o)) return true;
		if (isProxy(o)) return false;
		const d = getOwnPropertyDescriptor(o, "length");
		return d !== undefined && hasOwn(d, "value");
	};
	const readers = ["map", "toSorted", "toReversed", "with", "toSpliced"];
	for (let i = 0; i < readers.length; i++) {
		const name = readers[i], native = AP[name];
		if (typeof native !== "function") continue;
		method(AP, name, { [name]() {
			if (this === null || this === undefined) throw new TypeErr("Array.prototype." + name + " called on null or undefined");
			const o = O(this), len = toLength(o.length);
			if (len > maxElements) throw arrayLength();
			return applyArgs(native, stableLength(o) ? o : { __proto__: o, length: len }, arguments);
		} }[name]);
	}
	const sort0 = AP.sort;
	method(AP, "sort", { sort(comparefn) {
		if (this === null || this === undefined) throw new TypeErr("Array.prototype.sort called on null or undefined");
		const o = O(this);
		if (!stableLength(o)) throw new TypeErr("Array.prototype.sort needs an array, or an array-like whose length is a data property");
		if (toLength(o.length) > maxElements) throw arrayLength();
		return call(sort0, o, comparefn);
	} }.sort);

	// flat and flatMap, without recursion: goja's FlattenIntoArray recurses in Go once per level
	// (a self-containing array flattened with depth Infinity overflows Go's stack and ends the
	// process) and runs as one native step (a DAG like a = [a, a] forty times over makes 2**40
	// elements). Here the nesting is a stack of arrays capped at maxNesting levels, the output at
	// maxElements, and the loop is JavaScript, which the budgets interrupt.
	// ArraySpeciesCreate(o, 0), or undefined where it would make a plain Array (a subclass's flat
	// makes an instance of the subclass).
	const species = host.species;
	const speciesCreate = (o) => {
		if (!isArray(o)) return undefined;
		let C = o.constructor;
		if (C !== null && (typeof C === "object" || typeof C === "function")) {
			C = species(C);
			if (C === null) C = undefined;
		}
		return C === undefined || C === ArrayC ? undefined : new C(0);
	};
	const flatten = (name, created, source, sourceLen, depth, mapper, thisArg) => {
		// Locals: the loop is hot, and captured variables cost more to read in goja.
		const isArr = isArray, define = defineProperty, limit = maxElements, nesting = maxNesting;
		// A plain Array of our own is filled by assignment, which is several times faster than
		// defining each element (the difference shows only to a program that put index setters
		// on Array.prototype); a species-created target gets CreateDataProperty, as specified.
		const fast = created === undefined, target = fast ? [] : created;
		const sources = [], lengths = [], indexes = [], depths = [];
		let top = 0, k = 0, i = 0, d = depth;
		for (;;) {
			if (i >= sourceLen) {
				if (top === 0) return target;
				top--;
				source = sources[top]; sourceLen = lengths[top]; i = indexes[top]; d = depths[top];
				sources[top] = undefined;
				continue;
			}
			const index = i++;
			if (!(index in source)) continue;
			let element = source[index];
			if (mapper !== undefined && top === 0) element = call(mapper, thisArg, element, index, source);
			if (d > 0 && isArr(element)) {
				const len = toLength(element.length);
				if (d === 1) {
					// The last level flattened: its elements are appended as they are.
					for (let j = 0; j < len; j++) {
						if (!(j in element)) continue;
						if (k >= limit) throw arrayLength();
						if (fast) target[k++] = element[j];
						else define(target, k++, { __proto__: null, value: element[j], writable: true, enumerable: true, configurable: true });
					}
					continue;
				}
				if (top >= nesting) throw new RangeErr("Array.prototype." + name + ": arrays nested deeper than " + nesting + " levels");
				sources[top] = source; lengths[top] = sourceLen; indexes[top] = i; depths[top] = d;
				top++;
				source = element; sourceLen = len; i = 0; d = d - 1;
				continue;
			}
			if (k >= limit) throw arrayLength();
			if (fast) target[k++] = element;
			else define(target, k++, { __proto__: null, value: element, writable: true, enumerable: true, configurable: true });
		}
	};
	method(AP, "flat", { flat(depth = undefined) {
		if (this === null || this === undefined) throw new TypeErr("Array.prototype.flat called on null or undefined");
		const o = O(this), len = toLength(o.length);
		let d = depth === undefined ? 1 : toInteger(depth);
		if (d < 0) d = 0;
		return flatten("flat", speciesCreate(o), o, len, d, undefined, undefined);
	} }.flat);
	method(AP, "flatMap", { flatMap(callback, thisArg = undefined) {
		if (this === null || this === undefined) throw new TypeErr("Array.prototype.flatMap called on null or undefined");
		const o = O(this), len = toLength(o.length);
		if (typeof callback !== "function") throw new TypeErr("flatMap mapper function is not callable");
		return flatten("flatMap", speciesCreate(o), o, len, 1, callback, thisArg);
	} }.flatMap);

	// Array.from of an array-like (not iterable) gets a view whose length is the one checked; its
	// elements are read through the view's prototype, the array-like itself.
	method(Array, "from", { from(items, mapFn = undefined, thisArg = undefined) {
		if (items !== null && items !== undefined) {
			const o = O(items);
			if (!iterable(o)) {
				const len = toLength(o.length);
				if (len > maxElements) throw arrayLength();
				return call(from0, this, { __proto__: o, length: len }, mapFn, thisArg);
			}
		}
		return call(from0, this, items, mapFn, thisArg);
	} }.from);

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
});
