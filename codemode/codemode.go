package codemode

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/trace"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/programs"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
)

// DefaultSubCallMemory is Options.SubCallMemory when it is zero: 128 MiB.
const DefaultSubCallMemory = 128 << 20

// NoOutput is the text of a run that printed and returned nothing.
const NoOutput = "(run_code completed with no output)"

// Options configure Code Mode in one registry.
type Options struct {
	// Runtime runs the programs. Required by Install; New starts an in-process runtime with
	// the default jsruntime.Config when it is nil.
	Runtime jsruntime.Runtime
	// Events, if set, receives every dispatch event of every run, in order per run.
	Events func(bridge.Event)
	// Console, if set, receives each console line of every run as the program writes it (the
	// lines the run's output admits, see jsruntime.Request.OnLog), with the call id of its
	// run_code call, before that call returns. It lets a host show a run's output live, or
	// what a run it stopped waiting for had written (runcode run does). It must not block.
	Console func(callID, line string)
	// Executor, if set, runs the programs' sub-calls in place of the registry, which still
	// decides which tools a program sees (a replay.Executor answers them from a recording, for
	// one). Nil means the registry.
	Executor bridge.Executor
	// CompactAbove is the size in bytes of the full SDK prompt section above which
	// PromptSectionFor presents the tools compactly (names and summaries, with the catalog
	// helpers for the rest). Zero means DefaultCompactAbove; negative never compacts.
	CompactAbove int
	// MaxParallelSubCalls is how many concurrency-safe sub-calls of one run may run at once.
	// Zero means the default, 10, the Go zero value standing for the default
	// where the upstream rejects 0; 1 makes every run fully serial; negative is invalid.
	MaxParallelSubCalls int
	// DispatchLog is the dispatch-log waterfall of every run: it shapes the content each
	// code-dispatch event carries (see bridge.LogFunc).
	DispatchLog []bridge.LogFunc
	// DrainGrace is how long a run that has ended (settled, timed out or aborted) waits for
	// its sub-calls still in flight before it detaches them and returns (see "Sub-calls from
	// programs" in docs/architecture.md): a tool body that ignores cancellation delays the end of
	// a run by at most this much. Zero means the default, 1s; negative waits without limit.
	DrainGrace time.Duration
	// SubCallMemory is each run's memory budget for the data its sub-calls hold in this
	// process: tools that can produce large data (the workspace tools, for one) reserve what
	// they are about to read or build before they allocate it (see membudget.Reserve), and
	// hold it until their result has been handed to the program. A reservation that does not
	// fit waits for earlier calls to release theirs (the run's timeout and abort still end the
	// wait); one larger than the whole budget fails the sub-call at once with an error naming
	// both sizes. To keep results in submission order without deadlock, the call next in
	// order is never kept waiting, so a run holds at most twice this much (see package
	// membudget). Zero means DefaultSubCallMemory (128 MiB); negative means no budget.
	SubCallMemory int64
	// TypeChecker, when set, typechecks every program against the SDK declarations of the tools
	// its caller may call (with the catalog helpers when the tools are presented compactly)
	// before the program runs: a program with type errors fails with kind KindTypecheck, one
	// line per error, and calls no tool. nil (the default) checks nothing and starts no
	// compiler. typecheck.Checker implements it.
	TypeChecker TypeChecker
	// OutputBudget is how many bytes of a run's output reach the model: a run whose logs and
	// result take more (as JSON, or as the text the model reads) still succeeds, and what the
	// model receives is shrunk to fit, keeping its shape — the logs cut in their middle, the
	// result's longest strings and arrays first, with markers where something was cut — with a
	// note that says how much was cut and how to get the rest (see FitOutcome). A failure's
	// message and logs are shrunk alike. Zero means DefaultOutputBudget (40,000 bytes);
	// negative turns the budget off. It is no limit on the run: the runtime's output cap
	// (jsruntime.Config.MaxOutputBytes) still fails a run whose output exceeds it.
	OutputBudget int
	// TracerProvider, when set, traces every run: a span per run_code call, a child span per
	// sub-call with the registry's pipeline stages as its events, and the runtime's compile and
	// run (see docs/tracing.md). nil traces nothing and costs nothing per run.
	TracerProvider trace.TracerProvider
	// State, when set, gives programs the state binding (state.get, set, delete, keys), whose
	// values it keeps between runs: a run sees the scope of its context (WithStateScope; "" by
	// default), and the SDK declares state. MemoryStore and DirStore implement it. nil: programs
	// have no state binding.
	State StateStore
	// NoStateMessage is added to the failure of a run that used state when State is nil (the
	// program has no state binding then, so the name is the program's own); empty means
	// DefaultNoStateMessage, which names runcode's --state DIR flag.
	NoStateMessage string
	// RedactStateValues keeps the values of state operations out of the dispatch events (and
	// so out of traces): a state.set's event records its key only, a state.get's settle event
	// no result. Keys are always recorded.
	RedactStateValues bool
	// Programs, when set, is the program library programs call as the programs global: each
	// saved program is registered as the tool "programs.NAME" (ProgramsNamespace), which runs
	// it as a nested run whose sub-calls have that call as their parent, and programs.save
	// proposes saving one (it requires approval: see registry.Tool.RequiresApproval). The
	// library is reloaded before each run when it has changed (CodeMode.ReloadPrograms). nil
	// binds no programs global.
	Programs *programs.Library
	// ProgramCompiler typechecks a program saved with programs.save and emits its declarations
	// (a *typecheck.Checker). nil refuses such saves.
	ProgramCompiler programs.Compiler
}

