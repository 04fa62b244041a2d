package progform

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseForms(t *testing.T) {
	cases := []struct {
		name, src  string
		form       Form
		hasDefault bool
	}{
		{"body", "const r = await tools.x({});\nreturn r;", Body, false},
		{"empty", "", Body, false},
		{"default", "const r = await tools.x({});\nexport default r;", Module, true},
		{"empty export", "console.log(1);\nexport {};", Module, false},
		{"empty export spaced", "export { /* nothing */ }\nconsole.log(1)", Module, false},
		{"export in string", `console.log("export default 1"); return 1`, Body, false},
		{"export in template", "console.log(`export default ${1}`); return 1", Body, false},
		{"export in comment", "// export default 1\n/* export {} */ return 1", Body, false},
		{"export in regexp", "return /export default/.test('x')", Body, false},
		{"property named export", "const o = { export: 1, import: 2 }; return o.export + o.import", Body, false},
		{"property access", "return x.export?.default", Body, false},
		{"regexp with quote and brace", "const re = /['{]/g; export default 'a{'.replace(re, '')", Module, true},
		{"division then export", "const a = 4 / 2 / 1;\nexport default a", Module, true},
		{"template substitution with braces", "const s = `${ {a: 1}.a }`;\nexport default s", Module, true},
		{"nested template", "const s = `a${`b${'}'}`}`;\nexport default s", Module, true},
		{"dynamic import expression", "return typeof import.meta", Body, false},
		{"export inside function is not top level", "function f() { return 1 }\nreturn f()", Body, false},
		{"regexp after an if head", "if (ok) /'/.test(s); const t = 'export default 1'; return t", Body, false},
		{"division after a call", "const r = f(a) / 2; const s = `x`;\nexport default r / s.length", Module, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if p.Form != c.form || p.HasDefault != c.hasDefault {
				t.Fatalf("got form %v default %v, want %v %v", p.Form, p.HasDefault, c.form, c.hasDefault)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, src    string
		line, column int
		contains     string
	}{
		{"import", "const a = 1;\nimport { x } from './tools';\nexport default a", 2, 1, "import declarations are not supported"},
		{"import type", "  import type { T } from 'x'\nreturn 1", 1, 3, "import declarations"},
		{"named export", "export const a = 1;", 1, 1, "only `export default <expr>` and `export {}`"},
		{"export list", "const a = 1;\n  export { a };", 2, 3, "only `export default <expr>` and `export {}`"},
		{"two defaults", "export default 1;\nexport default 2;", 2, 1, "only one `export default`"},
		{"column in UTF-16 units", "const s = '😀'; export const a = 1", 1, 17, "only"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.src)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse error = %v, want *Error", err)
			}
			if pe.Line != c.line || pe.Column != c.column || !strings.Contains(pe.Message, c.contains) {
				t.Fatalf("got %d:%d %q, want %d:%d containing %q", pe.Line, pe.Column, pe.Message, c.line, c.column, c.contains)
			}
		})
	}
}

func TestToBodyKeepsLines(t *testing.T) {
	cases := []struct{ src, want string }{
		{"const a = 1;\nexport default a + 1;\nconsole.log(a);",
			"const a = 1;\n" + ResultVar + " = a + 1;\nconsole.log(a);\n;var " + ResultVar + "; return " + ResultVar + ";"},
		{"export {};\nconsole.log(1)", "         ;\nconsole.log(1)"},
		{"export\ndefault\n(1)", ResultVar + " =\n       \n(1)\n;var " + ResultVar + "; return " + ResultVar + ";"},
		{"return 1", "return 1"},
	}
	for _, c := range cases {
		got, err := ToBody(c.src)
		if err != nil {
			t.Fatalf("ToBody(%q): %v", c.src, err)
		}
		if got != c.want {
			t.Errorf("ToBody(%q)\n got %q\nwant %q", c.src, got, c.want)
		}
		if n, m := strings.Count(c.src, "\n"), strings.Count(strings.TrimSuffix(got, "\n;var "+ResultVar+"; return "+ResultVar+";"), "\n"); n != m {
			t.Errorf("ToBody(%q) moved lines: %d newlines, want %d", c.src, m, n)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"export default 1", "export {}", "return `${a}`", "const r = /[/]/; export default r",
		"import x from 'y'", "a / b / c", "`${`${`", "/*", "'\\", "export", "x?.export", "#a in b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse(src)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Column < 1 {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		body := p.ToBody(src)
		if p.Form == Body && body != src {
			t.Fatal("a body changed")
		}
		if p.Form == Module {
			trimmed := strings.TrimSuffix(body, "\n;var "+ResultVar+"; return "+ResultVar+";")
			if strings.Count(trimmed, "\n") != strings.Count(src, "\n") {
				t.Fatalf("lines moved: %q → %q", src, body)
			}
		}
	})
}

