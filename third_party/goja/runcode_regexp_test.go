package goja

// runcode: tests of runcode_regexp.go (RUNCODE.md, change 9).

import (
	"errors"
	"testing"
	"time"
)

// A literal evaluated again (a function called per line) shares the regexp2 form the first
// evaluation compiled, as it shares the RE2 form: upstream compiled regexp2 once per evaluation.
func TestRegexpLiteralCompiledOnce(t *testing.T) {
	vm := New()
	v, err := vm.RunString(`
	function tok(s) { const re = /[\p{L}\p{N}_]+/uy; re.lastIndex = 1; re.exec(s); return re; }
	[tok("xcafé"), tok("xnaïve")]`)
	if err != nil {
		t.Fatal(err)
	}
	arr := v.(*Object)
	a := arr.Get("0").(*Object).self.(*regexpObject)
	b := arr.Get("1").(*Object).self.(*regexpObject)
	if a == b || a.pattern == b.pattern {
		t.Fatal("each evaluation must make its own RegExp and pattern clone")
	}
	if a.pattern.regexp2Wrapper == nil || b.pattern.regexp2Wrapper == nil {
		t.Fatal("exec past 0 of a non-ASCII subject should use regexp2")
	}
	if a.pattern.regexp2Wrapper.rx != b.pattern.regexp2Wrapper.rx {
		t.Error("the two evaluations compiled regexp2 separately")
	}
	if a.pattern.regexp2Wrapper == b.pattern.regexp2Wrapper {
		t.Error("the clones share a match cache")
	}
	res, err := vm.RunString(`function g() { return /a/g } const x = g(), y = g(); x.lastIndex = 5; [x !== y, y.lastIndex, x.lastIndex].join()`)
	if err != nil {
		t.Fatal(err)
	}
	if res.String() != "true,0,5" {
		t.Errorf("evaluations share a RegExp or its lastIndex: %s", res)
	}
}

// new RegExp(re, flags) with other flags is compiled once per (pattern, flags): split's species
// copy and matchAll's copy made one per call.
func TestRegexpDerivedOnce(t *testing.T) {
	vm := New()
	v, err := vm.RunString(`const re = /a(b)?/; [new RegExp(re, "gy"), new RegExp(re, "gy"), new RegExp(re, "g"), new RegExp(re, "")]`)
	if err != nil {
		t.Fatal(err)
	}
	arr := v.(*Object)
	p := func(i string) *regexpObject { return arr.Get(i).(*Object).self.(*regexpObject) }
	if p("0").pattern.regexpWrapper != p("1").pattern.regexpWrapper || p("0").pattern.lazy2 != p("1").pattern.lazy2 {
		t.Error("the same flags compiled twice")
	}
	if !p("0").pattern.sticky || !p("0").pattern.global || p("2").pattern.sticky || !p("2").pattern.global || p("3").pattern.global {
		t.Error("derived patterns have the wrong flags")
	}
}