// TypeChecker typechecks programs against SDK declarations. The implementation is external to
// codemode (typecheck.Checker runs the TypeScript compiler), so that embedders that do not
// typecheck never reach a compiler.
type TypeChecker interface {
	// CheckProgram typechecks program, the text of run_code's code argument in either form
	// (the body of an async function, or a module with `export default <expr>`), against
	// declarations, a .d.ts text. It returns one line per error, "main.ts:LINE:COL: <message>"
	// with the program's own lines, and none when the program typechecks; an error when the
	// check could not be done.
	CheckProgram(ctx context.Context, declarations, program string) ([]string, error)
}

// install installs the run_code tool into reg (see New).
func install(reg *registry.Registry, opts Options) (*codeMode, error) {
	if opts.Runtime == nil {
		return nil, errors.New("codemode: Options.Runtime is required")
	}
	if opts.OutputBudget > 0 && opts.OutputBudget < MinOutputBudget {
		return nil, fmt.Errorf("codemode: Options.OutputBudget must be at least %d bytes, 0 for the default (%d) or negative for none; got %d", MinOutputBudget, DefaultOutputBudget, opts.OutputBudget)
	}
	if opts.MaxParallelSubCalls < 0 {
		return nil, fmt.Errorf("maxParallelSubCalls must be a positive integer, or 0 for the default (%d); got %d", dispatch.DefaultMaxParallel, opts.MaxParallelSubCalls)
	}
	cm := &codeMode{reg: reg, opts: opts}
	reg.OnChange(cm.forgetTools)
	if opts.TracerProvider != nil {
		cm.tracer = opts.TracerProvider.Tracer(TracerName)
		cm.runtimeTracer = opts.TracerProvider.Tracer(RuntimeTracerName)
	}
	if err := cm.loadPrograms(); err != nil {
		return nil, err
	}
	return cm, reg.InstallTransport(registry.Tool{
		Name:        registry.ReservedName,
		Description: toolDescription,
		Parameters:  parameters,
		Output: registry.Output{
			Schema: outputSchema,
			Render: func(_, value jsonv.Value) []registry.Content {
				return []registry.Content{registry.TextContent(RenderText(value))}
			},
		},
		Execute:     cm.execute,
		PresentCall: presentCall,
	})
}

// toolDescription is run_code's description. It keeps the upstream's opening words (DECISIONS
// row 22) and says what run_code is and what reaches the model; how a program calls the tools is
// the SDK section's to say (sdkgen.Section), which an MCP server appends to this text and a
// system prompt carries beside it. The parameters' descriptions say what code and description
// are.
const toolDescription = "Execute a TypeScript program against the available tools. Top-level `await` and `return` work. " +
	"Only what the program logs with `console.log` or returns reaches you (with any images from tool results), " +
	"so print or return just what you need."

