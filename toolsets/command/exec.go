package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/internal/childenv"
	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// waitDelay bounds how long a call waits, after its command exits or is killed, for output
// pipes held open by processes that escaped its process group.
const waitDelay = 2 * time.Second

// snippetLen is how much of a non-JSON stdout an error message quotes.
const snippetLen = 200

// execute runs one call of the tool: see the package documentation.
func (s *spec) execute(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
	limit := s.maxOutput
	if limit <= 0 {
		limit = maxOutput
	}
	errTimeout := fmt.Errorf("command %q timed out after %s", s.name, s.timeout)
	errStdoutCap := fmt.Errorf("command %q printed more than %s on stdout", s.name, byteSize(limit))
	errStderrCap := fmt.Errorf("command %q printed more than %s on stderr", s.name, byteSize(limit))

	runCtx := ctx
	if s.timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeoutCause(runCtx, s.timeout, errTimeout)
		defer cancel()
	}
	runCtx, stop := context.WithCancelCause(runCtx)
	defer stop(nil)

	prog := s.argv[0]
	if strings.Contains(prog, "/") && !filepath.IsAbs(prog) {
		prog = filepath.Join(s.dir, prog)
	}
	cmd := exec.CommandContext(runCtx, prog, s.argv[1:]...)
	cmd.Dir = s.dir
	cmd.Env = childenv.Build(os.Environ(), s.inheritEnv)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// The command leads its own process group: kill the group, grandchildren included.
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			if errors.Is(err, syscall.ESRCH) {
				return os.ErrProcessDone
			}
			return err
		}
		return nil
	}
	cmd.WaitDelay = waitDelay
	cmd.Stdin = bytes.NewReader(append(jsonv.AppendJSON(nil, inv.Arguments), '\n'))
	stdout := &cappedBuffer{ctx: runCtx, limit: limit, onExceed: func() { stop(errStdoutCap) }, copies: stdoutCopies}
	stderr := &cappedBuffer{ctx: runCtx, limit: limit, onExceed: func() { stop(errStderrCap) }, copies: 1}
	overBudget := func(stream string) func(error) {
		return func(err error) {
			stop(fmt.Errorf("command %q printed more on %s than this run's memory budget lets a call hold: %w", s.name, stream, err))
		}
	}
	stdout.onRefused, stderr.onRefused = overBudget("stdout"), overBudget("stderr")
	cmd.Stdout, cmd.Stderr = stdout, stderr

	// Run returns only after the process has been reaped and exec's copying goroutines have
	// finished (or were cut off by WaitDelay).
	runErr := cmd.Run()

	if ctx.Err() != nil {
		return jsonv.Value{}, &registry.Error{Code: registry.CodeAborted, Name: "AbortError",
			Message: fmt.Sprintf("command %q cancelled", s.name), Err: context.Cause(ctx)}
	}
	if stdout.exceeded {
		return jsonv.Value{}, errStdoutCap
	}
	if stderr.exceeded {
		return jsonv.Value{}, errStderrCap
	}
	for _, b := range []*cappedBuffer{stdout, stderr} {
		if b.refused != nil {
			return jsonv.Value{}, context.Cause(runCtx)
		}
	}
	if runErr != nil && !errors.Is(runErr, exec.ErrWaitDelay) {
		if errors.Is(context.Cause(runCtx), errTimeout) {
			return jsonv.Value{}, errTimeout
		}
		var exitErr *exec.ExitError
		if errors.As(runErr, &exitErr) {
			if msg := strings.TrimSpace(stderr.buf.String()); msg != "" {
				return jsonv.Value{}, errors.New(msg)
			}
			return jsonv.Value{}, errors.New(exitErr.Error())
		}
		return jsonv.Value{}, fmt.Errorf("command %q could not run: %v", s.name, runErr)
	}
	out := stdout.buf.Bytes()
	v, err := jsonv.Parse(out)
	if errors.Is(err, jsonv.ErrInvalidText) {
		// Not the output itself: it is not valid text, and the program would see it altered.
		return jsonv.Value{}, fmt.Errorf("command %q printed output that is not JSON: %s", s.name, strings.TrimPrefix(err.Error(), "jsonv: invalid JSON: "))
	}
	if err != nil {
		return jsonv.Value{}, fmt.Errorf("command %q printed output that is not JSON: %s", s.name, snippet(out))
	}
	return v, nil
}

// snippet returns the first snippetLen bytes of out (cut back to a whole UTF-8 character),
// trimmed of surrounding white space.
func snippet(out []byte) string {
	if len(out) > snippetLen {
		out = out[:snippetLen]
		// Do not cut a multi-byte character in half.
		for i := len(out) - 1; i >= 0 && i >= len(out)-utf8.UTFMax; i-- {
			if utf8.RuneStart(out[i]) {
				if !utf8.FullRune(out[i:]) {
					out = out[:i]
				}
				break
			}
		}
	}
	return strings.TrimSpace(string(out))
}

// byteSize renders a limit for messages: "64 MiB", or bytes when not a whole MiB.
func byteSize(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Memory reservations of a call's output (see membudget.Reserve): stdout is held as the bytes
// read, the parsed value and the rendering for the model (an estimate: a value of many small
// numbers takes more than its text), stderr as the bytes read. Output is reserved as it
// arrives, in steps of at least reserveStep, once it is past freeOutput.
const (
	stdoutCopies = 3
	freeOutput   = 16 << 10
	reserveStep  = 1 << 20
)

// cappedBuffer keeps the first limit bytes written to it. Past the limit it calls onExceed once
// and discards the rest, still reporting success so the writer is drained rather than blocked.
// Before it holds more than freeOutput, it reserves copies times what it is about to hold from
// the run's memory budget (waiting while the budget is held by other calls, which leaves the
// command blocked on its pipe); a reservation that fails calls onRefused once, and the rest is
// discarded too. One goroutine writes it; it is read after that goroutine has finished.
type cappedBuffer struct {
	ctx       context.Context
	buf       bytes.Buffer
	limit     int
	exceeded  bool
	onExceed  func()
	copies    int64
	reserved  int64 // bytes of output reserved for (copies times this is held)
	refused   error // the reservation that failed
	onRefused func(error)
}

// Write implements io.Writer.
func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.exceeded || c.refused != nil {
		return len(p), nil
	}
	if room := c.limit - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:room])
		c.exceeded = true
		c.onExceed()
		return len(p), nil
	}
	if need := int64(c.buf.Len() + len(p)); need > max(c.reserved, freeOutput) {
		step := min(max(need-c.reserved, reserveStep, c.reserved/2), int64(c.limit)-c.reserved)
		if err := membudget.Reserve(c.ctx, c.copies*step); err != nil {
			c.refused = err
			c.onRefused(err)
			return len(p), nil
		}
		c.reserved += step
	}
	c.buf.Write(p)
	return len(p), nil
}
