package mcpserve

// Approvals that reach a person: the registry's Approver for served calls. A call that needs
// approval (registry.Tool.RequiresApproval, or a policy's Ask) is put to the person behind the
// MCP client in one of two forms, chosen per run_code call from what the client declared:
//
//   - the session form, for clients on protocol versions before 2026-07-28 that declared the
//     elicitation capability: an elicitation/create request to the client while the run waits;
//   - the in-band form (SEP-2322, multi round-trip requests), for clients on 2026-07-28 or
//     later: the run stops at the call, run_code answers input_required with an elicitation
//     input request and a signed request state, and the client's retry replays the program
//     (see requeststate.go).
//
// A client that can do neither gets the denial at once.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// DefaultApprovalTimeout is ServerOptions.ApprovalTimeout when zero: how long the session form
// waits for the person's answer before it denies the call (DECISIONS row 95). A run's wall time
// bounds it too: a run that times out while waiting ends the wait.
const DefaultApprovalTimeout = 5 * time.Minute

// maxShownArguments bounds the arguments an approval request shows the person, in bytes of
// indented JSON; longer ones are cut with a marker.
const maxShownArguments = 4 << 10

// approvalInputKey is the key of the approval's elicitation in an input_required result's
// inputRequests and in the retry's inputResponses.
const approvalInputKey = "approval"

// Approver returns the registry Approver that puts served calls needing approval to the
// person behind the MCP client: install it with reg.SetApprover on the registry given to
// NewServer (a host that approves some tools itself, such as with flags, answers those first and
// passes the rest on to it). It decides only calls made by the programs of NewServer's run_code
// calls; any other call that needs approval is denied, as no client is there to ask.
//
// It implements registry.ExplainingApprover: its denials say why (the client cannot ask a
// person, nobody answered in time, the person declined) and carry the code APPROVAL_DENIED.
func Approver() registry.Approver { return approver{} }

type approver struct{}

// Approve implements registry.Approver.
func (a approver) Approve(ctx context.Context, exec registry.Execution, reason string) registry.Approval {
	answer, _ := a.ApproveExplained(ctx, exec, reason)
	return answer
}

// ApproveExplained implements registry.ExplainingApprover.
func (approver) ApproveExplained(ctx context.Context, exec registry.Execution, _ string) (registry.Approval, string) {
	ra, _ := ctx.Value(approvalsKey{}).(*runApprovals)
	if ra == nil {
		return registry.Unavailable, fmt.Sprintf("tool %q requires approval, but the call did not come from an MCP client's run_code, so there is nobody to ask", exec.Name)
	}
	return ra.approve(ctx, exec)
}

// approvalsKey is the context key of a run's *runApprovals.
type approvalsKey struct{}

// approvalForm is how a run_code call's approvals reach the person.
type approvalForm uint8

const (
	formNone    approvalForm = iota // the client cannot ask a person
	formSession                     // elicitation/create while the run waits
	formInBand                      // an input_required result and the client's retry (SEP-2322)
)

// errInputRequired is the cause with which an in-band run is stopped at a call that needs approval.
var errInputRequired = errors.New("the run stopped to ask the person for approval")

// errDiverged is the cause with which a replayed run is stopped when it does not make the calls of
// the record.
var errDiverged = errors.New("the program diverged from the recorded run")

