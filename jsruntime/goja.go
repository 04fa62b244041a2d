package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/jsonv"
)

// Defaults applied to zero Config fields.
const (
	DefaultComputeBudget  = 60 * time.Second // Config.ComputeBudget
	DefaultWallCeiling    = 10 * time.Minute // Config.WallCeiling
	DefaultMaxOutputBytes = 64 << 20         // Config.MaxOutputBytes
	DefaultMaxStackDepth  = 1000             // Config.MaxStackDepth
	DefaultMaxHeapBytes   = 512 << 20        // Config.MaxHeapBytes
	DefaultPrewarm        = 1                // Config.Prewarm
)

// regexpMatchTimeout bounds one regular-expression match. goja's backtracking engine (regexp2)
// cannot be interrupted, so a catastrophic pattern would otherwise hold the run past every
// budget; a match that runs this long throws a RangeError in the program instead.
const regexpMatchTimeout = 250 * time.Millisecond

// maxWallCeiling is upstream's largest maxWallMs (2^31-1 ms).
const maxWallCeiling = 2147483647 * time.Millisecond

// minOutputBytes is the smallest usable output cap: "[]" for the logs plus "" for a message.
const minOutputBytes = 4

// ErrInvalidRequest reports a Request that misuses the contract (bad or clashing binding names).
// Run's error matches it with errors.Is; the message names the offending binding, e.g.
// `jsruntime: binding global "my-tools" is not a usable identifier`.
var ErrInvalidRequest = errors.New("jsruntime: invalid request")

// ErrClosed is returned by Run after Close: "jsruntime: run() after disposal".
var ErrClosed = errors.New("jsruntime: run() after disposal")

// contractError is a contract violation: its message is upstream's, prefixed with "jsruntime: ".
type contractError struct{ msg string }

// Error says how the request broke the contract.
func (e *contractError) Error() string { return "jsruntime: " + e.msg }

// Is makes every contract error match ErrInvalidRequest.
func (e *contractError) Is(target error) bool { return target == ErrInvalidRequest }

func misuse(format string, args ...any) error {
	return &contractError{msg: fmt.Sprintf(format, args...)}
}

// Config tunes a runtime. The zero Config is usable: every zero field takes its default.
type Config struct {
	// ComputeBudget bounds the time the program spends running JavaScript (busy time); time spent
	// idle, waiting for host functions to settle, is not counted. Zero means 60s.
	ComputeBudget time.Duration
	// WallCeiling bounds the elapsed time of a run, waits included. Zero means 10m; at most
	// 2147483647ms.
	WallCeiling time.Duration
	// MaxOutputBytes caps the combined output of a run: the JSON of the logs plus the JSON of the
	// completion value or of the failure message. Zero means 64 MiB; otherwise at least 4.
	MaxOutputBytes int
	// MaxStackDepth caps the JavaScript call stack; deeper recursion fails with "Maximum call
	// stack size exceeded". Zero means 1000.
	MaxStackDepth int
	// MaxHeapBytes is the memory bound. The heap watchdog fails every live run with a
	// worker-exit failure when the Go heap of the whole process has grown by more than this since
	// the watchdog started (it runs while any run of the runtime is live); built-ins that
	// allocate in one native step (String.prototype.repeat, padStart, padEnd, Array.prototype
	// join and fill, Array.from, typed arrays, ArrayBuffer) throw a RangeError instead of
	// allocating more than a quarter of it at once. Zero means 512 MiB.
	MaxHeapBytes int64
	// Prewarm is how many fresh goja runtimes, prelude installed, the runtime keeps ready for
	// the next runs. Preparing one is most of the fixed cost of a run; after a run takes one, a
	// background goroutine prepares its replacement, so a run that finds one ready starts
	// sooner (the CPU is spent all the same, earlier). A prepared runtime is never reused and
	// holds a few hundred KiB. Zero means 1; a negative value turns prewarming off.
	Prewarm int
}

