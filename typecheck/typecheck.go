// Package typecheck typechecks a Code Mode program against the TypeScript declarations of its
// SDK with the TypeScript compiler (tsc of TypeScript 5 or later, an external program), and
// reports the compiler's diagnostics at the program's own lines and columns.
//
//	chk, err := typecheck.New(typecheck.Options{}) // errors.Is(err, typecheck.ErrNoCompiler) without tsc
//	defer chk.Close()
//	diags, err := chk.Check(ctx, declarations, program) // declarations: sdkgen.DTS of the tools
//
// [New] finds the compiler and returns a [Checker]; [Checker.Check] returns the program's
// diagnostics ([Diagnostic]; none when it typechecks); [Options.Warm] keeps compiler servers
// running for many checks; [WriteProject] writes the directory `runcode init` writes for
// editors. A Checker given to codemode.Options.TypeChecker checks every run before it starts.
//
// A program comes in either form (see internal/progform): the module form is checked as the file
// it is, exactly as `tsc -p` checks it in a directory written by WriteProject (runcode init); the
// body form is checked inside an async function wrapper whose lines are mapped back.
//
// A Checker either starts one compiler process per check (the default) or, with Options.Warm,
// keeps one compiler process alive in a server mode (TypeScript 7's `tsc --lsp`, TypeScript 5's
// tsserver) and asks it for each program's diagnostics (see warm.go); both report what `tsc -p`
// reports. Nothing here runs unless a caller asks for a check: the runtime never knows about it,
// and codemode reaches it only through its TypeChecker interface.
package typecheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/runcode-dev/runcode/internal/progform"
)

// EnvCompiler is the environment variable that names the compiler to use instead of tsc on PATH.
const EnvCompiler = "RUNCODE_TSC"

// InstallHint says how to get a compiler; it ends the message of ErrNoCompiler.
const InstallHint = "install TypeScript 5 or later with `npm i -g typescript` (or name a compiler in " + EnvCompiler + ")"

// File names inside a project directory (WriteProject) and of the scratch project of a check.
const (
	DeclarationsFile = "tools.d.ts"
	ProgramFile      = "main.ts"
	ConfigFile       = "tsconfig.json"
)

// ErrNoCompiler is the error of New when no usable TypeScript compiler is found: none on PATH
// (or at RUNCODE_TSC), or one older than TypeScript 5. Its message says how to install one.
var ErrNoCompiler = errors.New("no TypeScript compiler found")

// ErrNoServer is the error of New with Options.Warm when the compiler has no server mode: such a
// compiler can still check cold.
var ErrNoServer = errors.New("typecheck: the compiler has no server mode (`tsc --lsp` of TypeScript 7, or a tsserver beside tsc)")

// ErrCompiler is the error of a check that the compiler could not complete: it failed to start,
// crashed, or reported a problem that is not the program's (its configuration or the
// declarations are broken).
var ErrCompiler = errors.New("typecheck: the TypeScript compiler failed")

// Diagnostic is one error the compiler reports.
type Diagnostic struct {
	// File is "" for the program; otherwise the name of the file the error is in (DeclarationsFile
	// for an error in the SDK declarations themselves).
	File string
	// Line and Column are 1-based and the program's own (Column in UTF-16 code units, as tsc and
	// JavaScript count).
	Line, Column int
	// Code is the TypeScript error code (2322 for TS2322).
	Code int
	// Message is the compiler's message; a chain of messages spans lines, each further one
	// indented by two spaces more, as tsc prints it.
	Message string
}

// String returns "LINE:COL: error TSNNNN: <message>" on one line (a message chain joined with
// spaces), prefixed with "FILE:" for a diagnostic outside the program.
func (d Diagnostic) String() string {
	s := fmt.Sprintf("%d:%d: error TS%d: %s", d.Line, d.Column, d.Code, d.OneLine())
	if d.File != "" {
		s = d.File + ":" + s
	}
	return s
}