// runApprovals is the approval state of one run_code call, in its context.
type runApprovals struct {
	owner       *runHandler // the server whose wrapper records and replays the run's calls
	form        approvalForm
	session     *mcp.ServerSession
	description string
	timeout     time.Duration
	callID      string                  // the run_code call's id: the wrapper leaves it alone
	stop        context.CancelCauseFunc // ends the run (in-band only)

	mu sync.Mutex
	// The replay of an in-band retry: the record of the calls made so far, each free, claimed (its
	// approval granted as recorded) or used (its recorded result given again), and the call the
	// person answered with answer ("accept", "decline" or "cancel").
	record  []recordedCall
	states  []uint8
	pending *pendingCall
	answer  string
	taken   bool // the pending call came and took the answer
	// What this run did: the calls made, with their results, in the order they settled; the call
	// it stopped at (ask); why it diverged from the record.
	made     []madeCall
	ask      *pendingCall
	diverged string
	// running counts the calls executing for real (the approved pending call from its approval
	// on); changed is closed and replaced whenever it drops, for the wait before a stop.
	running        int
	changed        chan struct{}
	pendingRunning bool // the approved pending call is counted in running and has not ended
	// The state operations: those of the record, each used once replayed; those this run did or
	// replayed, in order, for the record of the next round (DECISIONS row 108).
	stateRecord []recordedStateOp
	stateUsed   []bool
	recordScope string // the record's scope (scopeDigest)
	madeState   []recordedStateOp
	madeScope   string // the scope of madeState
	// wrapped holds the calls of a replay that reached wrap, until settled sees them.
	wrapped map[registry.Token]struct{}
	// The session form: callCtx ends when the run_code call's run has ended; asking counts the
	// questions open; ended is set once no question may start.
	callCtx context.Context
	asking  int
	ended   bool
}

const (
	recordFree uint8 = iota
	recordClaimed
	recordUsed
)

// approve decides one call that needs approval.
func (ra *runApprovals) approve(ctx context.Context, exec registry.Execution) (registry.Approval, string) {
	switch ra.form {
	case formSession:
		return ra.elicit(ctx, exec)
	case formInBand:
		return ra.inBand(ctx, exec)
	}
	return registry.Unavailable, fmt.Sprintf("tool %q requires approval, but this MCP client cannot ask a person (it did not declare the elicitation capability, or it speaks a protocol older than 2026-07-28 to a stateless server, which cannot send it requests); approve it where runcode serve runs instead: --approve %s, or --yes for every tool", exec.Name, exec.Name)
}

// elicit asks the person with elicitation/create and waits for the answer, for at most the
// approval timeout.
func (ra *runApprovals) elicit(ctx context.Context, exec registry.Execution) (registry.Approval, string) {
	waitCtx, cancel := context.WithTimeout(ctx, ra.timeout)
	defer cancel()
	// The question ends with the run_code call too, however the runtime ends the sub-call, and
	// the call's answer waits for it (see endQuestions): withdrawn after the answer, over HTTP
	// the question's cancellation would find the call's stream closed.
	ra.mu.Lock()
	if ra.ended {
		ra.mu.Unlock()
		return registry.Cancelled, fmt.Sprintf("approval for tool %q was cancelled: the run had ended", exec.Name)
	}
	ra.asking++
	ra.mu.Unlock()
	unhook := context.AfterFunc(ra.callCtx, cancel)
	defer func() {
		unhook()
		ra.mu.Lock()
		ra.asking--
		close(ra.changed)
		ra.changed = make(chan struct{})
		ra.mu.Unlock()
	}()
	res, err := ra.session.Elicit(waitCtx, approvalRequest(exec.Name, argumentsJSON(exec.Arguments), ra.description))
	switch {
	case err == nil:
	case ctx.Err() != nil || ra.callCtx.Err() != nil:
		return registry.Cancelled, fmt.Sprintf("approval for tool %q was cancelled: the run ended while waiting for the person's answer", exec.Name)
	case waitCtx.Err() != nil:
		return registry.Cancelled, fmt.Sprintf("tool %q was denied: nobody answered the approval request within %s", exec.Name, ra.timeout)
	default:
		return registry.Unavailable, fmt.Sprintf("tool %q requires approval, but asking the MCP client failed: %v", exec.Name, err)
	}
	return answerOf(exec.Name, res.Action)
}

// endQuestions is called when the run_code call's run has ended: questions still open are
// withdrawn (their contexts end with callCtx, which the caller has cancelled), and it waits
// until every one has returned, so that the SDK has sent their notifications/cancelled before
// the call's answer; no question starts after.
func (ra *runApprovals) endQuestions() {
	ra.mu.Lock()
	defer ra.mu.Unlock()
	ra.ended = true
	for ra.asking > 0 {
		changed := ra.changed
		ra.mu.Unlock()
		<-changed
		ra.mu.Lock()
	}
}

