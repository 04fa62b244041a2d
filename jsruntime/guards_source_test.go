package jsruntime_test

import (
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestProgramNestingIsRefusedBeforeParsing: a program text millions of brackets deep ended the
// host with a Go stack overflow in goja's parser (JavaScript) or esbuild's (TypeScript, which
// goja refuses first); it now fails as an exception naming the limit, before either parser
// runs.
func TestProgramNestingIsRefusedBeforeParsing(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	for name, program := range map[string]string{
		"brackets":            "return " + strings.Repeat("[", 3_000_000),
		"parentheses":         "return " + strings.Repeat("(", 1_000_000) + "1" + strings.Repeat(")", 1_000_000),
		"member chain":        "const a = {}; return a" + strings.Repeat(".b", 1_000_000),
		"typescript":          "const x: number = " + strings.Repeat("!", 1_000_000) + "1; return x",
		"template":            "return " + strings.Repeat("`${", 1_000_000),
		"nested arrows":       "const f: any = " + strings.Repeat("a => ", 2000) + "1; return 1",
		"sticky else":         "let x = 0; if (x) x++;" + strings.Repeat(" else if (x) x++;", 100_000),
		"plus over lines":     "return 1" + strings.Repeat("\n+ 1", 1_000_000),
		"binary hex chain":    "return 0xe" + strings.Repeat("+0xe", 1_000_000),
		"regex after if head": "if (1) /\"/.test(''); return " + strings.Repeat("[", 1_000_000),
	} {
		res := run(t, g, program, nil)
		if res.Error == nil || res.Error.Kind != jsruntime.KindException || !strings.Contains(res.Error.Message, "the program nests ") {
			t.Errorf("%s: result %+v, want an exception saying the program nests too deeply", name, res.Error)
		}
	}
	// Ordinary programs, and nesting well inside the limit, still run.
	res := run(t, g, "return "+strings.Repeat("[", 1000)+strings.Repeat("]", 1000)+".length", nil)
	wantValue(t, res, "1")
}

// TestProgramNestingIsRefusedInBothIsolations: the same failure under process isolation, where
// the deep text used to end the worker (worker-exit).
func TestProgramNestingIsRefusedInBothIsolations(t *testing.T) {
	const deep = "exception: main.ts: RangeError: the program nests too deeply: more than 5000 levels of brackets and chained operators"
	forEachIsolation(t, []confCase{
		{name: "ten million brackets", program: "return " + strings.Repeat("[", 10_000_000), want: deep},
		{name: "TypeScript, a million unary operators", program: "const x: boolean = " + strings.Repeat("!", 1_000_000) + "1; return x", want: deep},
		{name: "257 nested arrows", program: "const f: any = " + strings.Repeat("a => ", 257) + "1; return 1",
			want: "exception: main.ts: RangeError: the program nests more than 256 arrow functions in one another"},
		{name: "256 nested arrows", program: "const f: any = " + strings.Repeat("a => ", 256) + "1; return 1", want: "1"},
	})
}
