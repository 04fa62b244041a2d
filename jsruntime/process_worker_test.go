package jsruntime

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runOK runs program on rt and fails the test unless it returns want (compact JSON).
func runOK(t *testing.T, rt Runtime, program, want string) {
	t.Helper()
	res, err := rt.Run(context.Background(), Request{Program: program})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error != nil {
		t.Fatalf("%s: %s: %s", program, res.Error.Kind, res.Error.Message)
	}
	if got := res.Value.String(); got != want {
		t.Fatalf("%s: got %s, want %s", program, got, want)
	}
}

// TestProcessMemoryLimitIsForThePrograms runs, in workers of the smallest memory limits, a
// program that keeps about 20 MiB: well under the heap watchdog (half the limit). RLIMIT_DATA
// counts address space, and a Go worker starts with about 100 MiB of it (runtime reservations,
// 8 MiB per thread stack) while 15 MiB resident: charged against the limit, a 64 MiB worker
// died before it was ready and a 128 MiB worker died of this program or of one more thread.
func TestProcessMemoryLimitIsForThePrograms(t *testing.T) {
	if raceEnabled {
		t.Skip("race-detector workers have no RLIMIT_DATA")
	}
	t.Parallel()
	for _, limit := range []int64{64 << 20, 128 << 20} {
		t.Run(fmt.Sprintf("%d MiB", limit>>20), func(t *testing.T) {
			p, err := NewProcessPool(ProcessConfig{Size: 1, MemoryLimit: limit})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			runOK(t, p, `const a = []; for (let i = 0; i < 300000; i++) a.push('item ' + i); return a.length`, `300000`)
			runOK(t, p, `return "alive"`, `"alive"`)
		})
	}
}

// TestProcessRunNotStartedGetsAnotherWorker: a worker that dies before it acknowledged a run
// has run none of it, so the run is started on another worker instead of failing as
// worker-exit.
func TestProcessRunNotStartedGetsAnotherWorker(t *testing.T) {
	t.Run("died idle", func(t *testing.T) {
		p, err := NewProcessPool(ProcessConfig{Size: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		w := p.idle[0]
		w.kill()
		<-w.exited
		runOK(t, p, `return 7`, `7`)
	})
	t.Run("dies once the run is written", func(t *testing.T) {
		p, err := NewProcessPool(ProcessConfig{Size: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		w := p.idle[0]
		// Stopped, the worker cannot read the run nor acknowledge it; it is killed as soon as
		// the run frame is in its pipe.
		if err := w.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		w.out.w = killAfterWrite{w.out.w, w}
		runOK(t, p, `return 8`, `8`)
		runOK(t, p, `return 9`, `9`)
	})
}

// killAfterWrite writes, then kills the worker and waits for it to exit.
type killAfterWrite struct {
	io.Writer
	w *worker
}

func (k killAfterWrite) Write(b []byte) (int, error) {
	n, err := k.Writer.Write(b)
	k.w.kill()
	<-k.w.exited
	return n, err
}

// fakeWorker is a shell command that says "ready" like a worker, then reports a Go runtime
// abort on its standard error and exits with status 2, as a worker over its memory limit does.
const fakeWorker = `printf '\000\000\000\000\001'; echo 'fatal error: runtime: out of memory' >&2; exit 2`

// TestProcessWorkerExitSaysWhy: the worker-exit failure carries the first line of what the
// dead worker wrote to its standard error, and so does the error of a worker that dies while
// starting.
func TestProcessWorkerExitSaysWhy(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	const why = "fatal error: runtime: out of memory"
	p, err := NewProcessPool(ProcessConfig{Size: 1, Command: []string{sh, "-c", fakeWorker}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	res, err := p.Run(context.Background(), Request{Program: `return 1`})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || res.Error.Kind != KindWorkerExit || !strings.Contains(res.Error.Message, why) {
		t.Fatalf("got %+v, want a worker-exit failure saying %q", res.Error, why)
	}
	t.Log(res.Error.Message)

	_, err = NewProcessPool(ProcessConfig{Size: 1, Command: []string{sh, "-c", "echo '" + why + "' >&2; exit 2"}})
	if err == nil || !strings.Contains(err.Error(), why) {
		t.Fatalf("NewProcessPool: got %v, want an error saying %q", err, why)
	}
}

// TestProcessLogsDoNotWaitForTheParent floods the console while the parent reads nothing for
// longer than the compute budget: the worker queues the lines instead of waiting for the pipe
// in the middle of the run, so the run ends with output-limit, as in-process, and not with
// its compute budget spent waiting for the parent.
func TestProcessLogsDoNotWaitForTheParent(t *testing.T) {
	t.Parallel()
	const budget = time.Second
	p, err := NewProcessPool(ProcessConfig{Size: 1, Config: Config{ComputeBudget: budget, WallCeiling: time.Minute, MaxOutputBytes: 256 << 10}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	w, err := p.acquire()
	if err != nil {
		t.Fatal(err)
	}
	// About 300 KiB of frames for 256 KiB of output: more than the pipe, the parent's reader
	// and its channel hold.
	if err := w.out.write(&frame{T: frameRun, Program: `for (;;) console.log("flood line " + "x".repeat(100))`}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(budget + budget/2)
	_ = w.stdout.SetReadDeadline(time.Now().Add(time.Minute))
	lines := 0
	for {
		f, err := w.in.next(nil, p.maxOtherFrame)
		if err != nil {
			t.Fatalf("after %d lines: %v (worker: %s)", lines, err, w.exitFailure().Message)
		}
		switch f.T {
		case frameLog:
			lines++
		case frameFail:
			t.Fatalf("fail frame %+v (%d lines)", f.Failure, lines)
		case frameDone:
			if e := f.Result.Error; e == nil || e.Kind != KindOutputLimit {
				t.Fatalf("got %+v after %d lines, want output-limit", e, lines)
			}
			_ = w.stdout.SetReadDeadline(time.Time{})
			p.release(w, true)
			return
		}
	}
}