// validate checks cfg and applies its defaults.
func (cfg Config) validate() (Config, error) {
	switch {
	case cfg.ComputeBudget < 0:
		return cfg, fmt.Errorf("jsruntime: config.ComputeBudget must be a positive duration, got %v", cfg.ComputeBudget)
	case cfg.WallCeiling < 0:
		return cfg, fmt.Errorf("jsruntime: config.WallCeiling must be a positive duration, got %v", cfg.WallCeiling)
	case cfg.WallCeiling > maxWallCeiling:
		return cfg, fmt.Errorf("jsruntime: config.WallCeiling must be at most 2147483647ms, got %v", cfg.WallCeiling)
	case cfg.MaxOutputBytes < 0 || (cfg.MaxOutputBytes > 0 && cfg.MaxOutputBytes < minOutputBytes):
		return cfg, fmt.Errorf("jsruntime: config.MaxOutputBytes must be a safe integer of at least %d, got %d", minOutputBytes, cfg.MaxOutputBytes)
	case cfg.MaxStackDepth < 0:
		return cfg, fmt.Errorf("jsruntime: config.MaxStackDepth must be a positive number, got %d", cfg.MaxStackDepth)
	case cfg.MaxHeapBytes < 0:
		return cfg, fmt.Errorf("jsruntime: config.MaxHeapBytes must be a positive number, got %d", cfg.MaxHeapBytes)
	}
	if cfg.ComputeBudget == 0 {
		cfg.ComputeBudget = DefaultComputeBudget
	}
	if cfg.WallCeiling == 0 {
		cfg.WallCeiling = DefaultWallCeiling
	}
	if cfg.MaxOutputBytes == 0 {
		cfg.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if cfg.MaxStackDepth == 0 {
		cfg.MaxStackDepth = DefaultMaxStackDepth
	}
	if cfg.MaxHeapBytes == 0 {
		cfg.MaxHeapBytes = DefaultMaxHeapBytes
	}
	switch {
	case cfg.Prewarm == 0:
		cfg.Prewarm = DefaultPrewarm
	case cfg.Prewarm < 0:
		cfg.Prewarm = 0
	}
	return cfg, nil
}

// Goja is the in-process goja backend of Runtime. It is safe for concurrent use; every run gets
// a fresh goja.Runtime that is never reused. Close disposes of it.
type Goja struct {
	cfg       Config
	prelude   *goja.Program
	polyfills *goja.Program
	cache     programCache

	// hooks lets the process worker give up on a stuck run; zero in-process.
	hooks runHooks

	mu       sync.Mutex
	closed   bool
	live     map[*run]struct{}
	runs     sync.WaitGroup // live runs
	watchdog *watchdog      // running while len(live) > 0
	// tripped records that the watchdog stopped runs: the next watchdog starts only after a
	// collection, so that the garbage those runs left does not count against the next run.
	tripped bool

	// spare holds up to cfg.Prewarm prepared realms; refilling is set while the refill
	// goroutine runs, and refills waits for it.
	spare     chan *realm
	refilling bool
	refills   sync.WaitGroup
	// shape (names only) is the bindings of the latest run: realms are prepared with their
	// objects built, on the bet that the next run binds the same.
	shape []boundNamespace
}

// runHooks are callbacks for the process worker.
type runHooks struct {
	// onStuck is called from a timer goroutine when a stopped run has not ended within
	// stuckGrace (JavaScript is stuck in one native step); the worker reports f and exits.
	onStuck    func(f *Failure)
	stuckGrace time.Duration
}

var _ Runtime = (*Goja)(nil)

// New validates cfg, applies its defaults and returns a runtime. The first call sets regexp2's
// process-wide DefaultMatchTimeout to regexpMatchTimeout (see setRegexpTimeout).
func New(cfg Config) (*Goja, error) {
	cfg, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	setRegexpTimeout()
	prelude, err := goja.Compile("prelude.js", preludeSource, true)
	if err != nil {
		return nil, fmt.Errorf("jsruntime: compiling the prelude: %w", err)
	}
	polyfills, err := goja.Compile("polyfills.js", polyfillSource, true)
	if err != nil {
		return nil, fmt.Errorf("jsruntime: compiling the polyfills: %w", err)
	}
	return &Goja{cfg: cfg, prelude: prelude, polyfills: polyfills, live: map[*run]struct{}{}, spare: make(chan *realm, cfg.Prewarm)}, nil
}

// takeRealm returns a prepared realm if one is ready, or else prepares one, and starts
// preparing replacements in the background for requests bound like bound.
func (g *Goja) takeRealm(bound []boundNamespace) (rl *realm, err error) {
	if cap(g.spare) > 0 {
		g.mu.Lock()
		if g.shape == nil || !sameShape(bound, g.shape) {
			g.shape = namesOnly(bound)
		}
		g.mu.Unlock()
		defer g.refill()
		select {
		case rl = <-g.spare:
			return rl, nil
		default:
		}
	}
	return newRealm(g.cfg, g.prelude, nil)
}

// lastShape returns the bindings of the latest run (names only), or nil.
func (g *Goja) lastShape() []boundNamespace {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.shape
}

// refill starts the goroutine that fills g.spare, unless it is running, full, or closed.
func (g *Goja) refill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.refilling || g.closed || len(g.spare) == cap(g.spare) {
		return
	}
	g.refilling = true
	g.refills.Add(1)
	go func() {
		defer g.refills.Done()
		for {
			g.mu.Lock()
			if g.closed || len(g.spare) == cap(g.spare) {
				g.refilling = false
				g.mu.Unlock()
				return
			}
			shape := g.shape
			g.mu.Unlock()
			rl, err := newRealm(g.cfg, g.prelude, shape)
			if err != nil { // cannot happen with the built-in prelude; runs will report it
				g.mu.Lock()
				g.refilling = false
				g.mu.Unlock()
				return
			}
			select {
			case g.spare <- rl:
			default: // filled meanwhile by nobody else: only this goroutine sends
			}
		}
	}()
}

