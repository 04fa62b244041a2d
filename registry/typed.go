package registry

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
)

// TypedTool defines a tool with Go types for its input and output. Define turns it into a Tool
// whose schemas are inferred from In and Out (see InferSchema for the rules and the struct tags
// that refine them).
type TypedTool[In, Out any] struct {
	// Name is the unique name the model and programs call the tool by.
	Name string
	// Description tells the model what the tool does.
	Description string
	// Execute runs one call with its arguments decoded into In (required). A returned *Error
	// keeps its Code; any other error is an uncoded tool failure. It must honour ctx.
	Execute func(ctx context.Context, inv *Invocation, in In) (Out, error)
	// Render turns the input and the output into model-facing content (optional; nil renders
	// the JSON value with RenderValue). It receives both decoded from the validated JSON (so a
	// value replaced by a post-execute listener is what it renders); when either fails to decode
	// (an Out that JSON cannot decode into, such as a non-empty interface), RenderValue is used.
	Render func(in In, out Out) []Content
	// ConcurrencySafe classifies one call (optional): only true lets it overlap with other
	// calls. Arguments that fail validation or decoding are exclusive.
	ConcurrencySafe func(in In) bool
	// Timeout, when positive, bounds one call (see Tool.Timeout).
	Timeout time.Duration
	// PresentCall describes a pending call for a UI (optional; see Tool.PresentCall). It is not
	// called for arguments that do not decode.
	PresentCall func(in In) *CallView
	// PresentResult describes a completed call for a UI (optional; see Tool.PresentResult). It
	// is not called for arguments that do not decode.
	PresentResult func(in In, res ResultSummary) *ResultView
}

// Define builds a registry Tool from t.
//
// In must be a struct or a pointer to one (that does not marshal itself): Parameters is the
// object schema InferSchema infers for the struct, except that a slice or map field must be
// sent as an array or object (null, which would decode to nil, is refused; unless the field is
// tagged runcode:"nullable") and a field promoted through an embedded pointer to an unexported
// struct, which encoding/json cannot decode, is an error.
//
// Output.Schema is InferSchema of Out, except that slices and maps are not null: as Go code
// treats a nil slice like an empty one, a nil slice or map anywhere in Out (Out itself
// included) is returned as [] or {} (a nil []byte as ""), and the schema leaves null out of
// their types, so the SDK says string[], not string[] | null. Pointers stay nullable. A slice
// or map field that must be able to say null (nil meaning "unknown", say) is tagged
// runcode:"nullable": its nil is null and its type admits it; a nil pointer in a field tagged
// runcode:"nonnull" has no empty value and fails the call with INVALID_TOOL_OUTPUT naming its
// path (see InferSchema for both tags). A value that violates the schema (an enum tag, say)
// fails with INVALID_TOOL_OUTPUT.
//
// The Tool's Execute decodes the arguments, which the registry has already validated against
// Parameters, into In with encoding/json; a decoding failure (see InferSchema's gaps) is an
// INVALID_ARGS error naming the path of the offending value. It then runs t.Execute and converts
// its Out to a JSON value with jsonv.FromGo (a value that is not lossless JSON, such as NaN, is
// INVALID_TOOL_OUTPUT) and puts the promised empty values in place of nil slices and maps; the
// registry validates and renders it.
//
// Errors have code INVALID_DEFINITION: a nil Execute, an In that is not a struct, or a type
// whose schema cannot be inferred (the message names the type and the field path). The Tool is a
// plain value: its other fields (FinalizeContent, Output.PresentationMeta) may be set before
// registering it.
func Define[In, Out any](t TypedTool[In, Out]) (Tool, error) {
	invalid := func(format string, args ...any) (Tool, error) {
		return Tool{}, NewError(CodeInvalidDefinition, "ToolDefinitionError", "tool %q: %s", t.Name, fmt.Sprintf(format, args...))
	}
	if t.Execute == nil {
		return invalid("Execute must not be nil")
	}
	inType := reflect.TypeFor[In]()
	root := inType
	if root.Kind() == reflect.Pointer && root.Name() == "" {
		root = root.Elem()
	}
	if root.Kind() != reflect.Struct {
		return invalid("the input type %s must be a struct or a pointer to a struct", inType)
	}
	params, err := inferSchema(root, decodeMode)
	if err != nil {
		return invalid("parameters: %v", err)
	}
	if params.Lookup("type").AsString() != "object" {
		return invalid("the input type %s must decode from a JSON object, but it implements its own JSON or text decoding", inType)
	}
	outSchema, err := inferSchema(reflect.TypeFor[Out](), nilAsEmptyMode)
	if err != nil {
		return invalid("output: %v", err)
	}
	filler := newEmptyFiller(reflect.TypeFor[Out](), true)
	name, body := t.Name, t.Execute
	tool := Tool{
		Name:        t.Name,
		Description: t.Description,
		Parameters:  params,
		Output:      OutputOf(outSchema),
		Timeout:     t.Timeout,
		Execute: func(ctx context.Context, inv *Invocation) (jsonv.Value, error) {
			in, err := decodeArgs[In](inv.Arguments)
			if err != nil {
				return jsonv.Value{}, err
			}
			out, err := body(ctx, inv, in)
			if err != nil {
				return jsonv.Value{}, err
			}
			v, err := jsonv.FromGo(out)
			if err != nil {
				return jsonv.Value{}, &Error{Code: CodeInvalidToolOutput, Name: "ToolOutputError", Message: fmt.Sprintf("tool %q returned invalid output: %v", name, err), Err: err}
			}
			if filler != nil {
				v = filler.fill(v)
			}
			return v, nil
		},
	}
	if render := t.Render; render != nil {
		tool.Output.Render = func(args, value jsonv.Value) []Content {
			in, err := decodeArgs[In](args)
			var out Out
			if err != nil || value.Decode(&out) != nil {
				return RenderValue(args, value)
			}
			return render(in, out)
		}
	}
	if safe := t.ConcurrencySafe; safe != nil {
		tool.ConcurrencySafe = func(args jsonv.Value) bool {
			in, err := decodeArgs[In](args)
			return err == nil && safe(in)
		}
	}
	if present := t.PresentCall; present != nil {
		tool.PresentCall = func(args jsonv.Value) *CallView {
			in, err := decodeArgs[In](args)
			if err != nil {
				return nil
			}
			return present(in)
		}
	}
	if present := t.PresentResult; present != nil {
		tool.PresentResult = func(args jsonv.Value, res ResultSummary) *ResultView {
			in, err := decodeArgs[In](args)
			if err != nil {
				return nil
			}
			return present(in, res)
		}
	}
	return tool, nil
}

