package jsruntime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
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
		{name: "bad arguments", fns: fail, program: "\nawait tools.read_file({ n: 1n })",
			want: "exception: ToolCallError: binding arguments cannot be converted to JSON: argument.n: BigInt, which JSON cannot hold (convert it with String() or Number())\n\tat tools.read_file\n\tat main.ts:2:22(…"},
		{name: "caught keeps message", fns: fail, program: "try { await tools.read_file({}) } catch (e) { return [e.message, e.toolName, e.stack.split('\\n')[1]] }",
			want: `["cannot read \"x\": no such file","read_file","\tat tools.read_file"]`},
	})
}

// A call of a member a namespace lacks fails naming the namespace, the member, what members are
// called, and the closest members; looking one up without calling it keeps its meaning.
func TestConformanceMissingMemberSuggests(t *testing.T) {
	names := []string{"read_file", "write_file", "list_dir", "glob", "grep", "stat"}
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{})
			defer rt.Close()
			for _, c := range []struct{ name, noun, program, want string }{
				{"one suggestion", "tool", "const x = 1;\nawait tools.red_file({ path: 'a' })",
					"TypeError: tools.red_file is not a tool (did you mean read_file?)\n\tat main.ts:2:21(…"},
				{"prefix", "tool", "await tools.list({})", "TypeError: tools.list is not a tool (did you mean list_dir?)\n\tat main.ts:1:17(…"},
				{"nothing close", "tool", "await tools.frobnicate({})", "TypeError: tools.frobnicate is not a tool\n\tat main.ts:1:23(…"},
				{"default noun", "", "await tools.gerp({})", "TypeError: tools.gerp is not a function (did you mean grep?)\n\tat …"},
				{"bracket", "tool", "await tools['red-file']({})", "TypeError: tools[\"red-file\"] is not a tool (did you mean read_file?)\n\tat …"},
				{"typescript", "tool", "const n: number = 1;\nawait tools.stats({})", "TypeError: tools.stats is not a tool (did you mean stat?)\n\tat main.ts:2:…"},
				{"other object keeps V8's message", "tool", "const o = {};\ntools.red_file;\no.red_file()", "TypeError: o.red_file is not a function\n\tat …"},
			} {
				t.Run(c.name, func(t *testing.T) {
					fns := make([]jsruntime.Function, len(names))
					for i, n := range names {
						fns[i] = echo(n)
					}
					nss := toolsNamespace(fns...)
					nss[0].MemberNoun = c.noun
					res, err := rt.Run(context.Background(), jsruntime.Request{Program: c.program, Bindings: nss})
					if err != nil {
						t.Fatal(err)
					}
					wantFailurePrefix(t, res, jsruntime.KindException, c.want)
				})
			}
			// Probing a missing member is not an error, and the namespace still reads as itself.
			fns := []jsruntime.Function{echo("read_file"), echo("stat")}
			res, err := rt.Run(context.Background(), jsruntime.Request{Program: `console.log(tools);
				return [typeof tools.nope, tools.nope?.({}) ?? null, "nope" in tools, Object.keys(tools), JSON.stringify(tools), Object.getPrototypeOf(tools) === null]`,
				Bindings: toolsNamespace(fns...)})
			if err != nil {
				t.Fatal(err)
			}
			wantValue(t, res, `["undefined",null,false,["read_file","stat"],"{}",true]`)
			if want := "[Object: null prototype] {\n  read_file: [Function: read_file],\n  stat: [Function: stat]\n}"; len(res.Logs) != 1 || res.Logs[0] != want {
				t.Errorf("logs = %q, want [%q]", res.Logs, want)
			}
		})
	}
}

// wantFailurePrefix checks the kind of a failed result and that its message starts with want
// (up to a trailing "…").
func wantFailurePrefix(t *testing.T, res jsruntime.Result, kind jsruntime.FailureKind, want string) {
	t.Helper()
	if res.Error == nil {
		t.Fatalf("want %s failure %q, got success %v", kind, want, res.Value)
	}
	prefix, isPrefix := strings.CutSuffix(want, "…")
	if res.Error.Kind != kind || (isPrefix && !strings.HasPrefix(res.Error.Message, prefix)) || (!isPrefix && res.Error.Message != want) {
		t.Fatalf("want %s failure %q, got %s %q", kind, want, res.Error.Kind, res.Error.Message)
	}
}

// A call the program never awaits that fails after the program returned is still reported
// (DECISIONS row 8): the run waits a short grace for the calls left pending, runs their
// settles, and reports the rejections nobody handled, naming the call and its line. The
// completion value is the one the program returned, whatever the late reactions do.
func TestConformanceUnawaitedRejectionAfterReturn(t *testing.T) {
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{})
			defer rt.Close()
			var host asyncHost
			defer host.Wait()
			late := host.fn("late", func(ctx context.Context, _ jsonv.Value) (jsonv.Value, error) {
				select {
				case <-time.After(20 * time.Millisecond):
				case <-ctx.Done():
				}
				return jsonv.Value{}, errors.New("late failure")
			})
			for _, c := range []struct {
				name, program, value string
				logs                 []string
			}{
				{"reported", "const a = 1;\ntools.late({});\nreturn a;", "1",
					[]string{"Unhandled rejection: late failure (tools.late, main.ts:2:11)"}},
				{"line one", "tools.late({}); return 2", "2",
					[]string{"Unhandled rejection: late failure (tools.late, main.ts:1:11)"}},
				{"handled late", "const o = {a: 1};\ntools.late({}).catch(e => { o.b = 2; console.log('caught', e.message) });\nreturn o;", `{"a":1}`,
					[]string{"caught late failure"}},
				{"still pending is the host's", "tools.never({}); return 3", "3", []string{}},
			} {
				t.Run(c.name, func(t *testing.T) {
					start := time.Now()
					res, err := rt.Run(context.Background(), jsruntime.Request{Program: c.program, Bindings: toolsNamespace(late, never("never"))})
					if err != nil {
						t.Fatal(err)
					}
					wantValue(t, res, c.value)
					if fmt.Sprintf("%q", res.Logs) != fmt.Sprintf("%q", c.logs) {
						t.Errorf("logs = %q, want %q", res.Logs, c.logs)
					}
					if d := time.Since(start); d > time.Second+slack() {
						t.Errorf("took %v: a pending call may delay the end of a run only briefly", d)
					}
				})
			}
		})
	}
}
