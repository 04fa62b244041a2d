package mcpserve

import (
	"context"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
)

// A retry answers state operations from its record only in the state scope the record was made
// in: in another scope (state per MCP session, the retry in a new session) they are done, so
// that scope ends with one run's effect.
func TestStateRecordAnswersOnlyInItsScope(t *testing.T) {
	// A first round in scope "session-a" reads n (missing) and sets it to 1.
	first := &runApprovals{form: formInBand, callCtx: context.Background()}
	var stored []string
	store := func(op codemode.StateOp) func(context.Context) (jsonv.Value, error) {
		return func(context.Context) (jsonv.Value, error) {
			stored = append(stored, op.Scope+" "+op.Op)
			return jsonv.Value{}, nil
		}
	}
	for _, op := range []codemode.StateOp{{Op: "get", Key: "n", Scope: "session-a"}, {Op: "set", Key: "n", Value: []byte("1"), Scope: "session-a"}} {
		if _, err := first.stateOp(context.Background(), op, store(op)); err != nil {
			t.Fatal(err)
		}
	}
	st := requestState{State: first.madeState, StateScope: first.madeScope}
	for _, c := range []struct {
		scope, want string
	}{
		{"session-a", ""}, // answered from the record: nothing reaches the store
		{"session-b", "session-b get session-b set"},
	} {
		stored = nil
		retry := &runApprovals{form: formInBand, callCtx: context.Background()}
		retry.replayState(st)
		for _, op := range []codemode.StateOp{{Op: "get", Key: "n", Scope: c.scope}, {Op: "set", Key: "n", Value: []byte("1"), Scope: c.scope}} {
			if _, err := retry.stateOp(context.Background(), op, store(op)); err != nil {
				t.Fatal(err)
			}
		}
		if got := strings.Join(stored, " "); got != c.want {
			t.Errorf("a retry in scope %q did %q against the store, want %q", c.scope, got, c.want)
		}
		if retry.madeScope != scopeDigest(c.scope) || len(retry.madeState) != 2 {
			t.Errorf("a retry in scope %q records %d operations in scope %q", c.scope, len(retry.madeState), retry.madeScope)
		}
	}
}