var (
	parameters = jsonv.MustParse(`{"type":"object","properties":{` +
		`"code":{"type":"string","description":"The program: the body of an async TypeScript function."},` +
		`"description":{"type":"string","description":"What the program does, in active voice and 5-10 words; shown to the user (e.g. \"Count TODO markers in Go files\", \"Summarize the largest files\", \"Find undocumented exports\")."}},` +
		`"required":["code","description"]}`)
	outputSchema = jsonv.MustParse(`{"type":"object","properties":{"logs":{"type":"array","items":{"type":"string"}},"result":{},"notes":{"type":"array","items":{"type":"string"}}},"required":["logs"],"additionalProperties":false}`)
)

type codeMode struct {
	reg    *registry.Registry
	opts   Options
	tracer trace.Tracer // nil: no tracing
	// runtimeTracer opens the runtime's spans (nil: no tracing).
	runtimeTracer trace.Tracer

	mu sync.Mutex
	// tools are the tools a run sees, per scope, until the registry changes (see toolsFor);
	// generation counts the changes.
	tools      map[*registry.Scope]*scopeTools
	generation uint64

	// progMu guards the saved programs registered from Options.Programs: the library's stamp
	// when they were loaded, and how to unregister them.
	progMu         sync.Mutex
	progStamp      string
	progLoaded     bool
	progUnregister func()
}

// RunFailure is the cause carried by a failed run_code result (its registry.Error has code
// CODE_RUN_FAILED): the failure kind, the runtime's message, the logs captured before it, and
// the runtime's notes on values that lost data crossing to the tools (jsruntime.Result.Notes).
type RunFailure struct {
	Kind    FailureKind
	Message string
	Logs    []string
	Notes   []string
}

// Error returns the failure as the model reads it: "code run failed (<kind>): <message>",
// then the captured output, then the notes, one a line.
func (f *RunFailure) Error() string {
	msg := fmt.Sprintf("code run failed (%s): %s", f.Kind, f.Message)
	if len(f.Logs) > 0 {
		msg += "\nCaptured output:\n" + strings.Join(f.Logs, "\n")
	}
	if len(f.Notes) > 0 {
		msg += "\n" + strings.Join(f.Notes, "\n")
	}
	return msg
}

func (cm *codeMode) execute(ctx context.Context, inv *registry.Invocation) (_ jsonv.Value, err error) {
	ctx, trace := takeRunTrace(ctx)
	ctx, span := cm.startRunSpan(ctx, inv)
	defer span.end(&err)
	if strings.TrimSpace(inv.Arguments.Lookup("description").AsString()) == "" {
		return jsonv.Value{}, &registry.Error{Code: registry.CodeInvalidArgs, Name: "ToolArgsError", Message: "invalid description: expected a non-empty string"}
	}
	cm.reloadPrograms()
	tools, err := cm.toolsFor(inv.Scope)
	if err != nil {
		return jsonv.Value{}, err
	}
	ctx = withProgram(ctx, inv)
	// The saved programs this run calls report their sub-calls to the same trace.
	ctx = withOuterTrace(ctx, trace)
	program := inv.Arguments.Lookup("code").AsString()
	res, f, err := cm.run(ctx, inv, tools, runSpec{
		program: program, events: eventsFunc(cm.opts.Events, trace), onLog: logFunc(cm.opts.Console, inv.CallID, trace),
		typecheck: cm.opts.TypeChecker != nil, span: span,
	})
	if err != nil {
		return jsonv.Value{}, err
	}
	if f != nil {
		return jsonv.Value{}, runFailed(FitFailure(f, cm.opts.OutputBudget, tools.writeTool))
	}
	return FitOutcome(OutcomeValue(res), cm.opts.OutputBudget, tools.writeTool), nil
}

// runSpec is what one run runs and reports to.
type runSpec struct {
	program   string
	events    func(bridge.Event)
	onLog     func(string)
	typecheck bool     // typecheck the program first (Options.TypeChecker)
	span      *runSpan // nil: not traced
}

