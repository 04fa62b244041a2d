// Package registry holds tool definitions and runs every tool call through one execution
// pipeline, the same for a model's direct call and for a call a Code Mode program makes:
//
//	reg := registry.New()
//	reg.Register(registry.MustDefine(registry.TypedTool[Args, Weather]{Name: "weather", Description: "…", Execute: weather}))
//	res := reg.Execute(ctx, registry.Call{CallID: "c1", Name: "weather", Arguments: jsonv.MustParse(`{"city":"Oslo"}`)})
//	fmt.Println(registry.TextOf(res.Content), res.Value)
//
// [New] makes a [Registry]; [MustDefine] (or [Define]) turns a [TypedTool] into a [Tool] whose
// schemas are inferred from its Go types; [Registry.Register] adds it; [Registry.Execute] runs a
// [Call] through the pipeline below and returns its [Result]. Code Mode is installed on a
// registry by codemode.New.
//
//  1. create the execution: mint its Token, take the immutable arguments, refuse a caller that
//     has already cancelled (ABORTED_BEFORE_DISPATCH);
//  2. the pre-execute waterfall (OnPreExecute): allow, deny, or ask an Approver;
//  3. guards (Guard, Scope.Guard): any reason denies, nothing can force-allow;
//  4. around-dispatch wrappers (WrapExecute), then the tool's own timeout, then the body: lookup
//     (UNKNOWN_TOOL), argument validation against the tool's JSON Schema (INVALID_ARGS), Execute,
//     output validation (INVALID_TOOL_OUTPUT) and rendering;
//  5. the post-execute waterfall (OnPostExecute): accept, replace content or value, or block; a
//     success whose caller has cancelled by the end of this stage becomes ABORTED;
//  6. the tool's FinalizeContent, exactly once, for every outcome;
//  7. result observers (OnResult), whose failures are contained.
//
// Every failure is a Result with a coded *Error (test codes with errors.Is); Execute never
// panics because of a tool or a hook. The stages are also exposed (Prepare, Prepared.Dispatch,
// Prepared.Finish) so that a scheduler can overlap bodies while running policy in order.
//
// Tools are registered globally or in a Scope (an agent, or a preset standing above agents);
// scoped tools shadow inherited ones, and a scope's restrictions filter what it inherits. The
// registry knows nothing about Code Mode except the parent token a nested call carries, the
// reserved transport name run_code, and each scope's Presentation: whether the transport is
// offered (code, both) and whether direct calls of other tools are refused (code).
//
// Schemas are full JSON Schema (2020-12 and draft-07). A registry checks and compiles each
// distinct schema once, however many tools declare it. A schema inside the upstream subset
// (CheckSubsetSchema) is never compiled: the subset validator checks values against it in
// linear time, so it may nest as deep as any JSON value (jsonv.MaxDepth) and be of any size.
// Any other schema needs the full compiler, whose time grows superlinearly with depth and
// size, and is refused when nested deeper than MaxSchemaDepth or holding more than
// MaxSchemaValues values. Compiler does the same ahead of registration for a loader that
// reports bad definitions itself. CheckSubsetSchema and
// CheckObjectSubsetSchema check that a schema stays inside the smaller subset the upstream Code
// Mode enforces (UNSUPPORTED_SCHEMA otherwise), for schemas that must also work there, and
// ValidateSubsetValue validates a value against such a schema with the upstream's messages.
package registry

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
)

// ReservedName is the name of the Code Mode transport tool. It cannot be registered, shadowed
// or restricted; InstallTransport installs it.
const ReservedName = "run_code"

