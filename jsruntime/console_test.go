package jsruntime_test

import (
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

func TestConsoleFormatting(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	tests := []struct{ program, want string }{
		{`console.log("point", {x: 1, y: 2})`, `point { x: 1, y: 2 }`},
		{`console.log("got", 42)`, `got 42`},
		{`console.log("plain", {a: 1})`, `plain { a: 1 }`},
		{`console.log({x: 1, y: 'two'})`, `{ x: 1, y: 'two' }`},
		{`console.log([1, 2, 3])`, `[ 1, 2, 3 ]`},
		{`console.log({}, [])`, `{} []`},
		{`console.log(undefined, null, true, false)`, `undefined null true false`},
		{`console.log(1.5, -0, NaN, Infinity, -Infinity, 1e21, 10n)`, `1.5 -0 NaN Infinity -Infinity 1e+21 10n`},
		{`console.log("multi\nline", ["a'b", "it's \"q\""])`, "multi\nline [ \"a'b\", `it's \"q\"` ]"},
		{`console.log({"my-key": 1, _ok: 2, "1": 3})`, `{ '1': 3, 'my-key': 1, _ok: 2 }`},
		{`console.log({a: {b: {c: {d: {e: {f: 1}}}}}})`, "{\n  a: {\n    b: { c: { d: { e: [Object] } } }\n  }\n}"},
		{`console.log([[[[[[1]]]]]])`, "[\n  [\n    [ [ [ [Array] ] ] ]\n  ]\n]"},
		{`console.log(function named() {}, () => 1, class K {})`, `[Function: named] [Function (anonymous)] [class K]`},
		{`console.log([1, 2, 3, 4, 5, 6, 7])`, "[\n  1, 2, 3, 4,\n  5, 6, 7\n]"},
		{`console.log(Object.create(null))`, `[Object: null prototype] {}`},
		{`const o = Object.create(null); o.a = 1; console.log(o)`, `[Object: null prototype] { a: 1 }`},
		{`class P { constructor() { this.x = 1 } }; console.log(new P())`, `P { x: 1 }`},
		{`const o = {a: 1}; o.self = o; console.log(o)`, `<ref *1> { a: 1, self: [Circular *1] }`},
		{`console.log(Symbol("s"), [Symbol("t")])`, `Symbol(s) [ Symbol(t) ]`},
		{`console.log(new Date(0))`, `1970-01-01T00:00:00.000Z`},
		{`console.log(/a+/g)`, `/a+/g`},
		{`console.info("i"); console.warn("w"); console.error("e"); console.debug("d")`, "i\nw\ne\nd"},
		{`console.log()`, ``},
		{`console.log({long: "aaaaaaaaaaaaaaaaaaaa", longer: "bbbbbbbbbbbbbbbbbbbbbbbbb", longest: "ccccccccccccccccccccccccc"})`,
			"{\n  long: 'aaaaaaaaaaaaaaaaaaaa',\n  longer: 'bbbbbbbbbbbbbbbbbbbbbbbbb',\n  longest: 'ccccccccccccccccccccccccc'\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.program, func(t *testing.T) {
			res := run(t, g, tt.program, nil)
			if res.Error != nil {
				t.Fatal(res.Error)
			}
			if got := strings.Join(res.Logs, "\n"); got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestConsoleErrorsPrintTheirStack(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, "const e = new Error(\"bad\");\nconsole.log(e)", nil)
	if len(res.Logs) != 1 || !strings.HasPrefix(res.Logs[0], "Error: bad\n") || !strings.Contains(res.Logs[0], "main.ts:1") {
		t.Fatalf("logs = %q", res.Logs)
	}
}

func TestConsoleShape(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	res := run(t, g, `return [Object.getPrototypeOf(console) === null, Object.keys(console), typeof console.group]`, nil)
	wantValue(t, res, `[true,["log","info","warn","error","debug","table","dir"],"undefined"]`)
	res = run(t, g, `console.group("g")`, nil)
	if res.Error == nil || res.Error.Kind != jsruntime.KindException || !strings.HasPrefix(res.Error.Message, "TypeError: ") {
		t.Fatalf("calling a missing console method: %+v", res.Error)
	}
}
