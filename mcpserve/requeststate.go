package mcpserve

// The request state of an in-band approval (SEP-2322): what a run did until it stopped at a call
// that needs approval, signed so that a client cannot change it, and carried by the client to
// its retry — on this server or on another replica that holds the same key.

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// RequestStateTTL is how long the request state of an input_required result is accepted after
// it was issued: the client has that long to ask the person and retry (DECISIONS row 96).
const RequestStateTTL = time.Hour

// MinRequestStateKeyBytes is the shortest ServerOptions.RequestStateKey.
const MinRequestStateKeyBytes = 16

// ErrRequestState is the error of a retry whose request state this server cannot use: not
// issued with its key (changed by the client, or signed by a replica with another key), expired,
// or for another program. Nothing of the program runs.
var ErrRequestState = errors.New("invalid requestState")

// requestStateVersion is the format of the request state; a retry with another is refused.
// Version 2 added State: a retry of a version 1 state would do its run's state operations again.
const requestStateVersion = 2

// requestState is what an in-band run leaves for its retry.
type requestState struct {
	Version int `json:"v"`
	// Program is the SHA-256 of the call's code and description: a state is for one program.
	Program string `json:"program"`
	// Issued is when the state was signed, in Unix seconds.
	Issued int64 `json:"issued"`
	// Calls are the calls made, with their results, in the order they settled.
	Calls []recordedCall `json:"calls"`
	// Pending is the call the run stopped at, which the person is asked about.
	Pending pendingCall `json:"pending"`
	// State are the state operations done, with their answers, in the order they were done
	// (DECISIONS row 108).
	State []recordedStateOp `json:"state,omitempty"`
	// StateScope identifies the state scope of State (scopeDigest): a retry in another scope
	// does its operations instead of answering them from State.
	StateScope string `json:"stateScope,omitempty"`
}

// scopeDigest identifies a state scope in a request state without showing it (a scope may be an
// MCP session's id): "" for the scope "", else the first 16 bytes of its SHA-256, in hex.
func scopeDigest(scope string) string {
	if scope == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(scope))
	return hex.EncodeToString(sum[:16])
}

// recordedStateOp is a state operation a run did, with its answer.
type recordedStateOp struct {
	Op  string `json:"op"`
	Key string `json:"key,omitempty"`
	// Value is a set's value when it is short; Digest is the SHA-256 of a longer one, so that a
	// large write does not weigh on the request state (a replay only compares it).
	Value  json.RawMessage `json:"value,omitempty"`
	Digest string          `json:"digest,omitempty"`
	// Result is a get's value (none: the key was missing) or keys' array.
	Result json.RawMessage `json:"result,omitempty"`
	Error  *recordedError  `json:"error,omitempty"`
}

// stateRecordOf records a state operation's answer.
func stateRecordOf(op codemode.StateOp, v jsonv.Value, err error) recordedStateOp {
	r := recordedStateOp{Op: op.Op, Key: op.Key}
	r.Value, r.Digest = setValueOf(op)
	switch {
	case err != nil:
		r.Error = &recordedError{Message: err.Error()}
	case v.IsDefined():
		r.Result = jsonv.AppendJSON(nil, v)
	}
	return r
}

// matches reports whether r is the operation op.
func (r recordedStateOp) matches(op codemode.StateOp) bool {
	value, digest := setValueOf(op)
	return r.Op == op.Op && r.Key == op.Key && string(r.Value) == string(value) && r.Digest == digest
}

// maxRecordedSetValue is the longest set value a request state holds as it is; a longer one is
// recorded as its digest.
const maxRecordedSetValue = 64

// setValueOf is how a request state records a set's value: the value when short, else its digest.
func setValueOf(op codemode.StateOp) (value json.RawMessage, digest string) {
	if len(op.Value) <= maxRecordedSetValue {
		return op.Value, ""
	}
	sum := sha256.Sum256(op.Value)
	return nil, hex.EncodeToString(sum[:])
}

// answer is the recorded answer again.
func (r recordedStateOp) answer() (jsonv.Value, error) {
	if r.Error != nil {
		return jsonv.Value{}, errors.New(r.Error.Message)
	}
	if len(r.Result) == 0 {
		return jsonv.Value{}, nil
	}
	v, err := jsonv.Parse(r.Result)
	if err != nil { // signed by this server, so only a server bug gets here
		return jsonv.Value{}, fmt.Errorf("the recorded answer could not be read: %w", err)
	}
	return v, nil
}

