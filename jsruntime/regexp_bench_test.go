package jsruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
)

// regexpWorkloads are the regular-expression workloads of issue 23 (BENCHMARKS.md, "Regular
// expressions at scale"), each also run by Node 22 for the comparison there.
var regexpWorkloads = []struct{ name, program string }{
	// A tokenizer with two sticky literals inside the function, called once per line of a
	// 48,000-line log; "hoisted" has the literals outside.
	{"literal-per-line-48000", tokenizerProgram("", "const space = /\\s+/y, word = /[\\p{L}\\p{N}_]+/uy;")},
	{"literal-hoisted-48000", tokenizerProgram("const space = /\\s+/y, word = /[\\p{L}\\p{N}_]+/uy;", "")},
	// A global word match over 1 MB of accented prose, Unicode-aware and \w.
	{"word-match-1MB-accented", "const SIZE = 1 << 20;" + proseProgram + "return [text.match(/\\p{L}+/gu).length, text.match(/\\w+/g).length];"},
	// A global replace and a global match on 3 MB, 3,145,728 matches each.
	{"replace-3MB", `return "a".repeat(3 * 1024 * 1024).replace(/a/g, "bb").length`},
	{"match-3MB", `return "a".repeat(3 * 1024 * 1024).match(/a/g).length`},
}

func tokenizerProgram(outside, inside string) string {
	return `
const lines = [];
for (let i = 0; i < 48000; i++) lines.push("2024-05-0" + (i % 9 + 1) + "T10:" + String(i % 60).padStart(2, "0") + ":00Z INFO user=" + i + " café=naïve action=login status=" + (i % 7 ? "ok" : "fail") + " latency=" + (i % 500) + "ms");
` + outside + `
function tokenize(line) {
  ` + inside + `
  const out = [];
  let i = 0;
  while (i < line.length) {
    space.lastIndex = i;
    if (space.test(line)) { i = space.lastIndex; continue; }
    word.lastIndex = i;
    const m = word.exec(line);
    if (m) { out.push(m[0]); i = word.lastIndex; } else { out.push(line[i]); i++; }
  }
  return out;
}
let tokens = 0;
for (const line of lines) tokens += tokenize(line).length;
return tokens;`
}

// BenchmarkRegexpAtScale runs each workload in-process (a fresh run each time, the program
// cached after the first).
func BenchmarkRegexpAtScale(b *testing.B) {
	g, err := jsruntime.New(jsruntime.Config{ComputeBudget: 5 * time.Minute, WallCeiling: 5 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	for _, w := range regexpWorkloads {
		b.Run(w.name, func(b *testing.B) {
			for b.Loop() {
				res, err := g.Run(context.Background(), jsruntime.Request{Program: w.program})
				if err != nil || res.Error != nil {
					b.Fatal(err, res.Error)
				}
			}
		})
	}
}