// run runs spec's program for inv, the call whose sub-calls its SDK calls are, with the tools of
// its scope: the result of a program that ran (with the failures of calls it never awaited
// among its logs), or its failure (it threw, did not typecheck …); an error when it could not
// run at all.
func (cm *codeMode) run(ctx context.Context, inv *registry.Invocation, tools *scopeTools, spec runSpec) (jsruntime.Result, *RunFailure, error) {
	var memory *membudget.Budget
	if cm.opts.SubCallMemory >= 0 {
		memory = membudget.New(cmp.Or(cm.opts.SubCallMemory, DefaultSubCallMemory))
	}
	var executor bridge.Executor = cm.reg
	if cm.opts.Executor != nil {
		executor = cm.opts.Executor
	}
	b, err := dispatch.New(ctx, dispatch.Options{
		Executor: executor, CallID: inv.CallID, RootCallID: inv.RootCallID, Token: inv.Token, Scope: inv.Scope,
		Tools: tools.names, Namespaces: tools.namespaces, Members: tools.members, Events: spec.events, MaxParallel: cm.opts.MaxParallelSubCalls,
		Outer: inv, LogListeners: cm.opts.DispatchLog, DrainGrace: cm.opts.DrainGrace, Memory: memory,
		Tracer: cm.tracer,
	})
	if err != nil {
		return jsruntime.Result{}, nil, err
	}
	spec.span.setBridge(b)
	// Close drains the sub-calls (abandons queued ones, awaits and commits the in-flight ones,
	// emits every settle event) whatever happens to the run, so no sub-call outlives run_code;
	// a body still running after the grace period is detached, so none can hold the run.
	defer b.Close()
	bindings := []jsruntime.Namespace{b.Namespace()}
	if len(tools.programNames) > 0 {
		bindings = append(bindings, positionalPrograms(b.NamespaceOf(sdkgen.ProgramsGlobal, "saved program", tools.programNames, tools.programMembers)))
	}
	if tools.compact() {
		bindings = append(bindings, catalogNamespace(tools.catalog, tools.programs))
	}
	// The state binding only with a store, so that without one the name stays the program's
	// own (a program that uses state anyway is told how to get it: see stateHint).
	var st *stateRun
	if cm.opts.State != nil {
		st = &stateRun{store: cm.opts.State, scope: stateScope(ctx), redact: cm.opts.RedactStateValues, rootID: cmp.Or(inv.RootCallID, inv.CallID), callID: inv.CallID,
			intercept: stateInterceptor(ctx)}
		if spec.events != nil {
			st.emit, st.timed = b.EmitAside, b.Timed()
		}
		// Deferred after b.Close, so it runs first: the state operations settle (and emit)
		// before the bridge ends the run's events.
		defer st.close()
		bindings = append(bindings, st.namespace())
	}
	if spec.typecheck {
		if f := cm.typecheck(ctx, tools.declarations(), spec.program); f != nil {
			return jsruntime.Result{}, f, nil
		}
	}
	req := jsruntime.Request{Program: spec.program, Bindings: bindings, Tracer: cm.runtimeTracer, OnLog: spec.onLog}
	res, err := cm.opts.Runtime.Run(ctx, req)
	if err != nil {
		return jsruntime.Result{}, nil, err
	}
	// Drain now, so that the calls the program left running have settled, and report those
	// that failed unseen (DECISIONS row 8).
	st.close()
	b.Close()
	if res.Error == nil {
		res.Logs = append(res.Logs, unseenLines(b.Unseen())...)
	}
	if res.Error != nil {
		return res, &RunFailure{Kind: res.Error.Kind, Message: cm.stateHint(res.Error.Message), Logs: res.Logs, Notes: res.Notes}, nil
	}
	return res, nil, nil
}

// WithCaller returns ctx marked as a call for caller (an MCP session, a tenant): under process
// isolation, runs that wait for a worker get one fairly across callers
// (jsruntime.WithFairnessKey), so one caller starting run after run cannot keep the others
// waiting.
func WithCaller(ctx context.Context, caller string) context.Context {
	return jsruntime.WithFairnessKey(ctx, caller)
}

