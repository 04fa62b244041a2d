package leakcheck

import (
	"strings"
	"sync"
	"testing"
)

// fakeTB records what Check's cleanup reports instead of failing the real test.
type fakeTB struct {
	testing.TB
	mu       sync.Mutex
	cleanups []func()
	errors   []string
}

func (f *fakeTB) Helper()           {}
func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, format)
	for _, a := range args {
		if s, ok := a.(string); ok {
			f.errors = append(f.errors, s)
		}
	}
}

func (f *fakeTB) finish() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

func TestGoroutineThatExitsIsNoLeak(t *testing.T) {
	f := &fakeTB{}
	Check(f)
	done := make(chan struct{})
	go func() { close(done) }()
	<-done
	f.finish()
	if len(f.errors) != 0 {
		t.Fatalf("errors: %v", f.errors)
	}
}

func TestBlockedGoroutineIsReportedWithItsStack(t *testing.T) {
	f := &fakeTB{}
	Check(f)
	stop := make(chan struct{})
	defer close(stop)
	go blockUntil(stop)
	f.finish()
	if len(f.errors) == 0 || !strings.Contains(strings.Join(f.errors, "\n"), "leakcheck.blockUntil") {
		t.Fatalf("the blocked goroutine was not reported: %v", f.errors)
	}
}

func blockUntil(stop chan struct{}) { <-stop }

func TestParseReadsIDAndEntry(t *testing.T) {
	g, ok := parse("goroutine 42 [chan receive]:\nmain.worker(0xc000010000)\n\t/x/main.go:10 +0x1d\nmain.start.func1()\n\t/x/main.go:5 +0x25\ncreated by main.start in goroutine 1\n\t/x/main.go:4 +0x1a")
	if !ok || g.id != 42 || g.entry != "main.start.func1" {
		t.Fatalf("parse = %+v, %v", g, ok)
	}
}
