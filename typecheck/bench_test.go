package typecheck

import (
	"context"
	"strconv"
	"testing"
)

// benchProgram is a typical short program: a few calls, a loop, a typed result.
const benchProgram = `const total = await tools.add({ a: 1, b: 2 });
const parts: number[] = [];
for (let i = 0; i < 3; i++) {
  parts.push(await tools.add({ a: total, b: i }));
}
console.log(parts.join(","));
return { total, parts };`

// BenchmarkCheckCold is one check with a compiler process of its own (run --typecheck, check).
func BenchmarkCheckCold(b *testing.B) {
	c := needCompiler(b, false)
	decls := testDeclarations()
	for b.Loop() {
		if _, err := c.Check(context.Background(), decls, benchProgram); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckWarm is one check on a warm compiler (serve --typecheck): each iteration checks
// a different program text, as runs do, against unchanged declarations.
func BenchmarkCheckWarm(b *testing.B) {
	c := needCompiler(b, true)
	decls := testDeclarations()
	if _, err := c.Check(context.Background(), decls, benchProgram); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		if _, err := c.Check(context.Background(), decls, benchProgram+"\n// "+strconv.Itoa(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWarmFirstCheck is starting a warm compiler, its first check, and closing it.
func BenchmarkWarmFirstCheck(b *testing.B) {
	decls := testDeclarations()
	for b.Loop() {
		c, err := New(Options{Warm: true})
		if err != nil {
			b.Skip(err)
		}
		if _, err := c.Check(context.Background(), decls, benchProgram); err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}

// BenchmarkNew is finding the compiler and asking its version (once per command).
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		c, err := New(Options{})
		if err != nil {
			b.Skip(err)
		}
		c.Close()
	}
}