// answerOf maps an elicitation's action to an approval.
func answerOf(name, action string) (registry.Approval, string) {
	switch action {
	case "accept":
		return registry.AllowedOnce, ""
	case "decline":
		return registry.Rejected, fmt.Sprintf("the user declined tool %q", name)
	default:
		return registry.Cancelled, fmt.Sprintf("approval for tool %q was cancelled by the user", name)
	}
}

// inBand decides a call of an in-band run: a recorded call keeps its recorded approval, the
// call the person answered gets the answer, and any other call stops the run to ask.
func (ra *runApprovals) inBand(ctx context.Context, exec registry.Execution) (registry.Approval, string) {
	args := argumentsJSON(exec.Arguments)
	ra.mu.Lock()
	defer ra.mu.Unlock()
	for i, r := range ra.record {
		if ra.states[i] == recordFree && r.matches(exec.Name, args) {
			ra.states[i] = recordClaimed
			return registry.AllowedOnce, ""
		}
	}
	if ra.pending != nil && !ra.taken {
		if ra.pending.Name == exec.Name && string(ra.pending.Args) == string(args) {
			ra.taken = true
			answer, why := answerOf(exec.Name, ra.answer)
			if answer == registry.AllowedOnce {
				ra.running++ // from now: a call that asks next waits for it to end
				ra.pendingRunning = true
			} else { // the denial is recorded, so that later rounds give it again without asking
				ra.made = append(ra.made, madeCall{recorded: &recordedCall{Name: exec.Name, Args: args,
					Error: &recordedError{Code: string(registry.CodeApprovalDenied), Message: why}}})
			}
			return answer, why
		}
		ra.diverged = fmt.Sprintf("the program diverged from the run the person answered: it asked to call tool %q with arguments %s where the answer was for tool %q with arguments %s; a program whose calls change from one run to the next cannot be approved in-band", exec.Name, cut(string(args), 200), ra.pending.Name, cut(string(ra.pending.Args), 200))
		ra.stop(errDiverged)
		return registry.Cancelled, ra.diverged
	}
	if ra.ask == nil {
		ra.ask = &pendingCall{Name: exec.Name, Args: args}
		// The calls executing for real end first, so that their results are in the record
		// and they do not run again in the next round; no call starts meanwhile (wrap).
		for ra.running > 0 && ctx.Err() == nil {
			changed := ra.changed
			ra.mu.Unlock()
			select {
			case <-changed:
			case <-ctx.Done():
			}
			ra.mu.Lock()
		}
		ra.stop(errInputRequired)
	}
	return registry.Cancelled, fmt.Sprintf("approval for tool %q: the run stopped to ask the person", exec.Name)
}

// wrap is the in-band run's around-dispatch wrapper of its sub-calls: a call of the record gets
// its recorded result without running again; every other call runs. Both are kept for the
// record of the next round, which is only encoded when the run stops to ask.
func (ra *runApprovals) wrap(ctx context.Context, exec registry.Execution, next func(context.Context) registry.Result) registry.Result {
	var args []byte // exec's arguments as JSON, when a comparison needs them
	ra.mu.Lock()
	replaying := len(ra.record) > 0 || ra.pendingRunning
	if replaying {
		ra.wrapped[exec.Token] = struct{}{} // settled has nothing to do for it
	}
	ra.mu.Unlock()
	if replaying {
		args = argumentsJSON(exec.Arguments)
		if r, ok := ra.replayed(exec.Name, args); ok {
			ra.mu.Lock()
			ra.made = append(ra.made, madeCall{recorded: &r})
			ra.mu.Unlock()
			return r.result()
		}
	}
	ra.mu.Lock()
	if ra.ask != nil { // the run is stopping to ask: nothing more runs; the call runs in the next round
		ra.mu.Unlock()
		return registry.Result{IsError: true, Err: &registry.Error{Code: registry.CodeAbortedBeforeDispatch, Name: "AbortError", Message: "tool call aborted before dispatch: the run stopped to ask the person for approval"},
			Content: []registry.Content{registry.TextContent("Error: tool call aborted before dispatch: the run stopped to ask the person for approval")}}
	}
	if ra.pendingRunning && ra.pending.Name == exec.Name && string(ra.pending.Args) == string(args) {
		ra.pendingRunning = false // counted since its approval
	} else {
		ra.running++
	}
	ra.mu.Unlock()
	res := next(ctx)
	ra.mu.Lock()
	defer ra.mu.Unlock()
	ra.running--
	close(ra.changed)
	ra.changed = make(chan struct{})
	if res.Err != nil && (res.Err.Code == registry.CodeAborted || res.Err.Code == registry.CodeAbortedBeforeDispatch) {
		return res // the run is ending: the call runs again in the next round
	}
	ra.made = append(ra.made, madeCall{name: exec.Name, args: exec.Arguments, res: res})
	return res
}

