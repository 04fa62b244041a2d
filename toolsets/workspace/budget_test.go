package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// program registers a composite tool "program" that makes one write_file sub-call per element
// of its "writes" argument ([path, content] pairs), as a Code Mode program would, and returns
// the sub-calls' results.
func (f *fixture) program(t *testing.T) {
	t.Helper()
	_, err := f.reg.Register(registry.Tool{Name: "program", Output: registry.AnyOutput(),
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			var out []jsonv.Value
			for i, w := range inv.Arguments.Lookup("writes").Items() {
				args := jsonv.ObjectValue(member("path", w.Index(0)), member("content", w.Index(1)))
				res := f.reg.Execute(ctx, registry.Call{CallID: fmt.Sprintf("%s:code:%d", inv.CallID, i+1), Name: "write_file",
					Arguments: args, Parent: inv.Token, RootCallID: inv.RootCallID})
				if res.IsError {
					out = append(out, jsonv.StringValue("error: "+res.Err.Message))
				} else {
					out = append(out, res.Value.Lookup("bytesWritten"))
				}
			}
			return jsonv.ArrayValue(out...), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
}

// The write budget is per run: the sub-calls of one program share it, another program has its
// own, and a program over budget gets an error from write_file naming the budget. Before the
// fix nothing limited what a program wrote (1,000 MiB in 2.6 s).
func TestWriteBudgetPerRun(t *testing.T) {
	f := newFixtureWith(t, Options{MaxWriteBytes: 10})
	writeFiles(t, f.dir, map[string]string{"p1": "", "p2": "", "p3": ""}) // replaced: no file is created
	f.program(t)
	runCases(t, f, []toolCase{
		{name: "first program within budget", tool: "program", args: `{"writes":[["p1","12345"],["p2","12345"]]}`,
			want: `[5,5]`},
		{name: "second program within budget", tool: "program", args: `{"writes":[["p1","123456"],["p2","1234"]]}`,
			want: `[6,4]`},
		{name: "program over budget", tool: "program", args: `{"writes":[["p1","123456"],["p2","12345"],["p3","1234"]]}`,
			want: `[6,"error: cannot write \"p2\": writing 5 bytes would exceed the write budget of 10 bytes per run (6 bytes used so far in this run)",4]`},
	})
	if data, _ := os.ReadFile(filepath.Join(f.dir, "p2")); string(data) != "1234" {
		t.Fatalf("p2 = %q, want the second program's content", data)
	}
}

// A direct call (not made on behalf of a program) has a budget of its own.
func TestWriteBudgetDirectCall(t *testing.T) {
	f := newFixtureWith(t, Options{MaxWriteBytes: 10})
	writeFiles(t, f.dir, map[string]string{"d": ""})
	runCases(t, f, []toolCase{
		{name: "within", tool: "write_file", args: `{"path":"d","content":"123456789"}`, want: `{"path":"d","bytesWritten":9}`},
		{name: "within again", tool: "write_file", args: `{"path":"d","content":"1234567890"}`, want: `{"path":"d","bytesWritten":10}`},
		{name: "over", tool: "write_file", args: `{"path":"d","content":"12345678901"}`,
			wantErr: `cannot write "d": writing 11 bytes would exceed the write budget of 10 bytes per run (0 bytes used so far in this run)`},
	})
}

// Content over the per-file cap is refused before anything is written.
func TestWriteFileSizeCap(t *testing.T) {
	f := newFixtureWith(t, Options{MaxFileBytes: 4})
	runCases(t, f, []toolCase{
		{name: "at the cap", tool: "write_file", args: `{"path":"a.txt","content":"1234"}`, want: `{"path":"a.txt","bytesWritten":4}`},
		{name: "over the cap", tool: "write_file", args: `{"path":"a.txt","content":"12345"}`,
			wantErr: `cannot write "a.txt": the content is 5 bytes, over the 4 bytes limit per file`},
	})
	if data, _ := os.ReadFile(filepath.Join(f.dir, "a.txt")); string(data) != "1234" {
		t.Fatalf("a.txt = %q", data)
	}
	// The default cap is read_file's limit.
	g := newFixture(t)
	big := jsonv.ObjectValue(member("path", jsonv.StringValue("big")), member("content", jsonv.StringValue(strings.Repeat("x", maxFileSize+1))))
	res := g.reg.Execute(context.Background(), registry.Call{CallID: "c", Name: "write_file", Arguments: big})
	if !res.IsError || !strings.Contains(res.Err.Message, "the content is 16777217 bytes, over the 16 MiB limit per file") {
		t.Fatalf("default cap: %+v", res.Err)
	}
}

func TestOpenWithRejectsNegativeLimits(t *testing.T) {
	for _, opts := range []Options{{MaxWriteBytes: -1}, {MaxFileBytes: -1}} {
		if _, err := OpenWith(t.TempDir(), opts); err == nil || !strings.Contains(err.Error(), "must not be negative") {
			t.Errorf("OpenWith(%+v) = %v, want a negative-limit error", opts, err)
		}
	}
}