// OneLine returns the message on one line: the lines of a message chain, unindented, joined
// with spaces.
func (d Diagnostic) OneLine() string {
	if !strings.Contains(d.Message, "\n") {
		return d.Message
	}
	parts := strings.Split(d.Message, "\n")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return strings.Join(parts, " ")
}

// Options configure a Checker.
type Options struct {
	// Compiler is the compiler command (a path, or a name looked up on PATH). Empty means the
	// value of RUNCODE_TSC, or else "tsc".
	Compiler string
	// Warm keeps one compiler process alive in a server mode for all checks instead of
	// starting one per check, so that a check costs the compiler's work on the program alone:
	// the language server of TypeScript 7 (`tsc --lsp --stdio`), or the tsserver of the npm
	// package that holds a TypeScript 5 tsc. A crashed server is restarted on the next check.
	// Without either, New fails with ErrNoServer.
	Warm bool
	// WarmServers bounds the number of server processes of Warm: one is started for each
	// check that finds every other busy, up to this number, so that a slow check (a program
	// whose types take the compiler long) holds up only its own server. Zero means
	// DefaultWarmServers.
	WarmServers int
	// Timeout bounds one check, from when a compiler (a warm server) takes it up: a compiler
	// that has not answered by then is killed (its whole process group) and the check fails
	// with ErrCompiler. A caller with a deadline of its own passes it in Check's context. Zero
	// means DefaultTimeout.
	Timeout time.Duration
}

// DefaultWarmServers is the default of Options.WarmServers.
const DefaultWarmServers = 2

// DefaultTimeout is the default bound of one check (Options.Timeout): far above what a check
// takes (milliseconds warm, tens of milliseconds cold), so that only a stuck compiler or a
// pathological program reaches it.
const DefaultTimeout = 10 * time.Second

// Checker typechecks programs. It is safe for concurrent use; Close ends the checks in flight
// and the compiler processes (Warm), and waits for them.
type Checker struct {
	exe     string // the compiler executable run for each check
	timeout time.Duration
	version string
	warm    *warmPool // nil unless Options.Warm
	// warmMixesSyntax is set when the warm server reports syntax and type errors together
	// (the language server), see Check.
	warmMixesSyntax bool

	// closing ends with Close: every check's context ends with it, which kills its compiler.
	closing context.Context
	close   context.CancelFunc

	mu       sync.Mutex
	closed   bool
	inFlight sync.WaitGroup // the checks running; Add under mu while not closed
}

// New finds the compiler and checks that it is TypeScript 5 or later. The error wraps
// ErrNoCompiler, with an install hint, when there is none.
func New(opts Options) (*Checker, error) {
	name := opts.Compiler
	if name == "" {
		name = os.Getenv(EnvCompiler)
	}
	if name == "" {
		name = "tsc"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%w (%q is not on PATH or not executable): %s", ErrNoCompiler, name, InstallHint)
	}
	exe := nativeCompiler(path)
	version, err := compilerVersion(exe)
	if err != nil && exe != path {
		exe = path // the package's native binary did not answer: use the command as given
		version, err = compilerVersion(exe)
	}
	if err != nil {
		return nil, fmt.Errorf("%w (%s: %v): %s", ErrNoCompiler, path, err, InstallHint)
	}
	major, _, _ := strings.Cut(version, ".")
	if atoi(major) < 5 {
		return nil, fmt.Errorf("%w (%s is TypeScript %s; 5 or later is needed): %s", ErrNoCompiler, path, version, InstallHint)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	c := &Checker{exe: exe, version: version, timeout: timeout}
	if opts.Warm {
		servers := opts.WarmServers
		if servers <= 0 {
			servers = DefaultWarmServers
		}
		switch tsserver := tsserverFor(path); {
		case atoi(major) >= 7:
			c.warm = newWarmPool(lspStarter(exe), servers)
			c.warmMixesSyntax = true
		case tsserver != "":
			c.warm = newWarmPool(tsserverStarter(tsserver), servers)
		default:
			return nil, fmt.Errorf("%w: %s is TypeScript %s without a tsserver beside it", ErrNoServer, path, version)
		}
	}
	c.closing, c.close = context.WithCancel(context.Background())
	return c, nil
}

// Version returns the compiler's TypeScript version, such as "7.0.2".
func (c *Checker) Version() string { return c.version }

// Close ends the checks in flight (killing their compilers; they fail) and the warm compiler
// processes, if any, and waits for all of them, so that a caller that exits next leaves no
// compiler running. Checks after Close fail.
func (c *Checker) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.close()
	c.inFlight.Wait()
	if c.warm != nil {
		return c.warm.close()
	}
	return nil
}

