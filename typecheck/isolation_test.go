package typecheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/internal/progform"
)

// hostSecret is the text of the host files the programs below try to read.
const hostSecret = "RUNCODE-HOST-SECRET-7731"

// hostFiles writes files outside any scratch directory, each exporting or declaring hostSecret,
// and a node_modules/@types package above the scratch directories (TMPDIR is set to dir), where
// type resolution looks by default. It returns the programs that reach them, each naming the
// line of its reference.
func hostFiles(t *testing.T) (programs map[string]string) {
	t.Helper()
	host := t.TempDir()
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(host, "secret.ts"), "export declare const n: \""+hostSecret+"-IMPORT\";\n")
	write(filepath.Join(host, "global.ts"), "declare const leaked: \""+hostSecret+"-PATH\";\n")
	tmp := t.TempDir()
	write(filepath.Join(tmp, "node_modules", "@types", "evil", "index.d.ts"), "declare const evil: \""+hostSecret+"-TYPES\";\n")
	t.Setenv("TMPDIR", tmp)
	secret := filepath.ToSlash(filepath.Join(host, "secret"))
	return map[string]string{
		"reference path":       fmt.Sprintf("/// <reference path=%q />\nconst y: \"a\" = leaked;\nexport {};", filepath.Join(host, "global.ts")),
		"reference types":      "/// <reference types=\"evil\" />\nconst y: \"a\" = evil;\nexport {};",
		"typeof import":        fmt.Sprintf("const k = 1;\ntype T = typeof import(%q);\nconst x: \"a\" = null as any as T[\"n\"];\nexport {};", secret),
		"typeof import (body)": fmt.Sprintf("const x: \"a\" = null as any as (typeof import(%q))[\"n\"];\nreturn x;", secret),
		"dynamic import":       fmt.Sprintf("const m = await import(%q);\nconst x: \"a\" = m.n;\nreturn x;", secret),
		"declared module":      fmt.Sprintf("declare module \"m\" {\n  export * from %q;\n}\nreturn 1;", secret),
	}
}

// wantNoSecret fails when any text holds hostSecret.
func wantNoSecret(t *testing.T, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, hostSecret) {
			t.Fatalf("the host file's text reached the output: %s", s)
		}
	}
}

// A program cannot make the compiler read files outside the check's scratch project: a
// triple-slash directive or an import of any kind is refused before the compiler runs, with
// the line it is on, cold and warm.
func TestReferencesOutsideTheProgramAreRefused(t *testing.T) {
	programs := hostFiles(t)
	for _, warm := range []bool{false, true} {
		c := needCompiler(t, warm)
		for name, program := range programs {
			t.Run(fmt.Sprintf("%s warm=%v", name, warm), func(t *testing.T) {
				diags, err := c.Check(context.Background(), testDeclarations(), program)
				wantNoSecret(t, fmt.Sprint(diags), fmt.Sprint(err))
				var pe *progform.Error
				if !errors.As(err, &pe) || !strings.Contains(pe.Message, "not supported") {
					t.Fatalf("Check = %v, %v; want a refusal", diags, err)
				}
				wantLine := 1
				for i, line := range strings.Split(program, "\n") {
					if strings.Contains(line, "import") || strings.Contains(line, "///") || strings.Contains(line, " from ") {
						wantLine = i + 1
						break
					}
				}
				if pe.Line != wantLine {
					t.Fatalf("refusal %v, want line %d", pe, wantLine)
				}
				lines, err := c.CheckProgram(context.Background(), testDeclarations(), program)
				wantNoSecret(t, strings.Join(lines, "\n"), fmt.Sprint(err))
				if err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], fmt.Sprintf("main.ts:%d:", wantLine)) {
					t.Fatalf("CheckProgram = %q, %v", lines, err)
				}
			})
		}
	}
}

// Behind the refusal, the compiler is configured to resolve nothing: the same programs given
// to it directly (as if the scan missed them) do not reach the host files either.
func TestCompilerResolvesNothing(t *testing.T) {
	programs := hostFiles(t)
	for _, warm := range []bool{false, true} {
		c := needCompiler(t, warm)
		for name, program := range programs {
			t.Run(fmt.Sprintf("%s warm=%v", name, warm), func(t *testing.T) {
				p, err := progform.Parse(program)
				if err != nil {
					t.Fatal(err)
				}
				text, _ := checkedText(p, program)
				decls := testDeclarations() + RuntimeDeclarations
				var diags []Diagnostic
				if warm {
					diags, err = c.warm.check(context.Background(), time.Minute, decls, text)
				} else {
					diags, err = c.checkCold(context.Background(), decls, text)
				}
				wantNoSecret(t, fmt.Sprint(diags), fmt.Sprint(err))
				if err != nil {
					t.Fatal(err)
				}
				if len(diags) == 0 {
					t.Fatal("no diagnostics: the reference resolved, or the program is not what this test means")
				}
			})
		}
	}
}
