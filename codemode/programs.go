package codemode

// Saved programs: the programs global over a program library (Options.Programs).

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/programs"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
)

// ProgramsNamespace is the registry namespace of the tools through which programs call saved
// programs: the saved program NAME is the tool "programs.NAME", and programs.save the tool
// "programs.save". Programs reach them as the programs global, not as tools.programs; approvals
// (an --approve pattern such as "programs.*"), traces and hooks see them by these names.
const ProgramsNamespace = sdkgen.ProgramsGlobal

// MaxProgramDepth is how deep saved programs may call saved programs: a run's program calls one
// (depth 1), which calls another (2), … A call past it fails without running, so a program that
// calls itself ends at once.
const MaxProgramDepth = 4

// Output-schema keywords that mark the registry tools of saved programs, so that the SDK
// declares them in the programs global (with the compiler's declarations the keyword holds)
// rather than as tools. JSON Schema ignores keywords it does not know.
const (
	programKeyword = "x-runcode-program"
	saveKeyword    = "x-runcode-programs-save"
)

// savedPrograms are the saved programs among a scope's SDK schemas.
type savedPrograms struct {
	names, members []string // registry names and names in the programs global, programs.save included
	sdk            []sdkgen.Program
	save           bool // programs.save is bound
}

// splitPrograms separates the saved programs (the tools Options.Programs registers) from the
// other tools.
func splitPrograms(schemas []registry.SDKSchema) ([]registry.SDKSchema, savedPrograms) {
	var progs savedPrograms
	tools := schemas[:0:0]
	for _, s := range schemas {
		if s.Namespace != ProgramsNamespace || s.Output.Kind() != jsonv.Object {
			tools = append(tools, s)
			continue
		}
		if m, ok := s.Output.Get(programKeyword); ok {
			progs.names = append(progs.names, s.Name)
			progs.members = append(progs.members, s.Schema.Member())
			progs.sdk = append(progs.sdk, sdkgen.Program{Name: s.Schema.Member(), Description: s.Description, Declarations: m.Lookup("declarations").AsString()})
			continue
		}
		if _, ok := s.Output.Get(saveKeyword); ok {
			progs.names = append(progs.names, s.Name)
			progs.members = append(progs.members, "save")
			progs.save = true
			continue
		}
		tools = append(tools, s)
	}
	return tools, progs
}

// SDKDeclarations returns the .d.ts of everything a program in reg may call for scope (nil: the
// global view): the tools (sdkgen.DTS), then the programs global when saved programs are
// installed (Options.Programs).
func SDKDeclarations(reg *registry.Registry, scope *registry.Scope) string {
	tools, progs := splitPrograms(reg.SDKSchemas(scope))
	return sdkgen.DTS(toSDKTools(tools)) + sdkgen.ProgramsDeclaration(progs.sdk, progs.save)
}

// programsBlock is the prompt text about the saved programs: their declarations, or under the
// compact presentation their call paths and summaries; "" when there are none.
func programsBlock(progs []sdkgen.Program, save, compact bool) string {
	if len(progs) == 0 && !save {
		return ""
	}
	if compact {
		text := "\n\nSaved programs (`await programs.NAME(input)` runs one and resolves its result; `catalog.describe(\"programs.NAME\")` gives its types):\n" + sdkgen.ProgramsSummary(progs)
		if save {
			text += "- programs.save(name, source, description?): propose saving a module-form program (needs approval)\n"
		}
		return strings.TrimRight(text, "\n")
	}
	return "\n\nSaved programs: `await programs.NAME(input)` runs one as a program of its own and resolves its result.\n```ts\n" + sdkgen.ProgramsDeclaration(progs, save) + "```"
}

// catalogEntries are what catalog.search looks in: the tools, then each saved program under
// its call path.
func catalogEntries(tools []sdkgen.Tool, progs []sdkgen.Program) []sdkgen.Tool {
	if len(progs) == 0 {
		return tools
	}
	out := append(tools[:len(tools):len(tools)], make([]sdkgen.Tool, 0, len(progs))...)
	for _, p := range progs {
		out = append(out, sdkgen.Tool{Name: sdkgen.ProgramPath(p.Name), Description: p.Description})
	}
	return out
}