var errClosed = errors.New("typecheck: checker closed")

// Check typechecks program (either form) against declarations, the SDK's .d.ts text. It returns
// the diagnostics in the compiler's order, none when the program typechecks; an error when the
// program is in neither form (a *progform.Error) or the compiler could not check it (wrapping
// ErrCompiler).
func (c *Checker) Check(ctx context.Context, declarations, program string) ([]Diagnostic, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, errClosed
	}
	c.inFlight.Add(1)
	c.mu.Unlock()
	defer c.inFlight.Done()
	p, err := progform.Parse(program)
	if err != nil {
		return nil, err
	}
	if err := refuseReferences(program); err != nil {
		return nil, err
	}
	text, lineShift := checkedText(p, program)
	declarations += RuntimeDeclarations
	// The check ends with the caller's context and with Close.
	checkCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(c.closing, cancel)()
	var diags []Diagnostic
	if c.warm != nil {
		diags, err = c.warm.check(checkCtx, c.timeout, declarations, text)
		if err == nil && c.warmMixesSyntax && mayBeSyntaxError(diags) {
			// tsc reports no type errors when there are syntax errors, and the language
			// server reports both without telling them apart: tsc itself answers then (a
			// program with a syntax error is rare, and a cold check costs tens of ms).
			diags, err = c.checkColdWithin(checkCtx, declarations, text)
		}
	} else {
		diags, err = c.checkColdWithin(checkCtx, declarations, text)
	}
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case c.closing.Err() != nil:
			return nil, errClosed
		case errors.Is(err, errTimedOut):
			return nil, fmt.Errorf("%w: no answer within %v", ErrCompiler, c.timeout)
		}
		return nil, err
	}
	return mapLines(diags, lineShift, strings.Count(program, "\n")+1), nil
}

// errTimedOut is the cause of the end of a check's context at Options.Timeout.
var errTimedOut = errors.New("typecheck: the check timed out")

// checkColdWithin is checkCold bounded by the checker's timeout.
func (c *Checker) checkColdWithin(ctx context.Context, declarations, text string) ([]Diagnostic, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, c.timeout, errTimedOut)
	defer cancel()
	return c.checkCold(ctx, declarations, text)
}

// refuseReferences fails with a *progform.Error at the first reference of program to another
// file or module (a triple-slash directive, an import of any kind, a `from "x"` clause, a
// `require("x")` call). The compiler reads the file such a reference names, and its diagnostics
// quote that file's types, string values included: the text of any .ts file on the host would
// reach the program's author. A program has nothing to import (the SDK's tools are the global
// `tools`), so none is checked; the check's configuration (checkConfig) resolves nothing either,
// should a reference get past this scan.
func refuseReferences(program string) error {
	refs := progform.References(program)
	if len(refs) == 0 {
		return nil
	}
	r := refs[0]
	return &progform.Error{Line: r.Line, Column: r.Column, Message: fmt.Sprintf(
		"`%s`: triple-slash directives and imports are not supported: a program is typechecked on its own against the SDK, whose tools are the global `tools`, and may not name other files or modules", r.What)}
}

