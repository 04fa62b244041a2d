package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// hangEnv, set with cliEnv, gives the programs of the CLI under test testHooks.hang(): a host
// function that blocks its caller for an hour whatever its context says. In-process it blocks
// the run's loop goroutine, exactly as one of goja's native steps that the runtime cannot
// interrupt does (such as a RegExp of a million nested lookaheads, which ran for more than ten
// minutes after a first SIGTERM); under process isolation it blocks the parent's side of the
// run. The tests use it rather than such a step because the steps known today get guarded one
// by one, and a test built on one would stop testing anything once it is. Only this test binary
// can install it.
// Its value is the path of a file that hang creates when it starts blocking, so that a test
// signals the CLI only once the run is really stuck.
const hangEnv = "RUNCODE_TEST_HANG_BINDING"

// withHangBinding wraps rt so that every run also has the testHooks namespace.
func withHangBinding(rt jsruntime.ClosableRuntime) jsruntime.ClosableRuntime {
	return hangingRuntime{rt}
}

type hangingRuntime struct{ jsruntime.ClosableRuntime }

// Run runs req with the testHooks namespace added.
func (h hangingRuntime) Run(ctx context.Context, req jsruntime.Request) (jsruntime.Result, error) {
	req.Bindings = append(slices.Clip(req.Bindings), jsruntime.Namespace{
		Global: "testHooks",
		Functions: []jsruntime.Function{{Name: "hang", Call: func(context.Context, jsonv.Value, func(jsonv.Value, error)) {
			_ = os.WriteFile(os.Getenv(hangEnv), nil, 0o644)
			time.Sleep(time.Hour)
		}}},
	})
	return h.ClosableRuntime.Run(ctx, req)
}

// stuckProgram logs, tells the test it runs (workspaceMarker), and hangs in one step.
const stuckProgram = `console.log("before"); ` + workspaceMarker + `testHooks.hang({}); return "unreachable";`

// abandonedMessage is the abort of a run that did not stop after a first SIGTERM.
const abandonedMessage = "runcode received SIGTERM; the program did not stop within 2s and was abandoned"

// A first SIGTERM used to leave the CLI running for as long as the step took (timeout(1),
// docker stop and supervisors send only one before SIGKILL). Now `run` gives the run stuckGrace
// to end as aborted, then prints the abort, closes the trace and exits 1 without it; under
// process isolation no worker process outlives the CLI. The outcome keeps what the program had
// written (it used to say "its output so far is lost").
func TestRunFirstSignalAbandonsAStuckRun(t *testing.T) {
	for _, c := range []struct {
		isolation string
		json      bool
	}{
		{"inprocess", false},
		{"inprocess", true},
		{"process", false},
		{"process", true},
	} {
		name := c.isolation
		if c.json {
			name += "/json"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv(hangEnv, filepath.Join(dir, "hanging"))
			prog := filepath.Join(dir, "stuck.ts")
			os.WriteFile(prog, []byte(stuckProgram), 0o644)
			tracePath := filepath.Join(t.TempDir(), "trace.jsonl")
			args := []string{"run", "--isolation", c.isolation, "--cpu", "10m", "--timeout", "10m", "--workspace", dir, "--trace", tracePath, prog}
			if c.json {
				args = append(args, "--json")
			}
			p := startCLI(t, args...)
			waitForFile(t, filepath.Join(dir, "hanging"), p)
			workers := processesInGroup(t, p.cmd.Process.Pid)
			if c.isolation == "process" && len(workers) == 0 {
				t.Fatal("found no worker process")
			}
			start := time.Now()
			p.signal(syscall.SIGTERM)
			code := p.wait(30 * time.Second)
			took := time.Since(start)
			out, _ := io.ReadAll(p.lines)
			if code != exitFailed {
				t.Fatalf("exit %d after %s, stdout %q, stderr %q", code, took, out, p.stderr.String())
			}
			if took < stuckGrace {
				t.Errorf("the CLI exited %s after the signal, before stuckGrace (%s)", took, stuckGrace)
			}
			t.Logf("exited %s after the signal", took)
			if c.json {
				var got struct {
					Logs  []string `json:"logs"`
					Error struct{ Kind, Message string }
				}
				if err := json.Unmarshal(out, &got); err != nil || !slices.Equal(got.Logs, []string{"before"}) || got.Error.Kind != "abort" || got.Error.Message != abandonedMessage {
					t.Fatalf("stdout %q (%v)", out, err)
				}
			} else if want := "Error: code run failed (abort): " + abandonedMessage + "\nCaptured output:\nbefore\n"; string(out) != want {
				t.Fatalf("stdout %q, want %q", out, want)
			}
			// The trace is complete JSON Lines: the run's start, the marker's write_file, started
			// and settled, and the run's end (its abort).
			trace, err := os.ReadFile(tracePath)
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			for line := range strings.Lines(string(trace)) {
				var e struct{ Type, Name string }
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("trace line %q: %v", line, err)
				}
				types = append(types, e.Type+" "+e.Name)
			}
			if want := []string{"code-run-start ", "code-dispatch-start write_file", "code-dispatch write_file", "code-run "}; !slices.Equal(types, want) {
				t.Fatalf("trace events %q, want %q", types, want)
			}
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				left := alive(workers)
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("worker processes %v outlived the CLI by 10s", left)
				}
			}
		})
	}
}

