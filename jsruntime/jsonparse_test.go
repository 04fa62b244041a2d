package jsruntime

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// BenchmarkJSONParse times JSON.parse (the goja fork's parser, runcode_jsonparse.go) on 32 MiB
// texts of several shapes; there is no size limit below the heap, and the parser polls the
// interrupt flag as it goes, so these are throughputs, not the longest step a budget waits for.
func BenchmarkJSONParse(b *testing.B) {
	const size = 32 << 20
	fill := func(unit, open, close string) string {
		n := (size - len(open) - len(close)) / len(unit)
		return open + strings.TrimSuffix(strings.Repeat(unit, n), ",") + close
	}
	shapes := map[string]string{
		"numbers":    fill("1,", "[", "]"),
		"strings":    fill(`"abcdefgh",`, "[", "]"),
		"objects":    fill(`{"a":1},`, "[", "]"),
		"one string": fill("a", `"`, `"`),
		"escapes":    fill(`\u0041`, `"`, `"`),
		"deep":       fill("1,", strings.Repeat("[", maxJSONParseDepth), strings.Repeat("]", maxJSONParseDepth)),
	}
	for name, text := range shapes {
		b.Run(name, func(b *testing.B) {
			rl, err := newRealm(Config{MaxHeapBytes: DefaultMaxHeapBytes, MaxStackDepth: DefaultMaxStackDepth}, mustCompilePrelude(b), nil)
			if err != nil {
				b.Fatal(err)
			}
			_ = rl.vm.Set("text", text)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := rl.vm.RunString("JSON.parse(text), 0"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func mustCompilePrelude(b *testing.B) *goja.Program {
	g, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	return g.prelude
}
