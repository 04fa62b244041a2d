package goja

import (
	"strings"
	"testing"
)

// runcode: V8's (Node 22's) messages; the expected values are Node 22's.
func TestV8ErrorMessages(t *testing.T) {
	for src, want := range map[string]string{
		`let n = null; n.x`:                                 "TypeError: Cannot read properties of null (reading 'x')",
		`let u; u[0]`:                                       "TypeError: Cannot read properties of undefined (reading '0')",
		`"use strict"; let n = null; n.x = 1`:               "TypeError: Cannot set properties of null (setting 'x')",
		`let o = {}; o.a.b()`:                               "TypeError: Cannot read properties of undefined (reading 'b')",
		`let o = {}; o.run()`:                               "TypeError: o.run is not a function",
		`let o = {}; o["a-b"]()`:                            "TypeError: o.a-b is not a function",
		`let f = 1; f()`:                                    "TypeError: f is not a function",
		`let a = [1]; a.map(x => x).foo()`:                  "TypeError: a.map(...).foo is not a function",
		`let o = {}; new o.a()`:                             "TypeError: o.a is not a constructor",
		`let o = {}; [...o]`:                                "TypeError: o is not iterable",
		`let o = {}; for (const x of o.a) {}`:               "TypeError: o.a is not iterable",
		`new Map(5)`:                                        "TypeError: number 5 is not iterable (cannot read property Symbol(Symbol.iterator))",
		`(function () { x; let x = 1; })()`:                 "ReferenceError: Cannot access 'x' before initialization",
		`(() => { const f = () => y; f(); const y = 1 })()`: "ReferenceError: Cannot access 'y' before initialization",
	} {
		_, err := New().RunString(src)
		ex, ok := err.(*Exception)
		if !ok {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got := ex.Value().String(); got != want {
			t.Errorf("%s: got %s, want %s", src, got, want)
		}
	}
}

// runcode: \u{10FFFF} in a string literal made the lexer panic (parser/lexer.go).
func TestMaxCodePointEscape(t *testing.T) {
	v, err := New().RunString(`["\u{10FFFF}".length, '\u{0010ffff}'.codePointAt(0), ` + "`\\u{10FFFF}`" + `.length].join()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "2,1114111,2" {
		t.Errorf("got %s", got)
	}
	if _, err := New().RunString(`"\u{110000}"`); err == nil || !strings.Contains(err.Error(), "SyntaxError") {
		t.Errorf("\\u{110000}: %v", err)
	}
}
