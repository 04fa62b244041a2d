package goja

import (
	"runtime"
	"strings"
	"testing"
)

// compactPropsProgram exercises what the compact property store (runcode_props.go) must keep
// exact: property order with integer keys, delete and re-add, for-in while the object changes,
// growth past compactPropsMax with deletions on both sides, defineProperty, accessors, frozen,
// sealed and non-extensible objects, a Proxy, the prototype chain, Error's stack first, arguments,
// functions, arrays, Object.assign and spread, JSON.parse with duplicate keys, class instances,
// and JSON.parse's records, which share their names, changed one at a time.
const compactPropsProgram = `(function () {
const out = [];
const log = (x) => out.push(typeof x === "string" ? x : JSON.stringify(x));
// order: integer keys first ascending, then strings in insertion order
let o = { b: 1, 2: "two", a: 2, 1: "one", [Symbol.iterator]: 0 };
o.c = 3; o[0] = "zero"; o["10"] = "ten"; o["01"] = "str01";
log(Object.keys(o)); log(Object.getOwnPropertyNames(o)); log(Object.values(o));
delete o.a; delete o[1]; o.a = "again";
log(Object.keys(o)); log(JSON.stringify(o));
for (const k in o) { if (k === "b") { delete o.c; o.d = 4; } log("in:" + k); }
// grow past the compact size, with deletes on both sides of it
const big = {};
for (let i = 0; i < 40; i++) big["k" + i] = i;
for (let i = 0; i < 40; i += 3) delete big["k" + i];
big.k0 = "back"; big[5] = 5;
log(Object.keys(big).join(",")); log(big.k1 + big.k39 + big.k0);
const grow = {};
for (let i = 0; i < 20; i++) { grow["p" + i] = i; if (i === 15) { for (const k in grow) { grow["q" + k] = 1; } } }
log(Object.keys(grow).length + ":" + Object.keys(grow).slice(14, 20).join(","));
// defineProperty, accessors, writability, enumerability
const d = { x: 1 };
Object.defineProperty(d, "y", { value: 2, enumerable: false, writable: false, configurable: true });
let hidden = 0;
Object.defineProperty(d, "z", { get() { return hidden + 10; }, set(v) { hidden = v; }, enumerable: true, configurable: true });
d.z = 5; d.y = 99;
log([d.x, d.y, d.z, Object.keys(d), Object.getOwnPropertyNames(d)]);
Object.defineProperty(d, "x", { get() { return "acc"; } });
log([d.x, Object.getOwnPropertyDescriptor(d, "x").configurable, JSON.stringify(d)]);
"use strict";
try { (function () { "use strict"; d.y = 3; })(); } catch (e) { log(e.constructor.name); }
Object.defineProperty(d, "y", { value: 7 });
log(d.y); delete d.y; log("y" in d);
const fr = Object.freeze({ a: 1, b: 2 });
try { (function () { "use strict"; fr.c = 1; })(); } catch (e) { log(e.constructor.name); }
log([Object.isFrozen(fr), Reflect.deleteProperty(fr, "a"), Reflect.ownKeys(fr)]);
const ne = Object.preventExtensions({ a: 1 }); ne.b = 2; log(Object.keys(ne));
// proxy over a compact object
const tgt = { a: 1, b: 2 };
const p = new Proxy(tgt, { ownKeys(t) { return Reflect.ownKeys(t).reverse(); } });
log(Object.keys(p)); p.c = 3; log(Object.keys(tgt));
// prototype chain and shadowing
const base = { shared: "base", m() { return this.own; } };
const child = Object.create(base); child.own = "child"; child.shared = "mine";
log([child.m(), child.shared, base.shared, Object.keys(child), "m" in child, child.hasOwnProperty("m")]);
// error: stack comes first among own names, message too
const err = new Error("boom"); err.extra = 1; err.stack;
log(Object.getOwnPropertyNames(err));
// functions and arguments
function f(a, b) { arguments[0] = "changed"; return [a, arguments.length, Object.keys(arguments)]; }
log(f(1, 2)); log(["length", "name", "prototype"].map((n) => f.hasOwnProperty(n))); f.prop = 1; log(Object.keys(f));
log(Object.getOwnPropertyNames(f.prototype));
// arrays keep length and extra props
const arr = [1, 2, 3]; arr.name = "n"; arr.length = 2;
log([arr.length, Object.keys(arr), Object.getOwnPropertyNames(arr)]);
// assign, spread, entries, fromEntries
const merged = Object.assign({}, { a: 1, 3: 3 }, { b: 2, a: 9 });
log([merged, { ...merged, c: 1 }, Object.entries(merged), Object.fromEntries([["x", 1], ["1", 2]])]);
// JSON.parse with duplicates and many keys
log(JSON.parse('{"a":1,"b":2,"a":3}'));
const wide = {}; for (let i = 0; i < 20; i++) wide["w" + i] = i;
const back = JSON.parse(JSON.stringify(wide)); delete back.w3; back.w3 = "x";
log(Object.keys(back).slice(-3));
// class instances and fields
class K { #p = 1; a = 1; constructor() { this.b = 2; } get g() { return this.#p; } }
const k = new K(); k.c = 3; log([Object.keys(k), k.g]);
// sealed
const s = Object.seal({ a: 1 }); s.a = 2; delete s.a; log([s.a, Object.isSealed(s)]);
// integer-like keys after many string keys
const mix = {}; for (let i = 0; i < 18; i++) mix["s" + i] = i; mix[7] = 7; mix[3] = 3;
log(Object.keys(mix).slice(0, 4));
// JSON.parse's records share their names: changing one leaves the others alone
const recs = JSON.parse('[{"id":1,"n":"a","3":"x"},{"id":2,"n":"b","3":"y"},{"id":3,"n":"c","3":"z"},{"id":4,"n":"d","3":"w"},{"n":"e","id":5}]');
delete recs[0].n; recs[1].extra = true; recs[2][1] = "one"; Object.defineProperty(recs[3], "id", { enumerable: false });
for (const k in recs[4]) { recs[4]["more" + k] = 1; }
log(recs.map((r) => Object.keys(r).join("|"))); log(recs); log(Object.keys(recs[3]));
const plain = JSON.parse('[{"a":1,"b":2},{"a":3,"b":4}]');
for (const k in plain[0]) { delete plain[1].a; log("k:" + k); }
plain[0].c = 1; log([plain, Object.entries(plain[1])]);
return out.join("\n");
})()`