// describeProgram answers catalog.describe for a saved program's path (programs.x,
// programs["x"] or "programs.x" as search lists it).
func describeProgram(progs []sdkgen.Program, args jsonv.Value) (string, bool) {
	if args.Kind() != jsonv.String {
		return "", false
	}
	name := args.AsString()
	for _, p := range progs {
		if name == sdkgen.ProgramPath(p.Name) || name == ProgramsNamespace+"."+p.Name {
			return sdkgen.ProgramsDeclaration([]sdkgen.Program{p}, false), true
		}
	}
	return "", false
}

// loadPrograms registers the library's programs (and programs.save) as registry tools, replacing
// those registered before, when the library changed since the last load (its Stamp). A library
// that cannot be read keeps the programs registered before (the error is returned).
func (cm *codeMode) loadPrograms() error {
	if cm.opts.Programs == nil {
		return nil
	}
	cm.progMu.Lock()
	defer cm.progMu.Unlock()
	return cm.loadProgramsLocked()
}

// loadProgramsLocked is loadPrograms with progMu held.
func (cm *codeMode) loadProgramsLocked() error {
	lib := cm.opts.Programs
	stamp := lib.Stamp()
	if cm.progLoaded && stamp == cm.progStamp {
		return nil
	}
	list, err := lib.List()
	if err != nil {
		return err
	}
	tools := []registry.Tool{cm.saveTool()}
	for _, p := range list {
		tools = append(tools, cm.programTool(p))
	}
	if cm.progUnregister != nil {
		cm.progUnregister()
		cm.progUnregister = nil
	}
	unregister, err := cm.reg.Register(tools...)
	if err != nil {
		return fmt.Errorf("codemode: registering the saved programs of %s: %w", lib.Dir(), err)
	}
	cm.progUnregister, cm.progStamp, cm.progLoaded = unregister, stamp, true
	return nil
}

// reloadPrograms is loadPrograms for a run: a library that cannot be read is logged, and the
// run sees the programs loaded before.
//
// A run never waits for another load: while one is in progress (registering the programs calls
// the registry's change listeners, such as a server telling its clients), the run goes on with
// the programs registered so far.
func (cm *codeMode) reloadPrograms() {
	if cm.opts.Programs == nil || !cm.progMu.TryLock() {
		return
	}
	defer cm.progMu.Unlock()
	if err := cm.loadProgramsLocked(); err != nil {
		slog.Warn("codemode: the program library could not be reloaded", "err", err)
	}
}

// ReloadPrograms loads the program library again when it has changed (Options.Programs): a host
// that serves long (runcode serve) polls it, so that the run_code description follows the
// library. A run reloads it too, before it starts. It does nothing without a library.
func (c *CodeMode) ReloadPrograms() error {
	if c.cm == nil {
		return nil
	}
	return c.cm.loadPrograms()
}

var (
	noInputSchema = jsonv.MustParse(`{"type":"object","maxProperties":0}`)
	saveSchema    = jsonv.MustParse(`{"type":"object","properties":{` +
		`"name":{"type":"string","description":"The program's name: letters, digits, _, $ and -."},` +
		`"source":{"type":"string","description":"The program, in the module form: its result is export default <expr>; it may export an Input type, read as the global input."},` +
		`"description":{"type":"string","description":"What the program does."}},` +
		`"required":["name","source"],"additionalProperties":false}`)
)

// programTool is the registry tool through which programs call p.
func (cm *codeMode) programTool(p programs.Program) registry.Tool {
	params := noInputSchema
	if p.HasInput {
		params = jsonv.ObjectValue() // any JSON value: the compiler checks it against Input
	}
	marker := jsonv.ObjectValue(jsonv.Member{Key: programKeyword, Value: jsonv.ObjectValue(
		jsonv.Member{Key: "declarations", Value: jsonv.StringValue(p.Declarations)})})
	return registry.Tool{
		Name: registry.QualifiedName(ProgramsNamespace, p.Name), Namespace: ProgramsNamespace,
		Description: p.Description, Parameters: params,
		Output: registry.Output{Schema: marker, Render: registry.RenderValue},
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return cm.runSaved(ctx, inv, p)
		},
	}
}

