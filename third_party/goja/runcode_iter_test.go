package goja

import (
	"errors"
	"testing"
	"time"
)

// TestRuncodeFastIteration checks for…of, spread, destructuring and Array.from over arrays,
// Maps and Sets (runcode_iter.go) against Node 22's answers: mutation during the loop, holes
// answered by the prototype, accessor elements, a patched next or Symbol.iterator (seen by the
// program; a next patched mid-loop is not, as GetIterator read it once), return on an early
// exit, keys/entries, subclasses, typed arrays and array-likes.
func TestRuncodeFastIteration(t *testing.T) {
	vm := New()
	for _, c := range []struct{ expr, want string }{
		{`const a = [1, 2, 3]; const out = []; for (const x of a) { out.push(x); if (x === 1) a.push(4); if (x === 3) a.length = 3; } return JSON.stringify(out)`,
			`[1,2,3]`},
		{`const a = [1, 2, 3, 4]; const out = []; for (const x of a) { out.push(x); a.shift(); } return JSON.stringify(out)`,
			`[1,3]`},
		{`Array.prototype[1] = "p"; try { const a = [0, , 2]; return JSON.stringify([...a]) + JSON.stringify(Array.from(a)); } finally { delete Array.prototype[1]; }`,
			`[0,"p",2][0,"p",2]`},
		{`const a = [0, 1]; Object.defineProperty(a, 1, {get() { a.push("g"); return "x"; }}); const out = []; for (const v of a) out.push(v); return JSON.stringify(out)`,
			`[0,"x","g"]`},
		{`const p = Object.getPrototypeOf([][Symbol.iterator]()); const orig = p.next; p.next = function () { const r = orig.call(this); if (!r.done) r.value *= 10; return r; }; try { const out = []; for (const x of [1, 2]) out.push(x); const [d, e] = [3, 4]; return JSON.stringify([out, [...[5, 6]], Array.from([7]), d, e]); } finally { p.next = orig; }`,
			`[[10,20],[50,60],[70],30,40]`},
		{`const p = Object.getPrototypeOf([][Symbol.iterator]()); const orig = p.next; const out = []; try { for (const x of [1, 2, 3]) { out.push(x); p.next = () => ({done: true}); } } finally { p.next = orig; } return JSON.stringify(out)`,
			`[1,2,3]`},
		{`const orig = Array.prototype[Symbol.iterator]; Array.prototype[Symbol.iterator] = function* () { for (let i = 0; i < this.length; i++) yield this[i] + 1; }; try { const out = []; for (const x of [1, 2]) out.push(x); return JSON.stringify([out, [...[5]]]); } finally { Array.prototype[Symbol.iterator] = orig; }`,
			`[[2,3],[6]]`},
		{`const p = Object.getPrototypeOf([][Symbol.iterator]()); let n = 0; p.return = function () { n++; return {}; }; try { for (const x of [1, 2, 3]) { if (x === 2) break; } try { Array.from([1, 2], () => { throw 1; }); } catch (e) {} const [a] = [1, 2, 3]; return n; } finally { delete p.return; }`,
			`3`},
		{`return JSON.stringify([[...["a", "b"].entries()], [...["a", "b"].keys()], [...[, "b"].values()]])`,
			`[[[0,"a"],[1,"b"]],[0,1],[null,"b"]]`},
		{`const m = new Map([[1, "a"], [2, "b"], [3, "c"]]); const out = []; for (const [k, v] of m) { out.push(k + v); if (k === 1) { m.delete(2); m.set(4, "d"); } } return JSON.stringify([out, [...m.keys()], [...m.values()]])`,
			`[["1a","3c","4d"],[1,3,4],["a","c","d"]]`},
		{`const s = new Set([1, 2, 3]); const out = []; for (const x of s) { out.push(x); if (x === 1) { s.delete(2); s.add(5); } } return JSON.stringify([out, [...s.entries()]])`,
			`[[1,3,5],[[1,1],[3,3],[5,5]]]`},
		{`const p = Object.getPrototypeOf(new Map()[Symbol.iterator]()); const orig = p.next; p.next = function () { const r = orig.call(this); if (!r.done) r.value = "m"; return r; }; try { return JSON.stringify([...new Map([[1, 2]])]); } finally { p.next = orig; }`,
			`["m"]`},
		{`const p = Object.getPrototypeOf(new Set()[Symbol.iterator]()); const orig = p.next; p.next = function () { const r = orig.call(this); if (!r.done) r.value = "s"; return r; }; try { return JSON.stringify([...new Set([1, 2])]); } finally { p.next = orig; }`,
			`["s","s"]`},
		{`const it = [1, 2, 3][Symbol.iterator](); it.next = () => ({done: false, value: 9, get x() {}}); let n = 0; for (const x of {[Symbol.iterator]: () => it}) { if (++n > 2) break; } const it2 = [1, 2][Symbol.iterator](); it2.next(); return JSON.stringify([n, [...{[Symbol.iterator]: () => it2}]])`,
			`[3,[2]]`},
		{`class A extends Array {} const a = A.from([1, 2]); const ta = new Uint8Array([7, 8]); return JSON.stringify([[...a], [...ta], Array.from(ta), [...Array.prototype.values.call({length: 2, 0: "x", 1: "y"})]])`,
			`[[1,2],[7,8],[7,8],["x","y"]]`},
		{`const a = Object.freeze([1, 2]); const out = []; for (const x of a) out.push(x); function* g() { yield* [1, 2]; } return JSON.stringify([out, [...g()]])`,
			`[[1,2],[1,2]]`},
		// Array.from, new Set and new WeakSet of a plain array see a patched next too (their
		// shortcut checked only Symbol.iterator).
		{`const p = Object.getPrototypeOf([][Symbol.iterator]()); const orig = p.next; p.next = function () { const r = orig.call(this); if (!r.done) r.value *= 10; return r; }; try { return JSON.stringify([[...new Set([1, 2])], Array.from([3])]); } finally { p.next = orig; }`,
			`[[10,20],[30]]`},
	} {
		v, err := vm.RunString(`(() => { ` + c.expr + ` })()`)
		if err != nil || v.String() != c.want {
			t.Errorf("%s = %v (%v), want %s", c.expr, v, err, c.want)
		}
	}
}

