package jsruntime_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
)

// loadV8Cases reads a table of testdata/intl: [expression, what Node 22 evaluated it to] pairs
// (see testdata/intl/gen.js and segmenter.js, which generated them).
func loadV8Cases(t *testing.T, file string) [][2]string {
	t.Helper()
	b, err := os.ReadFile("testdata/intl/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]string
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// evalCases evaluates expressions in one program each chunk and returns what each gave: its
// JSON, or "!" + the name of the error it threw (the form gen.js writes).
func evalCases(t *testing.T, rt jsruntime.Runtime, exprs []string) []string {
	t.Helper()
	var out []string
	const chunk = 400
	for start := 0; start < len(exprs); start += chunk {
		var b strings.Builder
		b.WriteString("const ev = (f) => { try { return String(JSON.stringify(f())) } catch (e) { return \"!\" + e.name } };\nconst r = [];\n")
		end := min(start+chunk, len(exprs))
		for _, e := range exprs[start:end] {
			b.WriteString("r.push(ev(() => (" + e + ")));\n")
		}
		b.WriteString("return r;")
		res, err := rt.Run(context.Background(), jsruntime.Request{Program: b.String()})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if res.Error != nil {
			t.Fatalf("chunk at %d failed: %s: %s", start, res.Error.Kind, res.Error.Message)
		}
		var got []string
		if err := json.Unmarshal([]byte(res.Value.String()), &got); err != nil {
			t.Fatalf("chunk at %d: %v", start, err)
		}
		out = append(out, got...)
	}
	return out
}

var intlConfig = jsruntime.Config{ComputeBudget: 60 * time.Second, WallCeiling: 120 * time.Second}

// knownV8Differences are the expressions of expected.json whose output differs from V8's, with
// why. Each is reported in docs/programs.md's Intl section.
var knownV8Differences = map[string]string{}

// knownDifference reports whether expr is one of knownV8Differences.
func knownDifference(expr string) bool {
	for frag, locale := range knownV8Differences {
		if strings.Contains(expr, frag) && strings.Contains(expr, `"`+locale+`"`) {
			return true
		}
	}
	return false
}

// TestIntlMatchesV8 evaluates every expression of testdata/intl/expected.json under each
// isolation and compares with Node 22's output byte for byte.
func TestIntlMatchesV8(t *testing.T) {
	matchesV8(t, loadV8Cases(t, "expected.json"))
}

// TestSegmenterMatchesV8 is TestIntlMatchesV8 for Intl.Segmenter's table
// (testdata/intl/segmenter.json).
func TestSegmenterMatchesV8(t *testing.T) {
	matchesV8(t, loadV8Cases(t, "segmenter.json"))
}

func matchesV8(t *testing.T, cases [][2]string) {
	exprs := make([]string, len(cases))
	for i, c := range cases {
		exprs[i] = c[0]
	}
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, intlConfig)
			defer rt.Close()
			got := evalCases(t, rt, exprs)
			bad := 0
			for i, c := range cases {
				if got[i] != c[1] && !knownDifference(c[0]) {
					bad++
					if bad <= 40 {
						t.Errorf("%s\n got  %q\n want %q", tail(c[0]), got[i], c[1])
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d cases differ from V8", bad, len(cases))
			}
		})
	}
}

