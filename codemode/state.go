package codemode

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// StateGlobal is the name of the program's state binding: state.get, state.set, state.delete
// and state.keys.
const StateGlobal = "state"

// DefaultMaxState is the most a state scope holds when a store is made with a cap of zero:
// 16 MiB of keys and values, counted as the bytes of their compact JSON.
const DefaultMaxState = 16 << 20

// MaxStateKeyBytes is the longest state key, in bytes of UTF-8.
const MaxStateKeyBytes = 128

// StateStore keeps the values programs put in `state`, in scopes: one scope is what one
// program sees (a directory, an MCP session, a tenant). Values are JSON texts (compact, as
// jsonv writes them); keys are checked by codemode before they reach the store (see
// CheckStateKey). Implementations are safe for concurrent use, enforce their own size cap
// (a Set over it fails with an error that wraps ErrStateFull and names the cap), and honour
// ctx where they wait. MemoryStore and DirStore are the ones runcode has; a Redis or a database
// store implements the same four methods.
type StateStore interface {
	// Get returns the value of key in scope, and false when there is none.
	Get(ctx context.Context, scope, key string) (value []byte, ok bool, err error)
	// Set sets key in scope to value, replacing any value it had.
	Set(ctx context.Context, scope, key string, value []byte) error
	// Delete removes key from scope; removing a missing key is no error.
	Delete(ctx context.Context, scope, key string) error
	// Keys returns the keys of scope in ascending byte order.
	Keys(ctx context.Context, scope string) ([]string, error)
}

// ErrStateFull is wrapped by the error of a Set that would take a scope over its store's cap.
var ErrStateFull = errors.New("state is full")

// StateFullError is the error of a Set that would take a scope over its cap: the size the
// scope would have had and the cap, both in bytes.
type StateFullError struct {
	Key       string
	Size, Max int64
}

// Error names the key, the sizes and the cap.
func (e *StateFullError) Error() string {
	return fmt.Sprintf("setting %q would make state hold %d bytes, over its cap of %d bytes (--max-state); delete keys or store less", e.Key, e.Size, e.Max)
}

// Unwrap returns ErrStateFull.
func (e *StateFullError) Unwrap() error { return ErrStateFull }

// CheckStateKey returns an error naming what is wrong with key, or nil: a key is a non-empty
// string of valid UTF-8 of at most MaxStateKeyBytes bytes.
func CheckStateKey(key string) error {
	switch {
	case key == "":
		return errors.New("a state key must not be empty")
	case len(key) > MaxStateKeyBytes:
		return fmt.Errorf("a state key may be at most %d bytes, got %d", MaxStateKeyBytes, len(key))
	case !utf8.ValidString(key):
		return errors.New("a state key must be valid UTF-8")
	}
	return nil
}

// entrySize is what a key and its value count against a scope's cap.
func entrySize(key string, value []byte) int64 { return int64(len(key) + len(value)) }

// MemoryStore is a StateStore in memory: scopes live until they are dropped (Drop) or the
// store is garbage.
type MemoryStore struct {
	max    int64
	mu     sync.Mutex
	scopes map[string]*memoryScope
}

type memoryScope struct {
	values map[string][]byte
	size   int64
}

// NewMemoryStore returns an empty MemoryStore whose scopes hold at most maxBytes each (zero:
// DefaultMaxState).
func NewMemoryStore(maxBytes int64) *MemoryStore {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxState
	}
	return &MemoryStore{max: maxBytes, scopes: map[string]*memoryScope{}}
}

// Get implements StateStore.
func (m *MemoryStore) Get(_ context.Context, scope, key string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.scopes[scope]
	if s == nil {
		return nil, false, nil
	}
	v, ok := s.values[key]
	return v, ok, nil
}

// Set implements StateStore.
func (m *MemoryStore) Set(_ context.Context, scope, key string, value []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.scopes[scope]
	if s == nil {
		s = &memoryScope{values: map[string][]byte{}}
		m.scopes[scope] = s
	}
	size := s.size + entrySize(key, value)
	if old, ok := s.values[key]; ok {
		size -= entrySize(key, old)
	}
	if size > m.max {
		return &StateFullError{Key: key, Size: size, Max: m.max}
	}
	s.values[key], s.size = slices.Clone(value), size
	return nil
}

// Delete implements StateStore.
func (m *MemoryStore) Delete(_ context.Context, scope, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.scopes[scope]
	if s == nil {
		return nil
	}
	if old, ok := s.values[key]; ok {
		s.size -= entrySize(key, old)
		delete(s.values, key)
	}
	if len(s.values) == 0 {
		delete(m.scopes, scope)
	}
	return nil
}

// Keys implements StateStore.
func (m *MemoryStore) Keys(_ context.Context, scope string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.scopes[scope]
	if s == nil {
		return []string{}, nil
	}
	keys := make([]string, 0, len(s.values))
	for k := range s.values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// Drop forgets every value of scope (an MCP session that ended).
func (m *MemoryStore) Drop(scope string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.scopes, scope)
}

