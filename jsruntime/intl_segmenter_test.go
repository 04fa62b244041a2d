package jsruntime_test

import (
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestSegmenterRefuses: text whose segmentation by uniseg (UAX #29, Unicode 15.0) is known to
// differ from V8's ICU (Unicode 17, dictionaries) is a RangeError naming why, never another
// answer.
func TestSegmenterRefuses(t *testing.T) {
	seg := func(g, text string) string {
		return `try { return [...new Intl.Segmenter("en", {granularity: "` + g + `"}).segment(` + text + `)] } catch (e) { return [e.name, e.message] }`
	}
	cases := []confCase{
		{name: "Japanese words", program: seg("word", `"日本語のテキスト"`),
			want: `["RangeError","Intl.Segmenter: word segmentation of Han text is not supported by this runtime (V8's ICU breaks it with dictionaries)"]`},
		{name: "Katakana words", program: seg("word", `"テキスト"`),
			want: `["RangeError","Intl.Segmenter: word segmentation of Katakana text is not supported by this runtime (V8's ICU breaks it with dictionaries)"]`},
		{name: "Thai words", program: seg("word", `"ภาษาไทย"`),
			want: `["RangeError","Intl.Segmenter: word segmentation of Thai text is not supported by this runtime (V8's ICU breaks it with dictionaries)"]`},
		{name: "Hangul jamo words", program: seg("word", `"ᄀᄀᄀ각ᆨᆨ"`),
			want: `["RangeError","Intl.Segmenter: word segmentation of conjoining Hangul jamo (U+1100) is not supported by this runtime (ICU's rules split them by syllable)"]`},
		{name: "Indic conjunct graphemes", program: seg("grapheme", `"नमस्ते"`),
			want: `["RangeError","Intl.Segmenter: grapheme clusters of Indic conjuncts (a virama before a consonant, Unicode 15.1 rule GB9c) are not supported by this runtime"]`},
		{name: "code point of Unicode 16", program: seg("grapheme", `"a\u{1CC00}"`),
			want: `["RangeError","Intl.Segmenter: U+1CC00 is not assigned in Unicode 15.0, which this runtime's segmentation rules know (V8's ICU knows Unicode 17)"]`},
		{name: "too long", program: seg("grapheme", `"é".repeat(2 ** 19 + 1)`),
			want: `["RangeError","Intl.Segmenter: a string of more than 524288 characters is not supported by this runtime"]`},
		{name: "longest accepted", program: `const s = "é a, b. ".repeat(2 ** 16); const g = new Intl.Segmenter("en", {granularity: "word"}).segment(s);
			const last = g.containing(s.length - 1);
			return [s.length, last.segment, last.index, last.input === s, last.isWordLike, g.containing(3).segment, g.containing(s.length)]`,
			want: `[524288," ",524287,true,false,",",null]`},
		{name: "words of Devanagari with a conjunct", program: `return [...new Intl.Segmenter("en", {granularity: "word"}).segment("नमस्ते दुनिया")].map((s) => s.segment)`,
			want: `["नमस्ते"," ","दुनिया"]`},
		{name: "Segmenter is installed", program: `return [typeof Intl.Segmenter, "Segmenter" in Intl]`, want: `["function",true]`},
	}
	forEachIsolation(t, cases)
}

// TestSegmenterIterationIsInterruptible: segments are produced one per next() call, so a
// program looping over the segments of large strings forever is ended by its compute budget.
func TestSegmenterIterationIsInterruptible(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{ComputeBudget: 200 * time.Millisecond})
	start := time.Now()
	res := run(t, g, `const seg = new Intl.Segmenter("en", {granularity: "word"});
		const s = "ab, cd. ".repeat(2 ** 16);
		let n = 0;
		for (;;) for (const x of seg.segment(s)) n++;`, nil)
	wantFailure(t, res, jsruntime.KindTimeout, "compute budget exhausted (200ms busy)")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}