// compactPropsNode is Node 22's output for compactPropsProgram.
const compactPropsNode = `["0","1","2","10","b","a","c","01"]
["0","1","2","10","b","a","c","01"]
["zero","one","two","ten",1,2,3,"str01"]
["0","2","10","b","c","01","a"]
{"0":"zero","2":"two","10":"ten","b":1,"c":3,"01":"str01","a":"again"}
in:0
in:2
in:10
in:b
in:01
in:a
5,k1,k2,k4,k5,k7,k8,k10,k11,k13,k14,k16,k17,k19,k20,k22,k23,k25,k26,k28,k29,k31,k32,k34,k35,k37,k38,k0
NaNback
36:p14,p15,qp0,qp1,qp2,qp3
[1,2,15,["x","z"],["x","y","z"]]
["acc",true,"{\"x\":\"acc\",\"z\":15}"]
TypeError
7
false
TypeError
[true,false,["a","b"]]
["a"]
["b","a"]
["a","b","c"]
["child","mine","base",["own","shared"],true,false]
["stack","message","extra"]
["changed",2,["0","1"]]
[true,true,true]
["prop"]
["constructor"]
[2,["0","1","name"],["0","1","length","name"]]
[{"3":3,"a":9,"b":2},{"3":3,"a":9,"b":2,"c":1},[["3",3],["a",9],["b",2]],{"1":2,"x":1}]
{"a":3,"b":2}
["w18","w19","w3"]
[["a","b","c"],1]
[2,true]
["3","7","s0","s1"]
["3|id","3|id|n|extra","1|3|id|n","3|n","n|id|moren|moreid"]
[{"3":"x","id":1},{"3":"y","id":2,"n":"b","extra":true},{"1":"one","3":"z","id":3,"n":"c"},{"3":"w","n":"d"},{"n":"e","id":5,"moren":1,"moreid":1}]
["3","n"]
k:a
k:b
[[{"a":1,"b":2,"c":1},{"b":4}],[["b",4]]]`

func TestCompactPropsSemantics(t *testing.T) {
	v, err := New().RunString(compactPropsProgram)
	if err != nil {
		t.Fatal(err)
	}
	got, want := strings.Split(v.String(), "\n"), strings.Split(compactPropsNode, "\n")
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, g, w)
		}
	}
}

// heapPerValue runs build(n) (src is its body, storing what it makes in keep) and returns the heap
// it retains, per value.
func heapPerValue(t *testing.T, n int, src string) float64 {
	t.Helper()
	vm := New()
	if _, err := vm.RunString(`var keep; function build(n) { ` + src + ` }`); err != nil {
		t.Fatal(err)
	}
	build, _ := AssertFunction(vm.Get("build"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := build(nil, vm.ToValue(n)); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(vm)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
}

// TestCompactPropsMemory checks what a small object, an array and a parsed record retain (the
// record's count includes its share of the text, which its strings point into). Upstream's map per
// object (and per array, for its length) made these 563, 595 and 731 bytes.
func TestCompactPropsMemory(t *testing.T) {
	for _, c := range []struct {
		name, src string
		max       float64
	}{
		{"object literal of 4 properties", `keep = []; for (let i = 0; i < n; i++) keep.push({id: i, name: "n", age: i, city: "c"});`, 400},
		{"empty array", `keep = []; for (let i = 0; i < n; i++) keep.push([]);`, 400},
		{"JSON.parse record of 7 properties", `keep = JSON.parse("[" + Array(n).fill('{"id":1,"name":"Ann","email":"a@x","age":30,"city":"Oslo","score":1.5,"active":true}').join(",") + "]");`, 500},
	} {
		if got := heapPerValue(t, 20000, c.src); got > c.max {
			t.Errorf("%s: %.0f bytes each, want at most %.0f", c.name, got, c.max)
		} else {
			t.Logf("%s: %.0f bytes each", c.name, got)
		}
	}
}
