package approvals

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/runcode-dev/runcode/jsonv"
)

// DefaultMaxArgumentBytes is how much of a call's arguments, as indented JSON, a Terminal
// question shows when TerminalOptions.MaxArgumentBytes is zero; the rest is cut with a note of
// its size.
const DefaultMaxArgumentBytes = 2000

// ErrNoTerminal is OpenTerminal's error when its streams are not both terminals.
var ErrNoTerminal = errors.New("not a terminal")

// TerminalOptions configure OpenTerminal.
type TerminalOptions struct {
	// MaxArgumentBytes bounds the arguments a question shows (zero: DefaultMaxArgumentBytes).
	MaxArgumentBytes int
	// TTY is the device the answers are read from (empty: "/dev/tty", the process's
	// controlling terminal, which is in's terminal when in is one).
	TTY string
}

// Terminal is an Asker that asks a person at a terminal: it writes the question to the
// terminal's output (stderr, so that stdout stays the program's) — the tool, the program's
// description and the arguments as indented JSON (cut at TerminalOptions.MaxArgumentBytes) —
// and reads a line: y (yes, this call), n (no) or a (always for this tool); anything else asks
// again. When the call's context ends first (the run's wall time, an abort), the question is
// abandoned and the call denied as cancelled: a Terminal never holds a run past its context.
// Questions of concurrent calls are asked one at a time. Close it when done.
type Terminal struct {
	tty     *os.File // the answers; pollable, so that a read can be abandoned
	out     io.Writer
	maxArgs int
	mu      sync.Mutex // one question at a time
}

// OpenTerminal returns a Terminal when in and out are both terminals (a person is there to
// answer, and sees the question), and ErrNoTerminal otherwise. It reads the answers from its
// own handle on the terminal (TerminalOptions.TTY), so that an abandoned question leaves in
// untouched.
func OpenTerminal(in, out *os.File, opts TerminalOptions) (*Terminal, error) {
	if in == nil || out == nil || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil, ErrNoTerminal
	}
	dev := opts.TTY
	if dev == "" {
		dev = "/dev/tty"
	}
	tty, err := os.Open(dev)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoTerminal, err)
	}
	// A handle whose reads cannot be interrupted could hold a run past its end.
	if err := tty.SetReadDeadline(time.Time{}); err != nil {
		tty.Close()
		return nil, fmt.Errorf("%w: %s cannot be read with a deadline: %v", ErrNoTerminal, dev, err)
	}
	maxArgs := opts.MaxArgumentBytes
	if maxArgs <= 0 {
		maxArgs = DefaultMaxArgumentBytes
	}
	return &Terminal{tty: tty, out: out, maxArgs: maxArgs}, nil
}

// Close releases the terminal handle.
func (t *Terminal) Close() error { return t.tty.Close() }

// Ask asks about one call (Asker).
func (t *Terminal) Ask(ctx context.Context, req Request) (Answer, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return No, err
	}
	io.WriteString(t.out, Question(req, t.maxArgs))
	for {
		line, err := t.readLine(ctx)
		if err != nil {
			if ctx.Err() != nil {
				io.WriteString(t.out, "\n  (no answer: the run ended; the call is denied)\n")
				return No, ctx.Err()
			}
			io.WriteString(t.out, "\n  (no answer; the call is denied)\n")
			return No, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return Yes, nil
		case "n", "no":
			return No, nil
		case "a", "always":
			return Always, nil
		}
		io.WriteString(t.out, "  answer y (yes, this call), n (no) or a (always for this tool): ")
	}
}

// maxAnswerBytes bounds the line a Terminal keeps of an answer.
const maxAnswerBytes = 256

// readLine reads one line from the terminal, or returns ctx's error once ctx ends (the read is
// interrupted and its goroutine waited for).
func (t *Terminal) readLine(ctx context.Context) (string, error) {
	type result struct {
		line string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		var line []byte
		buf := make([]byte, maxAnswerBytes)
		for {
			n, err := t.tty.Read(buf)
			if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
				done <- result{string(append(line, buf[:i]...)), nil}
				return
			}
			if len(line) < maxAnswerBytes {
				line = append(line, buf[:min(n, maxAnswerBytes-len(line))]...)
			}
			if err != nil {
				done <- result{string(line), err}
				return
			}
		}
	}()
	select {
	case r := <-done:
		return r.line, r.err
	case <-ctx.Done():
		t.tty.SetReadDeadline(time.Now())
		<-done
		t.tty.SetReadDeadline(time.Time{})
		return "", ctx.Err()
	}
}

// Question is the text a Terminal shows for req: the tool, the program's description, the
// reason of an Ask, the arguments as indented JSON cut at maxArgs bytes, and the answers.
// Text from the model (the description, strings in the arguments) cannot move the cursor or
// change the terminal: control characters are shown escaped.
func Question(req Request, maxArgs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nruncode: the program wants to call tool %s, which needs approval.\n", printable(req.Tool))
	if req.Description != "" {
		fmt.Fprintf(&b, "  program: %s\n", printable(req.Description))
	}
	if req.Reason != "" {
		fmt.Fprintf(&b, "  reason: %s\n", printable(req.Reason))
	}
	b.WriteString("  arguments: ")
	b.WriteString(indentLines(cutArguments(req.Arguments, maxArgs), "  "))
	b.WriteString("\n  Allow it? y = yes, this call; n = no; a = always for this tool: ")
	return b.String()
}

// cutArguments is v as indented JSON (escaped as JSON escapes control characters), cut at max
// bytes on a character boundary with a note of what was left out.
func cutArguments(v jsonv.Value, max int) string {
	if !v.IsDefined() {
		return "{}"
	}
	s := string(jsonv.AppendIndent(nil, v, "  ", -1))
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

// indentLines indents every line of s but the first.
func indentLines(s, indent string) string {
	return strings.ReplaceAll(s, "\n", "\n"+indent)
}

// printable is s, or, when s holds control characters (terminal escapes among them), bidi
// overrides or invalid UTF-8, s quoted as Go quotes it with %+q (escapes, ASCII only) without
// the quotes.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	q := fmt.Sprintf("%+q", s)
	return q[1 : len(q)-1]
}