// TestRuncodeFastIterationInterrupt checks that Interrupt ends loops that spread and destructure
// arrays, Maps and Sets.
func TestRuncodeFastIterationInterrupt(t *testing.T) {
	for _, prg := range []string{
		`const a = Array.from({length: 1e6}, (_, i) => i); for (;;) [...a]`,
		`const m = new Map(Array.from({length: 1e5}, (_, i) => [i, i])); for (;;) { const b = [...m.values()]; for (const x of new Set(b)); }`,
	} {
		vm := New()
		time.AfterFunc(time.Second, func() { vm.Interrupt("stop") })
		start := time.Now()
		_, err := vm.RunString(prg)
		var ie *InterruptedError
		if !errors.As(err, &ie) {
			t.Fatalf("%s: err = %v, want an InterruptedError", prg, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: ended %v after the start (interrupt at 1s)", prg, d)
		}
	}
}

func BenchmarkRuncodeForOf(b *testing.B) {
	for _, c := range []struct{ name, setup, loop string }{
		{"array", `const a = Array.from({length: 1e5}, (_, i) => i);`, `let s = 0; for (const x of a) s += x;`},
		{"spread", `const a = Array.from({length: 1e5}, (_, i) => i);`, `const b = [...a];`},
		{"map", `const m = new Map(Array.from({length: 1e5}, (_, i) => [i, i]));`, `let s = 0; for (const [k, v] of m) s += v;`},
		{"set", `const m = new Set(Array.from({length: 1e5}, (_, i) => i));`, `let s = 0; for (const k of m) s += k;`},
	} {
		b.Run(c.name, func(b *testing.B) {
			vm := New()
			if _, err := vm.RunString(c.setup + ` function f() { ` + c.loop + ` }`); err != nil {
				b.Fatal(err)
			}
			f, _ := AssertFunction(vm.Get("f"))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := f(nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