// Tool defines one tool.
type Tool struct {
	// Name is the unique name the model and programs call the tool by. A namespaced tool's name
	// is QualifiedName(Namespace, member).
	Name string
	// Namespace, when set, groups the tool with others of its source: programs reach it as
	// tools.<Namespace>.<member> and its Name is <Namespace>.<member> (QualifiedName), so that
	// sources with clashing tool names combine without renaming. The registry refuses a
	// namespace that is also a tool name in the same layer (a program's tools.<name> would be
	// both). Empty means a top-level tool, whatever its Name contains.
	Namespace string
	// Description tells the model what the tool does.
	Description string
	// Parameters is the JSON Schema of the arguments (any draft jsonschema/v6 knows; 2020-12
	// by default). Undefined means an open object: {"type":"object"}.
	Parameters jsonv.Value
	// Output declares the canonical result value (required).
	Output Output
	// Execute runs one call whose arguments already passed validation, and returns the
	// canonical JSON result. A returned *Error keeps its Code; any other error is an uncoded
	// tool failure with its message. Execute must honour ctx: the registry waits for it and
	// cannot stop code that ignores cancellation.
	Execute func(ctx context.Context, inv *Invocation) (jsonv.Value, error)
	// Timeout, when positive, bounds one call: the body's context is cancelled after it and the
	// call fails with code TIMEOUT. It is never shown to the model. Negative is invalid.
	Timeout time.Duration
	// ConcurrencySafe classifies one call: only true lets it overlap with other calls. Nil,
	// false, a panic, or arguments that fail validation mean exclusive.
	ConcurrencySafe func(args jsonv.Value) bool
	// FinalizeContent, when set, is called exactly once for every outcome of a call (failures
	// of the pipeline included), just before observers see it; a non-nil return replaces the
	// model-facing content. It must not panic (a panic keeps the content).
	FinalizeContent func(exec Execution, res Result) []Content
	// RequiresApproval sends every call of the tool to the Approver (SetApprover) before it
	// runs, as if the pre-execute waterfall had answered Ask: only an AllowedOnce answer lets
	// it run, and any other answer (or no Approver) denies it with code APPROVAL_DENIED. A
	// pre-execute listener may still deny the call first; it cannot waive the approval.
	RequiresApproval bool
	// PresentCall describes a pending call for a UI; nil (or a nil return) means the generic
	// presentation. It must be pure: it may be called again on replay.
	PresentCall func(args jsonv.Value) *CallView
	// PresentResult describes a completed call for a UI; nil (or a nil return) keeps the
	// pending view and the raw content. It must be pure.
	PresentResult func(args jsonv.Value, res ResultSummary) *ResultView

	// compiled is what Compiler.Compile made of Parameters and Output.Schema; registration
	// reuses it while both are still the values it was made from.
	compiled *compiledTool
}

// compiledTool is a tool's compiled schemas, with the schema values they were compiled from.
type compiledTool struct {
	paramsDoc, outputDoc jsonv.Value
	params, output       *compiledSchema
}

// Output is a tool's declaration of its canonical result value.
type Output struct {
	// Schema is the JSON Schema every successful value must satisfy (required; {} accepts any
	// JSON value).
	Schema jsonv.Value
	// Render turns validated arguments and value into model-facing content (required; use
	// RenderValue for the default rendering).
	Render func(args, value jsonv.Value) []Content
	// PresentationMeta, when set, computes replayable presentation metadata for top-level calls
	// only (calls without a parent); it lands in Result.Meta.
	PresentationMeta func(args, value jsonv.Value) jsonv.Value
}

// AnyOutput declares an unconstrained JSON result rendered with RenderValue.
func AnyOutput() Output {
	return Output{Schema: jsonv.ObjectValue(), Render: RenderValue}
}

// OutputOf declares a result constrained by schema and rendered with RenderValue.
func OutputOf(schema jsonv.Value) Output {
	return Output{Schema: schema, Render: RenderValue}
}

// Schema is the model-facing projection of a tool: what a model's tool list carries. It never
// includes callbacks, timeouts or classifiers.
type Schema struct {
	Name string
	// Namespace is the tool's Namespace ("" for a top-level tool); Member gives the name
	// within it.
	Namespace   string
	Description string
	Parameters  jsonv.Value
}

