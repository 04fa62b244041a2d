package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/internal/readlimit"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/replay"
)

const usage = `runcode runs TypeScript programs against tools, the way an agent in Code Mode does.

Usage:
  runcode run   [SOURCES] [LIMITS] [APPROVALS] [--json] [--trace FILE] [--replay FILE] [--typecheck] [--compact] PROGRAM   PROGRAM: a .ts/.js file, or - for stdin
  runcode check [SOURCES] PROGRAM                                     typecheck PROGRAM against the tools' SDK (needs tsc)
  runcode init  [SOURCES] [DIR]                                       write DIR/tools.d.ts + DIR/tsconfig.json for editors
  runcode sdk   [SOURCES] [-o FILE] [--compact]                       TypeScript declarations for the tools
  runcode tools [SOURCES] [--json]                                    list the tools
  runcode serve [SOURCES] [LIMITS] (--stdio | --http ADDR) [SERVE FLAGS]   an MCP server whose one tool is run_code
  runcode trace view FILE [-o FILE.html]                              the waterfall page of a --trace file
  runcode save  [SOURCES] NAME PROGRAM [--description TEXT] [--programs DIR] [--state DIR]   keep PROGRAM in the program library
  runcode programs [--programs DIR] [--json]                          list the saved programs
  runcode version

Sources (combine freely; with none, the workspace tools rooted at the current directory):
  --tools FILE      a tool manifest (JSON, or YAML for .yaml/.yml); repeatable
  --mcp 'CMD ARG…'  an MCP server started as a subprocess over stdio; repeatable
  --mcp-env NAME    pass the variable NAME (or PREFIX_*, or * for all) to the --mcp before it;
                    servers and commands get a minimal environment (PATH, HOME, locale, …)
  --mcp-url URL     an MCP server over streamable HTTP; repeatable
  --mcp-max-message SIZE  the largest message an MCP server may send (default 64MiB); a larger
                    answer fails its call only
  --workspace DIR   the built-in workspace file tools rooted at DIR

Limits (run and serve): --timeout, --cpu, --max-output, --max-parallel, --memory, --max-write,
  --output-budget (how much of the output the model reads, default 40000 bytes; 0: all of it),
  and --isolation process|inprocess (default process: each program runs in a worker process that
  contains crashes and has a hard memory limit; inprocess is faster, for trusted programs).
  Durations use Go syntax (30s, 500ms, 10m); sizes are plain bytes or KiB/MiB/GiB (64MiB).

Approvals (run and serve): --approve NAME (repeatable; * globs) and --yes approve calls of tools that
  need approval without asking; --no-approvals makes no tool need it. Otherwise run asks on the
  terminal (stdin and stderr) and serve asks the MCP client (elicitation); with no one to ask the
  call is denied at once (ToolCallError, code APPROVAL_DENIED).

State (run and serve): --state DIR keeps the state global's values in DIR between runs;
  --max-state SIZE caps a scope (default 16MiB). serve keeps state in memory per process (stdio)
  or per MCP session (http) without --state; --stateless needs --state DIR for state.

--programs DIR (run, serve, check, sdk, init, save, programs) is the program library (default
.runcode/programs/, used when it exists): programs call a saved one with await programs.NAME(input).

--compact (run and serve) presents the tools compactly, as sdk --compact prints them, so that
programs get the catalog helpers whatever the tool count.

Signals: a first SIGINT/SIGTERM aborts a run (serve: stops starting runs and lets those in
flight finish for up to --drain-timeout, then aborts them); a second one exits at once (status
130 / 143). A run that does not stop within 2s of its abort (stuck in one native step) is
abandoned: run prints the abort and exits 1 (as it does with a timeout for a run still going
2s past --timeout); serve exits 1.

Run "runcode CMD --help" for the flags of a command.
`

// cli holds the streams of one invocation.
type cli struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// wrapRuntime, when set (by tests only), wraps each runtime a command opens.
	wrapRuntime func(jsruntime.ClosableRuntime) jsruntime.ClosableRuntime
	// compact is --compact of run and serve (see registerCompact).
	compact bool
	// replay is run --replay's executor: it answers the sub-calls instead of the tools.
	replay *replay.Executor
	// tracing exports the runs' spans (see openTracing); nil traces nothing.
	tracing *sdktrace.TracerProvider
	// followMemory, when set (by cliMain: the process is runcode's own), is told --memory
	// before the runtime opens, for the process's soft memory limit (see gc.go).
	followMemory func(memory int64)
	// state is --state and --max-state of run and serve; stateMode where state lives without
	// --state (see stateOptions); sessionState, set by codeModeRegistry for serve --http, the
	// store kept per MCP session.
	state        stateFlags
	stateMode    stateMode
	sessionState *codemode.MemoryStore
	// programsDir is --programs DIR ("" for the default library, see library).
	programsDir string
}

