package typecheck

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// forkingCompiler is a compiler that answers --version and otherwise starts a child that
// outlives it unless its whole process group is killed (as the npm wrapper of TypeScript 7 runs
// the native compiler), writes the child's pid to pidFile, and waits. TMPDIR is set to a
// directory of the test's, returned as tmp, so that the scratch projects can be counted.
func forkingCompiler(t *testing.T) (exe, pidFile, tmp string) {
	t.Helper()
	pidFile = filepath.Join(t.TempDir(), "child.pid")
	exe = fakeCompiler(t, `case "$1" in --version) echo "Version 7.0.0";; *) sleep 60 & echo $! > `+pidFile+`.tmp; mv `+pidFile+`.tmp `+pidFile+`; wait;; esac`)
	tmp = t.TempDir()
	t.Setenv("TMPDIR", tmp)
	return exe, pidFile, tmp
}

// waitForPid waits for the pid file of forkingCompiler and returns the pid in it.
func waitForPid(t *testing.T, pidFile string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(pidFile); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the compiler did not start its child")
	return 0
}

// processGone waits up to two seconds for pid to be gone (or a zombie) and reports whether it
// is.
func processGone(pid int) bool {
	deadline := time.Now().Add(2 * time.Second)
	for {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		// The state follows the command's closing parenthesis.
		if i := strings.LastIndexByte(string(data), ')'); i >= 0 && strings.HasPrefix(string(data[i:]), ") Z") {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wantNoScratch fails when a scratch project is left in tmp.
func wantNoScratch(t *testing.T, tmp string) {
	t.Helper()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "runcode-typecheck-") {
			t.Fatalf("scratch project %s left behind", e.Name())
		}
	}
}

// A check whose context ends kills the compiler's whole process group, children included, and
// removes its scratch project.
func TestCancelledCheckLeavesNoProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	exe, pidFile, tmp := forkingCompiler(t)
	c, err := New(Options{Compiler: exe})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Check(ctx, "", "return 1;")
		done <- err
	}()
	child := waitForPid(t, pidFile)
	start := time.Now()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("the check took %v to end after its context", d)
	}
	if !processGone(child) {
		t.Fatalf("the compiler's child %d is still running", child)
	}
	wantNoScratch(t, tmp)
}

// The check's own bound (Options.Timeout) kills the process group too.
func TestTimedOutCheckLeavesNoProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	exe, pidFile, tmp := forkingCompiler(t)
	c, err := New(Options{Compiler: exe, Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Check(context.Background(), "", "return 1;")
	if !errors.Is(err, ErrCompiler) || !strings.Contains(err.Error(), "no answer within 500ms") {
		t.Fatalf("err = %v, want ErrCompiler: no answer", err)
	}
	if child := waitForPid(t, pidFile); !processGone(child) {
		t.Fatalf("the compiler's child %d is still running", child)
	}
	wantNoScratch(t, tmp)
}

// Close ends the checks in flight (their compilers' process groups killed) and waits for them:
// a caller that closes its checker and exits leaves no compiler behind.
func TestCloseEndsChecksInFlight(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	exe, pidFile, tmp := forkingCompiler(t)
	c, err := New(Options{Compiler: exe, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var checkErr error
	wg.Go(func() { _, checkErr = c.Check(context.Background(), "", "return 1;") })
	child := waitForPid(t, pidFile)
	closed := make(chan struct{})
	go func() {
		c.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the check in flight")
	}
	wg.Wait()
	if !errors.Is(checkErr, errClosed) {
		t.Fatalf("check in flight: err = %v, want the checker closed", checkErr)
	}
	if !processGone(child) {
		t.Fatalf("the compiler's child %d is still running", child)
	}
	wantNoScratch(t, tmp)
}
