package goja

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestChunkedStringMethods checks that the chunked paths of runcode_strings.go (strings longer
// than stringChunk) give what the one-step paths give on short strings.
func TestChunkedStringMethods(t *testing.T) {
	vm := New()
	// Each unit is checked short (one step) and repeated past stringChunk (chunked): the long
	// result must be the short one repeated.
	units := []string{"Straße ΣΑΣ σ. İı ǅ é\u0301 \u0345\u03a3 ", "abc DEF ", "\ufeff x\u3000", "e\u0301\u0327 Å 가 ﬁ "}
	for _, u := range units {
		for _, m := range []string{"toLowerCase()", "toUpperCase()", "normalize('NFC')", "normalize('NFD')", "normalize('NFKC')", "normalize('NFKD')", "trim()", "trimStart()", "trimEnd()"} {
			_ = vm.Set("u", u)
			v, err := vm.RunString(`var n = Math.ceil(2 * 65536 / u.length) + 1; [u.` + m + `.repeat(n) === u.repeat(n).` + m + ` || u.repeat(n).` + m + `.length, u.repeat(n).` + m + `.length]`)
			if err != nil {
				t.Fatal(err)
			}
			got := v.Export().([]any)
			if m[:4] == "trim" {
				continue // trimming trims only the ends of the repetition
			}
			if got[0] != true {
				t.Errorf("%q.%s chunked differs from one step (length %v)", u, m, got[1])
			}
		}
	}
	for _, c := range []struct{ expr, want string }{
		{`"  \u3000 a b \ufeff\n".trim()`, "a b"},
		{`"  a ".trimStart()`, "a "},
		{`"  a ".trimEnd()`, "  a"},
		{`"é a ".trimEnd()`, "é a"},
		{`"\ud800 ".trim().length`, "1"},
		{`"a,b,,c".split(",").join("|")`, "a|b||c"},
		{`"a,b,,c".split(",", 2).join("|")`, "a|b"},
		{`"a,b,,c".split(",", 0).length`, "0"},
		{`",".split(",").length`, "2"},
		{`"".split(",").length`, "1"},
		{`"a<>b<>".split("<>").join("|")`, "a|b|"},
		// replaceAll with a string search, against Node's answers.
		{"JSON.stringify([\"aaa\".replaceAll(\"a\", \"$&$&-$`$'$$$1$<x>\"), \"abc\".replaceAll(\"\", \"_\"), \"abcb\".replaceAll(\"b\", (m, p, s) => `[${m}${p}${s.length}]`), \"é a é\".replaceAll(\"é\", \"$'\"), \"xx\".replaceAll(\"y\", \"z\"), \"aaaa\".replaceAll(\"aa\", \"b\")])",
			`["aa-aa$$1$<x>aa-aa$$1$<x>aa-aa$$1$<x>","_a_b_c_","a[b14]c[b34]"," a é a ","xx","bb"]`},
		// toLowerCase's final sigma and U+0130, against Node's answers.
		{`["ΣΑΣ ", "\u03b1\u0345Σ ", " ͅΣ ", "aͅΣ", "Σ", " Σ", "AΣ.", "AΣ'b", "AΣ1", "İ", "ǅΣ", "x\u0301Σ\u0301 ", "\ud801\udc00Σ", "ΣΣΣ", "Σ\ud800"].map(x => escape(x.toLowerCase())).join()`,
			"%u03C3%u03B1%u03C2%20,%u03B1%u0345%u03C2%20,%20%u0345%u03C3%20,a%u0345%u03C2,%u03C3,%20%u03C3,a%u03C2.,a%u03C3%27b,a%u03C21,i%u0307,%u01C6%u03C2,x%u0301%u03C2%u0301%20,%uD801%uDC28%u03C2,%u03C3%u03C3%u03C2,%u03C3%uD800"},
	} {
		v, err := vm.RunString(c.expr)
		if err != nil || v.String() != c.want {
			t.Errorf("%s = %v (%v), want %q", c.expr, v, err, c.want)
		}
	}
}

// TestStringMethodsInterrupt checks that Interrupt ends the chunked string methods on strings
// that take them seconds.
func TestStringMethodsInterrupt(t *testing.T) {
	for _, m := range []string{"u.normalize('NFD')", "u.toLowerCase()", "u.toUpperCase()", "a.toUpperCase()", "a.split(',')", "u.split(',')", "a.replaceAll(',', ';')", "u.replaceAll(',', ';')", "u.split('')"} {
		t.Run(m, func(t *testing.T) {
			vm := New()
			if _, err := vm.RunString(`var u = "É,".repeat(1 << 25), a = "x,".repeat(1 << 25)`); err != nil {
				t.Fatal(err)
			}
			time.AfterFunc(50*time.Millisecond, func() { vm.Interrupt("stop") })
			start := time.Now()
			_, err := vm.RunString(`for (;;) ` + m)
			var ie *InterruptedError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an InterruptedError", err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("ended %v after the interrupt", d)
			}
		})
	}
	_ = strings.Repeat
}