// Config returns the effective configuration, defaults applied.
func (g *Goja) Config() Config { return g.cfg }

// Run runs one program. It returns a Go error only when req misuses the contract (see
// ErrInvalidRequest) or the runtime is closed (ErrClosed); every failure of the program itself,
// including cancellation of ctx, is reported in Result.Error. Run returns when the program
// function settles: host calls still pending then are abandoned (their ctx is cancelled and
// their settle calls are ignored).
func (g *Goja) Run(ctx context.Context, req Request) (Result, error) {
	if g.isClosed() {
		return Result{}, ErrClosed
	}
	bound, err := bindNamespaces(req.Bindings, g.lastShape())
	if err != nil {
		return Result{}, err
	}
	led := newLedger(g.cfg.MaxOutputBytes, req.OnLog)
	if ctx.Err() != nil {
		return led.fail(&Failure{Kind: KindAbort, Message: context.Cause(ctx).Error()}), nil
	}
	compileSpan := startSpan(ctx, &req, SpanCompile, IsolationInProcess)
	c, err := g.compile(ctx, req)
	if err != nil {
		f := &Failure{Kind: KindAbort, Message: err.Error()}
		endSpan(compileSpan, f)
		return led.fail(f), nil
	}
	if c.prg == nil {
		f := &Failure{Kind: KindException, Message: c.msg}
		endSpan(compileSpan, f)
		return led.fail(f), nil
	}
	endSpan(compileSpan, nil)
	runSpan := startSpan(ctx, &req, SpanRun, IsolationInProcess)
	res, err := g.runCompiled(ctx, req, bound, led, c)
	if err != nil {
		endSpan(runSpan, &Failure{Kind: KindAbort, Message: err.Error()})
	} else {
		endSpan(runSpan, res.Error)
	}
	return res, err
}

// runCompiled runs the compiled program c of req with its namespaces bound.
func (g *Goja) runCompiled(ctx context.Context, req Request, bound []boundNamespace, led *ledger, c compiled) (Result, error) {
	prg := c.prg
	rl, err := g.takeRealm(bound)
	if err != nil {
		return led.fail(&Failure{Kind: KindException, Message: err.Error()}), nil
	}
	r := newRun(ctx, g, req, led, rl)
	r.lineOneShift = c.lineOneShift
	r.polyfills = c.polyfills
	r.generators = c.generators
	r.bound = bound
	if !g.enlist(r) {
		return Result{}, ErrClosed
	}
	defer g.discharge(r)
	return r.execute(prg), nil
}

