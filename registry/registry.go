// Package registry holds tool definitions and runs every tool call through one execution
// pipeline: argument materialization, cancellation checks, lookup, argument validation against
// the tool's JSON Schema, the body, output validation and rendering. A call made from inside a
// Code Mode program goes through the same Execute as a direct call, tagged with its parent's
// token; the registry knows nothing else about Code Mode except the reserved name run_code.
//
// Execute is staged (prepare → dispatch → finalize) so that policy hooks and an ordered
// scheduler can slot in around the body without rewriting it.
package registry

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/runcode-dev/runcode/jsonv"
)

// ReservedName is the name of the Code Mode transport tool. It cannot be registered as an
// ordinary tool; InstallTransport installs it.
const ReservedName = "run_code"

// Tool defines one tool.
type Tool struct {
	// Name is the unique name the model and programs call the tool by.
	Name string
	// Description tells the model what the tool does.
	Description string
	// Parameters is the JSON Schema of the arguments. Undefined means an open object:
	// {"type":"object"}.
	Parameters jsonv.Value
	// Output is the JSON Schema of the tool's canonical result value. Undefined means any JSON
	// value.
	Output jsonv.Value
	// Execute runs one call whose arguments already passed validation, and returns the
	// canonical JSON result. A returned *Error keeps its Code; any other error is an uncoded
	// tool failure with its message. Execute must honour ctx.
	Execute func(ctx context.Context, inv *Invocation) (jsonv.Value, error)
	// Render turns a successful call's arguments and value into model-facing content.
	// Nil uses RenderValue.
	Render func(args, value jsonv.Value) []Content
	// ConcurrencySafe classifies one call: only true lets it overlap with other calls. Nil
	// means never.
	ConcurrencySafe func(args jsonv.Value) bool
}

// Schema is the model-facing projection of a tool.
type Schema struct {
	Name        string
	Description string
	Parameters  jsonv.Value
	// Output is the canonical value's schema (Undefined when the tool declares none). It is
	// not sent to models as a wire schema; SDK generation uses it.
	Output jsonv.Value
}

// Token identifies one execution. It is opaque; the zero Token means "no parent".
type Token struct{ id uint64 }

// IsZero reports whether t is the zero Token.
func (t Token) IsZero() bool { return t.id == 0 }

// Invocation is what a tool body sees of its call.
type Invocation struct {
	CallID     string
	RootCallID string
	Name       string
	// Arguments are the validated, immutable arguments.
	Arguments jsonv.Value
	// Token identifies this execution; pass it as Call.Parent of calls made on its behalf.
	Token Token
	// Parent is the token of the execution this call was made for (zero for a direct call).
	Parent Token
}

// Call is one request to execute a tool.
type Call struct {
	CallID string
	// RootCallID is the id of the top-level call this one belongs to; empty means CallID.
	RootCallID string
	Name       string
	Arguments  jsonv.Value
	// Parent is the token of the execution that made this call (zero for a model-direct call).
	Parent Token
}

// Result is the outcome of one call. Exactly one of a success (Value set, IsError false) or a
// failure (IsError true, Err set) is described.
type Result struct {
	// Value is the canonical JSON value of a success.
	Value jsonv.Value
	// Content is the model-facing content: the rendered value, or "Error: <message>".
	Content []Content
	IsError bool
	// Err describes a failure; errors.Is(res.Err, CodeX) tests its code.
	Err *Error
}

// Registry holds tools and executes calls. Its zero value is not usable; use New. A Registry is
// safe for concurrent use.
type Registry struct {
	mu        sync.RWMutex
	tools     []*entry
	byName    map[string]*entry
	transport *entry
	tokens    atomic.Uint64
}

type entry struct {
	tool   Tool
	params *compiledSchema
	output *compiledSchema
}

// New returns an empty registry.
func New() *Registry {
	return &Registry{byName: map[string]*entry{}}
}

