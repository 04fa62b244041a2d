package jsruntime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
)

// The three wrong answers of Unicode property escapes (issue 22, item 3), as Node 22 answers
// them, through a literal, the constructor, eval and Function text; and the SyntaxError of a
// property runcode cannot honour, which never compiles to something that matches differently.
func TestConformanceRegexpPropertyEscapes(t *testing.T) {
	forEachIsolation(t, []confCase{
		{name: "letters literal", program: `return [..."Éa".match(/\p{L}+/u)]`, want: `["Éa"]`},
		{name: "letters constructor", program: `return [..."Éa".match(new RegExp("\\p{L}+", "u"))]`, want: `["Éa"]`},
		{name: "letters eval", program: `return [...eval('"Éa".match(/\\p{L}+/u)')]`, want: `["Éa"]`},
		{name: "letters Function", program: `return [...new Function('return "Éa".match(/\\p{L}+/u)')()]`, want: `["Éa"]`},
		{name: "keep letters, numbers, spaces and dashes", program: `return "Grüße, 東京-2024! ok_ñ".replace(/[^\p{L}\p{N}\s-]/gu, "")`, want: `"Grüße 東京-2024 okñ"`},
		{name: "combining marks", program: `return ["e\u0301a\u0308".match(/\p{M}/gu).length, "café".normalize("NFD").replace(/\p{M}/gu, "")]`, want: `[2,"cafe"]`},
		{name: "scripts", program: `return ["Ελλάδα Россия".match(/\p{Script=Greek}+/u)[0], /\p{sc=Cyrl}/u.test("ж"), /\p{scx=Grek}/u.test("\u0342"), /\p{sc=Grek}/u.test("\u0342")]`,
			want: `["Ελλάδα",true,true,false]`},
		{name: "emoji", program: `return ["a😀b✈c".match(/\p{Extended_Pictographic}/gu), /\p{Emoji_Presentation}/u.test("✈"), /\p{Emoji}/u.test("1")]`,
			want: `[["😀","✈"],false,true]`},
		{name: "case-insensitive", program: `return [/\P{Lu}/iu.test("A"), /[^\P{Lu}]/iu.test("a"), /\p{Lu}/iu.test("a"), /[^\p{Lu}]/iu.test("A")]`, want: `[true,false,true,false]`},
		{name: "regexp2 paths", program: `const g = /\p{L}/gu; g.lastIndex = 1; return [g.exec("aé")[0], /(?<=\p{Lu})\p{Ll}+/u.exec("xAbc")[0], "ab12".split(/(?=\p{N})/u)]`,
			want: `["é","bc",["ab","1","2"]]`},
		{name: "source and flags", program: `const r = /[\p{L}]/giu; return [r.source, r.flags, String(new RegExp(r)), r.test("é")]`, want: `["[\\p{L}]","giu","/[\\p{L}]/giu",true]`},
		{name: "without u it is text", program: `return [/\p{L}/.test("p{L}"), /\p{L}/.test("a")]`, want: `[true,false]`},
		{name: "unknown property", program: `try { new RegExp("\\p{Letters}", "u") } catch (e) { return e.name + ": " + e.message }`,
			want: `"SyntaxError: Invalid regular expression: /\\p{Letters}/u: Invalid property name"`},
		{name: "unknown property in a class", program: `try { new RegExp("[\\p{Foo}]", "gu") } catch (e) { return e.message }`,
			want: `"Invalid regular expression: /[\\p{Foo}]/gu: Invalid property name in character class"`},
		{name: "Unicode 16 and 17 scripts", program: `return [/\p{Script=Garay}/u.test("\u{10D4A}"), /\p{sc=Sidt}/u.test("\u{10940}"), new RegExp("\\p{scx=Tols}", "u").test("\u{11DB0}"), /\p{L}/u.test("\u{10940}")]`,
			want: `[true,true,true,true]`},
		{name: "unknown property literal", program: `return /\p{Foo}/u`, want: `exception: SyntaxError: Invalid regular expression: /\p{Foo}/u: Invalid property name at main.ts:1:7`},
		{name: "v flag", program: `return ["Héllo Wörld".match(new RegExp("[\\p{L}--\\p{Lu}--[a-z]]", "gv")), "Héllo".match(/[\p{L}&&\p{Lu}]/v)[0]]`,
			want: `[["é","ö"],"H"]`},
		{name: "v flag with u", program: `return /a/uv`, want: `exception: SyntaxError: Invalid regular expression flags at main.ts:1:7`},
		{name: "v flag set operation", program: `try { new RegExp("[a-z&&b]", "v") } catch (e) { return e.name + ": " + e.message }`,
			want: `"SyntaxError: Invalid regular expression: /[a-z&&b]/v: Invalid set operation in character class"`},
	})
}

