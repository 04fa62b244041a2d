package srcscan

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestSourceNestingCountsWhatParsersRecurseOn(t *testing.T) {
	rep := strings.Repeat
	cases := []struct {
		name    string
		src     string
		atLeast int
	}{
		{"brackets", rep("[", 100) + rep("]", 100), 100},
		{"parens", rep("(", 100) + "1" + rep(")", 100), 100},
		{"braces", rep("{", 100) + rep("}", 100), 100},
		{"template substitutions", rep("`${", 100) + "1" + rep("}`", 100), 100},
		{"member chain", "a" + rep(".b", 100), 100},
		{"call chain", "f" + rep("()", 100), 100},
		{"binary chain", "1" + rep("+1", 100), 100},
		{"binary chain over lines", "1" + rep("\n+1", 100), 100},
		{"unary chain", rep("!", 100) + "x", 100},
		{"typeof chain", rep("typeof ", 100) + "x", 100},
		{"new chain", rep("new ", 100) + "X", 100},
		{"if chain", rep("if (a)\n", 100) + "x;", 100},
		{"else if chain", "if (a) x;" + rep(" else if (a) x;", 100), 100},
		{"do chain", rep("do ", 100) + "x;" + rep(" while (a);", 100), 100},
		{"labels", rep("a:\n", 100) + "x;", 100},
		{"assignment chain", rep("a =\n", 100) + "1", 100},
		{"ternary chain", rep("a ? b :\n", 100) + "c", 100},
		{"hex chain", "0xe" + rep("+0xe", 100), 100},
		{"postfix then division", "a++ / 2 + " + rep("[", 100) + rep("]", 100), 100},
		{"regex groups", "x = /" + rep("(", 100) + rep(")", 100) + "/", 100},
		{"regex after control head", "if (a) /\"/.test(s); " + rep("[", 100) + rep("]", 100), 100},
		{"division after function expression", "x = function () {} / \"1\" + " + rep("[", 100) + rep("]", 100) + ` + "/"`, 100},
		{"brackets in strings do not close", `["]]]]", ` + rep("[", 100) + `"]]]]"` + rep("]", 100) + "]", 100},
		{"arrows", rep("a => ", 100) + "1", 100},
		{"regex after non-ASCII space", "return\u00a0/\"/.test(s); " + rep("[", 100) + rep("]", 100), 100},
		{"regex after an arrow body", "const f = () => {}\n/\"/.test(s); " + rep("[", 100) + rep("]", 100), 100},
		{"division read as a regex", "let of = 1; x = of / 1 + " + rep("[", 100) + rep("]", 100) + " / 2", 100},
		{"string after a misread case block", "switch (x) { case 1: {} /\"/.test(s); " + rep("[", 100) + rep("]", 100) + "}", 100},
		{"chain in a string after a misread case block", "switch (x) { case 1: {} /\"/.test(s); a" + rep(".b", 150_000) + "}", MaxNesting},
		{"brackets in a comment", "x = a; /* " + rep("[", 100) + rep("]", 100), 100},
		{"regex after BOM", "\ufeffreturn\ufeff/'/.test(s); " + rep("[", 100) + rep("]", 100), 100},
	}
	for _, c := range cases {
		if got, _ := Nesting(c.src); got < c.atLeast {
			t.Errorf("%s: Nesting = %d, want at least %d", c.name, got, c.atLeast)
		}
	}
	if _, arrows := Nesting(rep("a => ", 100) + "1"); arrows < 100 {
		t.Errorf("arrows = %d, want at least 100", arrows)
	}
}

