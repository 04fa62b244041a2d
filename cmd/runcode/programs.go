package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/programs"
	"github.com/runcode-dev/runcode/sdkgen"
	"github.com/runcode-dev/runcode/typecheck"
)

// programsReload is how often serve looks for changes in the program library.
const programsReload = time.Second

// registerPrograms registers --programs DIR on fs (run, serve, check, sdk, init, save, programs).
func (c *cli) registerPrograms(fs *flag.FlagSet) {
	fs.Func("programs", "the program library `DIR` (default "+programs.DefaultDir+"/ under the current directory; without this flag, used only when it exists)", func(dir string) error {
		if dir == "" {
			return errors.New("--programs needs a directory")
		}
		c.programsDir = dir
		return nil
	})
}

// library returns the program library of the command: --programs DIR, or the default directory
// when it exists; nil when neither (no programs global then). create returns the default
// library even when it does not exist yet (save).
func (c *cli) library(create bool) *programs.Library {
	if c.programsDir != "" {
		return programs.Open(c.programsDir)
	}
	if _, err := os.Stat(programs.DefaultDir); err == nil || create {
		return programs.Open(programs.DefaultDir)
	}
	return nil
}

// programsDeclaration returns the programs global's declarations for the SDK of sdk, check and
// init ("" without a library).
func (c *cli) programsDeclaration() (string, error) {
	lib := c.library(false)
	if lib == nil {
		return "", nil
	}
	list, err := lib.List()
	if err != nil {
		return "", err
	}
	return sdkgen.ProgramsDeclaration(programs.SDKPrograms(list), true), nil
}

// lazyCompiler is the programs.Compiler of programs.save: the TypeScript compiler found on first
// use, so that runs that save nothing start none.
type lazyCompiler struct {
	mu      sync.Mutex
	checker *typecheck.Checker
	err     error
	closed  bool
}

// EmitDeclarations finds the compiler on first use and emits with it.
func (l *lazyCompiler) EmitDeclarations(ctx context.Context, declarations, program string) (string, []string, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return "", nil, errors.New("the compiler is closed")
	}
	if l.checker == nil && l.err == nil {
		l.checker, l.err = typecheck.New(typecheck.Options{})
	}
	chk, err := l.checker, l.err
	l.mu.Unlock()
	if err != nil {
		return "", nil, err
	}
	return chk.EmitDeclarations(ctx, declarations, program)
}

// close ends the compiler, if one was started.
func (l *lazyCompiler) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.checker != nil {
		l.checker.Close()
	}
}

// saveCmd is `runcode save [SOURCES] NAME PROGRAM [--description TEXT] [--programs DIR]`: it
// typechecks PROGRAM against the sources' SDK (and the programs saved) and keeps it in the
// library. Exit 0: saved; 1: refused (it does not typecheck); 2: usage, source or compiler error.
func (c *cli) saveCmd(args []string) (int, error) {
	fs := newFlagSet(c, "save", "[SOURCES] NAME PROGRAM [--description TEXT] [--programs DIR] [--state DIR]")
	var src sources
	src.register(fs)
	c.registerPrograms(fs)
	c.registerStateSDK(fs)
	description := fs.String("description", "", "what the program does, shown by `runcode programs` and to models")
	positional, err := c.parseInterleaved(fs, args)
	if err != nil {
		return 0, flagError(err)
	}
	if len(positional) != 2 {
		return 0, &usageError{"save takes a NAME and a PROGRAM (a .ts file, or - for stdin)"}
	}
	name := positional[0]
	if err := programs.ValidName(name); err != nil {
		return 0, &usageError{err.Error()}
	}
	source, err := c.readProgram(positional[1])
	if err != nil {
		return 0, err
	}
	checker, reg, closeAll, err := c.checkerAndTools(&src)
	if err != nil {
		return 0, err
	}
	defer closeAll()
	lib := c.library(true)
	saved, err := lib.List()
	if err != nil {
		return 0, err
	}
	sdk := programs.SDK{Tools: codemode.SDKTools(reg), Programs: saved}
	if c.state.dir != "" {
		sdk.Globals = "\n" + sdkgen.StateDeclaration + "\n"
	}
	p, err := programs.Prepare(c.ctx, checker, sdk, name, source, *description)
	var refused *programs.RefusedError
	if errors.As(err, &refused) {
		fmt.Fprintf(c.stderr, "runcode: save: %s does not typecheck against the SDK, so it was not saved:\n", positional[1])
		for _, p := range refused.Problems {
			if rest, ok := strings.CutPrefix(p, typecheck.ProgramFile+":"); ok {
				p = positional[1] + ":" + rest
			}
			fmt.Fprintln(c.stderr, p)
		}
		return exitFailed, nil
	}
	if err != nil {
		return 0, err
	}
	if err := lib.Put(p); err != nil {
		return 0, err
	}
	tools := "no tools"
	if len(p.Tools) > 0 {
		tools = "tools: " + strings.Join(p.Tools, ", ")
	}
	fmt.Fprintf(c.stdout, "saved %s in %s (%s); call it with await %s(input)\n", p.Name, lib.Dir(), tools, sdkgen.ProgramPath(p.Name))
	return exitOK, nil
}

