package sdkgen_test

import (
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/sdkgen"
)

// A saved program's emitted declarations become a namespace of its Input and Output types, and
// the programs global declares a function of them; a program without Input takes an optional
// empty input, one without a default export resolves null.
func TestProgramsDeclaration(t *testing.T) {
	got := sdkgen.ProgramsDeclaration([]sdkgen.Program{
		{Name: "sum-up", Description: "Add things up.", Declarations: "export type Input = {\n    a: number;\n};\ndeclare const _default: {\n    total: number;\n};\nexport default _default;\n"},
		{Name: "nothing", Declarations: "export {};\n"},
	}, true)
	for _, want := range []string{
		"declare namespace RuncodePrograms {\n  namespace p0 {\n    export type Output = null;\n    export type Input = Record<string, never>;\n  }\n",
		"  namespace p1 {\n    export type Input = {\n        a: number;\n    };\n    const _default: {\n        total: number;\n    };\n    export type Output = typeof _default;\n  }\n",
		"  nothing(input?: RuncodePrograms.p0.Input): Promise<RuncodePrograms.p0.Output>;\n",
		"  /** Add things up. */\n  \"sum-up\"(input: RuncodePrograms.p1.Input): Promise<RuncodePrograms.p1.Output>;\n",
		"  save(name: string, source: string, description?: string): Promise<{ name: string; tools: string[] }>;\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing:\n%s\nin:\n%s", want, got)
		}
	}
	if sdkgen.ProgramsDeclaration(nil, false) != "" {
		t.Error("no programs and no save: not empty")
	}
	if p := sdkgen.ProgramPath("a-b"); p != `programs["a-b"]` {
		t.Errorf("ProgramPath = %s", p)
	}
}