// QualifiedName is the registry name of the tool member in namespace ("" for a top-level
// tool): "<namespace>.<member>". It is the one naming rule of namespaced tools; sdkgen, the
// bridge and mcptools read the namespace as data and never split names.
func QualifiedName(namespace, member string) string {
	if namespace == "" {
		return member
	}
	return namespace + "." + member
}

// Member returns the name of the tool within its namespace: Name without "<Namespace>.", or
// Name for a top-level tool.
func (s Schema) Member() string { return memberOf(s.Namespace, s.Name) }

// Member returns the name of the tool within its namespace (see Schema.Member).
func (t Tool) Member() string { return memberOf(t.Namespace, t.Name) }

func memberOf(namespace, name string) string {
	if member, ok := strings.CutPrefix(name, namespace+"."); ok && namespace != "" {
		return member
	}
	return name // a top-level tool (or a name that does not follow the rule)
}

// SDKSchema is a tool as an SDK generator sees it: its Schema plus the schema of its canonical
// result value.
type SDKSchema struct {
	Schema
	Output jsonv.Value
}

// Token identifies one execution. It is opaque and only comparable; the zero Token means
// "no parent".
type Token struct{ id uint64 }

// IsZero reports whether t is the zero Token.
func (t Token) IsZero() bool { return t.id == 0 }

// Call is one request to execute a tool.
type Call struct {
	CallID string
	// RootCallID is the id of the top-level call this one belongs to; empty means CallID.
	RootCallID string
	Name       string
	// Arguments are the parsed arguments (Undefined is refused as not JSON).
	Arguments jsonv.Value
	// Scope is the agent the call runs for; nil is the global view.
	Scope *Scope
	// Parent is the token of the execution that made this call (zero for a model-direct call).
	Parent Token

	// checked is the verdict of the argument validation Classify ran, which the body reuses.
	checked argsCheck
}

// argsCheck is one validation of a call's arguments against one tool definition. It is
// comparable and needs no allocation when the arguments are valid, so Call stays comparable and
// classifying a valid call costs nothing beyond the validation.
type argsCheck struct {
	entry      *entry // nil: no verdict
	args       jsonv.Value
	violations *[]string // nil: valid
}

// violationsOf validates args against e's parameters, reusing c when it is a verdict on the same
// arguments and the same definition (a definition's schema never changes: re-registering makes
// a new entry).
func (c argsCheck) violationsOf(e *entry, args jsonv.Value) []string {
	if c.entry != nil && c.entry == e && c.args == args {
		if c.violations == nil {
			return nil
		}
		return *c.violations
	}
	return e.params.violations(args, "")
}

// Execution is one call inside the pipeline, as hooks and observers see it. It is a value:
// a hook cannot change the call's identity or arguments.
type Execution struct {
	CallID     string
	RootCallID string
	Name       string
	Arguments  jsonv.Value
	Scope      *Scope
	// Parent is the token of the execution that made this call (zero for a direct call).
	Parent Token
	// Token identifies this execution; nested calls made on its behalf carry it as Parent.
	Token Token
}

// Mode is a call's execution mode.
type Mode string

// The execution modes.
const (
	Parallel  Mode = "parallel"
	Exclusive Mode = "exclusive"
)

// Registry holds tools and hooks and executes calls. Use New; a Registry is safe for
// concurrent use.
type Registry struct {
	mu        sync.RWMutex
	global    layer
	transport *entry
	approver  Approver
	// presentation is the default Presentation (SetDefaultPresentation); empty means native.
	presentation Presentation

	guards    []*hook[GuardFunc]
	pre       []*hook[PreExecuteFunc]
	wrappers  []*hook[WrapFunc]
	post      []*hook[PostExecuteFunc]
	observers []*hook[ObserverFunc]
	changes   []*hook[func(*Scope)]

	tokens atomic.Uint64

	// schemas holds every distinct schema of the registry's tools, checked and compiled once.
	schemas schemaCache
}

// layer is one registration layer (the global one or a scope's), in registration order.
type layer struct {
	order  []*entry
	byName map[string]*entry
	// namespaces counts the layer's tools per namespace.
	namespaces map[string]int
}

