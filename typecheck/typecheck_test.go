package typecheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/internal/progform"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/sdkgen"
)

// testDeclarations is the SDK of one tool, add({a, b}) → number, as runcode generates it.
func testDeclarations() string {
	return sdkgen.DTS([]sdkgen.Tool{{
		Name:        "add",
		Description: "Add two numbers.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`),
		Output:      jsonv.MustParse(`{"type":"number"}`),
	}})
}

// needCompiler returns a checker over the real tsc on PATH, or skips when there is none.
func needCompiler(t testing.TB, warm bool) *Checker {
	t.Helper()
	c, err := New(Options{Warm: warm})
	if errors.Is(err, ErrNoCompiler) || errors.Is(err, ErrNoServer) {
		t.Skipf("no TypeScript compiler (warm %v): %v", warm, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// onlyServer returns the one server of a warm checker that has run its checks one at a time.
func onlyServer(t *testing.T, c *Checker) *warmServer {
	t.Helper()
	c.warm.mu.Lock()
	defer c.warm.mu.Unlock()
	if len(c.warm.all) != 1 {
		t.Fatalf("%d warm servers, want 1", len(c.warm.all))
	}
	return c.warm.all[0]
}

// positions returns "LINE:COL TSNNNN" of each diagnostic (with its file, when not the program).
func positions(diags []Diagnostic) []string {
	out := make([]string, len(diags))
	for i, d := range diags {
		out[i] = fmt.Sprintf("%s%d:%d TS%d", d.File, d.Line, d.Column, d.Code)
	}
	return out
}

// checkCases are programs with type errors at known places, in both forms.
var checkCases = []struct {
	name, program string
	want          []string
}{
	{"body form clean", "const s = await tools.add({ a: 1, b: 2 });\nreturn s + 1;", []string{}},
	{"module form clean", "const s = await tools.add({ a: 1, b: 2 });\nexport default s + 1;", []string{}},
	{"body form errors", "const s = await tools.add({ a: 1, b: 2 });\nconst t: string = s;\n\nawait tools.add({ a: 1, b: \"2\" });\nreturn t;",
		[]string{"2:7 TS2322", "4:25 TS2322"}},
	{"module form errors", "const s = await tools.add({ a: 1, b: 2 });\nconst t: string = s;\n\nawait tools.add({ a: 1, b: \"2\" });\nexport default t;",
		[]string{"2:7 TS2322", "4:25 TS2322"}},
	{"error on the first line of a body", "const t: string = await tools.add({ a: 1, b: 2 });", []string{"1:7 TS2322"}},
	{"unknown tool", "await tools.ad({ a: 1, b: 2 });\nexport {};", []string{"1:13 TS2339"}},
	{"misspelled argument", "await tools.add({ a: 1, bb: 2 });\nexport {};", []string{"1:25 TS2353"}},
	{"console is declared", "console.log('x');\nexport {};", []string{}},
}

func TestCheckBothForms(t *testing.T) {
	for _, warm := range []bool{false, true} {
		name := map[bool]string{false: "cold", true: "warm"}[warm]
		t.Run(name, func(t *testing.T) {
			c := needCompiler(t, warm)
			if warm && c.warm == nil {
				t.Fatal("no warm server")
			}
			decls := testDeclarations()
			for _, tc := range checkCases {
				t.Run(tc.name, func(t *testing.T) {
					diags, err := c.Check(context.Background(), decls, tc.program)
					if err != nil {
						t.Fatal(err)
					}
					if got := positions(diags); !reflect.DeepEqual(got, tc.want) {
						t.Fatalf("diagnostics %q, want %q\n%v", got, tc.want, diags)
					}
				})
			}
		})
	}
}

// A warm check reports exactly what a cold check does: positions, codes and messages.
func TestWarmEqualsCold(t *testing.T) {
	cold, warm := needCompiler(t, false), needCompiler(t, true)
	decls := testDeclarations()
	programs := []string{
		"const x: { a: { b: string } } = { a: { b: 1 } };\nexport default x;",
		"function f(a: { x: { y: string } }) { return a; }\nf({ x: { y: 1 } } as { x: { y: number } });\nexport {};", // a message chain
		"let n: number = 'x';\nreturn n;",
		"return undefinedName;",
		"const r = await tools.add({ a: 1 });\nexport default r;",
		"const x = ;\nconst y: string = 1;\nreturn [x, y];", // a syntax error, then a type error
		"const s = '😀'; const n: number = s;\nexport {};",   // columns in UTF-16 units
	}
	for _, p := range programs {
		dc, err := cold.Check(context.Background(), decls, p)
		if err != nil {
			t.Fatal(err)
		}
		dw, err := warm.Check(context.Background(), decls, p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(dc, dw) {
			t.Errorf("program %q:\ncold %q\nwarm %q", p, dc, dw)
		}
	}
}

func TestProgramInNeitherForm(t *testing.T) {
	c := needCompiler(t, false)
	_, err := c.Check(context.Background(), testDeclarations(), "import x from 'y';\nexport default x;")
	var pe *progform.Error
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Fatalf("err = %v, want a progform error on line 1", err)
	}
	lines, err := c.CheckProgram(context.Background(), testDeclarations(), "export const a = 1;")
	if err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], "main.ts:1:1: only `export default") {
		t.Fatalf("CheckProgram = %q, %v", lines, err)
	}
}

// A message chain is one diagnostic: on one line in CheckProgram and String, as tsc prints it
// in Message.
func TestMessageChainIsOneLine(t *testing.T) {
	c := needCompiler(t, false)
	program := "function f(a: { x: { y: string } }) { return a; }\nf({ x: { y: 1 } } as { x: { y: number } });\nexport {};"
	diags, err := c.Check(context.Background(), "", program)
	if err != nil || len(diags) != 1 {
		t.Fatalf("Check = %v, %v", diags, err)
	}
	if want := "Argument of type '{ x: { y: number; }; }' is not assignable to parameter of type '{ x: { y: string; }; }'.\n" +
		"  The types of 'x.y' are incompatible between these types.\n" +
		"    Type 'number' is not assignable to type 'string'."; diags[0].Message != want {
		t.Fatalf("Message %q", diags[0].Message)
	}
	lines, err := c.CheckProgram(context.Background(), "", program)
	want := "main.ts:2:3: Argument of type '{ x: { y: number; }; }' is not assignable to parameter of type '{ x: { y: string; }; }'. " +
		"The types of 'x.y' are incompatible between these types. Type 'number' is not assignable to type 'string'."
	if err != nil || len(lines) != 1 || lines[0] != want {
		t.Fatalf("CheckProgram = %q, %v", lines, err)
	}
}

func TestCheckProgramLines(t *testing.T) {
	c := needCompiler(t, false)
	lines, err := c.CheckProgram(context.Background(), testDeclarations(), "const ok = 1;\nconst t: string = ok;\nreturn t;")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"main.ts:2:7: Type 'number' is not assignable to type 'string'."}
	if !reflect.DeepEqual(lines, want) {
		t.Fatalf("CheckProgram = %q, want %q", lines, want)
	}
}