// programEntry is one program as `runcode programs --json` prints it.
type programEntry struct {
	Name         string    `json:"name"`
	Description  string    `json:"description"`
	Tools        []string  `json:"tools"`
	Programs     []string  `json:"programs"`
	HasInput     bool      `json:"hasInput"`
	Declarations string    `json:"declarations"`
	Saved        time.Time `json:"saved"`
}

// programsCmd is `runcode programs [--programs DIR] [--json]`: the saved programs, one a line
// (name, description, tools), or as a JSON array.
func (c *cli) programsCmd(args []string) error {
	fs := newFlagSet(c, "programs", "[--programs DIR] [--json]")
	c.registerPrograms(fs)
	asJSON := fs.Bool("json", false, `print a JSON array of {"name", "description", "tools", "programs", "hasInput", "declarations", "saved"}`)
	positional, err := c.parseInterleaved(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(positional) > 0 {
		return &usageError{fmt.Sprintf("programs takes no arguments, got %q", positional[0])}
	}
	lib := c.library(true)
	list, err := lib.List()
	if err != nil {
		return err
	}
	if *asJSON {
		out := make([]programEntry, len(list))
		for i, p := range list {
			out[i] = programEntry{Name: p.Name, Description: p.Description, Tools: nonNil(p.Tools), Programs: nonNil(p.Programs), HasInput: p.HasInput, Declarations: p.Declarations, Saved: p.Saved}
		}
		data, err := programs.Marshal(out)
		if err != nil {
			return err
		}
		_, err = c.stdout.Write(data)
		return err
	}
	if len(list) == 0 {
		fmt.Fprintf(c.stderr, "runcode: no programs saved in %s\n", lib.Dir())
		return nil
	}
	for _, p := range list {
		line := sdkgen.ProgramPath(p.Name)
		if p.Description != "" {
			line += "  " + p.Description
		}
		if len(p.Tools) > 0 {
			line += "  (tools: " + strings.Join(p.Tools, ", ") + ")"
		}
		fmt.Fprintln(c.stdout, line)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// reloadPrograms polls the program library of cm until ctx ends, so that a long-running serve
// follows it (each run reloads it too). The caller waits for the returned function.
func reloadPrograms(ctx context.Context, cm *codemode.CodeMode, warn func(error)) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(programsReload)
		defer t.Stop()
		var last string
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := cm.ReloadPrograms(); err != nil && err.Error() != last {
					warn(err)
					last = err.Error()
				} else if err == nil {
					last = ""
				}
			}
		}
	}()
	return func() { <-done }
}