// MustDefine is Define that panics on error; for package-level tool tables in programs.
func MustDefine[In, Out any](t TypedTool[In, Out]) Tool {
	tool, err := Define(t)
	if err != nil {
		panic(err)
	}
	return tool
}

// decodeArgs decodes args into an In. A failure is an INVALID_ARGS *Error naming the path of
// the value that did not decode.
func decodeArgs[In any](args jsonv.Value) (In, error) {
	var in In
	err := args.Decode(&in)
	if err == nil {
		return in, nil
	}
	path, cause := locateDecodeError(args, reflect.TypeFor[In](), "")
	if cause == nil {
		cause = err
	}
	if path == "" {
		path = "arguments"
	}
	msg := strings.TrimPrefix(cause.Error(), "json: ")
	return in, &Error{Code: CodeInvalidArgs, Name: "ToolArgsError", Message: "invalid arguments: " + strconv.Quote(path) + ": " + msg, Err: err}
}

// locateDecodeError finds the deepest value inside v (at path) that does not decode into its Go
// type, following t the way encoding/json does, and returns its path and decoding error; nil
// when v decodes into t.
func locateDecodeError(v jsonv.Value, t reflect.Type, path string) (string, error) {
	err := v.Decode(reflect.New(t).Interface())
	if err == nil {
		return "", nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v.Kind() == jsonv.Null || implements(t, unmarshalerType) || implements(t, textUnmarshalerType) {
		return path, err
	}
	switch {
	case t.Kind() == reflect.Struct && v.Kind() == jsonv.Object:
		fields := jsonFields(t)
		for _, m := range v.Members() {
			f, ok := fieldByName(fields, m.Key)
			if !ok {
				continue
			}
			if p, e := locateDecodeError(m.Value, f.typ, joinKey(path, m.Key)); e != nil {
				return p, e
			}
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && v.Kind() == jsonv.Array:
		for i, item := range v.Items() {
			if t.Kind() == reflect.Array && i >= t.Len() {
				break
			}
			if p, e := locateDecodeError(item, t.Elem(), path+"["+strconv.Itoa(i)+"]"); e != nil {
				return p, e
			}
		}
	case t.Kind() == reflect.Map && v.Kind() == jsonv.Object:
		for _, m := range v.Members() {
			if p, e := locateDecodeError(m.Value, t.Elem(), joinKey(path, m.Key)); e != nil {
				return p, e
			}
		}
	}
	return path, err
}

// fieldByName finds the field encoding/json decodes key into: an exact match, else a
// case-insensitive one.
func fieldByName(fields []jsonField, key string) (jsonField, bool) {
	for _, f := range fields {
		if f.name == key {
			return f, true
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.name, key) {
			return f, true
		}
	}
	return jsonField{}, false
}

func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
