package programs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/programs"
	"github.com/runcode-dev/runcode/sdkgen"
)

func TestValidName(t *testing.T) {
	for _, ok := range []string{"a", "sum-up", "_x", "$y", "A1_b-c"} {
		if err := programs.ValidName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "1a", "-a", "a b", "a/b", "../x", "save", strings.Repeat("a", 65), "é"} {
		if err := programs.ValidName(bad); !errors.Is(err, programs.ErrInvalidName) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestToolsCalledScansEveryAccessForm(t *testing.T) {
	sdk := []sdkgen.Tool{{Name: "read_file"}, {Name: "read"}, {Name: "my-tool"}, {Name: "memory.create", Namespace: "memory"}, {Name: "memory.delete", Namespace: "memory"}, {Name: "unused"}}
	src := `const a = await tools.read_file({ path: "x" });
const b = await tools ["my-tool"]({});
await tools.memory['create']({});
await tools?.memory.delete({});
const c = other.tools.unused; // a property named tools: not the global
const d = mytools.unused;
export default a;
`
	got := programs.ToolsCalled(src, sdk)
	want := []string{"memory.create", "memory.delete", "my-tool", "read_file"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	progs := programs.ProgramsCalled(`await programs["a-b"]({}); await programs.c(); programs.zzz;`, []programs.Program{{Name: "a-b"}, {Name: "c"}, {Name: "d"}})
	if !slices.Equal(progs, []string{"a-b", "c"}) {
		t.Fatalf("programs: %q", progs)
	}
}

func TestLibraryStoresProgramsAtomically(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	lib := programs.Open(dir)
	if list, err := lib.List(); err != nil || len(list) != 0 {
		t.Fatalf("missing directory: %v %v", list, err)
	}
	empty := lib.Stamp()
	p := programs.Program{Name: "b-prog", Description: "Second <&>", Tools: []string{"x"}, Source: "export default 1;\n"}
	if err := lib.Put(p); err != nil {
		t.Fatal(err)
	}
	if err := lib.Put(programs.Program{Name: "a"}); err != nil {
		t.Fatal(err)
	}
	if lib.Stamp() == empty {
		t.Fatal("the stamp did not change")
	}
	list, err := lib.List()
	if err != nil || len(list) != 2 || list[0].Name != "a" || list[1].Description != "Second <&>" {
		t.Fatalf("list: %+v %v", list, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "b-prog.json"))
	if err != nil || !strings.Contains(string(data), `"Second <&>"`) {
		t.Fatalf("file: %s %v", data, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("temporary files left: %v", entries)
	}
	if _, ok, err := lib.Get("../x"); ok || err != nil {
		t.Fatalf("Get of an invalid name: %v %v", ok, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.json"), []byte(`{"name":"d"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := lib.List(); err == nil || !strings.Contains(err.Error(), "c.json") {
		t.Fatalf("a misnamed file: %v", err)
	}
}

// Prepare refuses the body form and a reserved name before it reaches a compiler (nil here: a
// call would panic).
func TestPrepareRefusesTheBodyFormBeforeCompiling(t *testing.T) {
	_, err := programs.Prepare(context.Background(), nil, programs.SDK{}, "x", "return 1;", "")
	var refused *programs.RefusedError
	if !errors.As(err, &refused) || !errors.Is(err, programs.ErrRefused) || !strings.Contains(refused.Problems[0], "module form") {
		t.Fatalf("body form: %v", err)
	}
	if _, err := programs.Prepare(context.Background(), nil, programs.SDK{}, "save", "export default 1;", ""); !errors.Is(err, programs.ErrInvalidName) {
		t.Fatalf("reserved name: %v", err)
	}
}
