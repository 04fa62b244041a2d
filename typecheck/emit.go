package typecheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/internal/progform"
	"github.com/runcode-dev/runcode/internal/readlimit"
)

// maxDeclarationBytes bounds the declarations Declarations reads back from the compiler.
const maxDeclarationBytes = 4 << 20

// Declarations typechecks program, which must be in the module form, against declarations (the
// SDK's .d.ts text) as Check does, and has the compiler emit the program's own declarations
// (`tsc --declaration --emitDeclarationOnly`): its exported types, and the type of its default
// export as `declare const _default: T; export default _default;`. It returns the diagnostics
// (none when the program typechecks; the declarations are empty then) and the emitted .d.ts
// text. A saved program's declared output type comes from here (see package programs). It
// always starts one compiler process, warm or not.
func (c *Checker) Declarations(ctx context.Context, declarations, program string) (string, []Diagnostic, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return "", nil, errClosed
	}
	c.inFlight.Add(1)
	c.mu.Unlock()
	defer c.inFlight.Done()
	p, err := progform.Parse(program)
	if err != nil {
		return "", nil, err
	}
	if p.Form != progform.Module {
		return "", nil, errors.New("typecheck: declarations are emitted for a module-form program only (with `export default <expr>` or `export {}`)")
	}
	if err := refuseReferences(program); err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, c.timeout, errTimedOut)
	defer cancel()
	defer context.AfterFunc(c.closing, cancel)()
	dir, err := os.MkdirTemp("", "runcode-emit-")
	if err != nil {
		return "", nil, fmt.Errorf("%w: %v", ErrCompiler, err)
	}
	defer os.RemoveAll(dir)
	if err := writeCheckProject(dir, declarations+RuntimeDeclarations, program); err != nil {
		return "", nil, fmt.Errorf("%w: %v", ErrCompiler, err)
	}
	out := filepath.Join(dir, "out")
	cmd := exec.CommandContext(ctx, c.exe, "-p", ".", "--pretty", "false", "--noEmit", "false",
		"--declaration", "--emitDeclarationOnly", "--noEmitOnError", "--outDir", out)
	cmd.Dir = dir
	inOwnGroup(cmd)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := runLocked(cmd)
	if ctx.Err() != nil {
		if errors.Is(context.Cause(ctx), errTimedOut) {
			return "", nil, fmt.Errorf("%w: no answer within %v", ErrCompiler, c.timeout)
		}
		return "", nil, context.Cause(ctx)
	}
	diags, other := ParseOutput(stdout.String())
	if len(other) > 0 {
		return "", nil, fmt.Errorf("%w: %s", ErrCompiler, strings.Join(other, "\n"))
	}
	if len(diags) > 0 {
		return "", mapLines(diags, 0, strings.Count(program, "\n")+1), nil
	}
	if runErr != nil {
		msg := strings.TrimSpace(stderr.String() + stdout.String())
		if msg == "" {
			msg = runErr.Error()
		}
		return "", nil, fmt.Errorf("%w: %s", ErrCompiler, msg)
	}
	dts, err := readlimit.File(filepath.Join(out, strings.TrimSuffix(ProgramFile, ".ts")+".d.ts"), maxDeclarationBytes)
	if err != nil {
		return "", nil, fmt.Errorf("%w: reading the emitted declarations: %v", ErrCompiler, err)
	}
	return string(dts), nil, nil
}

// EmitDeclarations is Declarations with the diagnostics as one line each,
// "main.ts:LINE:COL: <message>" (a program in neither form is one such line), as CheckProgram
// gives them: it makes a Checker the compiler of package programs (programs.Compiler).
func (c *Checker) EmitDeclarations(ctx context.Context, declarations, program string) (string, []string, error) {
	dts, diags, err := c.Declarations(ctx, declarations, program)
	var pe *progform.Error
	if errors.As(err, &pe) {
		return "", []string{fmt.Sprintf("%s:%d:%d: %s", ProgramFile, pe.Line, pe.Column, pe.Message)}, nil
	}
	if err != nil {
		return "", nil, err
	}
	problems := make([]string, len(diags))
	for i, d := range diags {
		file := d.File
		if file == "" {
			file = ProgramFile
		}
		problems[i] = fmt.Sprintf("%s:%d:%d: %s", file, d.Line, d.Column, d.OneLine())
	}
	return dts, problems, nil
}
