package codemode

import (
	"context"

	"github.com/runcode-dev/runcode/registry"
)

// programKey is the context key under which a run_code call's body context carries its
// Program, for the sub-calls its program makes.
type programKey struct{}

// withProgram returns ctx carrying the run_code call inv as a Program.
func withProgram(ctx context.Context, inv *registry.Invocation) context.Context {
	return context.WithValue(ctx, programKey{}, Program{
		Code:        inv.Arguments.Lookup("code").AsString(),
		Description: inv.Arguments.Lookup("description").AsString(),
		Scope:       inv.Scope,
	})
}

// ProgramOf returns the run_code call on whose behalf a call running with ctx was made: its
// program, its description and its scope. The contexts the registry gives a sub-call's
// pipeline (pre-execute listeners, the Approver, guards' callers, wrappers) and body carry it,
// so an Approver can show a person which program asks (see package approvals). ok is false for
// a call made outside any run_code program.
func ProgramOf(ctx context.Context) (p Program, ok bool) {
	p, ok = ctx.Value(programKey{}).(Program)
	return p, ok
}
