package jsruntime

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

func TestMeasureRegexp(t *testing.T) {
	for _, c := range []struct {
		pattern            string
		nesting, expansion int
	}{
		{"", 0, 0},
		{"abc", 0, 0},
		{"a|b|c", 0, 0},
		{"(?=(?=a))", 2, 0},
		{"a{3}", 0, 2},
		{"a{3,}", 0, 3},
		{"a{2,5}", 0, 4},
		{"a{0}", 0, 0},
		{"a{,5}", 0, 0}, // not a quantifier: five literal characters
		{"a{x}", 0, 0},
		{"(ab){10}", 1, 27},                // (ab) is 3 elements, written out 10 times
		{"(a{10}){10}", 1, 9 + 9*11},       // (a{10}) is 12 elements as written out, 3 as written
		{"((a{10}){10}){10}", 2, 1112 - 5}, // ((a{10}){10}) written out: 1 + 10*(1 + 10) + 1 = 112
		{"[abc]{100}", 0, 99 * 5},
		{`\d{1000}`, 0, 999},
		{strings.Repeat("a{1000}", 100), 0, 99_900},
		{strings.Repeat("a{1000}", 101), 0, 100_899},
		{"a{99999999999999999999}", 0, maxRegexpExpansion},
		{"((((", 4, 0},
		{"))))", 0, 0},
		{strings.Repeat("(?=", 1001) + "a" + strings.Repeat(")", 1001), 1001, 0},
		{`\p{L}{1000}`, 0, 999}, // a property escape is one atom, not its closing brace
		{`\p{2}`, 0, 1},         // without the u flag, "pp"
	} {
		nesting, expansion := measureRegexp(c.pattern)
		if nesting != c.nesting || expansion != c.expansion {
			t.Errorf("measureRegexp(%.40q) = %d, %d; want %d, %d", c.pattern, nesting, expansion, c.nesting, c.expansion)
		}
	}
}

// TestRegexpGuardLimits: every entry point that compiles a pattern accepts one at each limit and
// refuses one just past it with a RangeError naming the limit.
func TestRegexpGuardLimits(t *testing.T) {
	rl := freshRealm(t, Config{})
	nested := func(n int) string { return strings.Repeat("(?=", n) + "a" + strings.Repeat(")", n) }
	patterns := []struct {
		name, ok, over, msg string
	}{
		{"nesting", nested(maxRegexpNesting), nested(maxRegexpNesting + 1), "the pattern nests groups more than 1000 levels deep"},
		{"length", strings.Repeat("a", maxRegexpSource), strings.Repeat("a", maxRegexpSource+1), "the pattern is 262145 characters long, over the limit of 262144"},
		{"expansion", strings.Repeat("a{1000}", 100) + "a{101}", strings.Repeat("a{1000}", 100) + "a{102}", "the pattern's counted repetitions ({n,m}) add more than 100000 elements"},
	}
	entries := []struct{ name, code, what string }{
		{"new", "new RegExp(p)", "RegExp"},
		{"call", "RegExp(p, 'g')", "RegExp"},
		{"subclass", "new (class extends RegExp {})(p)", "RegExp"},
		{"constructor", "new (/x/.constructor)(p)", "RegExp"},
		{"regexp-like", "new RegExp({ [Symbol.match]: true, source: p, flags: '' })", "RegExp"},
		{"compile", "/x/.compile(p)", "RegExp.prototype.compile"},
		{"match", "'a'.match(p)", "String.prototype.match"},
		{"matchAll", "'a'.matchAll(p)", "String.prototype.matchAll"},
		{"search", "'a'.search(p)", "String.prototype.search"},
	}
	for _, p := range patterns {
		for _, e := range entries {
			t.Run(p.name+"/"+e.name, func(t *testing.T) {
				_ = rl.vm.Set("p", p.ok)
				if _, err := rl.vm.RunString(e.code); err != nil {
					t.Fatalf("at the limit: %v", err)
				}
				_ = rl.vm.Set("p", p.over)
				_, err := rl.vm.RunString(e.code)
				wantRangeError(t, err, e.what+": "+p.msg)
			})
		}
	}
}

