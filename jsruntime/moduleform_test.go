package jsruntime_test

import (
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// The module form (export default <expr>) runs as the body form does, on the file's own lines,
// in both isolations.
func TestConformanceModuleForm(t *testing.T) {
	fns := []jsruntime.Function{echo("echo"), failing("fail", "tool said no")}
	forEachIsolation(t, []confCase{
		{name: "default export is the result", program: "const r = await tools.echo({ n: 1 });\nexport default { got: r.n };",
			fns: fns, want: `{"got":1}`},
		{name: "same result as the body form", program: "const r = await tools.echo({ n: 1 });\nreturn { got: r.n };",
			fns: fns, want: `{"got":1}`},
		{name: "statements after the export still run", program: "const box = { n: 1 };\nexport default box;\nbox.n = 2;\nconsole.log('after');",
			want: `{"n":2}`, logs: []string{"after"}},
		{name: "the expression is evaluated where it stands", program: "let n = 1;\nexport default n;\nn = 2;",
			want: `1`},
		{name: "export {} gives nothing", program: "console.log('only logs');\nexport {};", want: ``, logs: []string{"only logs"}},
		{name: "TypeScript in module form", program: "type P = { a: number };\nconst p: P = { a: 3 };\nexport default p.a satisfies number;", want: `3`},
		{name: "line numbers of a throw are the file's", program: "const a = 1;\nexport default a;\n\nthrow new Error('late');",
			want: "exception: Error: late\n\tat main.ts:4:7…"},
		{name: "line numbers of a transform error are the file's", program: "export default 1;\nconst x = ;",
			want: "exception: main.ts:2:11: Unexpected \";\""},
		{name: "an uncaught tool error after the export", program: "export default 1;\nawait tools.fail({});",
			fns: fns, want: "exception: ToolCallError: tool said no…"},
		{name: "import is refused", program: "import { x } from './tools';\nexport default x;",
			want: "exception: main.ts:1:1: import declarations are not supported: a program reaches its tools through the global `tools`, declared by the SDK"},
		{name: "named export is refused", program: "const a = 1;\nexport const b = 2;",
			want: "exception: main.ts:2:1: only `export default <expr>` and `export {}` are supported in a program: it has no other exports"},
		{name: "two defaults are refused", program: "export default 1;\nexport default 2;",
			want: "exception: main.ts:2:1: a program may have only one `export default`"},
	})
}