// saveTool is programs.save: it needs approval like any write.
func (cm *codeMode) saveTool() registry.Tool {
	return registry.Tool{
		Name: registry.QualifiedName(ProgramsNamespace, "save"), Namespace: ProgramsNamespace,
		Description: "Propose saving a program in the program library; the host asks for approval, then typechecks and saves it.",
		Parameters:  saveSchema, RequiresApproval: true,
		Output:  registry.Output{Schema: jsonv.ObjectValue(jsonv.Member{Key: saveKeyword, Value: jsonv.BoolValue(true)}), Render: registry.RenderValue},
		Execute: cm.saveFromProgram,
	}
}

type depthKey struct{}

type outerTraceKey struct{}

// withOuterTrace returns ctx carrying t, the trace of the run whose saved programs report their
// sub-calls to it too.
func withOuterTrace(ctx context.Context, t *RunTrace) context.Context {
	if t == nil {
		return ctx
	}
	return context.WithValue(ctx, outerTraceKey{}, t)
}

// runSaved runs the saved program p for inv, a programs.NAME sub-call: a nested run whose
// sub-calls have inv as their parent. It fails before anything runs when p calls a tool or a
// program that inv's scope lacks, or when programs nest deeper than MaxProgramDepth.
func (cm *codeMode) runSaved(ctx context.Context, inv *registry.Invocation, p programs.Program) (jsonv.Value, error) {
	path := sdkgen.ProgramPath(p.Name)
	depth, _ := ctx.Value(depthKey{}).(int)
	if depth >= MaxProgramDepth {
		return jsonv.Value{}, fmt.Errorf("%s not run: saved programs nest at most %d deep", path, MaxProgramDepth)
	}
	tools, err := cm.toolsFor(inv.Scope)
	if err != nil {
		return jsonv.Value{}, err
	}
	for _, t := range p.Tools {
		if !tools.visible[t] {
			return jsonv.Value{}, &registry.Error{Code: registry.CodeUnknownTool, Name: "ToolCallError", Message: fmt.Sprintf(
				"%s not run: it calls the tool %s (%q), which is not available here; it was saved with it", path, toolPathOf(t), t)}
		}
	}
	for _, q := range p.Programs {
		if !tools.visible[registry.QualifiedName(ProgramsNamespace, q)] {
			return jsonv.Value{}, &registry.Error{Code: registry.CodeUnknownTool, Name: "ToolCallError", Message: fmt.Sprintf(
				"%s not run: it calls the saved program %s, which is not available here", path, sdkgen.ProgramPath(q))}
		}
	}
	input := inv.Arguments
	if p.HasInput && cm.opts.TypeChecker != nil {
		decls := sdkgen.DTS(tools.sdkTools()) + sdkgen.ProgramsDeclaration([]sdkgen.Program{p.SDK()}, false)
		check := "const __runcodeInput: " + sdkgen.ProgramsTypes + ".p0.Input = " + string(jsonv.AppendJSON(nil, input)) + ";\nexport {};\n"
		problems, err := cm.opts.TypeChecker.CheckProgram(ctx, decls, check)
		if err != nil {
			return jsonv.Value{}, fmt.Errorf("%s not run: its input could not be typechecked: %w", path, err)
		}
		if len(problems) > 0 {
			return jsonv.Value{}, &registry.Error{Code: registry.CodeInvalidArgs, Name: "ToolArgsError", Message: fmt.Sprintf(
				"invalid input for %s (its Input type): %s", path, strings.Join(problems, "; "))}
		}
	}
	// The input is the global the program reads, declared on its first line so that its lines
	// keep their numbers.
	program := "const " + programs.InputVar + " = " + string(jsonv.AppendJSON(nil, input)) + ";" + p.Source
	outer, _ := ctx.Value(outerTraceKey{}).(*RunTrace)
	ctx = jsruntime.WithNestedRun(context.WithValue(ctx, depthKey{}, depth+1))
	res, f, err := cm.run(ctx, inv, tools, runSpec{program: program, events: eventsFunc(cm.opts.Events, outer)})
	if err != nil {
		return jsonv.Value{}, err
	}
	if f != nil {
		return jsonv.Value{}, &registry.Error{Code: registry.CodeCodeRunFailed, Name: "CodeRunFailedError", Message: path + " failed: " + f.Error(), Err: f}
	}
	if !res.Value.IsDefined() {
		return jsonv.NullValue(), nil
	}
	return res.Value, nil
}

