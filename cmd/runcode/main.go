// Command runcode runs TypeScript programs against tools the way an agent in Code Mode does:
// every program goes through the real run_code path (registry pipeline, dispatch bridge, goja
// runtime), and what it prints is exactly what a model would receive.
//
// Usage:
//
//	runcode run   [SOURCES] [LIMITS] [--json] [--trace FILE] [--replay FILE] [--compact] PROGRAM
//	runcode sdk   [SOURCES] [-o FILE] [--compact]
//	runcode tools [SOURCES] [--json]
//	runcode serve [SOURCES] [LIMITS] (--stdio | --http ADDR) [SERVE FLAGS]
//	runcode trace view FILE [-o FILE.html]
//	runcode version
//
// SOURCES are --tools FILE (a tool manifest), --mcp 'CMD ARG…' (an MCP server over stdio),
// --mcp-url URL (an MCP server over streamable HTTP), all repeatable, and --workspace DIR (the
// built-in workspace file tools); with none, the workspace tools rooted at the current directory
// are used. Programs run under process isolation unless --isolation inprocess is given. Run
// "runcode CMD --help" for the flags of a command.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/runcode-dev/runcode/internal/gcpace"
	"github.com/runcode-dev/runcode/jsruntime"
)

func main() {
	applyGCDefaults(os.Getenv)
	runWorkerIfRequested()
	os.Exit(cliMain(os.Args[1:], nil))
}

// cliMain is the CLI as a process: it watches for signals, runs the command on the process's
// standard streams and returns the exit status. The caller exits with it at once: a run that a
// signal aborted but that did not stop (see stuckGrace) is still in flight, and exiting is
// what ends it. wrapRuntime, when set (by tests only), wraps each runtime a command opens.
func cliMain(args []string, wrapRuntime func(jsruntime.ClosableRuntime) jsruntime.ClosableRuntime) int {
	ctx, stop := watchSignals(context.Background(), os.Stderr, os.Exit)
	defer stop()
	if os.Getenv("GOGC") == "" {
		// In-process runs: large live heaps collect at up to 100 % instead of 400 (gc.go).
		defer gcpace.Start(20 * time.Millisecond).Close()
	}
	c := &cli{ctx: ctx, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, wrapRuntime: wrapRuntime, followMemory: followMemoryFlag}
	return c.main(args)
}

// runWorkerIfRequested serves as a process-isolation worker when this process was started as
// one (and then never returns). A worker ignores SIGINT and SIGTERM: its lifetime is its
// parent's decision, and a terminal's Ctrl-C reaches the whole process group — a worker that
// died of it would turn the parent's orderly abort into a worker crash.
func runWorkerIfRequested() {
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	jsruntime.RunWorkerIfRequested()
	// Not a worker: watchSignals' Notify installs the CLI's handlers over the ignoring.
}

// watchSignals returns a context that the first SIGINT or SIGTERM cancels (a run ends as
// aborted, or is abandoned after stuckGrace; serve drains); a second one makes the CLI exit at
// once through exit, with status 128 + the signal's number (130 for SIGINT, 143 for SIGTERM),
// as a shell reports a process that a signal ended. stop stops watching.
func watchSignals(parent context.Context, stderr io.Writer, exit func(int)) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for first := true; ; first = false {
			select {
			case <-quit:
				return
			case sig := <-signals:
				if first {
					cancel(fmt.Errorf("runcode received %s", signalName(sig)))
					continue
				}
				fmt.Fprintf(stderr, "runcode: %s again: exiting at once\n", signalName(sig))
				exit(signalExitStatus(sig))
				return
			}
		}
	})
	return ctx, func() {
		signal.Stop(signals)
		close(quit)
		wg.Wait()
		cancel(nil)
	}
}

func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// signalExitStatus is 128 + the signal's number.
func signalExitStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// stuckGrace is how long a run aborted by a signal may take to end before the CLI gives up on
// it: the run goes on in one native step the runtime cannot interrupt (or a host function
// that blocks), and only exiting ends it. The normal ways an abort ends take much less: an
// in-process run stops at its next instruction, a process-isolation worker is killed 250ms
// after the abort, and a tool body that ignores cancellation is detached after
// dispatch.DefaultDrainGrace (1s); 2s leaves them a second of margin on a loaded machine, so
// that they end with their output, while staying well inside the time supervisors allow
// between SIGTERM and SIGKILL (docker stop: 10s; Kubernetes: 30s; systemd: 90s). `run` also
// gives up on a run stuckGrace after its wall-clock ceiling (--timeout), which the runtime
// cannot enforce on such a step either.
const stuckGrace = 2 * time.Second

// abandonCloseLimit bounds closing the runtime and the tool sources when a run was abandoned:
// closing waits for runs in flight, and the abandoned one may never end. Whatever is not
// closed by then ends with the process: worker processes and stdio MCP servers see their
// standard input close.
const abandonCloseLimit = 500 * time.Millisecond

// Exit statuses.
const (
	exitOK     = 0 // the program succeeded
	exitFailed = 1 // the program failed
	exitUsage  = 2 // usage, source or configuration error
)

// run is the CLI on the given streams, for in-process tests (main goes through cliMain).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	return c.main(args)
}
