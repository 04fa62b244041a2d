//go:build unix

package approvals_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/runcode-dev/runcode/approvals"
	"github.com/runcode-dev/runcode/jsonv"
)

// openPTY returns a Terminal on a new pseudo-terminal and the terminal's other end.
func openPTY(t *testing.T) (*approvals.Terminal, *os.File) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	term, err := approvals.OpenTerminal(tty, tty, approvals.TerminalOptions{TTY: tty.Name()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	return term, ptmx
}

// waitFor reads the terminal's output until it holds s.
func waitFor(t *testing.T, r *bufio.Reader, s string) string {
	t.Helper()
	var seen strings.Builder
	for !strings.Contains(seen.String(), s) {
		b, err := r.ReadByte()
		if err != nil {
			t.Fatalf("terminal output ended before %q: %v\n%s", s, err, seen.String())
		}
		seen.WriteByte(b)
	}
	return seen.String()
}

func TestTerminalAsksAndReadsTheAnswer(t *testing.T) {
	term, ptmx := openPTY(t)
	out := bufio.NewReader(ptmx)
	type reply struct {
		a   approvals.Answer
		err error
	}
	done := make(chan reply, 1)
	go func() {
		a, err := term.Ask(context.Background(), approvals.Request{Tool: "write", Description: "Write it", Arguments: jsonv.MustParse(`{"path":"x"}`)})
		done <- reply{a, err}
	}()
	q := waitFor(t, out, "a = always for this tool: ")
	if !strings.Contains(q, "program: Write it") || !strings.Contains(q, `"path": "x"`) {
		t.Fatalf("question:\n%s", q)
	}
	ptmx.Write([]byte("maybe\n"))
	waitFor(t, out, "answer y (yes, this call), n (no) or a (always for this tool): ")
	ptmx.Write([]byte("A\n"))
	if r := <-done; r.err != nil || r.a != approvals.Always {
		t.Fatalf("answer %v, %v; want always", r.a, r.err)
	}
}

// A question whose call's context ends is abandoned at once: the call is not held.
func TestTerminalQuestionEndsWithItsContext(t *testing.T) {
	term, ptmx := openPTY(t)
	go func() { // drain the question
		buf := make([]byte, 4096)
		for {
			if _, err := ptmx.Read(buf); err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := term.Ask(ctx, approvals.Request{Tool: "write"})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("Ask returned %v after %v; want the deadline at once", err, time.Since(start))
	}
	// The terminal still answers the next question.
	done := make(chan approvals.Answer, 1)
	go func() {
		a, _ := term.Ask(context.Background(), approvals.Request{Tool: "write"})
		done <- a
	}()
	time.Sleep(50 * time.Millisecond)
	ptmx.Write([]byte("y\n"))
	select {
	case a := <-done:
		if a != approvals.Yes {
			t.Fatalf("answer %v", a)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second question got no answer")
	}
}

func TestOpenTerminalRefusesAFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := approvals.OpenTerminal(f, os.Stderr, approvals.TerminalOptions{}); !errors.Is(err, approvals.ErrNoTerminal) {
		t.Fatalf("got %v, want ErrNoTerminal", err)
	}
}
