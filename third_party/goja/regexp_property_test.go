package goja

import (
	"strings"
	"testing"
)

// runcode: the Unicode property escapes of regexp_property.go. The expected values are V8's
// (Node 22).
func TestRegexpPropertyEscapes(t *testing.T) {
	const script = `
	const r = [];
	r.push("Éa".match(/\p{L}+/u)[0]);
	r.push("a-é 1_b!".replace(/[^\p{L}\p{N}\s-]/gu, ""));
	r.push("e\u0301x".match(/\p{M}/gu).length);
	r.push(/\P{Lu}/iu.test("A"), /[^\P{Lu}]/iu.test("a"), /\p{Lu}/iu.test("a"), /[^\p{Lu}]/iu.test("A"));
	r.push(/\p{Script=Greek}+/u.exec("abγδε")[0], /\p{scx=Grek}/u.test("\u0342"), /\p{sc=Grek}/u.test("\u0342"));
	r.push(/\p{Emoji_Presentation}/u.test("😀"), /\p{Extended_Pictographic}/u.test("a"));
	r.push(/(?<=\p{Lu})\p{Ll}+/u.exec("xAbc")[0]);
	const g = /\p{L}/gu; g.lastIndex = 1; r.push(g.exec("aé")[0]);
	r.push(/\p{L}/.test("p{L}"), /\p{L}/u.source, /[]/u.test("\u{20000}"), /[^]/u.test("\u{20000}"));
	r.push(new RegExp("\\p{L}", "u").test("ж"), /^\p{Any}$/u.test(String.fromCodePoint(0x10FFFF)), /\P{Any}/u.test("a"));
	// Unicode 16.0 and 17.0 scripts and characters (Node 22 has Unicode 17.0).
	r.push(/\p{Script=Garay}/u.test("\u{10D4A}"), /\p{sc=Sidt}/u.test("\u{10940}"), /\p{L}/u.test("\u{10940}"),
		/^\P{Assigned}$/u.test("\u{1E6C0}"), /\p{scx=Tutg}/u.test("\u{11380}"), /\p{Script_Extensions=Tolong_Siki}/u.test("\u{11DB0}"));
	JSON.stringify(r);
	`
	vm := New()
	v, err := vm.RunString(script)
	if err != nil {
		t.Fatal(err)
	}
	const want = `["Éa","a-é 1b",1,true,false,true,false,"γδε",true,false,true,false,"bc","é",true,"\\p{L}",false,true,true,true,false,true,true,true,false,true,true]`
	if got := v.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestRegexpPropertyEscapeErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`new RegExp("\\p{Foo}", "u")`, `SyntaxError: Invalid regular expression: /\p{Foo}/u: Invalid property name`},
		{`new RegExp("[\\p{Foo}]", "gu")`, `SyntaxError: Invalid regular expression: /[\p{Foo}]/gu: Invalid property name in character class`},
		{`new RegExp("\\p{L", "u")`, `SyntaxError: Invalid regular expression: /\p{L/u: Invalid property name`},
		{`new RegExp("\\pL", "u")`, `SyntaxError: Invalid regular expression: /\pL/u: Invalid property name`},
		{`new RegExp("\\p{lu}", "u")`, `SyntaxError: Invalid regular expression: /\p{lu}/u: Invalid property name`},
		{`new RegExp("\\p{sc=Hrkt}", "u")`, `SyntaxError: Invalid regular expression: /\p{sc=Hrkt}/u: Invalid property name`},
		{`/\p{Block=Basic_Latin}/u`, `SyntaxError: Invalid regular expression: /\p{Block=Basic_Latin}/u: Invalid property name`},
		{`new RegExp("\\p{Tols}", "u")`, `SyntaxError: Invalid regular expression: /\p{Tols}/u: Invalid property name`},
	} {
		_, err := New().RunString(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %s", c.src, err, c.want)
		}
	}
}

func TestRegExpPropertyEscapeSize(t *testing.T) {
	if r, cp, ok := RegExpPropertyEscapeSize("ASCII", false); !ok || r != 1 || cp != 128 {
		t.Errorf("ASCII: %d ranges, %d code points, %v", r, cp, ok)
	}
	if r, cp, ok := RegExpPropertyEscapeSize("ASCII", true); !ok || r != 1 || cp != 0x110000-128 {
		t.Errorf("^ASCII: %d ranges, %d code points, %v", r, cp, ok)
	}
	if _, _, ok := RegExpPropertyEscapeSize("Foo", false); ok {
		t.Error("Foo: ok")
	}
}
