package jsruntime_test

import (
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// An uncaught rejection of a binding call names the call and the program's own lines, not the
// error class's constructor in the prelude: the rejection is created on the loop, after the
// call, where no program frame is on the stack.
func TestConformanceRejectionNamesCallSite(t *testing.T) {
	fail := []jsruntime.Function{failing("read_file", "cannot read \"x\": no such file"), failing("my-tool", "broken")}
	forEachIsolation(t, []confCase{
		{name: "javascript", fns: fail, program: "const a = 1;\n\nconst r = await tools.read_file({ path: 'x' });\nreturn r;",
			want: "exception: ToolCallError: cannot read \"x\": no such file\n\tat tools.read_file\n\tat main.ts:3:32(8)"},
		{name: "typescript", fns: fail, program: "const a: number = 1;\n\nconst r = await tools.read_file({ path: 'x' });\nreturn r;",
			want: "exception: ToolCallError: cannot read \"x\": no such file\n\tat tools.read_file\n\tat main.ts:3:32(…"},
		{name: "nested function", fns: fail, program: "async function load(p: string) {\n  return await tools.read_file({ path: p });\n}\nawait load('x');",
			want: "exception: ToolCallError: cannot read \"x\": no such file\n\tat tools.read_file\n\tat load (main.ts:2:31(…"},
		{name: "line one", fns: fail, program: "await tools.read_file({})",
			want: "exception: ToolCallError: cannot read \"x\": no such file\n\tat tools.read_file\n\tat main.ts:1:22(…"},
		{name: "not an identifier", fns: fail, program: "await tools['my-tool']({})",
			want: "exception: ToolCallError: broken\n\tat tools[\"my-tool\"]\n\tat main.ts:1:…"},
		{name: "bad arguments", fns: fail, program: "\nawait tools.read_file({ f() {} })",
			want: "exception: ToolCallError: binding arguments must be lossless JSON\n\tat tools.read_file\n\tat main.ts:2:22(…"},
		{name: "caught keeps message", fns: fail, program: "try { await tools.read_file({}) } catch (e) { return [e.message, e.toolName, e.stack.split('\\n')[1]] }",
			want: `["cannot read \"x\": no such file","read_file","\tat tools.read_file"]`},
	})
}