func (l *layer) add(e *entry) {
	if l.byName == nil {
		l.byName = map[string]*entry{}
		l.namespaces = map[string]int{}
	}
	l.order = append(l.order, e)
	l.byName[e.tool.Name] = e
	if ns := e.tool.Namespace; ns != "" {
		l.namespaces[ns]++
	}
}

func (l *layer) remove(e *entry) bool {
	if l.byName[e.tool.Name] != e {
		return false
	}
	delete(l.byName, e.tool.Name)
	if ns := e.tool.Namespace; ns != "" {
		if l.namespaces[ns]--; l.namespaces[ns] == 0 {
			delete(l.namespaces, ns)
		}
	}
	for i, x := range l.order {
		if x == e {
			l.order = append(l.order[:i:i], l.order[i+1:]...)
			break
		}
	}
	return true
}

type entry struct {
	tool   Tool
	params *compiledSchema
	output *compiledSchema
}

// New returns an empty registry.
func New() *Registry { return &Registry{} }

// SetApprover sets the service that answers Ask decisions of the pre-execute waterfall; nil
// removes it (an Ask is then denied).
func (r *Registry) SetApprover(a Approver) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.approver = a
}

// Register adds tools to the global layer and returns the function that removes exactly these
// registrations (a later registration of the same name is not affected). It fails, adding
// none, when a definition is invalid, a name is registered twice in the layer, or a name is
// ReservedName. Errors have code INVALID_DEFINITION; a schema outside the upstream subset and
// beyond MaxSchemaDepth or MaxSchemaValues is invalid too (errors.Is ErrSchemaTooLarge). Each distinct schema is
// checked and compiled once per registry, however many tools declare it.
func (r *Registry) Register(tools ...Tool) (unregister func(), err error) {
	return r.register(context.Background(), nil, tools)
}

// RegisterContext is Register bounded by ctx: it checks ctx before each schema and, once ctx
// is done, fails adding none with an error that wraps ctx.Err() (and has no code). One schema's
// compile is not interruptible; the schema limits bound it to milliseconds.
func (r *Registry) RegisterContext(ctx context.Context, tools ...Tool) (unregister func(), err error) {
	return r.register(ctx, nil, tools)
}

func (r *Registry) register(ctx context.Context, s *Scope, tools []Tool) (func(), error) {
	entries := make([]*entry, 0, len(tools))
	fail := func(err error) (func(), error) {
		for _, e := range entries {
			e.release(&r.schemas)
		}
		return nil, err
	}
	seen := map[string]bool{}
	namespaces := map[string]bool{}
	for _, t := range tools {
		if t.Name == ReservedName {
			return fail(invalidDefinition("tool name %q is reserved for the Code Mode transport and cannot be registered or shadowed", ReservedName))
		}
		e, err := newEntry(ctx, &r.schemas, t)
		if err != nil {
			return fail(err)
		}
		entries = append(entries, e)
		if seen[t.Name] {
			return fail(invalidDefinition("tool %q is defined twice", t.Name))
		}
		seen[t.Name] = true
		if t.Namespace != "" {
			namespaces[t.Namespace] = true
		}
	}
	for _, e := range entries {
		if e.tool.Namespace == "" && namespaces[e.tool.Name] {
			return fail(namespaceClash(e.tool.Name))
		}
	}
	r.mu.Lock()
	l := r.layerOf(s)
	for _, e := range entries {
		if _, dup := l.byName[e.tool.Name]; dup {
			r.mu.Unlock()
			return fail(invalidDefinition("tool %q is already registered in this %s", e.tool.Name, layerName(s)))
		}
		ns := e.tool.Namespace
		if (ns == "" && l.namespaces[e.tool.Name] > 0) || (ns != "" && l.byName[ns] != nil && l.byName[ns].tool.Namespace == "") {
			r.mu.Unlock()
			return fail(namespaceClash(cmp.Or(ns, e.tool.Name)))
		}
	}
	if s != nil { // a scope also sees what it inherits
		for _, v := range r.visibleTools(s) {
			for _, e := range entries {
				if (v.tool.Namespace == "" && e.tool.Namespace == v.tool.Name && s.own.byName[v.tool.Name] == nil) ||
					(e.tool.Namespace == "" && v.tool.Namespace == e.tool.Name) {
					r.mu.Unlock()
					return fail(namespaceClash(cmp.Or(e.tool.Namespace, e.tool.Name)))
				}
			}
		}
	}
	for _, e := range entries {
		l.add(e)
	}
	r.mu.Unlock()
	r.changed(s)
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			removed := false
			for _, e := range entries {
				removed = r.layerOf(s).remove(e) || removed
			}
			r.mu.Unlock()
			for _, e := range entries {
				e.release(&r.schemas)
			}
			if removed {
				r.changed(s)
			}
		})
	}, nil
}