// TestRegexpLiteralsAreMeasured: goja compiles literals with the source that holds them, so the
// program, eval text and Function bodies are measured before goja compiles them.
func TestRegexpLiteralsAreMeasured(t *testing.T) {
	over := "/" + strings.Repeat("a{1000}", 101) + "/"
	ok := "/" + strings.Repeat("a{1000}", 100) + "/"
	const msg = "the pattern's counted repetitions ({n,m}) add more than 100000 elements"
	if c := transformAndCompile("(async function () {", "return "+over+".test('a')"); !strings.HasPrefix(c.msg, "main.ts: RangeError: regular expression literal in the program: "+msg) {
		t.Errorf("program: %q, want a RangeError naming the literal", c.msg)
	}
	if c := transformAndCompile("(async function () {", "const n: number = 1; return "+over+".test('a')"); !strings.HasPrefix(c.msg, "main.ts: RangeError: regular expression literal in the program") {
		t.Errorf("TypeScript program: %q, want a RangeError naming the literal", c.msg)
	}
	if c := transformAndCompile("(async function () {", "return "+ok+".test('a')"); c.msg != "" {
		t.Errorf("program at the limit: %q", c.msg)
	}
	rl := freshRealm(t, Config{})
	if err := rl.guardGenerators(); err != nil { // as run setup does for source with a '*'
		t.Fatal(err)
	}
	for _, c := range []struct{ code, what string }{
		{"eval(`" + over + "`)", "eval source"},
		{"Function(`return " + over + "`)", "Function source"},
		{"Function('a', 'b', `return " + over + "`)", "Function source"},
		{"(async () => {}).constructor(`return " + over + "`)", "AsyncFunction source"},
		{"(function* () {}).constructor(`yield " + over + "`)", "GeneratorFunction source"},
	} {
		_, err := rl.vm.RunString(c.code)
		wantRangeError(t, err, "regular expression literal in "+c.what+": "+msg)
		okCode := strings.ReplaceAll(c.code, over, ok)
		if _, err := rl.vm.RunString(okCode); err != nil {
			t.Errorf("%.40s… at the limit: %v", okCode, err)
		}
	}
}

func wantRangeError(t *testing.T, err error, msg string) {
	t.Helper()
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		t.Fatalf("err = %v, want RangeError: %s", err, msg)
	}
	o, ok := ex.Value().(*goja.Object)
	if !ok || o.Get("name").String() != "RangeError" || o.Get("message").String() != msg {
		t.Fatalf("threw %v, want RangeError: %s", ex.Value(), msg)
	}
}