func (g *Goja) isClosed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

// enlist registers a live run, starting the heap watchdog for the first one.
func (g *Goja) enlist(r *run) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.live[r] = struct{}{}
	g.runs.Add(1)
	if g.watchdog == nil {
		if g.tripped {
			g.tripped = false
			runtime.GC() // the runs that allocated without end have ended: reclaim their heap
		}
		g.watchdog = startWatchdog(g.cfg.MaxHeapBytes, g.stopAll)
	}
	return true
}

// discharge unregisters a run that ended, stopping the watchdog after the last one.
func (g *Goja) discharge(r *run) {
	g.mu.Lock()
	delete(g.live, r)
	var w *watchdog
	if len(g.live) == 0 {
		w, g.watchdog = g.watchdog, nil
	}
	g.mu.Unlock()
	if w != nil {
		w.close()
	}
	g.runs.Done()
}

// stopAll stops every live run with f.
func (g *Goja) stopAll(f *Failure) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.tripped = true
	for r := range g.live {
		r.stop(f)
	}
}

// Close disposes of the runtime: later runs fail with ErrClosed, live runs end with the abort
// failure "runtime disposed", and Close returns once they (and the watchdog) have ended. A run
// stuck in one native step (see the package documentation) delays Close until the step returns.
// Close is idempotent.
func (g *Goja) Close() error {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.stopAll(&Failure{Kind: KindAbort, Message: msgDisposed})
	g.runs.Wait()
	g.refills.Wait()
	for len(g.spare) > 0 {
		<-g.spare
	}
	return nil
}

var identifierRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// reservedWords are upstream's PORTABLE_RESERVED_WORDS: ECMAScript reserved and strict-mode
// words, plus Python keywords and soft keywords so that a binding name is portable to a Python
// runtime, plus the global value properties goja refuses as parameters.
var reservedWords = wordSet(`break case catch class const continue debugger default delete do
	else enum export extends false finally for function if import in instanceof new null return
	super switch this throw true try typeof var void while with yield let static implements
	interface package private protected public await arguments eval undefined NaN Infinity
	False None True and as assert async def del elif except from global is lambda nonlocal not
	or pass raise match type _`)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// reservedGlobals are upstream's RESERVED_BINDING_GLOBALS. Every other name starting with "__"
// is reserved too: esbuild's helpers live there.
var reservedGlobals = map[string]bool{
	"console": true, "__dsh_main__": true, "__builtins__": true, "__name__": true, "__debug__": true,
}

// reservedMembers cannot name the member-name property of an error class (upstream's
// RESERVED_ERROR_MEMBERS).
var reservedMembers = map[string]bool{
	"name": true, "message": true, "stack": true, "args": true, "with_traceback": true, "add_note": true,
}

// checkIdentifier reports why name cannot be injected as a parameter of the program function.
func checkIdentifier(what, name string) error {
	if !identifierRE.MatchString(name) || reservedWords[name] {
		return misuse("%s %q is not a usable identifier", what, name)
	}
	if reservedGlobals[name] || strings.HasPrefix(name, "__") {
		return misuse("reserved binding global %q", name)
	}
	return nil
}

// boundNamespace is a validated Namespace: its member list, and the host function of its
// members and its inline form (nil in a realm's remembered shape; inline is nil too when no
// member has one).
type boundNamespace struct {
	global     string
	members    *Members
	call       Dispatch
	inline     Dispatch
	errorClass *ErrorClass
	noun       string
	// positional and undefinedOK are Namespace.Positional and Namespace.ResolveUndefined.
	positional, undefinedOK bool
}

// sameShape reports whether a realm's arguments built for bindings a serve bindings b: the same
// globals, member lists (by identity), error classes and nouns.
func sameShape(a, b []boundNamespace) bool {
	return slices.EqualFunc(a, b, func(x, y boundNamespace) bool {
		return x.global == y.global && x.members == y.members && x.noun == y.noun &&
			x.positional == y.positional && x.undefinedOK == y.undefinedOK &&
			(x.errorClass == nil) == (y.errorClass == nil) && (x.errorClass == nil || *x.errorClass == *y.errorClass)
	})
}