func TestNoCompiler(t *testing.T) {
	_, err := New(Options{Compiler: filepath.Join(t.TempDir(), "no-such-tsc")})
	if !errors.Is(err, ErrNoCompiler) || !strings.Contains(err.Error(), "npm i -g typescript") {
		t.Fatalf("err = %v, want ErrNoCompiler with the install hint", err)
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv(EnvCompiler, "")
	_, err = New(Options{})
	if !errors.Is(err, ErrNoCompiler) || !strings.Contains(err.Error(), "npm i -g typescript") {
		t.Fatalf("err = %v, want ErrNoCompiler with the install hint", err)
	}
}

// fakeCompiler writes an executable shell script and returns its path.
func fakeCompiler(t *testing.T, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tsc")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOldCompilerIsRefused(t *testing.T) {
	_, err := New(Options{Compiler: fakeCompiler(t, `echo "Version 4.9.5"`)})
	if !errors.Is(err, ErrNoCompiler) || !strings.Contains(err.Error(), "4.9.5") {
		t.Fatalf("err = %v, want ErrNoCompiler naming 4.9.5", err)
	}
}

func TestEnvCompiler(t *testing.T) {
	path := fakeCompiler(t, `case "$1" in --version) echo "Version 5.9.3";; *) echo "main.ts(2,7): error TS2322: Type 'number' is not assignable to type 'string'."; exit 2;; esac`)
	t.Setenv(EnvCompiler, path)
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Version() != "5.9.3" {
		t.Fatalf("version %q", c.Version())
	}
	diags, err := c.Check(context.Background(), "", "export default 1;\nconst t: string = 1;")
	if err != nil || len(diags) != 1 || diags[0].Line != 2 || diags[0].Code != 2322 {
		t.Fatalf("Check = %v, %v", diags, err)
	}
	// The body form is checked one line down, in its wrapper: line 2 of the file is line 1.
	diags, err = c.Check(context.Background(), "", "return 1;\n")
	if err != nil || len(diags) != 1 || diags[0].Line != 1 {
		t.Fatalf("Check = %v, %v", diags, err)
	}
}

func TestCompilerFailureIsNotATypeError(t *testing.T) {
	path := fakeCompiler(t, `case "$1" in --version) echo "Version 5.9.3";; *) echo "error TS5023: Unknown compiler option 'x'."; exit 1;; esac`)
	c, err := New(Options{Compiler: path})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Check(context.Background(), "", "return 1")
	if !errors.Is(err, ErrCompiler) || !strings.Contains(err.Error(), "TS5023") {
		t.Fatalf("err = %v, want ErrCompiler with the compiler's message", err)
	}
	crash := fakeCompiler(t, `case "$1" in --version) echo "Version 5.9.3";; *) echo "panic: boom" >&2; exit 3;; esac`)
	c, err = New(Options{Compiler: crash})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Check(context.Background(), "", "return 1")
	if !errors.Is(err, ErrCompiler) || !strings.Contains(err.Error(), "panic: boom") {
		t.Fatalf("err = %v, want ErrCompiler with stderr", err)
	}
}

// A warm server that dies is replaced: the check in progress and the next ones succeed, and
// Close ends the process.
func TestWarmServerSurvivesACrash(t *testing.T) {
	c := needCompiler(t, true)
	decls := testDeclarations()
	if _, err := c.Check(context.Background(), decls, "return 1;"); err != nil {
		t.Fatal(err)
	}
	first := onlyServer(t, c).srv.command().Process
	if err := first.Kill(); err != nil {
		t.Fatal(err)
	}
	diags, err := c.Check(context.Background(), decls, "const t: string = 1;\nreturn t;")
	if err != nil {
		t.Fatalf("check after a crash: %v", err)
	}
	if len(diags) != 1 || diags[0].Line != 1 {
		t.Fatalf("diags %v", diags)
	}
	second := onlyServer(t, c).srv.command()
	if second.Process.Pid == first.Pid {
		t.Fatal("not restarted")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if second.ProcessState == nil {
		t.Fatal("Close did not wait for the server")
	}
	if _, err := c.Check(context.Background(), decls, "return 1;"); err == nil {
		t.Fatal("check after Close succeeded")
	}
}

func TestWarmCheckHonoursContext(t *testing.T) {
	c := needCompiler(t, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Check(ctx, testDeclarations(), "return 1;"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Check(ctx, testDeclarations(), "return 1;"); err != nil {
		t.Fatalf("check after a cancelled one: %v", err)
	}
}

// WriteProject's directory makes `tsc -p` report what Check reports for a module-form program.
func TestProjectEqualsCheck(t *testing.T) {
	c := needCompiler(t, false)
	dir := t.TempDir()
	if err := WriteProject(dir, testDeclarations()); err != nil {
		t.Fatal(err)
	}
	program := checkCases[3].program
	if err := os.WriteFile(filepath.Join(dir, ProgramFile), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	tsc := exec.Command(c.exe, "-p", dir, "--pretty", "false")
	tsc.Dir = dir // tsc names files relative to its working directory
	out, _ := tsc.Output()
	projDiags, other := ParseOutput(string(out))
	if len(other) > 0 {
		t.Fatalf("unexpected output %q", other)
	}
	diags, err := c.Check(context.Background(), testDeclarations(), program)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) == 0 || !reflect.DeepEqual(projDiags, diags) {
		t.Fatalf("tsc -p: %v\nCheck: %v", projDiags, diags)
	}
}

// A compiler that never answers is killed at the timeout, cold or warm, and the check fails
// with ErrCompiler instead of hanging.
func TestStuckCompilerTimesOut(t *testing.T) {
	stuck := fakeCompiler(t, `case "$1" in --version) echo "Version 7.0.0";; *) exec sleep 30;; esac`)
	for _, warm := range []bool{false, true} {
		c, err := New(Options{Compiler: stuck, Warm: warm, Timeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = c.Check(context.Background(), "", "return 1")
		if !errors.Is(err, ErrCompiler) || !strings.Contains(err.Error(), "no answer within 300ms") {
			t.Fatalf("warm %v: err = %v, want ErrCompiler: no answer", warm, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("warm %v: took %v", warm, d)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A language server that dies at once fails the check (after one restart) with its stderr.
func TestWarmServerThatCannotStart(t *testing.T) {
	dies := fakeCompiler(t, `case "$1" in --version) echo "Version 7.0.0";; *) echo "fatal: no lsp here" >&2; exit 3;; esac`)
	c, err := New(Options{Compiler: dies, Warm: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 2 { // and again: each check tries a fresh server
		_, err = c.Check(context.Background(), "", "return 1")
		if !errors.Is(err, ErrCompiler) || !strings.Contains(err.Error(), "fatal: no lsp here") {
			t.Fatalf("err = %v, want ErrCompiler with the server's stderr", err)
		}
	}
}

// Concurrent checks on one warm server each get their own program's diagnostics.
func TestWarmConcurrentChecks(t *testing.T) {
	c := needCompiler(t, true)
	decls := testDeclarations()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Program i has its type error on line i+1.
			program := strings.Repeat("await tools.add({ a: 1, b: 2 });\n", i) + "const s: string = 1;\nreturn s;"
			diags, err := c.Check(context.Background(), decls, program)
			if err != nil {
				errs <- err
				return
			}
			if len(diags) != 1 || diags[0].Line != i+1 || diags[0].Code != 2322 {
				errs <- fmt.Errorf("program %d: %v", i, diags)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestOptionalArgumentsTypecheck: the runtime sends {} for a call with no argument and drops
// undefined members, as JSON.stringify does; the SDK agrees: a tool whose arguments require
// nothing can be called with none, or with an optional member set to undefined
// (exactOptionalPropertyTypes is off), while a tool with a required argument cannot. Before,
// every tool was declared name(args: …), so `tools.list_dir()` did not typecheck.
func TestOptionalArgumentsTypecheck(t *testing.T) {
	c := needCompiler(t, false)
	decls := sdkgen.DTS([]sdkgen.Tool{
		{Name: "list_dir", Parameters: jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"additionalProperties":false}`),
			Output: jsonv.MustParse(`{"type":"array","items":{"type":"string"}}`)},
		{Name: "read_file", Parameters: jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]}`),
			Output: jsonv.MustParse(`{"type":"string"}`)},
	})
	for _, tc := range []struct {
		name, program string
		want          []string
	}{
		{"no argument, all optional", "const names = await tools.list_dir();\nreturn names.length;", []string{}},
		{"undefined member", "const limit: number | undefined = undefined;\nreturn await tools.list_dir({ path: \"src\", limit });", []string{}},
		{"explicit undefined member", "return await tools.read_file({ path: \"a\", limit: undefined });", []string{}},
		{"no argument, one required", "return await tools.read_file();", []string{"1:20 TS2554"}},
		// TypeScript 7 names the missing property (TS2741), TypeScript 5 the argument (TS2345,
		// with the missing property in its elaboration).
		{"required member missing", "return await tools.read_file({});", []string{"1:30 TS2741|TS2345"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diags, err := c.Check(context.Background(), decls, tc.program)
			if err != nil {
				t.Fatal(err)
			}
			if got := positions(diags); !matchPositions(got, tc.want) {
				t.Fatalf("diagnostics %q, want %q\n%v", got, tc.want, diags)
			}
		})
	}
}

// matchPositions reports whether got ("LINE:COL TSNNNN" each) is want, where a want entry may
// give alternative codes for its position ("1:30 TS2741|TS2345").
func matchPositions(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		pos, codes, _ := strings.Cut(w, " ")
		gotPos, gotCode, _ := strings.Cut(got[i], " ")
		if gotPos != pos || !slices.Contains(strings.Split(codes, "|"), gotCode) {
			return false
		}
	}
	return true
}