// Results of the one-match-at-a-time paths, checked against Node 22's answers.
func TestRegexpAtScaleSemantics(t *testing.T) {
	const script = `
	const out = [];
	out.push("baaac".match(/a*/g).join("|"));
	out.push("baaac".replace(/a*/g, "-"));
	out.push("aaa".replace(/a/gy, "b"), "xaa".replace(/a/gy, "b"));
	out.push("a,b,,c".split(/,/).join("|"), "a,b,,c".split(/,/y).join("|"), "a,b,,c".split(/,/, 2).join("|"));
	out.push("aXbX".split(/(X)/).join("|"), "abc".split(/(?:)/).join("|"), "".split(/x/).length, "".split(/(?:)/).length);
	out.push("😀😀".split(/(?:)/u).length, "😀😀".split(/(?:)/).length);
	out.push("é1é22é333".match(/\d+/g).join("|"), "é1é22é333".replace(/(?<d>\d+)/gu, "<$<d>>"));
	out.push("x1y2".replace(/\d/g, (m, i) => "[" + m + i + "]"));
	const re = /o/y; re.lastIndex = 1; out.push("foo".replace(re, "0"), re.lastIndex);
	const g = /o/g; g.lastIndex = 2; out.push("foo".replace(g, "0"), g.lastIndex);
	out.push("ab ab".replace(/\bab/g, "X"), "cab ab".replace(/^ab|\bab/g, "X"));
	out.push([..."a1b22".matchAll(/\d+/g)].map(m => m.index + ":" + m[0]).join("|"));
	out.push("a-b_c".split(/[-_]/).join("|"), "café crème".match(/\p{L}+/gu).join("|"));
	out.join(",")`
	// Node 22's output for the same script.
	const want = "|aaa||,-b--c-,bbb,xaa,a|b||c,a|b||c,a|b,a|X|b|X|,a|b|c,1,0,2,4,1|22|333,é<1>é<22>é<333>,x[11]y[23],f0o,2,f00,0,X X,cab X,1:1|3:22,a|b|c,café|crème"
	vm := New()
	v, err := vm.RunString(script)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// A match regexp2 gives up after its MatchTimeout throws a RangeError; upstream answered "no
// match".
func TestRegexpMatchTimeoutThrows(t *testing.T) {
	vm := New()
	v, err := vm.RunString(`/^(a|aa)+\1$/`)
	if err != nil {
		t.Fatal(err)
	}
	rx := v.(*Object).self.(*regexpObject)
	if rx.pattern.regexp2Wrapper == nil {
		t.Fatal("a backreference should compile with regexp2")
	}
	rx.pattern.regexp2Wrapper.rx.MatchTimeout = 20 * time.Millisecond
	vm.Set("re", v)
	res, err := vm.RunString(`try { re.test("a".repeat(40) + "b"); "no error" } catch (e) { e.name + ": " + e.message }`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "RangeError: regular expression match exceeded the 20ms match timeout: /^(a|aa)+\\1$/"; res.String() != want {
		t.Errorf("got %q, want %q", res, want)
	}
}

// An interrupt ends a global replace, match or split at its next search: upstream ran each to the
// end in one native step.
func TestRegexpInterruptedMidway(t *testing.T) {
	for _, op := range []string{`s.replace(/é/g, "xx")`, `s.match(/é/g)`, `s.split(/é/)`, `s.replace(/é/gy, "x")`} {
		t.Run(op, func(t *testing.T) {
			vm := New()
			if _, err := vm.RunString(`var s = "é".repeat(1 << 23)`); err != nil {
				t.Fatal(err)
			}
			timer := time.AfterFunc(50*time.Millisecond, func() { vm.Interrupt("stop") })
			defer timer.Stop()
			start := time.Now()
			_, err := vm.RunString(op + `.length`)
			var ie *InterruptedError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an interrupt", err)
			}
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("took %v after a 50ms interrupt", elapsed)
			}
		})
	}
}

// A sticky regexp tried position by position over a long text is linear: regexp2 anchors it,
// where upstream searched on to the next match (which it then refused) at every position.
func TestRegexpStickyAnchored(t *testing.T) {
	vm := New()
	start := time.Now()
	v, err := vm.RunString(`
	const s = "é".repeat(200000) + "1";
	const re = /\d/y; let n = 0;
	for (let i = 0; i < s.length; i++) { re.lastIndex = i; if (re.test(s)) n++; }
	n`)
	if err != nil {
		t.Fatal(err)
	}
	if v.ToInteger() != 1 {
		t.Errorf("got %v matches, want 1", v)
	}
	if elapsed := time.Since(start); elapsed > 20*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

// Searches from a position in non-ASCII text (RE2 on the subject converted to UTF-8 once, or
// regexp2 where it holds a surrogate), checked against Node 22's answers.
func TestRegexpNonASCIISearches(t *testing.T) {
	vm := New()
	v, err := vm.RunString(`const out = [];
const t = "Ärger über Öl — naïve café, ÉLAN; 😀 x1 y22";
out.push(t.match(/\w+/g).join("|"), t.match(/[a-zé]+/gi).join("|"), t.replace(/é|ï/g, "_"), t.split(/[ ,;—]+/).join("|"));
const re = /\d+/g; let m, r = []; while ((m = re.exec("é1é22é333")) !== null) r.push(m.index + ":" + m[0] + ":" + re.lastIndex);
out.push(r.join("|"), "éaéa".replace(/a$/g, "!"), "é\né".replace(/é$/gm, "E"), "é😀é😀".match(/é/g).length, "é😀é😀".replace(/😀/gu, "s"));
out.join(",")
`)
	if err != nil {
		t.Fatal(err)
	}
	const want = "rger|ber|l|na|ve|caf|LAN|x1|y22,rger|ber|l|na|ve|café|ÉLAN|x|y,Ärger über Öl — na_ve caf_, ÉLAN; 😀 x1 y22,Ärger|über|Öl|naïve|café|ÉLAN|😀|x1|y22,1:1:2|3:22:5|6:333:9,éaé!,E\nE,2,ésés"
	if got := v.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
