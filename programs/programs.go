// Package programs is the program library of Code Mode: module-form programs kept under a name,
// each with its description, the tools it calls and its declared input and output types, so that
// a later program (or a person with `runcode save`) reuses them as `await programs.NAME(input)`.
//
//	lib := programs.Open(".runcode/programs")
//	p, err := programs.Prepare(ctx, checker, programs.SDK{Tools: tools}, "count-todos", source, "Count TODO markers") // checker: a *typecheck.Checker
//	if err == nil { err = lib.Put(p) }
//
// [Prepare] typechecks a program against the SDK of the tools it may call and refuses one that
// does not check ([ErrRefused]); it records the tools the program names (see [Program.Tools])
// and has the TypeScript compiler emit the program's declarations, whose exported `Input` type
// is its declared input and whose default export's type is its declared output. [Library] keeps
// programs in a directory, one JSON file per program (NAME.json, written atomically); the
// format is documented in docs/programs-library.md. codemode binds a library as the programs
// global (codemode.Options.Programs).
package programs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/internal/progform"
	"github.com/runcode-dev/runcode/internal/readlimit"
	"github.com/runcode-dev/runcode/sdkgen"
)

// programFile is the name problems give the program, as the compiler's checks do.
const programFile = "main.ts"

// DefaultDir is the library directory of the CLI when --programs is not given, relative to the
// current directory.
const DefaultDir = ".runcode/programs"

// MaxNameLength is the longest program name.
const MaxNameLength = 64

// maxFileBytes bounds one stored program's file.
const maxFileBytes = 16 << 20

// InputVar is the global through which a saved program reads its input.
const InputVar = "input"

// Program is one saved program.
type Program struct {
	// Name is the program's name (see ValidName).
	Name string `json:"name"`
	// Description says what the program does; `runcode programs` and the prompt show it.
	Description string `json:"description"`
	// Tools are the registry names of the tools the program calls, sorted: the SDK tools its
	// source names as tools.x, tools["x"] or tools.ns.member (a static scan, so a tool reached
	// only through a computed key, tools[name], is not among them). Running the program where
	// one is missing fails before any tool runs.
	Tools []string `json:"tools"`
	// Programs are the saved programs it calls (programs.x), sorted.
	Programs []string `json:"programs"`
	// HasInput is set when the program exports an Input type: its declared input. Without one
	// the input is Record<string, never> (the program takes none).
	HasInput bool `json:"hasInput"`
	// Declarations is the program's own .d.ts as the compiler emitted it: its Input type and its
	// default export, whose type is the program's output.
	Declarations string `json:"declarations"`
	// Source is the program as saved (the module form).
	Source string `json:"source"`
	// Saved is when it was saved.
	Saved time.Time `json:"saved"`
}

// SDK returns the program as sdkgen declares it.
func (p Program) SDK() sdkgen.Program {
	return sdkgen.Program{Name: p.Name, Description: p.Description, Declarations: p.Declarations}
}

// SDKPrograms returns progs as sdkgen declares them.
func SDKPrograms(progs []Program) []sdkgen.Program {
	out := make([]sdkgen.Program, len(progs))
	for i, p := range progs {
		out[i] = p.SDK()
	}
	return out
}

// ErrInvalidName is the error of a name ValidName refuses.
var ErrInvalidName = errors.New("invalid program name")

var namePattern = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// ValidName checks a program name: 1 to MaxNameLength characters, letters, digits, '_', '$' and
// '-', not starting with a digit or '-', and not "save" (programs.save proposes saving). A name
// that is not a JavaScript identifier (one with '-') is called as programs["a-b"].
func ValidName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: the name is empty", ErrInvalidName)
	case len(name) > MaxNameLength:
		return fmt.Errorf("%w %q: longer than %d characters", ErrInvalidName, name, MaxNameLength)
	case !namePattern.MatchString(name):
		return fmt.Errorf("%w %q: use letters, digits, '_', '$' and '-', starting with a letter, '_' or '$'", ErrInvalidName, name)
	case name == "save":
		return fmt.Errorf("%w %q: programs.save is the function that proposes saving a program", ErrInvalidName, name)
	}
	return nil
}

// Library is a program library kept in a directory: one file NAME.json per program. Its
// methods may be called concurrently; writes are atomic (a temporary file renamed into place),
// so a reader sees a program whole or not at all.
type Library struct {
	dir string
}

// Open returns the library in dir. The directory is created by the first Put; a missing one is
// an empty library.
func Open(dir string) *Library { return &Library{dir: dir} }

// Dir returns the library's directory.
func (l *Library) Dir() string { return l.dir }

// List returns the programs, sorted by name. A file that is not a valid program fails the list,
// naming the file.
func (l *Library) List() ([]Program, error) {
	entries, err := os.ReadDir(l.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("programs: %w", err)
	}
	var out []Program
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p, err := l.read(filepath.Join(l.dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if p.Name != name {
			return nil, fmt.Errorf("programs: %s holds program %q; its file must be named %s.json", filepath.Join(l.dir, e.Name()), p.Name, p.Name)
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Program) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Get returns the program named name; ok is false when there is none.
func (l *Library) Get(name string) (p Program, ok bool, err error) {
	if ValidName(name) != nil {
		return Program{}, false, nil
	}
	p, err = l.read(filepath.Join(l.dir, name+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return Program{}, false, nil
	}
	return p, err == nil, err
}

func (l *Library) read(path string) (Program, error) {
	data, err := readlimit.File(path, maxFileBytes)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Program{}, err
		}
		return Program{}, fmt.Errorf("programs: %w", err)
	}
	var p Program
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Program{}, fmt.Errorf("programs: %s is not a saved program: %v", path, err)
	}
	if err := ValidName(p.Name); err != nil {
		return Program{}, fmt.Errorf("programs: %s: %w", path, err)
	}
	return p, nil
}

// Put saves p, replacing a program of the same name. The directory is created when missing.
func (l *Library) Put(p Program) error {
	if err := ValidName(p.Name); err != nil {
		return err
	}
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		return fmt.Errorf("programs: %w", err)
	}
	data, err := Marshal(p)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(l.dir, "."+p.Name+".*.tmp")
	if err != nil {
		return fmt.Errorf("programs: %w", err)
	}
	_, werr := f.Write(data)
	merr := f.Chmod(0o644) // CreateTemp makes it private; a library is as readable as the sources
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("programs: writing %s: %w", p.Name, err)
	}
	if err := os.Rename(f.Name(), filepath.Join(l.dir, p.Name+".json")); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("programs: %w", err)
	}
	return nil
}