// stateOp is the in-band run's StateInterceptor: an operation of the record (the same operation,
// key and set value, the first not used yet) gets its recorded answer without reaching the store,
// so the rounds of a run together do each operation once and the program reads in every round
// what it read in the first; every other operation is done. Both are kept for the record of the
// next round. One that failed because the run was ending is not kept: it is done again in the
// next round.
func (ra *runApprovals) stateOp(ctx context.Context, op codemode.StateOp, next func(context.Context) (jsonv.Value, error)) (jsonv.Value, error) {
	scope := scopeDigest(op.Scope)
	ra.mu.Lock()
	if len(ra.madeState) == 0 {
		ra.madeScope = scope // one run's operations all see one scope
	}
	for i, r := range ra.stateRecord {
		if !ra.stateUsed[i] && scope == ra.recordScope && r.matches(op) {
			ra.stateUsed[i] = true
			ra.madeState = append(ra.madeState, r)
			ra.mu.Unlock()
			return r.answer()
		}
	}
	if ra.ask != nil { // the run is stopping to ask: the operation is done in the next round
		ra.mu.Unlock()
		return jsonv.Value{}, errInputRequired
	}
	ra.mu.Unlock()
	v, err := next(ctx)
	if err != nil && (ctx.Err() != nil || ra.callCtx.Err() != nil) {
		return v, err
	}
	ra.mu.Lock()
	ra.madeState = append(ra.madeState, stateRecordOf(op, v, err))
	ra.mu.Unlock()
	return v, err
}

// replayState takes the state operations of st's record for the replay.
func (ra *runApprovals) replayState(st requestState) {
	ra.stateRecord, ra.stateUsed, ra.recordScope = st.State, make([]bool, len(st.State)), st.StateScope
}

// settled sees every sub-call's result before post-execute: one that the approver let through
// and that never reached wrap (a guard denied it) is recorded here, and no longer holds up the
// next question.
func (ra *runApprovals) settled(exec registry.Execution, res registry.Result) {
	ra.mu.Lock()
	defer ra.mu.Unlock()
	if _, ok := ra.wrapped[exec.Token]; ok {
		delete(ra.wrapped, exec.Token)
		return
	}
	if !ra.pendingRunning && !slices.Contains(ra.states, recordClaimed) {
		return
	}
	args := argumentsJSON(exec.Arguments)
	if ra.pendingRunning && ra.pending.Name == exec.Name && string(ra.pending.Args) == string(args) {
		ra.pendingRunning = false
		ra.running--
		close(ra.changed)
		ra.changed = make(chan struct{})
		ra.made = append(ra.made, madeCall{name: exec.Name, args: exec.Arguments, res: res})
		return
	}
	for i, r := range ra.record {
		if ra.states[i] == recordClaimed && r.matches(exec.Name, args) {
			ra.states[i] = recordUsed
			ra.made = append(ra.made, madeCall{recorded: &r})
			return
		}
	}
}

// madeCall is a call an in-band run made: replayed from the record, or run with its result.
type madeCall struct {
	recorded *recordedCall
	name     string
	args     jsonv.Value
	res      registry.Result
}

