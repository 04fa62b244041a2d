package goja

// runcode: tests of the v flag (regexp_vflag.go). The behaviour is checked against Node 22 in
// runcode's jsruntime (testdata/regexp/vflag_cases.js); these pin the translation and its limits.

import (
	"strings"
	"testing"
	"time"
)

func TestUnicodeSetsFlag(t *testing.T) {
	const script = `
	const out = [];
	const re = new RegExp("[\\p{L}--[a-z]]+", "gv");
	out.push(re.flags, re.unicode, re.unicodeSets, "abcÉÀd".match(re)[0]);
	out.push(/[\q{abc|d}x]+/v.exec("zabcdxq")[0], /[[a-z]&&[^aeiou]]+/v.exec("aebcd")[0]);
	out.push(/[\p{Lu}--[A-Z]]/vi.test("é"), /[\p{Lu}--[A-Z]]/vi.test("a"), /\P{Lu}/vi.test("a"), /\P{Lu}/ui.test("a"));
	for (const f of ["uv", "vu", "vv", "uu"]) {
		try { new RegExp("a", f); out.push("accepted " + f) } catch (e) { out.push(e.name + ": " + e.message) }
	}
	out.push(RegExp.prototype.unicodeSets === undefined, /a/u.unicodeSets, String(/a/giv));
	out.join("|")`
	want := strings.Join([]string{"gv", "false", "true", "ÉÀ", "abcdx", "bcd", "true", "false", "false", "true",
		"SyntaxError: Invalid flags supplied to RegExp constructor 'uv'", "SyntaxError: Invalid flags supplied to RegExp constructor 'vu'",
		"SyntaxError: Invalid flags supplied to RegExp constructor 'vv'", "SyntaxError: Invalid flags supplied to RegExp constructor 'uu'",
		"true", "false", "/a/giv"}, "|")
	v, err := New().RunString(script)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestUnicodeSetsLiteralErrors(t *testing.T) {
	for src, want := range map[string]string{
		`/a/uv`:              "Invalid regular expression flags",
		`/[a&&&b]/v`:         "Invalid regular expression: /[a&&&b]/v: Invalid character in character class",
		`/[a-z&&b]/v`:        "Invalid regular expression: /[a-z&&b]/v: Invalid set operation in character class",
		`/[^\q{ab}]/v`:       "Invalid regular expression: /[^\\q{ab}]/v: Negated character class may contain strings",
		`/[\p{RGI_Emoji}]/v`: `Invalid regular expression: /[\p{RGI_Emoji}]/v: \p{RGI_Emoji} is a property of strings, which this runtime does not support`,
		`/\q{a}/v`:           `Invalid regular expression: /\q{a}/v: Invalid escape`,
	} {
		_, err := Compile("", src, false)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", src, err, want)
		}
	}
}

func TestUnicodeSetsTranslation(t *testing.T) {
	for _, c := range []struct {
		pattern    string
		ignoreCase bool
		want       string
	}{
		{`[[a-z]--[aeiou]]`, false, `[\u{62}-\u{64}\u{66}-\u{68}\u{6a}-\u{6e}\u{70}-\u{74}\u{76}-\u{7a}]`},
		{`[\q{abc|d|}x]+`, false, `(?:\u{61}\u{62}\u{63}|[\u{64}\u{78}]|)+`},
		{`[\q{ab}--\q{ab}]`, false, `[^\u{0}-\u{10ffff}]`},
		{`x[^a]y`, false, `x[^\u{61}]y`},
		{`[^a]`, true, `[^\u{41}]`},
		{`\(a\)\.`, false, `\(a\)\.`},
	} {
		got, reason := translateUnicodeSets(c.pattern, c.ignoreCase)
		if reason != "" || got != c.want {
			t.Errorf("%s (i %v): got %q (%s), want %q", c.pattern, c.ignoreCase, got, reason, c.want)
		}
	}
}

// TestUnicodeSetsWorkIsBounded: class set operations that would take more than
// maxUnicodeSetsWork range steps are refused, quickly, instead of computed.
func TestUnicodeSetsWorkIsBounded(t *testing.T) {
	for _, c := range []struct {
		name, pattern string
		ignoreCase    bool
	}{
		{"intersections of large properties", "[" + strings.Repeat(`[\P{L}\P{N}]&&`, 20000) + "a]", false},
		{"nested complements", strings.Repeat("[^", 400) + manyRanges(3000) + strings.Repeat("]", 400), false},
		{"folded ranges", "[" + strings.Repeat(`\u{0}-\u{10ffff}`, 20000) + "]", true},
	} {
		start := time.Now()
		_, reason := translateUnicodeSets(c.pattern, c.ignoreCase)
		elapsed := time.Since(start)
		if elapsed > 2*time.Second {
			t.Errorf("%s: took %v", c.name, elapsed)
		}
		t.Logf("%s: refused in %v", c.name, elapsed)
		if !strings.Contains(reason, "too large") {
			t.Errorf("%s: reason %q, want the work limit", c.name, reason)
		}
	}
	// Classes nest at most 1,000 levels (the translation recurses per level).
	if _, reason := translateUnicodeSets(strings.Repeat("[", 30000)+"a"+strings.Repeat("]", 30000), false); !strings.Contains(reason, "nest more than 1000 levels") {
		t.Errorf("30,000 nested classes: reason %q", reason)
	}
	if _, reason := translateUnicodeSets(strings.Repeat("[^", 1000)+"a"+strings.Repeat("]", 1000), false); reason != "" {
		t.Errorf("1,000 nested classes refused: %s", reason)
	}
	// Ordinary patterns stay far below the limit.
	if _, reason := translateUnicodeSets(`[\p{L}--\p{Script=Latin}--\p{Lu}]+[\w&&\P{ASCII}]`, true); reason != "" {
		t.Errorf("ordinary pattern refused: %s", reason)
	}
}

// manyRanges is a class union of n two-character ranges of CJK ideographs.
func manyRanges(n int) string {
	var sb strings.Builder
	for k := range n {
		c := rune(0x4e00 + 3*k)
		sb.WriteRune(c)
		sb.WriteByte('-')
		sb.WriteRune(c + 1)
	}
	return sb.String()
}