// registerCompact registers --compact, which presents the tools compactly (as sdk --compact)
// whatever their number, so that programs get the catalog helpers.
func (c *cli) registerCompact(fs *flag.FlagSet) {
	fs.BoolVar(&c.compact, "compact", false, "present the tools compactly (as sdk --compact), so that programs get the catalog helpers whatever the tool count")
}

// compactAbove is codemode.Options.CompactAbove for --compact: 1 compacts every section (each
// is longer than one byte); 0 leaves the choice to the section's size.
func (c *cli) compactAbove() int {
	if c.compact {
		return 1
	}
	return 0
}

// usageError is a bad command line (exit status 2).
type usageError struct{ msg string }

// Error returns the message.
func (e *usageError) Error() string { return e.msg }

func (c *cli) main(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, usage)
		return exitUsage
	}
	var err error
	code := exitOK
	switch args[0] {
	case "-h", "--help", "-help", "help":
		fmt.Fprint(c.stdout, usage)
		return exitOK
	case "run":
		code, err = c.runCmd(args[1:])
	case "check":
		code, err = c.checkCmd(args[1:])
	case "init":
		err = c.initCmd(args[1:])
	case "sdk":
		err = c.sdkCmd(args[1:])
	case "tools":
		err = c.toolsCmd(args[1:])
	case "serve":
		code, err = c.serveCmd(args[1:])
	case "trace":
		err = c.traceCmd(args[1:])
	case "save":
		code, err = c.saveCmd(args[1:])
	case "programs":
		err = c.programsCmd(args[1:])
	case "version":
		fmt.Fprintln(c.stdout, "runcode", version())
	default:
		err = &usageError{fmt.Sprintf("unknown command %q", args[0])}
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(c.stderr, "runcode:", err)
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(c.stderr, `Run "runcode --help" for usage.`)
		}
		return exitUsage
	}
	return code
}

func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	return v + " " + bi.GoVersion
}

// parseInterleaved parses flags that may come before or after the positional arguments. Asked
// for help, it prints the command's usage on stdout. A bad flag is a one-line usage error (see
// flagError).
func (c *cli) parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(c.stdout)
		}
	}
	var problem string
	checkFlags(fs, &problem)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, explainFlagError(err, fs, problem)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// newFlagSet returns the flag set of command name. Its output is discarded (parse errors
// become one-line usage errors, see flagError) until parseInterleaved sees a request for help,
// which prints the usage on stdout.
func newFlagSet(c *cli, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: runcode %s %s\n\nFlags:\n", name, synopsis)
		printFlags(fs.Output(), fs)
	}
	return fs
}

// flagError turns a flag parse error into a usage error (help stays help; parseInterleaved's
// errors are usage errors already).
func flagError(err error) error {
	var ue *usageError
	var fe *flagUsageError
	if errors.Is(err, flag.ErrHelp) || errors.As(err, &ue) || errors.As(err, &fe) {
		return err
	}
	return &usageError{err.Error()}
}