// record returns the call as the request state records it.
func (m madeCall) record() recordedCall {
	if m.recorded != nil {
		return *m.recorded
	}
	return recordOf(m.name, argumentsJSON(m.args), m.res)
}

// replayed takes the record's entry for a call: one whose approval the call claimed first, else
// a free one.
func (ra *runApprovals) replayed(name string, args []byte) (recordedCall, bool) {
	ra.mu.Lock()
	defer ra.mu.Unlock()
	for _, want := range []uint8{recordClaimed, recordFree} {
		for i, r := range ra.record {
			if ra.states[i] == want && r.matches(name, args) {
				ra.states[i] = recordUsed
				return r, true
			}
		}
	}
	return recordedCall{}, false
}

// divergence says how a finished replay diverged from its record ("" when it did not).
func (ra *runApprovals) divergence() string {
	ra.mu.Lock()
	defer ra.mu.Unlock()
	if ra.diverged != "" {
		return ra.diverged
	}
	for i, r := range ra.record {
		if ra.states[i] != recordUsed {
			return fmt.Sprintf("the program diverged from the run the person answered: it did not call tool %q with arguments %s again; a program whose calls change from one run to the next cannot be approved in-band", r.Name, cut(string(r.Args), 200))
		}
	}
	if ra.pending != nil && !ra.taken {
		return fmt.Sprintf("the program diverged from the run the person answered: it did not call tool %q with arguments %s, the call the answer was for", ra.pending.Name, cut(string(ra.pending.Args), 200))
	}
	return ""
}