// recordedCall is a call a run made, with its result.
type recordedCall struct {
	Name  string          `json:"name"`
	Args  json.RawMessage `json:"args"`
	Value json.RawMessage `json:"value,omitempty"`
	Error *recordedError  `json:"error,omitempty"`
}

// recordedError is a recorded call's failure.
type recordedError struct {
	Code    string `json:"code,omitempty"`
	Name    string `json:"name,omitempty"`
	Message string `json:"message"`
}

// pendingCall is a call waiting for the person's answer.
type pendingCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// matches reports whether r is a call of tool name with exactly these arguments.
func (r recordedCall) matches(name string, args []byte) bool {
	return r.Name == name && string(r.Args) == string(args)
}

// recordOf records a call's result.
func recordOf(name string, args []byte, res registry.Result) recordedCall {
	r := recordedCall{Name: name, Args: args}
	switch {
	case res.IsError && res.Err != nil:
		r.Error = &recordedError{Code: string(res.Err.Code), Name: res.Err.Name, Message: res.Err.Message}
	case res.IsError:
		r.Error = &recordedError{Message: registry.TextOf(res.Content)}
	case res.Value.IsDefined():
		r.Value = jsonv.AppendJSON(nil, res.Value)
	}
	return r
}

// result is the recorded result again, as the program received it.
func (r recordedCall) result() registry.Result {
	if r.Error != nil {
		return registry.Result{IsError: true, Err: &registry.Error{Code: registry.Code(r.Error.Code), Name: r.Error.Name, Message: r.Error.Message},
			Content: []registry.Content{registry.TextContent("Error: " + r.Error.Message)}}
	}
	if len(r.Value) == 0 {
		return registry.Result{Content: []registry.Content{}}
	}
	v, err := jsonv.Parse(r.Value)
	if err != nil { // signed by this server, so only a server bug gets here
		return registry.Result{IsError: true, Err: &registry.Error{Message: fmt.Sprintf("the recorded result of tool %q could not be read: %v", r.Name, err)},
			Content: []registry.Content{registry.TextContent("Error: the recorded result could not be read")}}
	}
	return registry.Result{Value: v, Content: []registry.Content{registry.TextContent(string(r.Value))}}
}

// programDigest identifies a run_code call's program for its request state.
func programDigest(code, description string) string {
	h := sha256.New()
	h.Write([]byte(code))
	h.Write([]byte{0})
	h.Write([]byte(description))
	return hex.EncodeToString(h.Sum(nil))
}

// stateMAC is the signature of a request state's payload.
func stateMAC(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("runcode request state\x00"))
	m.Write(payload)
	return m.Sum(nil)
}

// signState encodes st as base64url(JSON) "." base64url(HMAC-SHA256).
func signState(key []byte, st requestState) string {
	payload, _ := json.Marshal(st) // plain data: cannot fail
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(stateMAC(key, payload))
}

// openState verifies and decodes a request state for the program with digest program.
func openState(key []byte, token, program string, now time.Time) (requestState, error) {
	var st requestState
	enc := base64.RawURLEncoding
	body, sig, ok := strings.Cut(token, ".")
	payload, err1 := enc.DecodeString(body)
	mac, err2 := enc.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil {
		return st, fmt.Errorf("%w: it is not a request state this server issued (not two base64url parts); retry the call without requestState and inputResponses to run the program from the start", ErrRequestState)
	}
	if !hmac.Equal(mac, stateMAC(key, payload)) {
		return st, fmt.Errorf("%w: its signature does not match, so it was changed after this server issued it or was issued by a server with another key (replicas of one deployment need the same key, $RUNCODE_REQUEST_STATE_KEY); retry the call without requestState and inputResponses to run the program from the start", ErrRequestState)
	}
	if err := json.Unmarshal(payload, &st); err != nil || st.Version != requestStateVersion {
		return st, fmt.Errorf("%w: a request state of another format (want version %d); retry the call without requestState and inputResponses", ErrRequestState, requestStateVersion)
	}
	if st.Program != program {
		return st, fmt.Errorf("%w: it was issued for another program (the code or description changed); retry the call without requestState and inputResponses", ErrRequestState)
	}
	if age := now.Sub(time.Unix(st.Issued, 0)); age > RequestStateTTL {
		return st, fmt.Errorf("%w: it expired (issued %s ago; a request state is accepted for %s); retry the call without requestState and inputResponses", ErrRequestState, age.Round(time.Second), RequestStateTTL)
	}
	return st, nil
}

// newStateKey returns a random key, for a server given none.
func newStateKey() []byte {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // never fails (crypto/rand)
	return key
}
