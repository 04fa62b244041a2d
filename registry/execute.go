package registry

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
)

// execution is one call on its way through the pipeline.
type execution struct {
	call  Call
	entry *entry
	token Token
}

// Execute runs one call through the pipeline and returns its result; it never panics and never
// returns a Go error: every failure is a Result with IsError set and a coded Err.
func (r *Registry) Execute(ctx context.Context, call Call) Result {
	exec, res, ok := r.prepare(ctx, call)
	if ok {
		res = r.dispatch(ctx, exec)
	}
	return r.finalize(ctx, exec, res)
}

// prepare creates the execution: it mints a token, checks the arguments are JSON and the caller
// has not cancelled. ok is false when res is already final.
func (r *Registry) prepare(ctx context.Context, call Call) (exec *execution, res Result, ok bool) {
	if call.RootCallID == "" {
		call.RootCallID = call.CallID
	}
	exec = &execution{call: call, token: Token{r.tokens.Add(1)}}
	if !call.Arguments.IsDefined() {
		return exec, errorResult(&Error{Code: CodeInvalidArgs, Name: "ToolArgsError", Message: "tool execution arguments must be losslessly JSON-serializable"}), false
	}
	if ctx.Err() != nil {
		return exec, errorResult(&Error{Code: CodeAbortedBeforeDispatch, Name: "AbortError", Message: "tool call aborted before dispatch", Err: context.Cause(ctx)}), false
	}
	return exec, Result{}, true
}

// dispatch resolves the tool, validates the arguments, runs the body and validates and renders
// its value.
func (r *Registry) dispatch(ctx context.Context, exec *execution) Result {
	e := r.lookup(exec.call.Name)
	if e == nil {
		return errorResult(&Error{Code: CodeUnknownTool, Name: "ToolNotFoundError", Message: fmt.Sprintf("unknown tool %q", exec.call.Name)})
	}
	exec.entry = e
	args := exec.call.Arguments
	if v := e.params.violations(args, "arguments"); len(v) > 0 {
		return errorResult(&Error{Code: CodeInvalidArgs, Name: "ToolArgsError", Message: "invalid arguments: " + strings.Join(v, "; ")})
	}
	value, err := runBody(ctx, e.tool, &Invocation{
		CallID: exec.call.CallID, RootCallID: exec.call.RootCallID, Name: exec.call.Name,
		Arguments: args, Token: exec.token, Parent: exec.call.Parent,
	})
	if err != nil {
		return errorResult(asError(err))
	}
	if !value.IsDefined() {
		return errorResult(&Error{Code: CodeInvalidToolOutput, Name: "ToolOutputError", Message: fmt.Sprintf("tool %q returned invalid output: value is not lossless JSON", exec.call.Name)})
	}
	if v := e.output.violations(value, "value"); len(v) > 0 {
		return errorResult(&Error{Code: CodeInvalidToolOutput, Name: "ToolOutputError", Message: fmt.Sprintf("tool %q returned invalid output: %s", exec.call.Name, strings.Join(v, "; "))})
	}
	content, err := render(e.tool, args, value)
	if err != nil {
		return errorResult(&Error{Message: "output.render failed: " + err.Error(), Err: err})
	}
	return Result{Value: value, Content: content}
}

// runBody calls the tool body, turning a panic into an error.
func runBody(ctx context.Context, t Tool, inv *Invocation) (v jsonv.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Message: fmt.Sprintf("tool %q panicked: %v", t.Name, p), Err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
		}
	}()
	return t.Execute(ctx, inv)
}

func render(t Tool, args, value jsonv.Value) (c []Content, err error) {
	if t.Render == nil {
		return RenderValue(value), nil
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return t.Render(args, value), nil
}

// finalize applies the cancellation rule: a success that arrives after the caller cancelled
// becomes an ABORTED failure.
func (r *Registry) finalize(ctx context.Context, exec *execution, res Result) Result {
	if !res.IsError && ctx.Err() != nil {
		return errorResult(&Error{Code: CodeAborted, Name: "AbortError", Message: "tool call aborted", Err: context.Cause(ctx)})
	}
	return res
}
