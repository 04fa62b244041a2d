package goja

import (
	"errors"
	"testing"
	"time"
)

// TestRuncodeSortAndSpread checks the merge sort and the string spread of runcode_sort.go
// against Node's answers.
func TestRuncodeSortAndSpread(t *testing.T) {
	vm := New()
	for _, c := range []struct{ expr, want string }{
		// Stable, by the comparator; undefined and holes last.
		{`return JSON.stringify(Array.from({length: 100}, (_, i) => ({k: i % 3, i})).sort((a, b) => a.k - b.k).map(o => o.i).slice(0, 40))`,
			`[0,3,6,9,12,15,18,21,24,27,30,33,36,39,42,45,48,51,54,57,60,63,66,69,72,75,78,81,84,87,90,93,96,99,1,4,7,10,13,16]`},
		{`const a = [3, undefined, 1, , 2]; a.sort(); return JSON.stringify(a) + a.length + (3 in a) + (4 in a)`, `[1,2,3,null,null]5truefalse`},
		{`return JSON.stringify([10, 9, 1, 100, 25].sort())`, `[1,10,100,25,9]`},
		{`return JSON.stringify(Array.from({length: 1000}, (_, i) => (i * 7919) % 1009).sort((a, b) => a - b).filter((x, i, a) => i > 0 && a[i - 1] > x))`, `[]`},
		// A comparator that throws leaves the array as it was.
		{`const b = Array.from({length: 100}, (_, i) => 100 - i); let n = 0; try { b.sort((x, y) => { if (++n > 300) throw 1; return x - y; }); } catch (e) {} return JSON.stringify(b.slice(0, 5))`, `[100,99,98,97,96]`},
		{`return JSON.stringify([3, 1, 2].toSorted())`, `[1,2,3]`},
		// Spread of a string: code points, lone surrogates kept.
		{`return JSON.stringify([..."aé\ud83d\ude00\ud800b"].map(c => c.length))`, `[1,1,2,1,1]`},
		{`return [..."a\ud83d\ude00"][1] === "\ud83d\ude00"`, `true`},
		{`const p = Object.getPrototypeOf(""[Symbol.iterator]()); const orig = p.next; p.next = function () { const r = orig.call(this); if (!r.done) r.value += "!"; return r; }; const s = [..."ab"].join(); p.next = orig; return s`, `a!,b!`},
	} {
		v, err := vm.RunString(`(() => { ` + c.expr + ` })()`)
		if err != nil || v.String() != c.want {
			t.Errorf("%s = %v (%v), want %s", c.expr, v, err, c.want)
		}
	}
}

// TestRuncodeSortInterrupt checks that Interrupt ends a sort without a comparator and a spread of
// a long string.
func TestRuncodeSortInterrupt(t *testing.T) {
	for _, prg := range []string{`const a = Array.from({length: 3e6}, (_, i) => "k" + ((i * 7919) % 3000017)); for (;;) a.slice().sort()`,
		`const s = "é".repeat(3e7); for (;;) [...s]`} {
		vm := New()
		time.AfterFunc(2*time.Second, func() { vm.Interrupt("stop") })
		start := time.Now()
		_, err := vm.RunString(prg)
		var ie *InterruptedError
		if !errors.As(err, &ie) {
			t.Fatalf("%s: err = %v, want an InterruptedError", prg, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: ended %v after the start (interrupt at 2s)", prg, d)
		}
	}
}
