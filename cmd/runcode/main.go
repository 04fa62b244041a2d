// Command runcode runs TypeScript programs against tools the way an agent in Code Mode does:
// every program goes through the real run_code path (registry pipeline, dispatch bridge, goja
// runtime), and what it prints is exactly what a model would receive.
//
// Usage:
//
//	runcode run   [SOURCES] [LIMITS] [--json] [--trace FILE] PROGRAM
//	runcode sdk   [SOURCES] [-o FILE] [--compact]
//	runcode tools [SOURCES] [--json]
//	runcode serve [SOURCES] [LIMITS] (--stdio | --http ADDR)
//	runcode version
//
// SOURCES are --tools FILE (a tool manifest), --mcp 'CMD ARG…' (an MCP server over stdio),
// --mcp-url URL (an MCP server over streamable HTTP), all repeatable, and --workspace DIR (the
// built-in workspace file tools); with none, the workspace tools rooted at the current directory
// are used. Run "runcode CMD --help" for the flags of a command.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/runcode-dev/runcode/jsruntime"
)

func main() {
	jsruntime.RunWorkerIfRequested()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses.
const (
	exitOK     = 0 // the program succeeded
	exitFailed = 1 // the program failed
	exitUsage  = 2 // usage, source or configuration error
)

// run is the whole CLI behind main, testable in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	return c.main(args)
}
