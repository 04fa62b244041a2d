package registry

import (
	"errors"
	"fmt"
)

// Code classifies a failed tool call. Codes are comparable with errors.Is against any error
// returned or carried by this package: errors.Is(err, registry.CodeUnknownTool).
type Code string

// The error codes of the tool pipeline.
const (
	CodeUnknownTool           Code = "UNKNOWN_TOOL"
	CodeInvalidArgs           Code = "INVALID_ARGS"
	CodeInvalidToolOutput     Code = "INVALID_TOOL_OUTPUT"
	CodeAborted               Code = "ABORTED"
	CodeAbortedBeforeDispatch Code = "ABORTED_BEFORE_DISPATCH"
	CodeCodeRunFailed         Code = "CODE_RUN_FAILED"
	CodeUnsupportedSchema     Code = "UNSUPPORTED_SCHEMA"
	CodeInvalidDefinition     Code = "INVALID_DEFINITION"
	CodeTimeout               Code = "TIMEOUT"
	// CodeApprovalDenied: the call needed approval and did not get it (no approval channel,
	// rejected, cancelled, or timed out); the program sees it as ToolCallError.code.
	CodeApprovalDenied Code = "APPROVAL_DENIED"
)

// Error implements error so that a Code can be the target of errors.Is.
func (c Code) Error() string { return string(c) }

// Error is a coded failure: the error a tool body may return to give its failure a code, and
// the error every failed Result carries.
type Error struct {
	Code    Code   // empty for an uncoded failure (a tool's plain error)
	Name    string // the error class name shown in error info, e.g. "ToolArgsError"
	Message string // the human-readable message, without an "Error: " prefix
	Err     error  // the underlying cause, if any
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's Code.
func (e *Error) Is(target error) bool {
	c, ok := target.(Code)
	return ok && e.Code != "" && c == e.Code
}

// NewError returns a coded error with a formatted message; a tool body may return it to give its
// failure a code the caller can test.
func NewError(code Code, name, format string, args ...any) *Error {
	return &Error{Code: code, Name: name, Message: fmt.Sprintf(format, args...)}
}

// asError normalizes anything a tool body returned or panicked with into an *Error: a coded
// *Error is kept; any other error contributes only its message.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Message: err.Error(), Err: err}
}