// TestIntlRefusesUnsupported: a locale or option this runtime cannot format as V8 does is a
// RangeError naming it, never output in another locale or style.
func TestIntlRefusesUnsupported(t *testing.T) {
	cases := []confCase{
		{name: "unsupported locale", program: `try { new Intl.NumberFormat("fr-CA") } catch (e) { return [e.name, e.message] }`,
			want: `["RangeError","Intl: locale fr-CA is not supported (supported: en-US, en-GB, de-DE, fr-FR, es-ES, ja-JP, zh-CN, ru-RU, pt-BR, sv-SE, or their language alone)"]`},
		{name: "unsupported locale in toLocaleString", program: `try { (1).toLocaleString("ar-EG") } catch (e) { return e.name }`, want: `"RangeError"`},
		{name: "first supported locale wins", program: `return new Intl.NumberFormat(["ar-EG", "de"]).resolvedOptions().locale`, want: `"de"`},
		{name: "malformed locale", program: `try { new Intl.NumberFormat("en_US!") } catch (e) { return [e.name, e.message] }`,
			want: `["RangeError","Incorrect locale information provided"]`},
		{name: "unicode extension", program: `try { new Intl.NumberFormat("en-US-u-nu-arab") } catch (e) { return e.message }`,
			want: `"Intl: the locale en-US-u-nu-arab has extensions (-u-, -t-, -x-), which this runtime does not support"`},
		{name: "numberingSystem", program: `try { new Intl.NumberFormat("en", {numberingSystem: "arab"}) } catch (e) { return [e.name, e.message] }`,
			want: `["RangeError","Intl.NumberFormat: numberingSystem \"arab\" is not supported (only latn)"]`},
		{name: "roundingIncrement", program: `try { new Intl.NumberFormat("en", {roundingIncrement: 5, maximumFractionDigits: 2}) } catch (e) { return e.message }`,
			want: `"Intl.NumberFormat: roundingIncrement 5 is not supported by this runtime (only 1)"`},
		{name: "roundingPriority", program: `try { new Intl.NumberFormat("en", {roundingPriority: "morePrecision"}) } catch (e) { return e.message }`,
			want: `"Intl.NumberFormat: roundingPriority \"morePrecision\" is not supported by this runtime (only auto)"`},
		{name: "too many locales", program: `try { new Intl.NumberFormat({length: 1e9}) } catch (e) { return e.message }`,
			want: `"Intl: a locale list of more than 1000 entries is not supported"`},
		{name: "receiver check", program: `try { Intl.NumberFormat.prototype.formatToParts.call({}, 1) } catch (e) { return e.name }`, want: `"TypeError"`},
		{name: "calendar", program: `try { new Intl.DateTimeFormat("en", {calendar: "japanese"}) } catch (e) { return [e.name, e.message] }`,
			want: `["RangeError","Intl.DateTimeFormat: calendar \"japanese\" is not supported (only gregory)"]`},
		{name: "dayPeriod", program: `try { new Intl.DateTimeFormat("en", {dayPeriod: "long"}) } catch (e) { return e.message }`,
			want: `"Intl.DateTimeFormat: dayPeriod \"long\" is not supported by this runtime"`},
		{name: "timeZoneName long", program: `try { new Date(0).toLocaleTimeString("en", {timeZoneName: "long"}) } catch (e) { return e.message }`,
			want: `"Intl.DateTimeFormat: timeZoneName \"long\" is not supported by this runtime"`},
		{name: "unknown time zone", program: `try { new Intl.DateTimeFormat("en", {timeZone: "Mars/Olympus"}) } catch (e) { return [e.name, e.message] }`,
			want: `["RangeError","Invalid time zone specified: Mars/Olympus"]`},
		{name: "default locale and time zone", program: `const o = new Intl.DateTimeFormat().resolvedOptions();
			return [o.locale, o.timeZone, new Date(0).toLocaleString(), new Date(0).toLocaleDateString(), (1234567.891).toLocaleString()]`,
			want: `["en-US","UTC","1/1/1970, 12:00:00 AM","1/1/1970","1,234,567.891"]`},
		{name: "collator case sensitivity", program: `try { "a".localeCompare("A", "en", {sensitivity: "case"}) } catch (e) { return [e.name, e.message] }`,
			want: `["RangeError","Intl.Collator: sensitivity \"case\" is not supported by this runtime"]`},
		{name: "collator script reordering", program: `try { ["я", "b"].sort(new Intl.Collator("ru").compare) } catch (e) { return e.name }`, want: `"RangeError"`},
		{name: "collator one script under ru", program: `return [["я", "ё", "е"].sort(new Intl.Collator("ru").compare), ["b", "a"].sort(new Intl.Collator("ru").compare)]`,
			want: `[["е","ё","я"],["a","b"]]`},
		{name: "localeCompare passes locales through the length guard", program: `return ["ä".localeCompare("z", "sv"), "ä".localeCompare("z", "de"), "a".localeCompare("á", "en", {sensitivity: "base"})]`,
			want: `[1,-1,0]`},
		{name: "Intl becomes a data property when read", program: `const i = Intl; const d = Object.getOwnPropertyDescriptor(globalThis, "Intl");
			return [d.value === i, d.writable, d.enumerable, d.configurable, Intl.NumberFormat === i.NumberFormat]`, want: `[true,true,false,true,true]`},
		{name: "Intl can be replaced", program: `globalThis.Intl = 5; return [Intl, (1234).toLocaleString("de")]`, want: `[5,"1.234"]`},
		{name: "Intl is not enumerable", program: `return [Object.keys(globalThis).includes("Intl"), typeof Intl]`, want: `[false,"object"]`},
	}
	forEachIsolation(t, cases)
}

// tail shortens a long expression to its end, where the locale and options are.
func tail(expr string) string {
	if len(expr) > 300 {
		return "…" + expr[len(expr)-200:]
	}
	return expr
}