// Without a signal, `run` gives up on a run stuckGrace after its wall-clock ceiling (--timeout)
// and exits 1 with a timeout failure; it used to wait for as long as the step took.
func TestRunAbandonsAStuckRunAfterItsWallCeiling(t *testing.T) {
	for _, isolation := range []string{"inprocess", "process"} {
		t.Run(isolation, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv(hangEnv, filepath.Join(dir, "hanging"))
			prog := filepath.Join(dir, "stuck.ts")
			os.WriteFile(prog, []byte(stuckProgram), 0o644)
			p := startCLI(t, "run", "--isolation", isolation, "--cpu", "10m", "--timeout", "1s", "--workspace", dir, prog)
			waitForFile(t, filepath.Join(dir, "hanging"), p)
			code := p.wait(30 * time.Second)
			out, _ := io.ReadAll(p.lines)
			want := "Error: code run failed (timeout): wall-clock ceiling reached (1000ms); the program did not stop within 2s of it and was abandoned\nCaptured output:\nbefore\n"
			if code != exitFailed || string(out) != want {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, p.stderr.String())
			}
		})
	}
}

// A second signal while a first could not end the run exits at once with 128 + its number.
func TestRunSecondSignalExitsAtOnce(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(hangEnv, filepath.Join(dir, "hanging"))
	prog := filepath.Join(dir, "stuck.ts")
	os.WriteFile(prog, []byte(stuckProgram), 0o644)
	p := startCLI(t, "run", "--isolation", "inprocess", "--cpu", "10m", "--timeout", "10m", "--workspace", dir, prog)
	waitForFile(t, filepath.Join(dir, "hanging"), p)
	p.signal(syscall.SIGTERM)
	time.Sleep(stuckGrace / 4)
	start := time.Now()
	p.signal(syscall.SIGINT)
	code := p.wait(stuckGrace)
	if code != 128+int(syscall.SIGINT) || !strings.Contains(p.stderr.String(), "SIGINT again: exiting at once") {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	t.Logf("exited %s after the second signal", time.Since(start))
}

// serve used to wait for a run stuck in one native step forever after a first signal, drain
// or not. Now it gives the aborted runs stuckGrace after --drain-timeout and then exits 1 without
// them, saying so; under process isolation no worker process outlives it.
func TestServeDrainAbandonsStuckRuns(t *testing.T) {
	for _, isolation := range []string{"inprocess", "process"} {
		t.Run(isolation, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv(hangEnv, filepath.Join(dir, "hanging"))
			p := startCLI(t, "serve", "--stdio", "--isolation", isolation, "--workspace", dir, "--cpu", "10m", "--timeout", "10m", "--drain-timeout", "300ms")
			p.initialize()
			p.callRunCode(2, stuckProgram)
			waitForFile(t, filepath.Join(dir, "hanging"), p)
			workers := processesInGroup(t, p.cmd.Process.Pid)
			start := time.Now()
			p.signal(syscall.SIGTERM)
			code := p.wait(30 * time.Second)
			took := time.Since(start)
			if code != exitFailed || !strings.Contains(p.stderr.String(), "1 run(s) did not stop within 2s of the abort and were abandoned") {
				t.Fatalf("exit %d after %s; stderr:\n%s", code, took, p.stderr.String())
			}
			if took < 300*time.Millisecond+stuckGrace {
				t.Errorf("serve exited %s after the signal, before --drain-timeout + stuckGrace", took)
			}
			t.Logf("exited %s after the signal", took)
			for deadline := time.Now().Add(10 * time.Second); len(alive(workers)) > 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("worker processes %v outlived serve by 10s", alive(workers))
				}
			}
		})
	}
}

// processesInGroup returns the processes of process group pgid other than its leader: the
// CLI's workers (startCLI makes the CLI a group leader).
func processesInGroup(t *testing.T, pgid int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == pgid {
			continue
		}
		if g, _, ok := procStat(pid); ok && g == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// alive returns the pids that still name a live process (a zombie has ended).
func alive(pids []int) []int {
	var left []int
	for _, pid := range pids {
		if _, state, ok := procStat(pid); ok && state != "Z" {
			left = append(left, pid)
		}
	}
	return left
}

// procStat returns a process's group and state from /proc/PID/stat.
func procStat(pid int) (pgid int, state string, ok bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", false
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	// pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return 0, "", false
	}
	fields := strings.Fields(line[i+1:])
	if len(fields) < 3 {
		return 0, "", false
	}
	pgid, err = strconv.Atoi(fields[2])
	return pgid, fields[0], err == nil
}