// toolPathOf is how a program names the registry tool name: tools.x, or tools.ns.member for a
// namespaced one (the registry's QualifiedName).
func toolPathOf(name string) string {
	if ns, _, ok := strings.Cut(name, "."); ok {
		return bridge.ToolPath(ns, name)
	}
	return bridge.CallPath(name)
}

// saveFromProgram is programs.save's body, reached once the call was approved: it typechecks
// the program against the tools of the caller's scope and the programs saved, and saves it.
func (cm *codeMode) saveFromProgram(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
	if cm.opts.ProgramCompiler == nil {
		return jsonv.Value{}, fmt.Errorf("programs.save: this host cannot typecheck programs, so it saves none (no TypeScript compiler)")
	}
	args := inv.Arguments
	tools, err := cm.toolsFor(inv.Scope)
	if err != nil {
		return jsonv.Value{}, err
	}
	saved, err := cm.opts.Programs.List()
	if err != nil {
		return jsonv.Value{}, err
	}
	sdk := programs.SDK{Tools: tools.sdkTools(), Programs: saved}
	if cm.opts.State != nil {
		sdk.Globals = "\n" + sdkgen.StateDeclaration + "\n"
	}
	p, err := programs.Prepare(ctx, cm.opts.ProgramCompiler, sdk,
		args.Lookup("name").AsString(), args.Lookup("source").AsString(), args.Lookup("description").AsString())
	if err != nil {
		return jsonv.Value{}, fmt.Errorf("programs.save: %w", err)
	}
	if err := cm.opts.Programs.Put(p); err != nil {
		return jsonv.Value{}, fmt.Errorf("programs.save: %w", err)
	}
	// Registered now, so that the next run (not this one: its bindings are made) can call it.
	if err := cm.loadPrograms(); err != nil {
		slog.Warn("codemode: the program library could not be reloaded", "err", err)
	}
	names := make([]jsonv.Value, len(p.Tools))
	for i, t := range p.Tools {
		names[i] = jsonv.StringValue(t)
	}
	return jsonv.ObjectValue(jsonv.Member{Key: "name", Value: jsonv.StringValue(p.Name)}, jsonv.Member{Key: "tools", Value: jsonv.ArrayValue(names...)}), nil
}

// positionalPrograms makes the programs global take its arguments as written: programs.NAME(input)
// passes input ({} when absent, as for tools), and programs.save(name, source, description)
// passes {name, source, description} to the registry tool programs.save (a single object
// argument is passed as it is).
func positionalPrograms(ns jsruntime.Namespace) jsruntime.Namespace {
	ns.Positional = true
	for i, f := range ns.Functions {
		call, save := f.Call, f.Name == "save"
		ns.Functions[i].Call = func(run context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
			call(run, programArguments(args, save), settle)
		}
	}
	return ns
}

// programArguments turns the JSON array of a call's arguments into the arguments of the registry
// tool: the first argument, or {} when it is absent or null; for save, the object of its three
// positional arguments (a description that is absent or null is left out).
func programArguments(args jsonv.Value, save bool) jsonv.Value {
	if args.Kind() != jsonv.Array {
		return args // a conversion failure: the bridge reports it
	}
	first := jsonv.ObjectValue()
	if args.Len() > 0 && args.Index(0).Kind() != jsonv.Null {
		first = args.Index(0)
	}
	if !save || first.Kind() == jsonv.Object {
		return first
	}
	ms := []jsonv.Member{{Key: "name", Value: first}}
	if args.Len() > 1 {
		ms = append(ms, jsonv.Member{Key: "source", Value: args.Index(1)})
	}
	if args.Len() > 2 && args.Index(2).Kind() != jsonv.Null {
		ms = append(ms, jsonv.Member{Key: "description", Value: args.Index(2)})
	}
	return jsonv.ObjectValue(ms...)
}