func (c *cli) runCmd(args []string) (int, error) {
	fs := newFlagSet(c, "run", "[SOURCES] [LIMITS] [APPROVALS] [--json] [--trace FILE] [--replay FILE] [--typecheck] [--compact] PROGRAM")
	var src sources
	src.register(fs)
	lim := defaultLimits()
	lim.register(fs)
	asJSON := fs.Bool("json", false, "print the canonical outcome as one JSON object")
	tracePath := fs.String("trace", "", "write the dispatch events to `FILE` as JSON Lines")
	c.registerState(fs)
	c.registerPrograms(fs)
	replayPath := fs.String("replay", "", "answer the sub-calls from `FILE`, a --trace file of an earlier run, instead of running any tool (without source flags, the tools are the names FILE records)")
	c.registerCompact(fs)
	var appr approvalFlags
	appr.register(fs)
	positional, err := c.parseInterleaved(fs, args)
	if err != nil {
		return 0, flagError(err)
	}
	if len(positional) != 1 {
		return 0, &usageError{"run takes exactly one PROGRAM (a .ts/.js file, or - for stdin)"}
	}
	if err := lim.validate(); err != nil {
		return 0, err
	}
	if err := appr.validate(); err != nil {
		return 0, err
	}
	src.noApprovals = appr.none
	if err := c.state.validate(); err != nil {
		return 0, err
	}
	program, err := c.readProgram(positional[0])
	if err != nil {
		return 0, err
	}
	if *replayPath != "" {
		// Read before the trace is created: the two may be the same file.
		if c.replay, err = loadReplay(*replayPath); err != nil {
			return 0, err
		}
	}
	var trace *traceWriter
	if *tracePath != "" {
		if positional[0] != "-" && sameFile(*tracePath, positional[0]) {
			return 0, &usageError{fmt.Sprintf("--trace %s is the program itself; name another file for the trace", *tracePath)}
		}
		f, err := os.Create(*tracePath)
		if err != nil {
			return 0, fmt.Errorf("cannot write trace: %w", err)
		}
		trace = &traceWriter{w: f}
		defer trace.close()
	}
	if c.tracing, err = openTracing(c.ctx, c.stderr); err != nil {
		return 0, err
	}
	defer flushTracing(c.tracing, c.stderr) // after the runtime has closed: every span has ended
	lim.warm = 1
	opened, err := c.codeModeRegistry(&src, lim, trace.event)
	if err != nil {
		return 0, err
	}
	// Calls that need approval: the flags' standing answers, then a person at the terminal, if
	// there is one. The run is an agent of its own (a scope), which the registry's approval
	// stage requires.
	asker, closeTerminal := c.terminal()
	defer closeTerminal()
	gate, err := appr.gate(asker, runApprovalHint)
	if err != nil {
		opened.close()
		return 0, err
	}
	opened.reg.SetApprover(gate)
	description := "Run " + filepath.Base(positional[0])
	call := codemode.Call("run-1", program, description)
	call.Scope = opened.reg.NewScope("run", nil)
	runStart := time.Now()
	trace.event(bridge.Event{Type: bridge.EventRunStart, RootCallID: "run-1", Program: program, Description: description, Time: runStart})
	// A run stuck in one native step past its ceiling or stuckGrace after the first signal is
	// given up on (ended is false): the CLI exits without it.
	res, ended := codemode.ExecuteOrGiveUp(c.ctx, opened.reg, call,
		codemode.GiveUp{Wall: lim.timeout, Grace: stuckGrace, OutputBudget: lim.modelBudget()})
	outcome, ok := canonicalJSON(res)
	if !ok {
		outcome = codemode.FailureOutcome("internal", res.Err.Message, nil)
	}
	trace.event(bridge.Event{Type: bridge.EventRunEnd, RootCallID: "run-1", Outcome: outcome, Time: time.Now(), Started: runStart})
	if ended {
		defer opened.close()
	} else {
		// The run goes on: close the trace now so that nothing is written to it after the
		// outcome; the caller exits, which ends the run.
		defer opened.abandon(abandonCloseLimit)
		trace.close()
	}
	if err := trace.err(); err != nil {
		fmt.Fprintln(c.stderr, "runcode: writing trace:", err)
	}
	if c.replay != nil && ended {
		if err := c.replay.Check(); err != nil {
			fmt.Fprintln(c.stderr, "runcode:", err)
		}
	}
	if *asJSON {
		out, ok := canonicalJSON(res)
		if !ok {
			fmt.Fprintln(c.stderr, "runcode:", res.Err.Message)
			return exitFailed, nil
		}
		c.stdout.Write(append(jsonv.AppendJSON(nil, out), '\n'))
	} else {
		for _, block := range res.Content {
			if block.Type == "text" {
				fmt.Fprintln(c.stdout, block.Text)
			}
		}
	}
	if res.IsError {
		return exitFailed, nil
	}
	return exitOK, nil
}

// canonicalJSON returns the --json outcome (codemode.CanonicalOutcome): ok is false when the
// call failed before any program ran.
func canonicalJSON(res registry.Result) (jsonv.Value, bool) { return codemode.CanonicalOutcome(res) }

