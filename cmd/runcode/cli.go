package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/internal/suggest"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
	"github.com/runcode-dev/runcode/toolsets/command"
	"github.com/runcode-dev/runcode/toolsets/workspace"
	"github.com/runcode-dev/runcode/typecheck"
)

const usage = `runcode runs TypeScript programs against tools, the way an agent in Code Mode does.

Usage:
  runcode run   [SOURCES] [LIMITS] [--json] [--trace FILE] [--typecheck] [--compact] PROGRAM   PROGRAM: a .ts/.js file, or - for stdin
  runcode check [SOURCES] PROGRAM                                     typecheck PROGRAM against the tools' SDK (needs tsc)
  runcode init  [SOURCES] [DIR]                                       write DIR/tools.d.ts + DIR/tsconfig.json for editors
  runcode sdk   [SOURCES] [-o FILE] [--compact]                       TypeScript declarations for the tools
  runcode tools [SOURCES] [--json]                                    list the tools
  runcode serve [SOURCES] [LIMITS] (--stdio | --http ADDR) [SERVE FLAGS]   an MCP server whose one tool is run_code
  runcode version

Sources (combine freely; with none, the workspace tools rooted at the current directory):
  --tools FILE      a tool manifest (JSON, or YAML for .yaml/.yml); repeatable
  --mcp 'CMD ARG…'  an MCP server started as a subprocess over stdio; repeatable
  --mcp-url URL     an MCP server over streamable HTTP; repeatable
  --workspace DIR   the built-in workspace file tools rooted at DIR

Limits (run and serve): --timeout, --cpu, --max-output, --max-parallel, --memory, --max-write,
  and --isolation process|inprocess (default process: each program runs in a worker process that
  contains crashes and has a hard memory limit; inprocess is faster, for trusted programs).
  Durations use Go syntax (30s, 500ms, 10m); sizes are plain bytes or KiB/MiB/GiB (64MiB).

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
	fs := newFlagSet(c, "run", "[SOURCES] [LIMITS] [--json] [--trace FILE] [--typecheck] [--compact] PROGRAM")
	var src sources
	src.register(fs)
	lim := limits{timeout: 10 * time.Minute, cpu: 60 * time.Second, maxOutput: 64 << 20, maxParallel: 10, isolation: "process", memory: 512 << 20}
	lim.register(fs)
	asJSON := fs.Bool("json", false, "print the canonical outcome as one JSON object")
	tracePath := fs.String("trace", "", "write the dispatch events to `FILE` as JSON Lines")
	c.registerCompact(fs)
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
	program, err := c.readProgram(positional[0])
	if err != nil {
		return 0, err
	}
	var trace *traceWriter
	if *tracePath != "" {
		f, err := os.Create(*tracePath)
		if err != nil {
			return 0, fmt.Errorf("cannot write trace: %w", err)
		}
		trace = &traceWriter{w: f}
		defer trace.close()
	}
	opened, err := c.codeModeRegistry(&src, lim, trace.event)
	if err != nil {
		return 0, err
	}
	res, ended := c.execute(opened.reg, lim.timeout, registry.Call{
		CallID: "run-1",
		Name:   registry.ReservedName,
		Arguments: jsonv.ObjectValue(
			jsonv.Member{Key: "code", Value: jsonv.StringValue(program)},
			jsonv.Member{Key: "description", Value: jsonv.StringValue("Run " + filepath.Base(positional[0]))},
		),
	})
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

// execute runs call, the run of `runcode run`, and returns its result. Once the first signal
// has cancelled the CLI's context, it waits for the run to end at most stuckGrace; a run that
// has not ended by then is abandoned (ended is false) and res is its abort failure, saying so.
// Likewise a run still going stuckGrace after its wall-clock ceiling (wall) is abandoned as a
// timeout. An abandoned run's output is lost: the runtime returns it only when the run ends.
func (c *cli) execute(reg *registry.Registry, wall time.Duration, call registry.Call) (res registry.Result, ended bool) {
	done := make(chan registry.Result, 1) // the run's goroutine never blocks on it, abandoned or not
	go func() { done <- reg.Execute(c.ctx, call) }()
	ceiling := time.NewTimer(wall + stuckGrace)
	defer ceiling.Stop()
	var f *codemode.RunFailure
	select {
	case res := <-done:
		return res, true
	case <-ceiling.C:
		f = &codemode.RunFailure{Kind: jsruntime.KindTimeout, Message: fmt.Sprintf("wall-clock ceiling reached (%dms); the program did not stop within %v of it", wall.Milliseconds(), stuckGrace)}
	case <-c.ctx.Done():
		grace := time.NewTimer(stuckGrace)
		defer grace.Stop()
		select {
		case res := <-done:
			return res, true
		case <-grace.C:
		}
		f = &codemode.RunFailure{Kind: jsruntime.KindAbort, Message: fmt.Sprintf("%v; the program did not stop within %v", context.Cause(c.ctx), stuckGrace)}
	}
	select {
	case res := <-done: // it ended as the time ran out
		return res, true
	default:
	}
	f.Message += " and was abandoned (its output so far is lost)"
	return registry.ErrorResult(&registry.Error{Code: registry.CodeCodeRunFailed, Name: "CodeRunFailedError", Message: f.Error(), Err: f}), false
}

// canonicalJSON returns the --json outcome: the run's canonical value on success, or
// {"logs":[…],"error":{"kind","message"}} for a failed program. ok is false when the call failed
// before any program ran.
func canonicalJSON(res registry.Result) (jsonv.Value, bool) {
	if !res.IsError {
		return res.Value, true
	}
	var f *codemode.RunFailure
	if !errors.As(res.Err, &f) {
		return jsonv.Value{}, false
	}
	logs := make([]jsonv.Value, len(f.Logs))
	for i, l := range f.Logs {
		logs[i] = jsonv.StringValue(l)
	}
	return jsonv.ObjectValue(
		jsonv.Member{Key: "logs", Value: jsonv.ArrayValue(logs...)},
		jsonv.Member{Key: "error", Value: jsonv.ObjectValue(
			jsonv.Member{Key: "kind", Value: jsonv.StringValue(string(f.Kind))},
			jsonv.Member{Key: "message", Value: jsonv.StringValue(f.Message)},
		)},
	), true
}

func (c *cli) readProgram(path string) (string, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(c.stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read program: %w", err)
	}
	return string(data), nil
}

// traceWriter writes dispatch events as JSON Lines. A nil *traceWriter discards events, and so
// does a closed one.
type traceWriter struct {
	mu       sync.Mutex
	w        io.WriteCloser // nil once closed
	firstErr error
}

func (t *traceWriter) event(e bridge.Event) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w == nil {
		return
	}
	if _, err := t.w.Write(append(jsonv.AppendJSON(nil, e.Value()), '\n')); err != nil && t.firstErr == nil {
		t.firstErr = err
	}
}

// close closes the trace file; later events are discarded. It is idempotent.
func (t *traceWriter) close() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w == nil {
		return
	}
	if err := t.w.Close(); err != nil && t.firstErr == nil {
		t.firstErr = err
	}
	t.w = nil
}

func (t *traceWriter) err() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.firstErr
}

func (c *cli) sdkCmd(args []string) error {
	fs := newFlagSet(c, "sdk", "[SOURCES] [-o FILE] [--compact]")
	var src sources
	src.register(fs)
	out := fs.String("o", "", "write the declarations to `FILE` instead of stdout")
	compact := fs.Bool("compact", false, "print the compact prompt section (tool names, summaries, catalog helpers) instead")
	prompt := fs.Bool("prompt", false, "print exactly the prompt section a model receives about the tools, as serve presents it")
	positional, err := c.parseInterleaved(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(positional) > 0 {
		return &usageError{fmt.Sprintf("sdk takes no arguments, got %q", positional[0])}
	}
	reg, closeSources, err := src.load()
	if err != nil {
		return err
	}
	defer closeSources()
	text := sdkgen.DTS(codemode.SDKTools(reg))
	switch {
	case *compact:
		text = sdkgen.CompactSection(codemode.SDKTools(reg)) + "\n"
	case *prompt:
		text = codemode.PromptSectionFor(reg, codemode.Options{}) + "\n"
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
	reg, closeSources, err := src.load()
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

// stringList is a repeatable string flag.
type stringList []string

// String joins the values with commas.
func (l *stringList) String() string { return strings.Join(*l, ",") }

// Set appends one value.
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// sources are the tool sources of one invocation.
type sources struct {
	manifests stringList
	mcp       stringList // commands, in shell words
	mcpURLs   stringList
	workspace string
	// maxWrite is the workspace tools' write budget per run; zero means the default.
	maxWrite int64
}

// mcpConnectTimeout bounds starting, initializing and listing one MCP server.
const mcpConnectTimeout = 30 * time.Second

func (s *sources) register(fs *flag.FlagSet) {
	fs.Var(&s.manifests, "tools", "a tool manifest `FILE` (JSON, or YAML for .yaml/.yml); repeatable")
	fs.Var(&s.mcp, "mcp", "an MCP server started as `'CMD ARG…'` (shell words) over stdio; repeatable")
	fs.Var(&s.mcpURLs, "mcp-url", "an MCP server over streamable HTTP at `URL`; repeatable")
	fs.StringVar(&s.workspace, "workspace", "", "the built-in workspace file tools rooted at `DIR`")
}

// load builds a registry from the sources; with none given, the workspace of the current
// directory. A tool name defined by two sources is an error naming both. MCP servers are
// connected here and closed by the returned function.
func (s *sources) load() (*registry.Registry, func(), error) {
	type sourced struct {
		label string
		tools []registry.Tool
		live  *liveTools // MCP sources: keeps the registration current
	}
	var all []sourced
	var closers []func() error
	closeAll := func() {
		for _, c := range closers {
			c()
		}
	}
	for _, m := range s.manifests {
		tools, err := command.Load(m)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, sourced{"manifest " + m, tools, nil})
	}
	var mcpSources []mcptools.Source
	for _, line := range s.mcp {
		argv, err := splitWords(line)
		if err != nil {
			closeAll()
			return nil, nil, &usageError{fmt.Sprintf("--mcp %q: %v", line, err)}
		}
		if len(argv) == 0 {
			closeAll()
			return nil, nil, &usageError{"--mcp needs a command"}
		}
		mcpSources = append(mcpSources, mcptools.Source{Command: argv})
	}
	for _, u := range s.mcpURLs {
		mcpSources = append(mcpSources, mcptools.Source{URL: u})
	}
	for _, src := range mcpSources {
		live := &liveTools{}
		src.OnToolsChanged = live.update
		srv, err := connectMCP(src)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		closers = append(closers, srv.Close)
		live.label = fmt.Sprintf("MCP server %q", srv.Name())
		all = append(all, sourced{live.label, srv.Tools(), live})
	}
	if s.workspace != "" || (len(s.manifests) == 0 && len(mcpSources) == 0) {
		dir := s.workspace
		if dir == "" {
			dir = "."
		}
		ws, err := workspace.OpenWith(dir, workspace.Options{MaxWriteBytes: s.maxWrite})
		if err != nil {
			return nil, nil, fmt.Errorf("workspace: %w", err)
		}
		closers = append(closers, ws.Close)
		all = append(all, sourced{"workspace " + ws.Root(), ws.Tools(), nil})
	}
	reg := registry.New()
	owner := map[string]string{}
	for _, src := range all {
		for _, t := range src.tools {
			if prev, dup := owner[t.Name]; dup {
				closeAll()
				return nil, nil, fmt.Errorf("tool %q is defined by both %s and %s", t.Name, prev, src.label)
			}
			owner[t.Name] = src.label
		}
		unregister, err := reg.Register(src.tools...)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("%s: %w", src.label, err)
		}
		if src.live != nil {
			src.live.attach(reg, unregister, src.tools)
		}
	}
	return reg, closeAll, nil
}

// liveTools keeps one MCP server's tools in a registry current for long-lived commands
// (serve): when the server announces a changed tool list, its old registrations are removed and
// the new tools registered. Programs see the new set from their next run; a run that starts
// during the swap may miss the server's tools. An announcement that changes nothing is ignored.
// A change announced before the first registration is missed; failures are logged to stderr and
// leave the server without tools rather than with stale ones.
type liveTools struct {
	mu         sync.Mutex
	label      string
	reg        *registry.Registry
	unregister func()
	current    string // fingerprint of the registered tools
}

func (l *liveTools) attach(reg *registry.Registry, unregister func(), tools []registry.Tool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reg, l.unregister, l.current = reg, unregister, fingerprint(tools)
}

// fingerprint identifies a tool set by what models and programs see of it.
func fingerprint(tools []registry.Tool) string {
	var b strings.Builder
	for _, t := range tools {
		b.WriteString(t.Name + "\x00" + t.Description + "\x00" + t.Parameters.String() + "\x00" + t.Output.Schema.String() + "\x01")
	}
	return b.String()
}

func (l *liveTools) update(tools []registry.Tool, err error) {
	if err != nil {
		slog.Warn("refreshing MCP tools failed", "source", l.label, "error", err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.reg == nil || fingerprint(tools) == l.current {
		return
	}
	l.current = fingerprint(tools)
	l.unregister()
	l.unregister = func() {}
	unregister, err := l.reg.Register(tools...)
	if err != nil {
		slog.Warn("registering refreshed MCP tools failed", "source", l.label, "error", err)
		return
	}
	l.unregister = unregister
}

// connectMCP starts or dials one MCP server, bounded by mcpConnectTimeout.
func connectMCP(src mcptools.Source) (*mcptools.Server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), mcpConnectTimeout)
	defer cancel()
	return mcptools.Connect(ctx, src)
}

// splitWords splits a command line into words the way a POSIX shell does for plain words:
// blanks separate words; 'single quotes' keep everything literally; "double quotes" keep
// everything but a backslash before one of $ ` " \ or a newline; outside quotes a backslash
// keeps the next character. There is no expansion of variables, globs or substitutions.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			inWord = true
			if i+1 == len(s) {
				return nil, errors.New("trailing backslash")
			}
			i++
			if s[i] != '\n' { // backslash-newline is a line continuation
				cur.WriteByte(s[i])
			}
		case c == '\'':
			inWord = true
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			inWord = true
			closed := false
			for i++; i < len(s); i++ {
				if s[i] == '"' {
					closed = true
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
				}
				cur.WriteByte(s[i])
			}
			if !closed {
				return nil, errors.New("unterminated double quote")
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// limits are the run limits.
type limits struct {
	timeout, cpu      time.Duration
	maxOutput, memory byteSize
	maxWrite          byteSize
	maxParallel       int
	isolation         string
	// typecheck: typecheck each program against the SDK before it runs (--typecheck);
	// warmTypecheck (serve) keeps one compiler process for all the runs.
	typecheck, warmTypecheck bool
}

func (l *limits) register(fs *flag.FlagSet) {
	fs.DurationVar(&l.timeout, "timeout", l.timeout, "wall-clock ceiling of the run")
	fs.DurationVar(&l.cpu, "cpu", l.cpu, "busy-time compute budget of the run")
	fs.Var(&l.maxOutput, "max-output", "cap on the combined output (logs plus result), in bytes or KiB/MiB/GiB")
	fs.IntVar(&l.maxParallel, "max-parallel", l.maxParallel, "concurrent concurrency-safe sub-calls")
	fs.StringVar(&l.isolation, "isolation", l.isolation, "process (a worker process with a hard memory limit; contains crashes) or inprocess (for trusted programs: faster, soft memory limit, a Go fatal error ends the host)")
	fs.Var(&l.memory, "memory", "per-run memory limit, in bytes or KiB/MiB/GiB: the worker's OS limit with process isolation, the heap watchdog's limit in-process; a quarter of it is the run's budget for the data its tool calls hold in this process (reads wait their turn beyond it)")
	if l.maxWrite == 0 {
		l.maxWrite = workspace.DefaultMaxWriteBytes
	}
	fs.Var(&l.maxWrite, "max-write", "bytes the workspace tools may write in one run, in bytes or KiB/MiB/GiB")
	fs.BoolVar(&l.typecheck, "typecheck", false, "typecheck each program against the SDK with tsc before it runs; type errors fail the run (kind typecheck) before any tool is called")
}

func (l *limits) validate() error {
	switch {
	case l.timeout <= 0:
		return &flagUsageError{"--timeout must be positive"}
	case l.cpu <= 0:
		return &flagUsageError{"--cpu must be positive"}
	case l.maxOutput < 4:
		return &flagUsageError{"--max-output must be at least 4 bytes"}
	case l.maxParallel < 1:
		return &flagUsageError{"--max-parallel must be a positive integer"}
	case l.memory <= 0:
		return &flagUsageError{"--memory must be positive"}
	case l.maxWrite <= 0:
		return &flagUsageError{"--max-write must be positive"}
	case l.isolation == "process":
		// valid: NewProcessPool takes --memory as each worker's memory limit
	case l.isolation != "inprocess":
		return &flagUsageError{fmt.Sprintf("--isolation must be inprocess or process, got %q", l.isolation) + suggest.Phrase(suggest.Closest(l.isolation, []string{"process", "inprocess"}), func(s string) string { return s })}
	}
	return nil
}

// subCallMemory is each run's budget for the data its tool bodies hold in this process: a
// quarter of --memory. A run holds at most twice that (see package membudget), and under
// process isolation its data in flight to the worker is bounded by half of --memory (the
// pool's MaxInFlightBytes), so this process holds at most --memory of one run's sub-call data.
func (l *limits) subCallMemory() int64 { return int64(l.memory) / 4 }

// runtime opens the runtime the limits describe.
func (l *limits) runtime() (jsruntime.ClosableRuntime, error) {
	rt, err := jsruntime.Open(l.isolation, int64(l.memory), jsruntime.Config{ComputeBudget: l.cpu, WallCeiling: l.timeout, MaxOutputBytes: int(l.maxOutput)})
	if err != nil {
		return nil, &usageError{err.Error()}
	}
	return rt, nil
}

// openRegistry is a Code Mode registry with the runtime and the tool sources it uses, which the
// command closes when it ends.
type openRegistry struct {
	reg          *registry.Registry
	rt           jsruntime.ClosableRuntime
	closeSources func()
	checker      *typecheck.Checker // --typecheck; nil without
}

// close stops the runtime (the worker processes of process isolation), waiting for the runs in
// flight, and then the sources.
func (o *openRegistry) close() {
	o.rt.Close()
	o.closeChecker()
	o.closeSources()
}

// closeChecker ends the --typecheck compiler, if any.
func (o *openRegistry) closeChecker() {
	if o.checker != nil {
		o.checker.Close()
	}
}

// abandon closes the runtime and the sources while a run that did not stop is still in flight:
// both at once, since closing the runtime waits for that run, and for at most limit. The
// caller exits next; what is not closed by then ends with the process.
func (o *openRegistry) abandon(limit time.Duration) {
	done := make(chan struct{}, 2) // the closers never block on it, however late they end
	go func() { o.rt.Close(); done <- struct{}{} }()
	go func() { o.closeChecker(); o.closeSources(); done <- struct{}{} }()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for range 2 {
		select {
		case <-done:
		case <-timer.C:
			return
		}
	}
}

// codeModeRegistry loads the sources, opens the runtime the limits describe, installs run_code
// with the limits' parallelism and presents code, so that run_code is the tool a model (or the
// CLI) calls.
func (c *cli) codeModeRegistry(src *sources, lim limits, events func(bridge.Event)) (*openRegistry, error) {
	src.maxWrite = int64(lim.maxWrite)
	var checker *typecheck.Checker
	if lim.typecheck {
		// Before the sources: without a compiler the command stops (exit 2) with nothing started.
		chk, err := openTypeChecker(lim.warmTypecheck)
		if err != nil {
			return nil, err
		}
		checker = chk
	}
	reg, closeSources, err := src.load()
	if err != nil {
		if checker != nil {
			checker.Close()
		}
		return nil, err
	}
	rt, err := lim.runtime()
	if err != nil {
		if checker != nil {
			checker.Close()
		}
		closeSources()
		return nil, err
	}
	if c.wrapRuntime != nil {
		rt = c.wrapRuntime(rt)
	}
	o := &openRegistry{reg: reg, rt: rt, closeSources: closeSources, checker: checker}
	opts := codemode.Options{Runtime: rt, Events: events, MaxParallelSubCalls: lim.maxParallel, SubCallMemory: lim.subCallMemory(), CompactAbove: c.compactAbove()}
	if checker != nil {
		opts.TypeChecker = checker
	}
	if err := codemode.Install(reg, opts); err != nil {
		o.close()
		return nil, err
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		o.close()
		return nil, err
	}
	return o, nil
}

// byteSize is a size flag: plain bytes or a KiB/MiB/GiB suffix.
type byteSize int64

// String formats the size as a user writes it: 64MiB, or plain bytes.
func (b *byteSize) String() string { return formatSize(int64(*b)) }

// Set parses bytes or a KiB/MiB/GiB size.
func (b *byteSize) Set(s string) error {
	mult := int64(1)
	num := strings.TrimSpace(s)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return fmt.Errorf("invalid size %q (use plain bytes or KiB, MiB or GiB, e.g. 64MiB)", s)
	}
	*b = byteSize(n * mult)
	return nil
}
