package jsruntime_test

import "testing"

// TestTypeArgumentsAreNotComparisons: TypeScript type arguments that plain JavaScript also
// parses, as comparisons, must take the TypeScript transform (the fast path ran
// `new Set<string>(xs)` as `new Set < string > (xs)`: "ReferenceError: string is not defined",
// or a wrong answer where the names exist).
func TestTypeArgumentsAreNotComparisons(t *testing.T) {
	forEachIsolation(t, []confCase{
		{name: "new with one type argument", cfg: short,
			program: `const s = new Set<string>(["b", "a", "b"]); return s.size`, want: `2`},
		{name: "new with nested type arguments", cfg: short,
			program: `const m = new Map<string, Set<number>>([["k", new Set([1, 2])]]); return m.get("k").size`, want: `2`},
		{name: "generic call whose names exist", cfg: short,
			program: "const string = 1, xs = 0;\nfunction f<T>(x: T) { return [x]; }\nconst r = f<string>(xs); return r", want: `[0]`},
		{name: "generic call in a sequence", cfg: short,
			program: "function pair<A, B>(a: A, b: B) { return [a, b]; }\nreturn pair<number, string>(1, \"x\")", want: `[1,"x"]`},
		{name: "tagged template with a type argument", cfg: short,
			program: "function tag<T>(s: TemplateStringsArray) { return s[0]; }\nreturn tag<string>`hi`", want: `"hi"`},
		{name: "comparisons stay comparisons", cfg: short,
			program: "const a = 1, b = 2;\nconst lt = a < b;\nreturn [lt, a > (b - 5), a >= (1), a >> (1)]", want: `[true,true,true,0]`},
	})
}