// mayBeSyntaxError reports whether a diagnostic has a code of the range the parser's errors use
// (TS1000–TS1999; the checker's grammar errors share it).
func mayBeSyntaxError(diags []Diagnostic) bool {
	for _, d := range diags {
		if d.Code >= 1000 && d.Code < 2000 {
			return true
		}
	}
	return false
}

// CheckProgram is Check in the shape codemode.TypeChecker asks for: one line per diagnostic,
// "main.ts:LINE:COL: <message>" with the message on one line (a diagnostic outside the program
// names its file instead).
func (c *Checker) CheckProgram(ctx context.Context, declarations, program string) ([]string, error) {
	diags, err := c.Check(ctx, declarations, program)
	if err != nil {
		var pe *progform.Error
		if errors.As(err, &pe) {
			return []string{fmt.Sprintf("%s:%d:%d: %s", ProgramFile, pe.Line, pe.Column, pe.Message)}, nil
		}
		return nil, err
	}
	lines := make([]string, len(diags))
	for i, d := range diags {
		file := d.File
		if file == "" {
			file = ProgramFile
		}
		lines[i] = fmt.Sprintf("%s:%d:%d: %s", file, d.Line, d.Column, d.OneLine())
	}
	return lines, nil
}

// bodyPrefix opens the wrapper of a body-form program, on a line of its own; bodySuffix closes
// it and makes the file a module, so that the program's names stay local to it.
const (
	bodyPrefix = "async function __runcodeProgram() {\n"
	bodySuffix = "\n}\nexport {};\n"
)

// checkedText returns the text the compiler checks for program, and how many lines it adds
// before the program's first line.
func checkedText(p progform.Program, program string) (string, int) {
	if p.Form == progform.Module {
		return program, 0
	}
	return bodyPrefix + program + bodySuffix, 1
}

// mapLines moves the program's diagnostics back by shift lines, clamped to the program's lines
// (a diagnostic on the wrapper names the program's first or last line).
func mapLines(diags []Diagnostic, shift, lines int) []Diagnostic {
	for i := range diags {
		d := &diags[i]
		if d.File != "" {
			continue
		}
		d.Line -= shift
		switch {
		case d.Line < 1:
			d.Line, d.Column = 1, 1
		case d.Line > lines:
			d.Line, d.Column = lines, 1
		}
	}
	return diags
}

// Config is the tsconfig.json of a check and of a project that WriteProject writes: strict,
// no output, the newest ECMAScript library (the runtime adds the recent built-ins goja lacks,
// such as Object.groupBy and Promise.withResolvers, to a program that names them; a built-in
// goja lacks that the library declares is found at run time, as without a check), no ambient
// @types (RuntimeDeclarations declares the runtime's other globals), every .ts file of the
// directory. skipLibCheck leaves the declaration files (the library's, the generated
// tools.d.ts) unchecked, which cuts a cold check by half (measured with TypeScript 7: 0.10s to
// 0.05s) and changes nothing a program is told.
const Config = `{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "target": "es2022",
    "module": "esnext",
    "moduleResolution": "bundler",
    "lib": ["esnext"],
    "types": [],
    "skipLibCheck": true
  },
  "include": ["*.ts"]
}
`

// checkConfig is the tsconfig.json of a check's scratch project (cold and warm): Config, with
// nothing resolved beyond the project's own files and the compiler's library. noResolve keeps
// triple-slash references (path and types) and imports (declarations, import types, dynamic
// imports) from adding any file to the program, and typeRoots keeps type packages from being
// looked for in the node_modules of the scratch directory's ancestors. Check refuses such
// references before the compiler runs (refuseReferences); this is the second wall. A project of
// WriteProject keeps Config (an editor's project, where nothing is at stake and where runcode
// init recognises its own earlier file by its exact text).
const checkConfig = `{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "target": "es2022",
    "module": "esnext",
    "moduleResolution": "bundler",
    "lib": ["esnext"],
    "types": [],
    "typeRoots": [],
    "noResolve": true,
    "skipLibCheck": true
  },
  "include": ["*.ts"]
}
`