func layerName(s *Scope) string {
	if s == nil {
		return "registry"
	}
	return "scope"
}

// layerOf returns the registration layer of s (nil: global). Callers hold r.mu.
func (r *Registry) layerOf(s *Scope) *layer {
	if s == nil {
		return &r.global
	}
	return &s.own
}

// InstallTransport installs the Code Mode transport, whose name must be ReservedName. It is
// visible in every scope whose presentation (PresentationOf) is not PresentNative, after every
// other tool, and no restriction or scoped registration can hide it. It can be installed once.
func (r *Registry) InstallTransport(t Tool) error {
	if t.Name != ReservedName {
		return invalidDefinition("the transport must be named %q, not %q", ReservedName, t.Name)
	}
	e, err := newEntry(context.Background(), &r.schemas, t)
	if err != nil {
		return err
	}
	r.mu.Lock()
	if r.transport != nil {
		r.mu.Unlock()
		e.release(&r.schemas)
		return invalidDefinition("the Code Mode transport is already installed")
	}
	r.transport = e
	r.mu.Unlock()
	r.changed(nil)
	return nil
}

// namespaceClash is the error of a name that is both a top-level tool and a namespace.
func namespaceClash(name string) *Error {
	return invalidDefinition("%q is both a tool and a namespace: a program's tools.%s cannot be both", name, name)
}

func invalidDefinition(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidDefinition, Name: "ToolDefinitionError", Message: fmt.Sprintf(format, args...)}
}

func newEntry(ctx context.Context, cache *schemaCache, t Tool) (*entry, error) {
	ct, err := compileTool(ctx, cache, t)
	if err != nil {
		return nil, err
	}
	t.compiled = nil // the entry holds the schemas; Get returns the definition as given
	return &entry{tool: t, params: ct.params, output: ct.output}, nil
}

// release gives e's schemas back to the cache they were acquired from.
func (e *entry) release(cache *schemaCache) {
	cache.release(e.params)
	cache.release(e.output)
}