// Marshal returns p as its file holds it: indented JSON, HTML characters unescaped.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Stamp identifies the library's state: it changes when a program is saved, replaced or removed
// (the directory's modification time and its programs' names, sizes and times), so a host
// that polls it reloads only on a change. A missing directory has the zero stamp.
func (l *Library) Stamp() string {
	entries, err := os.ReadDir(l.dir)
	if err != nil {
		return ""
	}
	var b strings.Builder
	if st, err := os.Stat(l.dir); err == nil {
		b.WriteString(st.ModTime().String())
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := e.Info(); err == nil {
			fmt.Fprintf(&b, "|%s %d %d", e.Name(), info.Size(), info.ModTime().UnixNano())
		}
	}
	return b.String()
}

// ErrRefused is the error of Prepare for a program that cannot be saved: it does not
// typecheck against the SDK, or is not in the module form. Test with errors.Is; a *RefusedError
// carries the problems.
var ErrRefused = errors.New("program refused")

// RefusedError is a program Prepare refused, with one line per problem
// ("main.ts:LINE:COL: <message>").
type RefusedError struct {
	Name     string
	Problems []string
}

// Error returns "program NAME does not typecheck against the SDK:" and the problems, one a line.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("program %q does not typecheck against the SDK:\n%s", e.Name, strings.Join(e.Problems, "\n"))
}

// Unwrap returns ErrRefused.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// Compiler typechecks a module-form program against declarations and emits its own declarations.
// *typecheck.Checker implements it with the TypeScript compiler.
type Compiler interface {
	// EmitDeclarations returns the program's .d.ts, or its type errors (one line each) and no
	// declarations; an error when the compiler could not run.
	EmitDeclarations(ctx context.Context, declarations, program string) (dts string, problems []string, err error)
}

// SDK is what a program is checked against when it is saved: the tools it may call and the
// programs already saved (which it may call in turn).
type SDK struct {
	Tools    []sdkgen.Tool
	Programs []Program
	// Globals are declarations of the other globals the host binds, appended as they are
	// (sdkgen.StateDeclaration where programs have state); "" for none.
	Globals string
}

// Declarations returns the SDK's .d.ts: the tools, the programs global, then Globals.
func (s SDK) Declarations(save bool) string {
	return sdkgen.DTS(s.Tools) + sdkgen.ProgramsDeclaration(SDKPrograms(s.Programs), save) + s.Globals
}

var exportsInput = regexp.MustCompile(`(?m)\bexport\s+(?:declare\s+)?(?:type|interface)\s+Input\b`)

// ExportsInput reports whether source exports an Input type (`export type Input` or `export
// interface Input`): the declared input of a saved program.
func ExportsInput(source string) bool { return exportsInput.MatchString(source) }

// WithInputDeclaration returns source with the global input declared after its last line (so
// that its lines keep their numbers) as its Input type, or as Record<string, never> when it
// exports none: the text a saved program is typechecked as (Prepare, and runcode check of a
// program that exports Input).
func WithInputDeclaration(source string) string {
	text := source + "\ndeclare const " + InputVar + ": Input;\n"
	if !ExportsInput(source) {
		text += "type Input = Record<string, never>;\n"
	}
	return text
}

// Prepare checks source, a module-form program, for saving as name: a valid name, the module
// form, and no type errors against sdk with the global input declared as the program's
// exported Input type (Record<string, never> without one). It records the tools and programs
// the source names and the compiler's declarations of the program. A program that does not
// check fails with a *RefusedError (ErrRefused).
func Prepare(ctx context.Context, comp Compiler, sdk SDK, name, source, description string) (Program, error) {
	if err := ValidName(name); err != nil {
		return Program{}, err
	}
	form, err := progform.Parse(source)
	if err != nil {
		return Program{}, &RefusedError{Name: name, Problems: []string{programFile + ":" + err.Error()}}
	}
	if form.Form != progform.Module {
		return Program{}, &RefusedError{Name: name, Problems: []string{"a saved program is in the module form: its result is `export default <expr>` (or `export {}` for none)"}}
	}
	hasInput := ExportsInput(source)
	text := WithInputDeclaration(source)
	others := make([]Program, 0, len(sdk.Programs))
	for _, p := range sdk.Programs {
		if p.Name != name { // a program does not call the one it replaces
			others = append(others, p)
		}
	}
	decls := SDK{Tools: sdk.Tools, Programs: others, Globals: sdk.Globals}.Declarations(false)
	dts, problems, err := comp.EmitDeclarations(ctx, decls, text)
	if err != nil {
		return Program{}, err
	}
	if len(problems) > 0 {
		return Program{}, &RefusedError{Name: name, Problems: problems}
	}
	return Program{
		Name: name, Description: description, Source: source, HasInput: hasInput, Declarations: dts,
		Tools: ToolsCalled(source, sdk.Tools), Programs: ProgramsCalled(source, others), Saved: time.Now().UTC(),
	}, nil
}