// TestRegexpPropertyEscapesMatchNode runs testdata/regexp/property_probe.js, which tests 161
// property escapes (every General_Category value, every binary property, 24 scripts with sc and
// scx, negations, classes, the i flag) against 2,227 sampled code points, and compares each
// answer with Node 22's, recorded in property_probe.node22.json (the probe says how to make it
// again). The tables are Unicode 17.0, as Node 22's: every answer is compared, except those of
// the i flag for the code points of caseFoldingGap.
func TestRegexpPropertyEscapesMatchNode(t *testing.T) {
	probe, err := os.ReadFile("testdata/regexp/property_probe.js")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/regexp/property_probe.node22.json")
	if err != nil {
		t.Fatal(err)
	}
	var want probeResult
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			var got probeResult
			runProbe(t, iso, probe, &got)
			if !slices.Equal(got.Sample, want.Sample) || len(got.Patterns) != len(want.Patterns) {
				t.Fatalf("probe shape: %d code points, %d patterns; Node's: %d, %d", len(got.Sample), len(got.Patterns), len(want.Patterns), len(want.Patterns))
			}
			skip := make([]bool, len(want.Sample))
			for i, cp := range want.Sample {
				_, skip[i] = caseFoldingGap[cp]
			}
			compared := 0
			for pattern, wantBits := range want.Patterns {
				var diff []string
				for i, cp := range want.Sample {
					if skip[i] && strings.HasSuffix(pattern, "/iu") {
						continue
					}
					compared++
					if g, w := sampleBit(got.Patterns[pattern], i), sampleBit(wantBits, i); g != w {
						diff = append(diff, fmt.Sprintf("U+%04X (runcode %v, Node %v)", cp, g, w))
					}
				}
				if len(diff) > 0 {
					t.Errorf("%s differs from Node 22 at %d code points: %s", pattern, len(diff), strings.Join(diff[:min(len(diff), 10)], ", "))
				}
			}
			if compared < 300_000 {
				t.Errorf("only %d answers compared", compared)
			}
		})
	}
}

type probeResult struct {
	Sample   []int             `json:"sample"`
	Patterns map[string]string `json:"patterns"`
}

// caseFoldingGap are the sampled code points whose simple case folding is newer than Unicode
// 15.0, the version of Go's unicode package, with which RE2 and regexp2 fold a pattern with the
// i flag: /\p{Lu}/iu matches them in Node, not here.
var caseFoldingGap = map[int]string{
	0x1C8A: "CYRILLIC SMALL LETTER TJE (Unicode 16.0), whose capital is U+1C89",
}

// runProbe runs the probe program in iso, with a minute of compute, and decodes the JSON value
// it returns into into.
func runProbe(t *testing.T, iso isolation, probe []byte, into any) {
	t.Helper()
	rt := iso.new(t, jsruntime.Config{ComputeBudget: time.Minute, WallCeiling: 2 * time.Minute})
	defer rt.Close()
	res, err := rt.Run(context.Background(), jsruntime.Request{Program: string(probe)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error != nil {
		t.Fatalf("%s: %s", res.Error.Kind, res.Error.Message)
	}
	if err := json.Unmarshal([]byte(res.Value.String()), into); err != nil {
		t.Fatal(err)
	}
}

// sampleBit reads the bit of sampled code point i from a probe's hex string.
func sampleBit(hex string, i int) bool {
	if i/4 >= len(hex) {
		return false
	}
	return strings.IndexByte("0123456789abcdef", hex[i/4])&(1<<(i%4)) != 0
}

// TestRegexpUnicodeSetsMatchNode runs testdata/regexp/vflag_cases.js (the v flag: nested
// classes, --, &&, \q{…}, the i flag code point by code point, errors, flags and methods) in
// both isolations and compares every answer with Node 22's, recorded in
// vflag_cases.node22.json (the probe says how to make it again).
func TestRegexpUnicodeSetsMatchNode(t *testing.T) {
	probe, err := os.ReadFile("testdata/regexp/vflag_cases.js")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/regexp/vflag_cases.node22.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			var got map[string]json.RawMessage
			runProbe(t, iso, probe, &got)
			if len(got) != len(want) {
				t.Errorf("%d answers, Node %d", len(got), len(want))
			}
			for k, w := range want {
				if g := compactJSON(t, got[k]); g != compactJSON(t, w) {
					t.Errorf("%s:\n got  %s\n want %s", k, g, compactJSON(t, w))
				}
			}
		})
	}
}

func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if raw == nil {
		return "<missing>"
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