// approvalRequest is the elicitation that asks the person about a call: the tool, its arguments
// and the program's description, answered by accepting or declining an empty form.
func approvalRequest(name string, args []byte, description string) *mcp.ElicitParams {
	var b strings.Builder
	fmt.Fprintf(&b, "A program wants to call tool %q. Allow this call?\n", name)
	if description != "" {
		fmt.Fprintf(&b, "Program: %s\n", cut(description, 500))
	}
	b.WriteString("Arguments:\n")
	b.WriteString(cut(prettyArguments(args), maxShownArguments))
	return &mcp.ElicitParams{
		Mode:            "form",
		Message:         b.String(),
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`),
	}
}

// prettyArguments is a call's arguments as indented JSON.
func prettyArguments(raw []byte) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return string(raw)
	}
	return buf.String()
}

// argumentsJSON is a call's arguments as JSON ({} when it has none).
func argumentsJSON(args jsonv.Value) []byte {
	if !args.IsDefined() {
		return []byte("{}")
	}
	return jsonv.AppendJSON(nil, args)
}

// cut returns s cut to at most n bytes (at a rune boundary), with a marker when cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("… [cut: %d of %d bytes shown]", i, len(s))
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// KindInputRequired is the RunReport kind of a run that stopped at a call needing approval and
// answered input_required (the in-band form): the client retries once the person answered.
const KindInputRequired = "input-required"

// stateReplyOverhead is room kept in a reply for what an input_required result holds beside its
// request state: the question (at most maxShownArguments of arguments, besides the call's
// arguments themselves counted apart) and the JSON-RPC envelope.
const stateReplyOverhead = 8 << 10

// multiRoundTripVersion is the first protocol version with multi round-trip requests (SEP-2322),
// where servers may no longer send elicitation/create while serving a call.
const multiRoundTripVersion = "2026-07-28"

// approvals returns the approval state of a run_code call: the form the client can answer, and
// for a retry the verified request state and the person's answer. A retry whose state or answer
// cannot be used is refused (the returned result) before any program runs.
func (h *runHandler) approvals(req *mcp.CallToolRequest, rep *RunReport) (*runApprovals, *mcp.CallToolResult) {
	ra := &runApprovals{owner: h, callID: rep.CallID, description: rep.Description, timeout: h.approvalTimeout, changed: make(chan struct{}), wrapped: map[registry.Token]struct{}{}}
	if req.Session != nil {
		// A client that declared only URL elicitation cannot show a form (none declared: both).
		if ip := req.Session.InitializeParams(); ip != nil && ip.Capabilities != nil && ip.Capabilities.Elicitation != nil &&
			(ip.Capabilities.Elicitation.Form != nil || ip.Capabilities.Elicitation.URL == nil) {
			if ip.ProtocolVersion >= multiRoundTripVersion {
				ra.form = formInBand
			} else {
				ra.form, ra.session = formSession, req.Session
			}
		}
	}
	if req.Params.RequestState == "" {
		if len(req.Params.InputResponses) > 0 {
			return nil, h.refuse(rep, KindInvalidArguments, "the call carries inputResponses without the requestState they answer: retry with the requestState of the input_required result, or call without inputResponses")
		}
		return ra, nil
	}
	st, err := openState(h.stateKey, req.Params.RequestState, programDigest(rep.Program, rep.Description), time.Now())
	if err != nil {
		return nil, h.refuse(rep, KindInvalidArguments, err.Error())
	}
	answer, ok := req.Params.InputResponses[approvalInputKey].(*mcp.ElicitResult)
	if !ok {
		return nil, h.refuse(rep, KindInvalidArguments, fmt.Sprintf("the retry carries a requestState but no inputResponses[%q]: the person's answer (an elicitation result) to the approval of tool %q", approvalInputKey, st.Pending.Name))
	}
	ra.form = formInBand
	ra.record, ra.states = st.Calls, make([]uint8, len(st.Calls))
	ra.pending, ra.answer = &st.Pending, answer.Action
	ra.replayState(st)
	return ra, nil
}

// inBandResult is the result of an in-band run that stopped at a call needing approval (an
// input_required result asking the person, with the signed record of the calls made so far), or
// of a replay that diverged from its record (a failure); nil otherwise.
func (h *runHandler) inBandResult(ra *runApprovals, rep *RunReport) *mcp.CallToolResult {
	ra.mu.Lock()
	ask, made, madeState, madeScope, diverged := ra.ask, ra.made, ra.madeState, ra.madeScope, ra.diverged
	ra.mu.Unlock()
	if diverged == "" && ask == nil {
		diverged = ra.divergence()
	}
	if diverged != "" {
		res, outcome := failureResult(string(codemode.KindException), diverged)
		rep.Kind, rep.Outcome = string(codemode.KindException), outcome
		return res
	}
	if ask == nil {
		return nil
	}
	st := requestState{Version: requestStateVersion, Program: programDigest(rep.Program, rep.Description), Issued: time.Now().Unix(), Calls: make([]recordedCall, len(made)), Pending: *ask, State: madeState, StateScope: madeScope}
	for i, m := range made {
		st.Calls[i] = m.record()
	}
	state := signState(h.stateKey, st)
	if room := h.reply.maxBytes - stateReplyOverhead - len(ask.Args); len(state) > room {
		calls := fmt.Sprintf("%d calls", len(made))
		if len(madeState) > 0 {
			calls += fmt.Sprintf(" and %d state operations", len(madeState))
		}
		msg := fmt.Sprintf("tool %q needs approval, but the results of the %s made before it take %d bytes in the request state, more than one reply may carry (%d bytes); make the call that needs approval before calls that return much (and before state operations on large values), or have it approved where the server runs (--approve %s)", ask.Name, calls, len(state), room, ask.Name)
		res, outcome := failureResult(string(codemode.KindOutputLimit), msg)
		rep.Kind, rep.Outcome = string(codemode.KindOutputLimit), outcome
		return res
	}
	rep.Kind = KindInputRequired
	rep.Outcome = jsonv.ObjectValue(
		jsonv.Member{Key: "logs", Value: jsonv.ArrayOf(nil)},
		jsonv.Member{Key: "inputRequired", Value: jsonv.StringValue(fmt.Sprintf("approval of tool %q", ask.Name))})
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{approvalInputKey: approvalRequest(ask.Name, ask.Args, rep.Description)},
		RequestState:  state,
	}
}