// Register adds tools. It fails, adding none of them, when a definition is invalid (empty name,
// no Execute, a schema that does not compile), a name is already registered, or a name is
// ReservedName.
func (r *Registry) Register(tools ...Tool) error {
	entries := make([]*entry, 0, len(tools))
	seen := map[string]bool{}
	for _, t := range tools {
		if t.Name == ReservedName {
			return &Error{Code: CodeInvalidDefinition, Message: fmt.Sprintf("tool name %q is reserved for the Code Mode transport and cannot be registered", ReservedName)}
		}
		e, err := newEntry(t)
		if err != nil {
			return err
		}
		if seen[t.Name] {
			return &Error{Code: CodeInvalidDefinition, Message: fmt.Sprintf("tool %q is defined twice", t.Name)}
		}
		seen[t.Name] = true
		entries = append(entries, e)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range entries {
		if _, dup := r.byName[e.tool.Name]; dup {
			return &Error{Code: CodeInvalidDefinition, Message: fmt.Sprintf("tool %q is already registered", e.tool.Name)}
		}
	}
	for _, e := range entries {
		r.tools = append(r.tools, e)
		r.byName[e.tool.Name] = e
	}
	return nil
}

// InstallTransport installs the Code Mode transport, whose name must be ReservedName. It is
// listed after every registered tool. It can be installed once.
func (r *Registry) InstallTransport(t Tool) error {
	if t.Name != ReservedName {
		return &Error{Code: CodeInvalidDefinition, Message: fmt.Sprintf("the transport must be named %q, not %q", ReservedName, t.Name)}
	}
	e, err := newEntry(t)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.transport != nil {
		return &Error{Code: CodeInvalidDefinition, Message: "the Code Mode transport is already installed"}
	}
	r.transport = e
	return nil
}

func newEntry(t Tool) (*entry, error) {
	invalid := func(format string, args ...any) error {
		return &Error{Code: CodeInvalidDefinition, Message: fmt.Sprintf("tool %q: ", t.Name) + fmt.Sprintf(format, args...)}
	}
	if t.Name == "" {
		return nil, &Error{Code: CodeInvalidDefinition, Message: "tool name must not be empty"}
	}
	if t.Execute == nil {
		return nil, invalid("Execute must not be nil")
	}
	params, err := compileSchema(t.Name, "parameters", t.Parameters)
	if err != nil {
		return nil, invalid("%v", err)
	}
	output, err := compileSchema(t.Name, "output", t.Output)
	if err != nil {
		return nil, invalid("%v", err)
	}
	return &entry{tool: t, params: params, output: output}, nil
}

// Get returns the tool named name (the transport included).
func (r *Registry) Get(name string) (Tool, bool) {
	e := r.lookup(name)
	if e == nil {
		return Tool{}, false
	}
	return e.tool, true
}

func (r *Registry) lookup(name string) *entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.transport != nil && name == ReservedName {
		return r.transport
	}
	return r.byName[name]
}

// Schemas returns every visible tool's schema in registration order, the transport last.
func (r *Registry) Schemas() []Schema {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Schema, 0, len(r.tools)+1)
	for _, e := range r.tools {
		out = append(out, e.schema())
	}
	if r.transport != nil {
		out = append(out, r.transport.schema())
	}
	return out
}

// SDKSchemas returns the schemas of the tools a Code Mode program may call: every visible tool
// except the transport, in registration order.
func (r *Registry) SDKSchemas() []Schema {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Schema, 0, len(r.tools))
	for _, e := range r.tools {
		out = append(out, e.schema())
	}
	return out
}

func (e *entry) schema() Schema {
	params := e.tool.Parameters
	if !params.IsDefined() {
		params = jsonv.ObjectValue(jsonv.Member{Key: "type", Value: jsonv.StringValue("object")})
	}
	return Schema{Name: e.tool.Name, Description: e.tool.Description, Parameters: params, Output: e.tool.Output}
}

// ExecutionMode reports whether call may overlap with other calls: "parallel" only when its
// tool's classifier returns true for arguments that pass validation, else "exclusive".
func (r *Registry) ExecutionMode(call Call) Mode {
	e := r.lookup(call.Name)
	if e == nil || e.tool.ConcurrencySafe == nil || !call.Arguments.IsDefined() {
		return Exclusive
	}
	if len(e.params.violations(call.Arguments, "arguments")) > 0 {
		return Exclusive
	}
	safe := false
	func() {
		defer func() { _ = recover() }() // a panicking classifier fails closed
		safe = e.tool.ConcurrencySafe(call.Arguments)
	}()
	if safe {
		return Parallel
	}
	return Exclusive
}

// Mode is a call's execution mode.
type Mode string

// The execution modes.
const (
	Parallel  Mode = "parallel"
	Exclusive Mode = "exclusive"
)

// errorResult builds the failure Result for err.
func errorResult(err *Error) Result {
	return Result{IsError: true, Err: err, Content: []Content{TextContent("Error: " + err.Message)}}
}

// ErrorResult returns the failure Result for err, normalized as the pipeline does.
func ErrorResult(err error) Result {
	if err == nil {
		err = errors.New("unknown failure")
	}
	return errorResult(asError(err))
}
