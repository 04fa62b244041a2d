package goja

import "testing"

// TestRuncodeStringPropFast checks reads of named properties of primitive strings
// (runcode_strprop.go) against Node 22's answers: length, indices, methods, getters and methods
// on String.prototype and Object.prototype (with a primitive this in strict code, a wrapper in
// sloppy code), a patched method, and the errors for null and undefined.
func TestRuncodeStringPropFast(t *testing.T) {
	vm := New()
	for _, c := range []struct{ expr, want string }{
		{`const s = "abé"; const t = "x😀"; return JSON.stringify([s.length, t.length, "".length, s.toUpperCase(), t.codePointAt(1), s["0"], s["1"], s["01"], s[2], s.foo, "abc".constructor === String, "abc".__proto__ === String.prototype, typeof "abc".hasOwnProperty, "abc".hasOwnProperty("length"), "abc".hasOwnProperty("1")])`,
			`[3,3,0,"ABÉ",128512,"a","b",null,"é",null,true,true,"function",true,true]`},
		{`"use strict"; Object.defineProperty(String.prototype, "me", {get() { return typeof this; }, configurable: true}); Object.prototype.up = function () { return typeof this; }; try { return JSON.stringify(["abc".me, "é".me, "abc".up(), "é".up()]); } finally { delete String.prototype.me; delete Object.prototype.up; }`,
			`["string","string","string","string"]`},
		{`Object.defineProperty(String.prototype, "me", {get() { return typeof this; }, configurable: true}); String.prototype.self = function () { return this; }; try { return JSON.stringify(["abc".me, typeof "abc".self(), "abc".self() instanceof String]); } finally { delete String.prototype.me; delete String.prototype.self; }`,
			`["object","object",true]`},
		{`const orig = String.prototype.startsWith; String.prototype.startsWith = function (p) { return "patched:" + p; }; try { return "ip=1".startsWith("ip=") } finally { String.prototype.startsWith = orig; }`,
			`patched:ip=`},
		{`"abc".x = 1; return JSON.stringify(["abc".x, "abc".length]);`,
			`[null,3]`},
		{`let e1, e2; try { null.length } catch (e) { e1 = e.message } try { undefined.startsWith("a") } catch (e) { e2 = e.message } return JSON.stringify([e1, e2]);`,
			`["Cannot read properties of null (reading 'length')","Cannot read properties of undefined (reading 'startsWith')"]`},
	} {
		v, err := vm.RunString(`(() => { ` + c.expr + ` })()`)
		if err != nil || v.String() != c.want {
			t.Errorf("%s = %v (%v), want %s", c.expr, v, err, c.want)
		}
	}
}

func BenchmarkRuncodeStringMethod(b *testing.B) {
	vm := New()
	if _, err := vm.RunString(`const parts = Array.from({length: 1e4}, (_, i) => (i % 3 ? "ip=" : "user=") + i);
function f() { let n = 0; for (const p of parts) { if (p.startsWith("ip=")) n += p.slice(3).length; } return n; }`); err != nil {
		b.Fatal(err)
	}
	f, _ := AssertFunction(vm.Get("f"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f(nil); err != nil {
			b.Fatal(err)
		}
	}
}