// runFailed is the error of a run_code call whose program failed (or did not typecheck).
func runFailed(f *RunFailure) *registry.Error {
	return &registry.Error{Code: registry.CodeCodeRunFailed, Name: "CodeRunFailedError", Message: f.Error(), Err: f}
}

// typecheck checks program against decls, the SDK declarations of its tools, and returns its
// failure, or nil when it typechecks. A check that could not be done fails the run too (kind
// typecheck): the option promises that no unchecked program runs.
func (cm *codeMode) typecheck(ctx context.Context, decls, program string) *RunFailure {
	problems, err := cm.opts.TypeChecker.CheckProgram(ctx, decls, program)
	if err != nil {
		return &RunFailure{Kind: KindTypecheck, Message: "the program could not be typechecked: " + err.Error()}
	}
	if len(problems) == 0 {
		return nil
	}
	return &RunFailure{Kind: KindTypecheck, Message: typecheckMessage(problems, outputCap(cm.opts.Runtime))}
}

// outputCap is the runtime's output limit (jsruntime.Config.MaxOutputBytes), the default when
// the runtime does not say.
func outputCap(rt jsruntime.Runtime) int {
	n := 0
	switch r := rt.(type) {
	case interface{ Config() jsruntime.Config }:
		n = r.Config().MaxOutputBytes
	case interface {
		Config() jsruntime.ProcessConfig
	}:
		n = r.Config().MaxOutputBytes
	}
	if n <= 0 {
		n = jsruntime.DefaultMaxOutputBytes
	}
	return n
}

// typecheckMessage joins problems, one per line, under the same cap as a run's output: the
// JSON of the (empty) logs plus the JSON of the message stay within maxBytes. The errors that
// do not fit are dropped whole and counted on a last line (a first error too long even alone
// is cut to fit), so 20,000 errors cannot print megabytes at a 1 KiB cap.
func typecheckMessage(problems []string, maxBytes int) string {
	msg := strings.Join(problems, "\n")
	budget := maxBytes - 2 // the logs' "[]"
	if jsonv.StringByteLen(msg) <= budget {
		return msg
	}
	// The JSON length of a concatenation is the sum of the parts' without their quotes.
	cost := func(s string) int { return jsonv.StringByteLen(s) - 2 }
	var b strings.Builder
	used := 2 // the message's quotes
	for i, p := range problems {
		rest := fmt.Sprintf("… and %d more type errors (the output is capped at %d bytes)", len(problems)-i, maxBytes)
		line := p
		if i > 0 {
			line = "\n" + p
			rest = "\n" + rest
		}
		if used+cost(line)+1+cost(rest) <= budget { // 1: the newline before the count
			b.WriteString(line)
			used += cost(line)
			continue
		}
		if i == 0 { // the first error alone does not fit: keep what fits of it
			tail := ""
			if len(problems) > 1 {
				tail = fmt.Sprintf("\n… and %d more type errors (the output is capped at %d bytes)", len(problems)-1, maxBytes)
			}
			if 2+cost(tail) < budget {
				return fittingPrefix(p, budget-cost(tail)) + tail
			}
			return fittingPrefix(msg, budget)
		}
		if used+cost(rest) <= budget {
			return b.String() + rest
		}
		return fittingPrefix(b.String()+rest, budget)
	}
	return b.String()
}

// fittingPrefix returns the longest code-point-aligned prefix of s whose JSON string length
// (quotes included) is at most budget.
func fittingPrefix(s string, budget int) string {
	if jsonv.StringByteLen(s) <= budget {
		return s
	}
	lo, hi := 0, len(s) // the answer's length is in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		for mid > lo && !utf8.RuneStart(s[mid]) {
			mid--
		}
		if mid == lo {
			break
		}
		if jsonv.StringByteLen(s[:mid]) <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	return s[:lo]
}

// catalogDeclaration declares the catalog helpers of the compact presentation for a typecheck.
const catalogDeclaration = "\ndeclare const " + sdkgen.CatalogGlobal + `: {
  describe(name: string): Promise<string>;
  search(query: string | { query: string; limit?: number }): Promise<{ name: string; description: string }[]>;
};
`

