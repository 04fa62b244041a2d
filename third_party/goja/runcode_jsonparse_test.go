package goja

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestJSONParseValues checks runcode's JSON.parse (runcode_jsonparse.go) against Node's answers,
// for ASCII and UTF-16 text.
func TestJSONParseValues(t *testing.T) {
	cases := []struct{ text, want string }{
		{`{"a":[1,2,{"b":"é\u00e9\ud800x"}],"c":-0,"d":1e400,"e":12345678901234567890,"f":-1.5e-3,"g":true,"h":null,"i":false,"j":[],"k":{}}`,
			`{"a":[1,2,{"b":"éé\ud800x"}],"c":0,"d":null,"e":12345678901234567000,"f":-0.0015,"g":true,"h":null,"i":false,"j":[],"k":{}}|a,c,d,e,f,g,h,i,j,k`},
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}|a,b`},
		{`{"b":1,"1":2,"0":3}`, `{"0":3,"1":2,"b":1}|0,1,b`},
		{` [ "é" , "abc" , {"ключ" : "значение", "\u0041":"\n\t\/\\"} ] `, `["é","abc",{"ключ":"значение","A":"\n\t/\\"}]|0,1,2`},
		{`[-0, 0, -1, 1E2, 1e-2, 123456789012345, 1234567890123456, 0.1]`, `[0,0,-1,100,0.01,123456789012345,1234567890123456,0.1]|0,1,2,3,4,5,6,7`},
		{`{"__proto__": 1}`, `{"__proto__":1}|__proto__`},
		{`"a\"b"`, `"a\"b"|0,1,2`},
	}
	vm := New()
	f, err := vm.RunString(`(text) => { const v = JSON.parse(text); return JSON.stringify(v) + "|" + Object.keys(Object(v)).join(","); }`)
	if err != nil {
		t.Fatal(err)
	}
	parse, _ := AssertFunction(f)
	for _, c := range cases {
		for _, text := range []string{c.text, c.text + strings.Repeat(" ", 0)} {
			got, err := parse(nil, vm.ToValue(text))
			if err != nil {
				t.Fatalf("JSON.parse(%s): %v", text, err)
			}
			if want := strings.ReplaceAll(c.want, `\\`, `\`); got.String() != c.want && got.String() != want {
				t.Errorf("JSON.parse(%s) = %s, want %s", text, got, c.want)
			}
		}
	}
	// The same texts as UTF-16 strings (a non-ASCII character appended in JavaScript, then cut off).
	for _, c := range cases {
		got, err := vm.RunString(`JSON.stringify(JSON.parse((` + "`" + strings.ReplaceAll(c.text, `\`, `\\`) + "`" + ` + "é").slice(0, -1)))`)
		if err != nil {
			t.Fatal(err)
		}
		if want, _, _ := strings.Cut(c.want, "|"); got.String() != want {
			t.Errorf("JSON.parse of UTF-16 %s = %s, want %s", c.text, got, want)
		}
	}
	for _, expr := range []string{`Object.is(JSON.parse("-0"), -0)`, `JSON.parse('"\ud800"').length === 1`, `JSON.parse('["\ud800é"]')[0].charCodeAt(0) === 0xd800`,
		`JSON.parse('{"a":1}', (k, v) => typeof v === "number" ? v + 1 : v).a === 2`} {
		if v, err := vm.RunString(expr); err != nil || !v.ToBoolean() {
			t.Errorf("%s: %v, %v", expr, v, err)
		}
	}
}

// TestJSONParseNesting checks that JSON.parse does not recurse in Go per level, and that
// SetJSONParseMaxDepth refuses deeper text with a RangeError.
func TestJSONParseNesting(t *testing.T) {
	vm := New()
	v, err := vm.RunString(`let a = JSON.parse("[".repeat(2e5) + "]".repeat(2e5)), d = 0; while (Array.isArray(a)) { a = a[0]; d++ } d`)
	if err != nil || v.ToInteger() != 2e5 {
		t.Fatalf("200,000 levels: %v, %v", v, err)
	}
	vm.SetJSONParseMaxDepth(10)
	if _, err := vm.RunString(`JSON.parse("[".repeat(10) + "]".repeat(10))`); err != nil {
		t.Fatal(err)
	}
	_, err = vm.RunString(`JSON.parse('{"a":' .repeat(11) + "1" + "}".repeat(11))`)
	if err == nil || !strings.Contains(err.Error(), "RangeError: JSON.parse: text nests deeper than 10 levels") {
		t.Fatalf("11 levels: %v", err)
	}
}

// TestJSONParseInterrupt checks that Interrupt ends a long JSON.parse.
func TestJSONParseInterrupt(t *testing.T) {
	vm := New()
	if _, err := vm.RunString(`var text = "[" + '{"a":1,"b":[2,"x"]},'.repeat(2e6) + "1]"`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	go func() { time.Sleep(20 * time.Millisecond); vm.Interrupt("stop") }()
	_, err := vm.RunString(`JSON.parse(text); JSON.parse(text); JSON.parse(text); JSON.parse(text)`)
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Value() != "stop" {
		t.Fatalf("err = %v, want an InterruptedError", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v after the interrupt", d)
	}
}
