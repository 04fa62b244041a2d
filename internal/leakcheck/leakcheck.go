// Package leakcheck fails a test that leaves goroutines behind: a small, dependency-free
// equivalent of go.uber.org/goleak for this module's tests.
//
// Call Check first thing in a test:
//
//	func TestX(t *testing.T) {
//		leakcheck.Check(t)
//		...
//	}
//
// Check snapshots the goroutines alive at that moment. When the test and its later cleanups have
// finished (Check's own cleanup runs last, because cleanups run in reverse order of
// registration), it waits up to Settle for every goroutine started since to exit, and otherwise
// fails the test listing the stacks of those still alive. Goroutines of the testing framework,
// the Go runtime and os/signal are ignored. Tests that call t.Parallel see each other's
// goroutines, so use Check only in tests that do not run in parallel.
package leakcheck

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Settle is how long Check's cleanup waits for the goroutines started during the test to exit.
const Settle = 2 * time.Second

// ignoredEntries are prefixes of the entry functions of goroutines that belong to the testing
// framework, the runtime or process-wide signal handling, never to the code under test.
var ignoredEntries = [...]string{"testing.", "runtime.", "os/signal."}

// Check registers a cleanup that fails t if goroutines started after Check are still alive Settle
// after the test ends.
func Check(t testing.TB) {
	t.Helper()
	baseline := make(map[int]bool)
	for _, g := range snapshot() {
		baseline[g.id] = true
	}
	t.Cleanup(func() {
		deadline := time.Now().Add(Settle)
		for {
			leaked := leaks(baseline)
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				var b strings.Builder
				for _, g := range leaked {
					b.WriteString("\n\n")
					b.WriteString(g.stack)
				}
				t.Errorf("leakcheck: %d goroutine(s) still running %v after the test:%s", len(leaked), Settle, b.String())
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// goroutine is one goroutine of a stack dump.
type goroutine struct {
	id    int
	entry string // the function the goroutine was started with (its bottom frame)
	stack string
}

// leaks are the goroutines alive now that are neither in baseline nor ignored.
func leaks(baseline map[int]bool) []goroutine {
	var out []goroutine
	for _, g := range snapshot() {
		if baseline[g.id] || ignored(g) {
			continue
		}
		out = append(out, g)
	}
	return out
}

func ignored(g goroutine) bool {
	for _, p := range ignoredEntries {
		if strings.HasPrefix(g.entry, p) {
			return true
		}
	}
	return false
}

// snapshot parses runtime.Stack of all goroutines, the calling one included.
func snapshot() []goroutine {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []goroutine
	for _, block := range bytes.Split(buf, []byte("\n\n")) {
		if g, ok := parse(string(block)); ok {
			out = append(out, g)
		}
	}
	return out
}

// parse reads one goroutine's block: "goroutine N [state]:", then a function line and a tab-
// indented file line per frame, then possibly "created by F in goroutine M" and its file line.
func parse(block string) (goroutine, bool) {
	lines := strings.Split(strings.TrimSpace(block), "\n")
	header, ok := strings.CutPrefix(lines[0], "goroutine ")
	if !ok {
		return goroutine{}, false
	}
	idText, _, _ := strings.Cut(header, " ")
	id, err := strconv.Atoi(idText)
	if err != nil {
		return goroutine{}, false
	}
	g := goroutine{id: id, stack: strings.TrimSpace(block)}
	for _, l := range lines[1:] {
		if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "created by ") || strings.HasPrefix(l, "...") {
			continue
		}
		fn, _, _ := strings.Cut(l, "(0x")
		if i := strings.LastIndex(fn, "("); i > 0 && strings.HasSuffix(fn, ")") {
			fn = fn[:i]
		}
		if fn != "runtime.goexit" { // the bottom frame of a goroutine that has not started yet
			g.entry = fn
		}
	}
	return g, true
}