// Limits of the lines that report failures the program never saw.
const (
	maxUnseenLines   = 10
	maxUnseenMessage = 500 // bytes of one failure's message
)

// unseenLines renders the failures of sub-calls the program never awaited and that settled
// after it returned, as the unhandled rejections they are: "Unhandled rejection: <message>
// (tools.x; the program returned before this call settled)", or "Unhandled rejection: tools.x
// never ran: the program returned before it started" for a call still queued. At most
// maxUnseenLines lines, then one that counts the rest; each message is cut at
// maxUnseenMessage bytes, so the lines stay small beside the output limit they are not
// charged to.
func unseenLines(unseen []dispatch.Unseen) []string {
	var lines []string
	for i, u := range unseen {
		if i == maxUnseenLines {
			lines = append(lines, fmt.Sprintf("Unhandled rejection: %d more calls the program did not await failed", len(unseen)-i))
			break
		}
		if !u.Started {
			lines = append(lines, "Unhandled rejection: "+u.Call+" never ran: the program returned before it started")
			continue
		}
		msg := u.Message
		if len(msg) > maxUnseenMessage {
			msg = strings.ToValidUTF8(msg[:maxUnseenMessage], "") + "…"
		}
		lines = append(lines, "Unhandled rejection: "+msg+" ("+u.Call+"; the program returned before this call settled)")
	}
	return lines
}

// OutcomeValue returns the canonical value of a successful run: {"logs": [...], "result": value},
// without "result" when the program returned nothing, and with "notes": [...] after it when
// values lost data crossing as JSON (jsruntime.Result.Notes).
func OutcomeValue(res jsruntime.Result) jsonv.Value {
	ms := []jsonv.Member{{Key: "logs", Value: logsValue(res.Logs)}}
	if res.Value.IsDefined() {
		ms = append(ms, jsonv.Member{Key: "result", Value: res.Value})
	}
	if len(res.Notes) > 0 {
		ms = append(ms, jsonv.Member{Key: "notes", Value: logsValue(res.Notes)})
	}
	return jsonv.ObjectValue(ms...)
}

// RenderText renders the canonical value of a successful run as the model reads it: the logs,
// one per line, then the result (a string raw, anything else as indented JSON, compacted below
// five levels of nesting), then the notes, one per line; NoOutput when all are empty.
func RenderText(outcome jsonv.Value) string {
	var parts []string
	logs := outcome.Lookup("logs")
	lines := make([]string, logs.Len())
	for i := range lines {
		lines[i] = logs.Index(i).AsString()
	}
	if s := strings.Join(lines, "\n"); s != "" {
		parts = append(parts, s)
	}
	if r, ok := outcome.Get("result"); ok {
		var s string
		if r.Kind() == jsonv.String {
			s = r.AsString()
		} else {
			s = string(jsonv.AppendIndent(nil, r, "  ", 10))
		}
		if s != "" {
			parts = append(parts, s)
		}
	}
	notes := outcome.Lookup("notes")
	for i, n := 0, notes.Len(); i < n; i++ {
		parts = append(parts, notes.Index(i).AsString())
	}
	if len(parts) == 0 {
		return NoOutput
	}
	return strings.Join(parts, "\n")
}

// SDKTools returns the tools a run_code program in reg can call, as sdkgen sees them.
// Saved programs (Options.Programs) are not among them: see SDKDeclarations.
func SDKTools(reg *registry.Registry) []sdkgen.Tool {
	tools, _ := splitPrograms(reg.SDKSchemas(nil))
	return toSDKTools(tools)
}

func toSDKTools(schemas []registry.SDKSchema) []sdkgen.Tool {
	out := make([]sdkgen.Tool, len(schemas))
	for i, s := range schemas {
		out[i] = sdkgen.Tool{Name: s.Name, Namespace: s.Namespace, Description: s.Description, Parameters: s.Parameters, Output: s.Output}
	}
	return out
}

// PromptSection returns the system-prompt section that teaches the model the SDK of reg's tools.
func PromptSection(reg *registry.Registry) string {
	tools, progs := splitPrograms(reg.SDKSchemas(nil))
	return sdkgen.Section(toSDKTools(tools)) + programsBlock(progs.sdk, progs.save, false)
}