func TestSourceNestingIgnoresWhatDoesNotNest(t *testing.T) {
	rep := strings.Repeat
	cases := []struct {
		name   string
		src    string
		atMost int
	}{
		{"statements", rep("x = a.b.c + 1;\n", 10000), 10},
		{"statements without semicolons", rep("x = a.b.c + 1\n", 10000), 10},
		{"calls without semicolons", rep("await tools.f({a: 1})\n", 10000), 12},
		{"array elements", "[" + rep("[1, 2], ", 10000) + "]", 10},
		{"strings", rep(`"((((([[[[{{{{" + '(((' + `+"`((${1}((`;\n", 1000), 10},
		{"comments", rep("// (((((\n/* [[[[[ */\n", 1000), 1},
		{"regex classes", rep(`x = /[(]/;`+"\n", 1000), 10},
		{"regex groups", rep(`x = /(a)(b)(c)(d)/;`+"\n", 1000), 10},
		{"sibling arrows", rep("f(a => a);\n", 1000), 10},
		{"JSON in a string", `const data = '` + rep(`{"a": [1, {"b": [2]}], "c": {}}, `, 1000) + `';`, 20},
		{"code in a template", "const code = `" + rep("function f(a) { return [a, {b: (1)}]; }\n", 1000) + "`;", 20},
		{"a long text", "const text = `" + rep("It was the best of times, it was the worst of times.\n", 10_000) + "`;", 20},
		{"commented-out code", "/*\n" + rep("if (a) { f([1, 2]); }\n", 1000) + "*/", 10},
	}
	for _, c := range cases {
		if got, _ := Nesting(c.src); got > c.atMost {
			t.Errorf("%s: Nesting = %d, want at most %d", c.name, got, c.atMost)
		}
	}
	if _, arrows := Nesting(rep("f(a => a, b => b);\n", 1000)); arrows > 2 {
		t.Errorf("sibling arrows: arrows = %d, want at most 2", arrows)
	}
}

func TestSourceNestingStopsEarly(t *testing.T) {
	// Ten million brackets: the scan stops just past the limit.
	src := strings.Repeat("[", 10_000_000)
	if got, _ := Nesting(src); got <= MaxNesting || got > MaxNesting+2 {
		t.Fatalf("Nesting = %d, want just above %d", got, MaxNesting)
	}
}

// nestedSource generates a random valid expression and the depth of its parse tree (counting
// each bracket, operator and member or call link as a level), for FuzzSourceNesting.
func nestedSource(r *rand.Rand, budget int) (string, int) {
	if budget <= 0 {
		switch r.IntN(4) {
		case 0:
			return "x", 0
		case 1:
			return "1", 0
		case 2:
			return `"s)]}"`, 0
		default:
			return "/[(]/g", 0
		}
	}
	inner, d := nestedSource(r, budget-1)
	switch r.IntN(12) {
	case 0:
		return "[" + inner + "]", d + 1
	case 1:
		return "(" + inner + ")", d + 1
	case 2:
		return "{a: " + inner + "}", d + 1
	case 3:
		return "`t${" + inner + "}t`", d + 1
	case 4:
		return "!" + inner, d + 1
	case 5:
		return "(" + inner + ").b", d + 1
	case 6:
		return "f(" + inner + ")", d + 1
	case 7:
		return inner + "\n+ 1", d + 1
	case 8:
		return "(a => " + inner + ")", d + 1
	case 9:
		return "typeof " + inner, d + 1
	case 10:
		return "(c ? " + inner + " : 1)", d + 1
	default:
		return "[1, /* ] */ " + inner + ", '('] ", d + 1
	}
}

// FuzzSourceNesting checks that the scanner never panics on any text, and that on generated
// nested expressions (seeded by the input) the figure it reports is at least the real depth.
func FuzzSourceNesting(f *testing.F) {
	for _, s := range []string{
		"", "return 1", "[[[", "]]]", "`${`${`", "/(/", "'\\", "/*", "a++ / 2", "if (a) /x/.test(b)",
		"x = {} / 2", "0xe+1", "#!/usr/bin/env node\n[[", "a\n/re/g", "`${a}` / 2", "\\u0061", "é[(",
		"for await (const x of y) /a/", "class A { m() { return /[/]/ } }", "x = class {} / 2",
		"return\u00a0/'/", "() => {}\n/'/", "a\u2028/re/", "é\xff\xfe(",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		Nesting(src)
		var seed [2]uint64
		for i := 0; i < len(src); i++ {
			seed[i%2] = seed[i%2]*31 + uint64(src[i])
		}
		r := rand.New(rand.NewPCG(seed[0], seed[1]))
		gen, depth := nestedSource(r, r.IntN(200))
		if got, _ := Nesting(gen); got < depth {
			t.Fatalf("Nesting(%q) = %d, below the real depth %d", gen, got, depth)
		}
	})
}
