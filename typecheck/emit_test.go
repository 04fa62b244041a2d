package typecheck

import (
	"context"
	"strings"
	"testing"
)

// Declarations has the compiler emit a module-form program's own declarations (its exported
// types and its default export's type), or returns its type errors and none; a body-form
// program is refused.
func TestDeclarationsEmitsTheDefaultExportsType(t *testing.T) {
	c := needCompiler(t, false)
	dts, problems, err := c.EmitDeclarations(context.Background(), testDeclarations(),
		"export type Input = { n: number };\nconst input: Input = { n: 2 };\nexport default { doubled: input.n * 2, label: \"x\" as const };\n")
	if err != nil || len(problems) > 0 {
		t.Fatalf("err %v, problems %q", err, problems)
	}
	for _, want := range []string{"export type Input = {\n    n: number;\n};", "declare const _default: {\n    doubled: number;\n    label: \"x\";\n};", "export default _default;"} {
		if !strings.Contains(dts, want) {
			t.Errorf("declarations lack %q:\n%s", want, dts)
		}
	}
	dts, problems, err = c.EmitDeclarations(context.Background(), testDeclarations(), "const n: number = \"x\";\nexport default n;\n")
	if err != nil || dts != "" || len(problems) != 1 || !strings.HasPrefix(problems[0], "main.ts:1:7: ") {
		t.Fatalf("a type error: err %v, dts %q, problems %q", err, dts, problems)
	}
	if _, _, err := c.Declarations(context.Background(), testDeclarations(), "return 1;"); err == nil || !strings.Contains(err.Error(), "module-form") {
		t.Fatalf("body form: %v", err)
	}
}