// compileTool checks t and compiles its schemas into cache, reusing what t carries from
// Compiler.Compile while its schema values are unchanged.
func compileTool(ctx context.Context, cache *schemaCache, t Tool) (*compiledTool, error) {
	invalid := func(format string, args ...any) *Error {
		return invalidDefinition("tool %q: %s", t.Name, fmt.Sprintf(format, args...))
	}
	switch {
	case t.Name == "":
		return nil, invalidDefinition("tool name must not be empty")
	case t.Execute == nil:
		return nil, invalid("Execute must not be nil")
	case !t.Output.Schema.IsDefined() || t.Output.Render == nil:
		return nil, invalid("must declare Output{Schema, Render} (registry.AnyOutput() accepts any JSON value)")
	case t.Timeout < 0:
		return nil, invalid("Timeout must not be negative, got %v", t.Timeout)
	case t.Namespace != "" && (!strings.HasPrefix(t.Name, t.Namespace+".") || len(t.Name) == len(t.Namespace)+1):
		return nil, invalid("the name of a tool in namespace %q must be %q followed by the tool's own name (registry.QualifiedName)", t.Namespace, t.Namespace+".")
	}
	if c := t.compiled; c != nil && c.paramsDoc == t.Parameters && c.outputDoc == t.Output.Schema {
		return &compiledTool{paramsDoc: c.paramsDoc, outputDoc: c.outputDoc, params: cache.acquire(c.params), output: cache.acquire(c.output)}, nil
	}
	ct := &compiledTool{paramsDoc: t.Parameters, outputDoc: t.Output.Schema}
	for _, role := range [...]struct {
		name string
		doc  jsonv.Value
		dst  **compiledSchema
	}{{"parameters", t.Parameters, &ct.params}, {"output", t.Output.Schema, &ct.output}} {
		if err := ctx.Err(); err != nil {
			cache.release(ct.params)
			return nil, fmt.Errorf("registering tool %q: %w", t.Name, err)
		}
		if k := role.doc.Kind(); k != jsonv.Undefined && k != jsonv.Object && k != jsonv.Bool {
			cache.release(ct.params)
			return nil, invalid("%s schema must be a JSON object or boolean, got %s", role.name, k)
		}
		s, err := compileSchema(cache, role.doc)
		if err != nil {
			cache.release(ct.params)
			e := invalid("%s schema: %v", role.name, err)
			e.Err = err
			return nil, e
		}
		*role.dst = s
	}
	return ct, nil
}

// Compiler checks and compiles tools ahead of registration, each distinct schema once, for a
// loader that must report a bad definition itself (a manifest naming the file and key, an MCP
// import skipping one tool) without compiling the tool again when it is registered. It keeps
// every schema it compiled while it is reachable: use one per load, not one per process. The
// zero Compiler is ready to use. It is safe for concurrent use.
type Compiler struct {
	schemas schemaCache
}

// NewCompiler returns a Compiler with an empty cache.
func NewCompiler() *Compiler { return &Compiler{} }

// Compile checks t as Register would, ctx bounding it as for RegisterContext, and returns t
// carrying its compiled schemas: registering it in any registry, while its Parameters and
// Output.Schema are the values compiled, compiles neither again.
func (c *Compiler) Compile(ctx context.Context, t Tool) (Tool, error) {
	ct, err := compileTool(ctx, &c.schemas, t)
	if err != nil {
		return Tool{}, err
	}
	t.compiled = ct
	return t, nil
}

// Get returns the tool named name as scope sees it (nil: the global view): a scoped tool
// shadows an inherited one, a restricted-away tool is absent, and the transport is present only
// when the scope's presentation is not native. Other tools are listed whatever the presentation.
func (r *Registry) Get(name string, scope *Scope) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e := r.resolve(name, scope)
	if e == nil {
		return Tool{}, false
	}
	return e.tool, true
}

// resolve finds the entry name resolves to in scope. Callers hold r.mu.
func (r *Registry) resolve(name string, s *Scope) *entry {
	if name == ReservedName {
		if r.presentationOf(s) == PresentNative {
			return nil
		}
		return r.transport
	}
	for ; s != nil; s = s.parent {
		if e := s.own.byName[name]; e != nil {
			return e // a scope's own registrations are exempt from its restrictions
		}
		if !s.allows(name) {
			return nil
		}
	}
	return r.global.byName[name]
}

// visible returns the entries scope sees, in order: inherited tools in their order (a
// shadowing registration takes the shadowed tool's place), then the scope's new names, then
// the transport when the scope's presentation is not native. Callers hold r.mu.
func (r *Registry) visible(s *Scope) []*entry {
	list := r.visibleTools(s)
	if r.transport != nil && r.presentationOf(s) != PresentNative {
		list = append(list, r.transport)
	}
	return list
}

