package jsruntime_test

import (
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
)

// proseProgram builds n characters of accented prose (words of a fixed vocabulary, cycled).
const proseProgram = `
const vocab = ["café", "naïve", "résumé", "élan", "über", "straße", "crème", "brûlée", "déjà", "vu", "the", "and", "señor", "jalapeño", "façade", "Ærø"];
const parts = [];
let n = 0, k = 0;
while (n < SIZE) { const w = vocab[(k * 7 + (k >> 3)) % vocab.length]; parts.push(w); n += w.length + 1; k++; }
const text = parts.join(" ");
`

// TestRegexpAtScale holds the regular-expression observations of issue 23 in both isolations.
// Each failed on the code before the goja fork's change 9 (RUNCODE.md).
func TestRegexpAtScale(t *testing.T) {
	// The race detector slows JavaScript several times over; the old code failed each case by far
	// more (minutes, or the heap).
	scale := time.Duration(1)
	if jsruntime.RaceEnabled {
		scale = 5
	}
	budget := func(compute time.Duration) jsruntime.Config {
		return jsruntime.Config{ComputeBudget: compute, WallCeiling: compute + 5*time.Second}
	}
	cases := []confCase{
		// Observation 3: a literal inside a function called per line compiled its regexp2 form
		// at each call (about 1ms for a \p{L} class): 20,000 calls took about 25s.
		{name: "literal in a function per call", cfg: budget(5 * scale * time.Second), max: 5 * scale * time.Second, want: "40000", program: `
function words(line) {
  const space = /\s+/y, word = /[\p{L}\p{N}_]+/uy;
  let i = 0, n = 0;
  while (i < line.length) {
    space.lastIndex = i;
    if (space.test(line)) { i = space.lastIndex; continue; }
    word.lastIndex = i;
    if (word.exec(line)) { n++; i = word.lastIndex; } else i++;
  }
  return n;
}
let n = 0;
for (let i = 0; i < 20000; i++) n += words("café " + i);
return n;`},
		// Observation 4: a global word match over non-ASCII text compared (or converted) the
		// whole subject once per match: 512 KiB took about 20s, 1 MB 45-132s.
		{name: "word match over accented prose", cfg: budget(8 * scale * time.Second), max: 8 * scale * time.Second, want: "[524292,93207,151464]",
			program: "const SIZE = 1 << 19;" + proseProgram + "return [text.length, text.match(/\\p{L}+/gu).length, text.match(/\\w+/g).length];"},
		// A budget ends one long native regexp step at its next match (2M matches take seconds).
		{name: "budget ends a long replace", cfg: budget(300 * time.Millisecond), max: 300 * time.Millisecond,
			want: "timeout: compute budget exhausted (300ms busy)", program: `return "é".repeat(1 << 21).replace(/é/g, "xx").length`},
	}
	// Observation 2: a global replace and match on 3 MB collected every match's indexes before
	// building the result, exhausting a 512 MiB worker. Not under the race detector: its 7 million
	// instrumented RE2 searches take about a minute there, and the memory does not change.
	if !jsruntime.RaceEnabled {
		cases = append(cases, confCase{name: "global replace and match on 3 MB", cfg: budget(10 * time.Second), max: 10 * time.Second,
			want: "[6291456,3145728,1048576]", program: `
const s = "a".repeat(3 * 1024 * 1024);
return [s.replace(/a/g, "bb").length, s.match(/a/g).length, (s.match(/aaa/g) || []).length];`})
	}
	forEachIsolation(t, cases)
}