// maxProgramBytes bounds a program's text: far above any program a model writes, far below
// what /dev/zero or a runaway pipe would have runcode hold.
const maxProgramBytes = 16 << 20

func (c *cli) readProgram(path string) (string, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = readlimit.All(c.stdin, "standard input", maxProgramBytes)
	} else {
		data, err = readlimit.File(path, maxProgramBytes)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read program: %w", err)
	}
	return string(data), nil
}

func (c *cli) sdkCmd(args []string) error {
	fs := newFlagSet(c, "sdk", "[SOURCES] [-o FILE] [--compact]")
	var src sources
	src.register(fs)
	out := fs.String("o", "", "write the declarations to `FILE` instead of stdout")
	compact := fs.Bool("compact", false, "print the compact prompt section (tool names, summaries, catalog helpers) instead")
	prompt := fs.Bool("prompt", false, "print exactly the prompt section a model receives about the tools, as serve presents it")
	c.registerStateSDK(fs)
	c.registerPrograms(fs)
	positional, err := c.parseInterleaved(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(positional) > 0 {
		return &usageError{fmt.Sprintf("sdk takes no arguments, got %q", positional[0])}
	}
	reg, closeSources, err := src.load(c.stderr)
	if err != nil {
		return err
	}
	defer closeSources()
	decl, err := c.programsDeclaration()
	if err != nil {
		return err
	}
	text := c.dts(codemode.SDKTools(reg)) + decl
	if lib := c.library(false); lib != nil && (*compact || *prompt) {
		// The prompt sections list the saved programs from the registry, where Code Mode
		// registers them: install it over a runtime that runs nothing.
		rt, err := jsruntime.New(jsruntime.Config{})
		if err != nil {
			return err
		}
		defer rt.Close()
		if _, err := codemode.New(reg, codemode.Options{Runtime: rt, Programs: lib}); err != nil {
			return err
		}
	}
	switch {
	case *compact:
		opts := codemode.Options{CompactAbove: 1}
		if c.state.dir != "" {
			opts.State = codemode.NewMemoryStore(0) // declares state; nothing is stored
		}
		text = codemode.PromptSectionFor(reg, opts) + "\n"
	case *prompt:
		var opts codemode.Options
		if c.state.dir != "" {
			opts.State = codemode.NewMemoryStore(0) // declares state; nothing is stored
		}
		text = codemode.PromptSectionFor(reg, opts) + "\n"
	}
	if *out == "" {
		_, err = io.WriteString(c.stdout, text)
		return err
	}
	return os.WriteFile(*out, []byte(text), 0o644)
}

func (c *cli) toolsCmd(args []string) error {
	fs := newFlagSet(c, "tools", "[SOURCES] [--json]")
	var src sources
	src.register(fs)
	asJSON := fs.Bool("json", false, "print the tools with their full schemas as JSON")
	positional, err := c.parseInterleaved(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(positional) > 0 {
		return &usageError{fmt.Sprintf("tools takes no arguments, got %q", positional[0])}
	}
	reg, closeSources, err := src.load(c.stderr)
	if err != nil {
		return err
	}
	defer closeSources()
	schemas := reg.SDKSchemas(nil)
	if *asJSON {
		items := make([]jsonv.Value, len(schemas))
		for i, s := range schemas {
			ms := []jsonv.Member{
				{Key: "name", Value: jsonv.StringValue(s.Name)},
				{Key: "description", Value: jsonv.StringValue(s.Description)},
				{Key: "parameters", Value: s.Parameters},
			}
			if s.Namespace != "" { // a program calls it as tools.<namespace>.<member>
				ms = slices.Insert(ms, 1, jsonv.Member{Key: "namespace", Value: jsonv.StringValue(s.Namespace)})
			}
			if s.Output.IsDefined() {
				ms = append(ms, jsonv.Member{Key: "output", Value: s.Output})
			}
			items[i] = jsonv.ObjectValue(ms...)
		}
		_, err := c.stdout.Write(append(jsonv.AppendIndent(nil, jsonv.ArrayValue(items...), "  ", -1), '\n'))
		return err
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	for _, s := range schemas {
		desc, _, _ := strings.Cut(strings.TrimSpace(s.Description), "\n")
		fmt.Fprintf(tw, "%s\t%s\n", s.Name, desc)
	}
	return tw.Flush()
}