// BenchmarkRegexpCompileAtLimits compiles, in a bare goja runtime, the slowest patterns found at
// the guard's limits (and the reproducer below them), to show that one compile at a limit stays
// well under a quarter of a second.
func BenchmarkRegexpCompileAtLimits(b *testing.B) {
	named := make([]string, 0, 20000)
	for i := range 20000 {
		named = append(named, "(?<g"+strconv.Itoa(i)+">x)")
	}
	namedPattern := "(?=a)" + strings.Join(named, "")
	cases := []struct{ name, pattern, flags string }{
		{"nested-lookahead-1000", strings.Repeat("(?=", 1000) + "a" + strings.Repeat(")", 1000), ""},
		{"nested-negative-lookahead-1000", strings.Repeat("(?!", 1000) + "a" + strings.Repeat(")", 1000), ""},
		{"nested-lookahead-5000-literal-bound", strings.Repeat("(?=", 5000) + "a" + strings.Repeat(")", 5000), ""},
		{"expansion-100000", strings.Repeat("a{1000}", 100), ""},
		{"expansion-100000-class-iu", strings.Repeat(`\w{1000}`, 100), "iu"},
		{"lookaheads-in-a-row-at-length", strings.Repeat("(?=a)", maxRegexpSource/5), ""},
		{"alternation-at-length", "(?=a)" + strings.Repeat("|b", (maxRegexpSource-5)/2), ""},
		{"named-groups-at-length", namedPattern[:min(len(namedPattern), maxRegexpSource)], ""},
		{"backreferences-at-length", "(a)" + strings.Repeat(`\1`, (maxRegexpSource-3)/2), ""},
		{"class-at-length-i", "(?=a)[" + strings.Repeat("a-zA-Z0-9", (maxRegexpSource-7)/9) + "]", "i"},
		{"case-folding-dots-at-cap-i", "(?=a)" + strings.Repeat(".", 15), "i"},
		{"case-folding-negated-at-cap-i", "(?=a)" + strings.Repeat(`\W`, 7), "i"},
		{"case-folding-ranges-at-cap-i", "(?=a)" + strings.Repeat(`[\0-\uffff]`, 256), "i"},
		// \P{Grapheme_Base} is the largest expansion, 905 ranges: 36 of them are under the cap.
		{"property-ranges-at-cap-u", strings.Repeat(`\P{Grapheme_Base}`, 36), "u"},
		{"property-ranges-at-cap-regexp2-u", "(?=a)" + strings.Repeat(`\P{Grapheme_Base}`, 36), "u"},
		{"property-ranges-at-cap-class-regexp2-u", "(?=a)[" + strings.Repeat(`\p{Grapheme_Base}\P{Grapheme_Base}`, 18) + "]", "u"},
		// \P{L} covers 968,000 code points: 17 of them are under the case-folding cap.
		{"property-folding-at-cap-iu", "(?=a)" + strings.Repeat(`\P{L}`, 17), "iu"},
	}
	vm := goja.New()
	ctor, _ := goja.AssertConstructor(vm.Get("RegExp"))
	for _, c := range cases {
		if len(c.pattern) > maxRegexpSource {
			b.Fatalf("%s: pattern over the length limit", c.name)
		}
		b.Run(c.name, func(b *testing.B) {
			p, f := vm.ToValue(c.pattern), vm.ToValue(c.flags)
			for b.Loop() {
				if _, err := ctor(nil, p, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestFoldedCodePoints(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    int
	}{
		{"abc", 0},
		{".", 0x110000},
		{`\W\S\D`, 3 * 2 * 0x110000},
		{`\w\s\d\.`, 0},
		{"[a-z]", 26},
		{`[\u0000-\uffff]`, 0x10000},
		{`[\u{0}-\u{10ffff}]`, 0x110000},
		{`[\x00-\xff]`, 256},
		{`[^\W]`, 2 * 0x110000},
		{"[.]", 0},
		{"[a-]", 0},
		{"[z-a]", 0},
	} {
		if got := foldedCodePoints(c.pattern, false); got != c.want {
			t.Errorf("foldedCodePoints(%q) = %d, want %d", c.pattern, got, c.want)
		}
	}
	// With the u flag a property escape counts its code points, in a class or not; without it,
	// it is the letters it spells.
	for _, c := range []struct {
		pattern string
		unicode bool
		want    int
	}{
		{`\p{ASCII}`, true, 128},
		{`\P{ASCII}`, true, 0x110000 - 128},
		{`[\p{ASCII}a-z]`, true, 128 + 26},
		{`[^\p{Lu}\P{Any}]`, true, 1886}, // \p{Lu} at Unicode 17.0 (Node 22 counts 1,886)
		{`\p{ASCII}`, false, 0},
		{`\p{Nope}`, true, 0},
	} {
		if got := foldedCodePoints(c.pattern, c.unicode); got != c.want {
			t.Errorf("foldedCodePoints(%q, %v) = %d, want %d", c.pattern, c.unicode, got, c.want)
		}
	}
	// With the v flag classes nest: a nested class's ranges count, and each complement inside a
	// class (which goja writes out as ranges) counts as '.'. Without v, '[' in a class is a
	// character and the first ']' ends it.
	for _, c := range []struct {
		pattern string
		sets    bool
		want    int
	}{
		{`[[a]\u{0}-\u{10ffff}]`, true, 0x110000},
		{`[[a]\u{0}-\u{10ffff}]`, false, 0},
		{`[\p{ASCII}--[^a]]`, true, 128 + 0x110000},
		{`[^a]`, true, 0},
		{`[[^a][^b]]x[^c]`, true, 2 * 0x110000},
		{`[\p{ASCII}&&[a-z]]`, true, 128 + 26},
	} {
		if got := foldedCodePointsOf(c.pattern, true, c.sets); got != c.want {
			t.Errorf("foldedCodePointsOf(%q, sets %v) = %d, want %d", c.pattern, c.sets, got, c.want)
		}
	}
}

// TestRegexpPropertyRangesLimit: goja writes each Unicode property escape out as its code point
// ranges (\P{Grapheme_Base} 905), so 2,000 of them made a pattern of 30 MB that took RE2 1s and
// 170 MB, and regexp2 5s; the limit counts them before goja compiles the pattern, whatever the
// entry point, and only with the u flag.
func TestRegexpPropertyRangesLimit(t *testing.T) {
	if got := propertyRanges(`\p{L}[\P{L}\p{ASCII}]\\p{L}\p{Nope}`); got != 684+685+1 {
		t.Errorf("propertyRanges = %d, want %d", got, 684+685+1)
	}
	rl := freshRealm(t, Config{})
	const msg = "the pattern's Unicode property escapes (\\p{…}, \\P{…}) stand for more than 32768 code point ranges"
	for _, c := range []struct{ code, what string }{
		{`new RegExp("\\P{Grapheme_Base}".repeat(37), "u")`, "RegExp"},
		{`"x".match(new RegExp("[" + "\\P{Grapheme_Base}".repeat(37) + "]", "gu"))`, "RegExp"},
		{`/x/.compile("\\P{Grapheme_Base}".repeat(37), "u")`, "RegExp.prototype.compile"},
		{"eval('/' + '\\\\P{Grapheme_Base}'.repeat(37) + '/u')", "regular expression literal in eval source"},
	} {
		_, err := rl.vm.RunString(c.code)
		wantRangeError(t, err, c.what+": "+msg)
	}
	for _, code := range []string{`new RegExp("\\P{Grapheme_Base}".repeat(36), "u")`, `new RegExp("\\P{Grapheme_Base}".repeat(37), "g")`} {
		if _, err := rl.vm.RunString(code); err != nil {
			t.Errorf("%s: %v", code, err)
		}
	}
	if c := transformAndCompile("(async function () {", "return /"+strings.Repeat(`\P{Grapheme_Base}`, 37)+"/u.test('a')"); !strings.HasPrefix(c.msg, "main.ts: RangeError: regular expression literal in the program: "+msg) {
		t.Errorf("program: %q", c.msg)
	}
}

// TestRegexpCaseFoldingLimit: regexp2 case-folds '.', \W, \S, \D and ranges code point by code
// point (100 \W with the i flag took 2.5s); the limit applies to case-insensitive patterns only,
// through every path that sets the flag.
func TestRegexpCaseFoldingLimit(t *testing.T) {
	rl := freshRealm(t, Config{})
	const msg = "the case-insensitive pattern's classes cover more than 16777216 code points ('.' counts 1114112, \\W, \\S and \\D 2228224 each)"
	for _, c := range []struct{ code, what string }{
		{`new RegExp("(?=a)" + ".".repeat(16), "i")`, "RegExp"},
		{`new RegExp(new RegExp("(?=a)" + "\\W".repeat(8)), "gi")`, "RegExp"},
		{`/x/.compile("(?=a)" + "\\S".repeat(8), "i")`, "RegExp.prototype.compile"},
		{"eval('/(?=a)' + '\\\\D'.repeat(8) + '/i')", "regular expression literal in eval source"},
	} {
		_, err := rl.vm.RunString(c.code)
		wantRangeError(t, err, c.what+": "+msg)
	}
	for _, code := range []string{`new RegExp("(?=a)" + ".".repeat(15), "i")`, `new RegExp("(?=a)" + "\\W".repeat(100), "g")`} {
		if _, err := rl.vm.RunString(code); err != nil {
			t.Errorf("%s: %v", code, err)
		}
	}
	if c := transformAndCompile("(async function () {", "return /(?=a)"+strings.Repeat(`\W`, 8)+"/i.test('a')"); !strings.HasPrefix(c.msg, "main.ts: RangeError: regular expression literal in the program: "+msg) {
		t.Errorf("program: %q", c.msg)
	}
}