// RuntimeDeclarations types the globals a program has beyond the ECMAScript library and the SDK
// (which declares tools, ToolCallError and console): the web built-ins the runtime adds to a
// program that names them (timers as Node's typings declare them, so that
// new Promise((r) => setTimeout(r, ms)) checks). Every check appends it to the SDK declarations, and WriteProject
// writes it into tools.d.ts. Each name is declared so that a second, identical declaration
// (from other typings) merges with it.
const RuntimeDeclarations = `
// The runtime's built-ins beyond the ECMAScript library.
declare function structuredClone<T>(value: T): T;
declare function queueMicrotask(callback: () => void): void;
declare function atob(data: string): string;
declare function btoa(data: string): string;
interface TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
interface TextDecoder {
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: ArrayBuffer | ArrayBufferView): string;
}
declare var TextDecoder: { prototype: TextDecoder; new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder };
interface Timeout { ref(): this; unref(): this; hasRef(): boolean; refresh(): this; close(): this; [Symbol.toPrimitive](): number }
interface Immediate { ref(): this; unref(): this; hasRef(): boolean }
declare function setTimeout<TArgs extends any[]>(callback: (...args: TArgs) => void, ms?: number, ...args: TArgs): Timeout;
declare function setTimeout(callback: (args: void) => void, ms?: number): Timeout;
declare function setInterval<TArgs extends any[]>(callback: (...args: TArgs) => void, ms?: number, ...args: TArgs): Timeout;
declare function setInterval(callback: (args: void) => void, ms?: number): Timeout;
declare function setImmediate<TArgs extends any[]>(callback: (...args: TArgs) => void, ...args: TArgs): Immediate;
declare function setImmediate(callback: (args: void) => void): Immediate;
declare function clearTimeout(timeout: Timeout | string | number | undefined | null): void;
declare function clearInterval(timeout: Timeout | string | number | undefined | null): void;
declare function clearImmediate(immediate: Immediate | undefined | null): void;
interface URLSearchParams {
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string, value?: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string, value?: string): boolean;
  set(name: string, value: string): void;
  sort(): void;
  forEach(callbackfn: (value: string, key: string, parent: URLSearchParams) => void, thisArg?: any): void;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  entries(): IterableIterator<[string, string]>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
  toString(): string;
}
declare var URLSearchParams: { prototype: URLSearchParams; new (init?: string[][] | Record<string, string> | string | URLSearchParams | Iterable<[string, string]>): URLSearchParams };
interface URL {
  href: string;
  readonly origin: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  readonly searchParams: URLSearchParams;
  hash: string;
  toString(): string;
  toJSON(): string;
}
declare var URL: { prototype: URL; new (url: string | URL, base?: string | URL): URL; canParse(url: string | URL, base?: string | URL): boolean; parse(url: string | URL, base?: string | URL): URL | null };
interface Crypto {
  getRandomValues<T extends Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array>(array: T): T;
  randomUUID(): string;
}
declare var crypto: Crypto;
interface Performance { readonly timeOrigin: number; now(): number; toJSON(): any }
declare var performance: Performance;
`

// WriteProject writes dir/tools.d.ts (declarations, then RuntimeDeclarations) and
// dir/tsconfig.json (Config), creating dir, so that `tsc -p dir` and editors check the
// module-form programs in dir exactly as Check does.
func WriteProject(dir, declarations string) error {
	return writeProject(dir, declarations+RuntimeDeclarations, Config)
}

// writeProject writes a project whose tools.d.ts is exactly text and whose tsconfig.json is
// config.
func writeProject(dir, text, config string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, DeclarationsFile), []byte(text), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ConfigFile), []byte(config), 0o644)
}

// writeCheckProject writes the scratch project of a check: writeProject's files, with
// declarations as tools.d.ts and checkConfig, and text as the program (main.ts).
func writeCheckProject(dir, declarations, text string) error {
	if err := writeProject(dir, declarations, checkConfig); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ProgramFile), []byte(text), 0o644)
}