// namesOnly copies bound without the host functions, so that a remembered shape does not keep a
// finished run's host functions alive.
func namesOnly(bound []boundNamespace) []boundNamespace {
	out := slices.Clone(bound)
	for i := range out {
		out[i].call, out[i].inline = nil, nil
	}
	return out
}

// bindNamespaces validates nss and returns them bound. A namespace given as Functions gets its
// member list from last (the previous run's) when its names are the same, so that a realm
// prepared for that run serves this one.
func bindNamespaces(nss []Namespace, last []boundNamespace) ([]boundNamespace, error) {
	if err := validateBindings(nss); err != nil {
		return nil, err
	}
	bound := make([]boundNamespace, len(nss))
	for i := range nss {
		ns := &nss[i]
		b := boundNamespace{global: ns.Global, members: ns.Members, call: ns.Dispatch, inline: ns.InlineDispatch, errorClass: ns.ErrorClass, noun: ns.MemberNoun,
			positional: ns.Positional, undefinedOK: ns.ResolveUndefined}
		if b.members == nil {
			if i < len(last) && last[i].members != nil && last[i].members.sameNames(ns.Functions) {
				b.members = last[i].members
			} else {
				ms := make([]Member, len(ns.Functions))
				for j, f := range ns.Functions {
					ms[j] = Member{Name: f.Name, Group: f.Group}
				}
				m, p := newMembers(ms)
				if p != nil {
					return nil, misuse("%s", p.describe(ns.Global))
				}
				b.members = m
			}
			fns := ns.Functions
			b.call = func(ctx context.Context, j int, args jsonv.Value, settle func(jsonv.Value, error)) {
				fns[j].Call(ctx, args, settle)
			}
			if slices.ContainsFunc(fns, func(f Function) bool { return f.Inline != nil }) {
				// A function without an inline form is called through Call: it does not block.
				b.inline = func(ctx context.Context, j int, args jsonv.Value, settle func(jsonv.Value, error)) {
					if fns[j].Inline != nil {
						fns[j].Inline(ctx, args, settle)
					} else {
						fns[j].Call(ctx, args, settle)
					}
				}
			}
		}
		bound[i] = b
	}
	return bound, nil
}

func validateBindings(nss []Namespace) error {
	injected := map[string]bool{}
	for _, ns := range nss {
		if err := checkIdentifier("binding global", ns.Global); err != nil {
			return err
		}
		if injected[ns.Global] {
			return misuse("duplicate binding global %q", ns.Global)
		}
		injected[ns.Global] = true
		if ns.Members != nil {
			if len(ns.Functions) > 0 {
				return misuse("binding %q has both Functions and Members", ns.Global)
			}
			if ns.Dispatch == nil {
				return misuse("binding %q has Members and no Dispatch", ns.Global)
			}
			continue
		}
		if ns.Dispatch != nil || ns.InlineDispatch != nil {
			return misuse("binding %q has a Dispatch and no Members", ns.Global)
		}
		for _, f := range ns.Functions {
			if f.Call == nil {
				return misuse("function %q in binding %q has no Call", memberName(f.Group, f.Name), ns.Global)
			}
		}
	}
	classes := map[string]ErrorClass{}
	for _, ns := range nss {
		ec := ns.ErrorClass
		if ec == nil {
			continue
		}
		if err := checkIdentifier("binding error class", ec.Name); err != nil {
			return err
		}
		if prev, ok := classes[ec.Name]; ok && prev == *ec {
			continue // namespaces may share one class (the same name and member property)
		}
		if injected[ec.Name] {
			return misuse("duplicate injected global %q", ec.Name)
		}
		classes[ec.Name] = *ec
		injected[ec.Name] = true
		m := ec.MemberNameProperty
		if m == "" || reservedMembers[m] || dunderRE.MatchString(m) {
			return misuse("binding error member property %q is not usable", m)
		}
	}
	return nil
}

var dunderRE = regexp.MustCompile(`^__.+__$`)