func TestReferences(t *testing.T) {
	cases := []struct {
		name, src string
		want      []Reference
	}{
		{"none", "const r = await tools.x({});\nexport default r;", nil},
		{"reference path", "/// <reference path=\"/etc/host.ts\" />\nreturn 1", []Reference{{1, 1, "/// <reference path"}}},
		{"reference types, spaced", "  ///   <reference types=\"node\" />\nreturn 1", []Reference{{1, 3, "/// <reference types"}}},
		{"amd-module", "///<amd-module name=\"x\"/>\nreturn 1", []Reference{{1, 1, "/// <amd-module name"}}},
		{"directive after code", "return 1; /// <reference lib=\"dom\" />", []Reference{{1, 11, "/// <reference lib"}}},
		{"plain triple-slash comment", "/// just a comment\n//// <not a directive either>\nreturn 1", nil},
		{"typeof import", "type T = typeof import(\"/abs/path\");\nreturn 1", []Reference{{1, 17, "import("}}},
		{"dynamic import in a function", "async function f() {\n  return await import('x');\n}\nreturn f()", []Reference{{2, 16, "import("}}},
		{"import declaration", "import { a } from './a';\nreturn a", []Reference{{1, 1, "import"}, {1, 14, "from './a'"}}},
		{"import equals require", "import fs = require(\"fs\");\nreturn fs", []Reference{{1, 1, "import"}, {1, 13, "require(\"fs\")"}}},
		{"export from in a declared module", "declare module \"m\" {\n  export * from \"/host/file\";\n}\nreturn 1", []Reference{{2, 12, "from \"/host/file\""}}},
		{"require call", "const x = require(`y`);\nreturn x", []Reference{{1, 11, "require(`y`)"}}},
		{"import.meta", "return typeof import.meta", nil},
		{"property named import", "const o = { import: 1, from: 'x' };\ntype T = { import?: string };\nreturn o.import + o.require('x') + o.from", nil},
		{"words in strings and comments", "// import('x')\n/* /// <reference path=\"x\" /> */\nconst s = \"import('x') from 'y'\";\nconst t = `require('z') ${'from'}`;\nreturn s + t", nil},
		{"in a regexp", "const re = /import\\('x'\\)/;\nreturn re", nil},
		{"require of a variable", "const require = (s: string) => s; const m = 'x';\nreturn require(m)", nil},
		{"long specifier", "type T = typeof import(\"x\");\nexport * from '" + strings.Repeat("a", 100) + "';", []Reference{{1, 17, "import("}, {2, 10, "from '" + strings.Repeat("a", 59) + "…"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := References(c.src)
			if !slices.Equal(got, c.want) {
				t.Fatalf("References = %+v, want %+v", got, c.want)
			}
		})
	}
}

// References reports what Parse refuses, and sees through what Parse skips.
func FuzzReferences(f *testing.F) {
	for _, s := range []string{"/// <reference path='x'/>", "import('x')", "from 'x'", "require('x')", "`${import('x')}`", "a / import('x') / b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		refs := References(src)
		_, err := Parse(src)
		var pe *Error
		if errors.As(err, &pe) && strings.Contains(pe.Message, "import declarations") && len(refs) == 0 {
			t.Fatalf("Parse refuses an import in %q that References does not report", src)
		}
		for _, r := range refs {
			if r.Line < 1 || r.Column < 1 || r.What == "" {
				t.Fatalf("bad reference %+v in %q", r, src)
			}
		}
	})
}

func TestTypeOnlyExports(t *testing.T) {
	src := "export type Input = { n: number };\nexport interface Out { x: string }\nexport default 1;\n"
	body, err := ToBody(src)
	if err != nil {
		t.Fatal(err)
	}
	want := "       type Input = { n: number };\n       interface Out { x: string }\n" + ResultVar + " = 1;\n\n;var " + ResultVar + "; return " + ResultVar + ";"
	if body != want {
		t.Fatalf("ToBody:\n%q\nwant\n%q", body, want)
	}
	if _, err := Parse("export type { X } from 'y';"); err == nil {
		t.Fatal("export type { X } parsed")
	}
}