// checkCold checks text in a scratch project with one compiler process.
func (c *Checker) checkCold(ctx context.Context, declarations, text string) ([]Diagnostic, error) {
	dir, err := os.MkdirTemp("", "runcode-typecheck-")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCompiler, err)
	}
	defer os.RemoveAll(dir)
	if err := writeCheckProject(dir, declarations, text); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCompiler, err)
	}
	cmd := exec.CommandContext(ctx, c.exe, "-p", ".", "--pretty", "false")
	cmd.Dir = dir
	// The context's end kills the compiler's process group, its children with it.
	inOwnGroup(cmd)
	// A child that left the group may still hold the output: stop waiting for it soon.
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := runLocked(cmd)
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	diags, other := ParseOutput(stdout.String())
	if len(other) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrCompiler, strings.Join(other, "\n"))
	}
	var exitErr *exec.ExitError
	switch {
	case runErr == nil:
		return diags, nil
	case errors.As(runErr, &exitErr) && len(diags) > 0:
		return diags, nil
	default:
		msg := strings.TrimSpace(stderr.String() + stdout.String())
		if msg == "" {
			msg = runErr.Error()
		}
		return nil, fmt.Errorf("%w: %s", ErrCompiler, msg)
	}
}

// diagnosticLine matches the first line of one diagnostic of `tsc --pretty false`.
var diagnosticLine = regexp.MustCompile(`^(.+)\((\d+),(\d+)\): error TS(\d+): (.*)$`)

// ParseOutput reads the output of `tsc -p DIR --pretty false`: the diagnostics in ProgramFile
// (File "") and in other files (File their name as printed), and the error lines that belong
// to no file (such as a broken configuration). Continuation lines of a message chain join their
// diagnostic's Message.
func ParseOutput(out string) (diags []Diagnostic, other []string) {
	var cur *Diagnostic
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, "\r\n")
		if m := diagnosticLine.FindStringSubmatch(line); m != nil {
			file := filepath.ToSlash(m[1])
			if file == ProgramFile {
				file = ""
			}
			diags = append(diags, Diagnostic{File: file, Line: atoi(m[2]), Column: atoi(m[3]), Code: atoi(m[4]), Message: m[5]})
			cur = &diags[len(diags)-1]
			continue
		}
		if strings.HasPrefix(line, "  ") && cur != nil {
			cur.Message += "\n" + line
			continue
		}
		cur = nil
		if strings.TrimSpace(line) != "" {
			other = append(other, line)
		}
	}
	return diags, other
}

// compilerVersion runs `exe --version` and returns the version number ("7.0.2").
func compilerVersion(exe string) (string, error) {
	out, err := exec.Command(exe, "--version").Output()
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(string(out))
	v = strings.TrimPrefix(v, "Version ")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "", fmt.Errorf("unexpected --version output %q", strings.TrimSpace(string(out)))
	}
	return v, nil
}

// nativeCompiler returns the native executable behind the npm package's tsc of TypeScript 7
// (a Node.js script that starts it, which costs a Node.js start per check), or path itself.
func nativeCompiler(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return path
	}
	// <pkg>/bin/tsc, with <pkg>/package.json of typescript
	pkg := filepath.Dir(filepath.Dir(real))
	if filepath.Base(filepath.Dir(real)) != "bin" {
		return path
	}
	data, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil || !bytes.Contains(data, []byte(`"name": "typescript"`)) {
		return path
	}
	arch := map[string]string{"amd64": "x64", "386": "ia32"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	platform := "@typescript/typescript-" + runtime.GOOS + "-" + arch
	for _, dir := range []string{filepath.Join(pkg, "node_modules", platform), filepath.Join(filepath.Dir(pkg), platform)} {
		if exe := filepath.Join(dir, "lib", "tsc"); isExecutable(exe) {
			return exe
		}
	}
	return path
}

// isExecutable reports whether path is a regular file someone may execute.
func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