// Retain forgets every scope for which keep reports false (the sessions no longer live).
func (m *MemoryStore) Retain(keep func(scope string) bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for scope := range m.scopes {
		if !keep(scope) {
			delete(m.scopes, scope)
		}
	}
}

type stateScopeKey struct{}

// StateOp is one state operation of a run, as a StateInterceptor sees it: its arguments have
// been checked.
type StateOp struct {
	// Op is "get", "set", "delete" or "keys".
	Op string
	// Key is the operation's key ("" for keys).
	Key string
	// Value is a set's value as compact JSON (nil for the other operations).
	Value []byte
	// Scope is the state scope the run sees (WithStateScope).
	Scope string
}

// StateInterceptor sees each state operation of a run before the store does: it passes the
// operation on with next, which does it against the store, or answers it itself without calling
// next (an in-band approval's retry answers the operations of the rounds before from its record:
// see mcpserve). The answer is what the program receives: a get's value (undefined when
// missing), keys' array of strings, undefined for set and delete; an error rejects the call as a
// StateError. A run calls it for one operation at a time, in the order the program made them.
type StateInterceptor func(ctx context.Context, op StateOp, next func(context.Context) (jsonv.Value, error)) (jsonv.Value, error)

type stateInterceptorKey struct{}

// WithStateInterceptor returns ctx whose run_code calls pass their state operations, and those
// of the saved programs they run, through i.
func WithStateInterceptor(ctx context.Context, i StateInterceptor) context.Context {
	return context.WithValue(ctx, stateInterceptorKey{}, i)
}

func stateInterceptor(ctx context.Context) StateInterceptor {
	i, _ := ctx.Value(stateInterceptorKey{}).(StateInterceptor)
	return i
}

// WithStateScope returns ctx whose run_code calls see the state scope scope of
// Options.State (an MCP session's id, a tenant). Without it a run sees the scope "".
func WithStateScope(ctx context.Context, scope string) context.Context {
	return context.WithValue(ctx, stateScopeKey{}, scope)
}

func stateScope(ctx context.Context) string {
	s, _ := ctx.Value(stateScopeKey{}).(string)
	return s
}

// DefaultNoStateMessage is added to the failure of a run that used state when Options.State
// is nil and Options.NoStateMessage is empty.
const DefaultNoStateMessage = "state is not available in this run: values are kept between runs only with a state store (runcode: --state DIR)"

// stateHint adds to msg, a failed run's message, why the program could not use state: it
// has none without a store (NoStateMessage), and with one the name is the binding's.
func (cm *codeMode) stateHint(msg string) string {
	switch {
	case cm.opts.State == nil && strings.Contains(msg, "ReferenceError: "+StateGlobal+" is not defined"):
		return msg + "\n" + cmp.Or(cm.opts.NoStateMessage, DefaultNoStateMessage)
	case cm.opts.State != nil && strings.Contains(msg, `The symbol "`+StateGlobal+`" has already been declared`):
		return msg + "\n" + StateGlobal + " is the binding that keeps values between runs: give the variable another name"
	}
	return msg
}

// stateOps are the state functions, in the order the namespace lists them.
var stateOps = []string{"get", "set", "delete", "keys"}

// stateRun is the state binding of one run: its operations run one at a time, in the order
// the program made them, on a goroutine the run owns (close waits for it).
type stateRun struct {
	store          StateStore
	scope          string
	noneMsg        string
	redact         bool
	emit           func(bridge.Event) // nil: no events
	timed          bool
	rootID, callID string
	intercept      StateInterceptor // nil: every operation goes to the store

	mu      sync.Mutex
	queue   []stateCall
	running bool
	closed  bool
	count   int
	wg      sync.WaitGroup
}

type stateCall struct {
	ctx    context.Context
	op     string
	args   jsonv.Value
	settle func(jsonv.Value, error)
}

// namespace is the program's state binding.
func (s *stateRun) namespace() jsruntime.Namespace {
	fns := make([]jsruntime.Function, len(stateOps))
	for i, op := range stateOps {
		fns[i] = jsruntime.Function{Name: op, Call: func(ctx context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
			s.submit(stateCall{ctx: ctx, op: op, args: args, settle: settle})
		}}
	}
	return jsruntime.Namespace{Global: StateGlobal, Functions: fns, Positional: true, ResolveUndefined: true,
		ErrorClass: &jsruntime.ErrorClass{Name: "StateError", MemberNameProperty: "operation"}}
}

// submit queues c and starts the worker when none runs.
func (s *stateRun) submit(c stateCall) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.settle(jsonv.Value{}, errors.New("the run has ended"))
		return
	}
	s.queue = append(s.queue, c)
	start := !s.running
	s.running = true
	if start {
		s.wg.Add(1)
	}
	s.mu.Unlock()
	if start {
		go s.work()
	}
}