func (r *Registry) visibleTools(s *Scope) []*entry {
	if s == nil {
		return append([]*entry(nil), r.global.order...)
	}
	inherited := r.visibleTools(s.parent)
	out := inherited[:0]
	for _, e := range inherited {
		if own := s.own.byName[e.tool.Name]; own != nil {
			out = append(out, own)
		} else if s.allows(e.tool.Name) {
			out = append(out, e)
		}
	}
	for _, e := range s.own.order {
		if !containsEntry(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func containsEntry(list []*entry, e *entry) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

// Schemas returns the model-facing projection of every tool scope sees (nil: the global view),
// in order, the transport last when the scope's presentation is not native. It lists the other
// tools whatever the presentation; a model's tool list is codemode.WireSchemas. The values are
// immutable.
func (r *Registry) Schemas(scope *Scope) []Schema {
	r.mu.RLock()
	defer r.mu.RUnlock()
	entries := r.visible(scope)
	out := make([]Schema, len(entries))
	for i, e := range entries {
		out[i] = e.schema()
	}
	return out
}

// SDKSchemas returns the tools a Code Mode program running for scope may call, in order: every
// visible tool except the transport, with its output schema.
func (r *Registry) SDKSchemas(scope *Scope) []SDKSchema {
	r.mu.RLock()
	defer r.mu.RUnlock()
	entries := r.visibleTools(scope)
	out := make([]SDKSchema, len(entries))
	for i, e := range entries {
		out[i] = SDKSchema{Schema: e.schema(), Output: e.tool.Output.Schema}
	}
	return out
}

// openObject is the parameter schema of a tool that declares none (an immutable value).
var openObject = jsonv.ObjectValue(jsonv.Member{Key: "type", Value: jsonv.StringValue("object")})

func (e *entry) schema() Schema {
	params := e.tool.Parameters
	if !params.IsDefined() {
		params = openObject
	}
	return Schema{Name: e.tool.Name, Namespace: e.tool.Namespace, Description: e.tool.Description, Parameters: params}
}

// ExecutionMode classifies call: Parallel only when the tool call.Scope resolves has a
// classifier that returns true for arguments that pass validation; otherwise Exclusive
// (unknown, restricted-away, unclassified, panicking, invalid, or a direct call the scope's
// PresentCode presentation refuses).
func (r *Registry) ExecutionMode(call Call) Mode {
	mode, _ := r.Classify(call)
	return mode
}

// Classify is ExecutionMode for a scheduler that goes on to Prepare the call: it also returns
// the call to prepare, which carries the verdict of the argument validation, so that the body
// does not validate the same arguments against the same definition a second time.
func (r *Registry) Classify(call Call) (Mode, Call) {
	r.mu.RLock()
	e := r.resolve(call.Name, call.Scope)
	collapsed := r.collapses(call)
	r.mu.RUnlock()
	if e == nil || collapsed || e.tool.ConcurrencySafe == nil || !call.Arguments.IsDefined() {
		return Exclusive, call
	}
	violations := call.checked.violationsOf(e, call.Arguments)
	call.checked = argsCheck{entry: e, args: call.Arguments}
	if len(violations) > 0 {
		v := violations // a copy, so that only an invalid call's verdict is on the heap
		call.checked.violations = &v
		return Exclusive, call
	}
	safe := false
	func() {
		defer func() { _ = recover() }() // a panicking classifier fails closed
		safe = e.tool.ConcurrencySafe(call.Arguments)
	}()
	if safe {
		return Parallel, call
	}
	return Exclusive, call
}

// OnChange registers fn to be called after the tools visible somewhere changed: a registration,
// an unregistration, a restriction or its removal, the transport's installation, a presentation
// declared or removed (PresentAs) or a new default (SetDefaultPresentation). scope is the layer
// that changed (nil: global). fn runs synchronously; a panic in it is contained. The
// returned function removes fn.
func (r *Registry) OnChange(fn func(scope *Scope)) (remove func()) {
	return addHook(r, &r.changes, fn)
}

func (r *Registry) changed(s *Scope) {
	r.mu.RLock()
	hooks := snapshot(r.changes)
	r.mu.RUnlock()
	for _, h := range hooks {
		func() {
			defer func() { _ = recover() }()
			h(s)
		}()
	}
}