func (s *stateRun) work() {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.running = false
			s.mu.Unlock()
			return
		}
		c := s.queue[0]
		s.queue[0] = stateCall{}
		s.queue = s.queue[1:]
		s.count++
		n := s.count
		s.mu.Unlock()
		s.do(c, n)
	}
}

// close refuses later operations and waits for the queued ones. A nil stateRun (no store)
// has nothing to close.
func (s *stateRun) close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.wg.Wait()
}

// do runs one operation, the n-th of the run, with its events.
func (s *stateRun) do(c stateCall, n int) {
	name := StateGlobal + "." + c.op
	key, value, err := stateArgs(c.op, c.args)
	ev := bridge.Event{RootCallID: s.rootID, ParentCallID: s.callID, SubCallID: fmt.Sprintf("%s:state:%d", s.callID, n), Name: name, Binding: StateGlobal,
		Arguments: s.eventArgs(c.op, key, value)}
	if s.emit != nil {
		start := ev
		start.Type = bridge.EventStart
		if s.timed {
			start.Time = time.Now()
		}
		ev.Started = start.Time
		s.emit(start)
	}
	var res jsonv.Value
	switch {
	case err != nil:
	case s.intercept != nil:
		op := StateOp{Op: c.op, Key: key, Scope: s.scope}
		if c.op == "set" {
			op.Value = jsonv.AppendJSON(nil, value)
		}
		res, err = s.intercept(c.ctx, op, func(ctx context.Context) (jsonv.Value, error) { return s.run(ctx, c.op, key, value) })
	default:
		res, err = s.run(c.ctx, c.op, key, value)
	}
	if err != nil {
		err = fmt.Errorf("%s: %w", name, err)
	}
	if s.emit != nil {
		ev.Type = bridge.EventSettle
		if s.timed {
			ev.Time = time.Now()
			ev.Running = ev.Time.Sub(ev.Started)
		}
		if err != nil {
			ev.IsError, ev.ErrorMessage = true, err.Error()
		} else if !s.redact || c.op != "get" {
			ev.Result = res
		}
		s.emit(ev)
	}
	c.settle(res, err)
}

// eventArgs are the arguments a trace records: the key, and the value of a set unless values
// are redacted.
func (s *stateRun) eventArgs(op, key string, value jsonv.Value) jsonv.Value {
	var ms []jsonv.Member
	if op != "keys" {
		ms = append(ms, jsonv.Member{Key: "key", Value: jsonv.StringValue(key)})
	}
	if op == "set" && !s.redact && value.IsDefined() {
		ms = append(ms, jsonv.Member{Key: "value", Value: value})
	}
	return jsonv.ObjectValue(ms...)
}

// stateArgs checks the arguments of op, a JSON array of the program's arguments.
func stateArgs(op string, args jsonv.Value) (key string, value jsonv.Value, err error) {
	want := map[string]int{"get": 1, "set": 2, "delete": 1, "keys": 0}[op]
	usage := map[string]string{"get": "state.get(key)", "set": "state.set(key, value)", "delete": "state.delete(key)", "keys": "state.keys()"}[op]
	if args.Len() != want {
		return "", jsonv.Value{}, fmt.Errorf("takes %d argument(s), got %d: call it as %s", want, args.Len(), usage)
	}
	if want == 0 {
		return "", jsonv.Value{}, nil
	}
	k := args.Index(0)
	if k.Kind() != jsonv.String {
		return "", jsonv.Value{}, fmt.Errorf("the key must be a string, got %s", k.Kind())
	}
	if err := CheckStateKey(k.AsString()); err != nil {
		return "", jsonv.Value{}, err
	}
	if want == 2 {
		value = args.Index(1)
	}
	return k.AsString(), value, nil
}

// run does op against the store.
func (s *stateRun) run(ctx context.Context, op, key string, value jsonv.Value) (jsonv.Value, error) {
	if err := ctx.Err(); err != nil {
		return jsonv.Value{}, fmt.Errorf("the run has ended: %w", context.Cause(ctx))
	}
	switch op {
	case "get":
		data, ok, err := s.store.Get(ctx, s.scope, key)
		if err != nil || !ok {
			return jsonv.Value{}, err // missing: undefined
		}
		v, err := jsonv.Parse(data)
		if err != nil {
			return jsonv.Value{}, fmt.Errorf("the stored value of %q is not JSON: %w", key, err)
		}
		return v, nil
	case "set":
		return jsonv.Value{}, s.store.Set(ctx, s.scope, key, jsonv.AppendJSON(nil, value)) // resolves undefined
	case "delete":
		return jsonv.Value{}, s.store.Delete(ctx, s.scope, key)
	default: // keys
		keys, err := s.store.Keys(ctx, s.scope)
		if err != nil {
			return jsonv.Value{}, err
		}
		vs := make([]jsonv.Value, len(keys))
		for i, k := range keys {
			vs[i] = jsonv.StringValue(k)
		}
		return jsonv.ArrayValue(vs...), nil
	}
}
