package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// Defaults applied to zero Config fields.
const (
	DefaultComputeBudget  = 60 * time.Second // Config.ComputeBudget
	DefaultWallCeiling    = 10 * time.Minute // Config.WallCeiling
	DefaultMaxOutputBytes = 64 << 20         // Config.MaxOutputBytes
	DefaultMaxStackDepth  = 1000             // Config.MaxStackDepth
)

// minOutputBytes is the smallest usable output cap: "[]" for the logs plus "" for a message.
const minOutputBytes = 4

// ErrInvalidRequest reports a Request that misuses the contract (bad or clashing binding names).
// Run wraps it; test with errors.Is.
var ErrInvalidRequest = errors.New("jsruntime: invalid request")

// Config tunes a Goja runtime. The zero Config is usable: every zero field takes its default.
type Config struct {
	// ComputeBudget bounds the time the program spends running JavaScript (busy time); time spent
	// idle, waiting for host functions to settle, is not counted. Zero means 60s.
	ComputeBudget time.Duration
	// WallCeiling bounds the elapsed time of a run, waits included. Zero means 10m.
	WallCeiling time.Duration
	// MaxOutputBytes caps the combined output of a run: the JSON of the logs plus the JSON of the
	// completion value or of the failure message. Zero means 64 MiB; otherwise at least 4.
	MaxOutputBytes int
	// MaxStackDepth caps the JavaScript call stack; deeper recursion fails with "Maximum call
	// stack size exceeded". Zero means 1000.
	MaxStackDepth int
}

// Goja is the in-process goja backend of Runtime. It is safe for concurrent use; every run gets
// a fresh goja.Runtime that is never reused.
type Goja struct {
	cfg     Config
	prelude *goja.Program
	cache   programCache
}

var _ Runtime = (*Goja)(nil)

// New validates cfg, applies its defaults and returns a runtime.
func New(cfg Config) (*Goja, error) {
	switch {
	case cfg.ComputeBudget < 0:
		return nil, fmt.Errorf("jsruntime: Config.ComputeBudget must not be negative, got %v", cfg.ComputeBudget)
	case cfg.WallCeiling < 0:
		return nil, fmt.Errorf("jsruntime: Config.WallCeiling must not be negative, got %v", cfg.WallCeiling)
	case cfg.MaxOutputBytes < 0 || (cfg.MaxOutputBytes > 0 && cfg.MaxOutputBytes < minOutputBytes):
		return nil, fmt.Errorf("jsruntime: Config.MaxOutputBytes must be 0 (default) or at least %d, got %d", minOutputBytes, cfg.MaxOutputBytes)
	case cfg.MaxStackDepth < 0:
		return nil, fmt.Errorf("jsruntime: Config.MaxStackDepth must not be negative, got %d", cfg.MaxStackDepth)
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
	prelude, err := goja.Compile("prelude.js", preludeSource, true)
	if err != nil {
		return nil, fmt.Errorf("jsruntime: compiling the prelude: %w", err)
	}
	return &Goja{cfg: cfg, prelude: prelude}, nil
}

// Config returns the effective configuration, defaults applied.
func (g *Goja) Config() Config { return g.cfg }

// Run runs one program. It returns a Go error only when req misuses the contract (see
// ErrInvalidRequest); every failure of the program itself, including cancellation of ctx, is
// reported in Result.Error. Run returns when the program function settles: host calls still
// pending then are abandoned (their ctx is cancelled and their settle calls are ignored).
func (g *Goja) Run(ctx context.Context, req Request) (Result, error) {
	if err := validateBindings(req.Bindings); err != nil {
		return Result{}, err
	}
	led := newLedger(g.cfg.MaxOutputBytes)
	if ctx.Err() != nil {
		return led.fail(&Failure{Kind: KindAbort, Message: context.Cause(ctx).Error()}), nil
	}
	prg, msg := g.compile(req)
	if prg == nil {
		return led.fail(&Failure{Kind: KindException, Message: msg}), nil
	}
	r := newRun(ctx, g, req, led)
	return r.execute(prg), nil
}

// preludeSource runs once per run before the program. It polyfills the well-known symbols that
// esbuild's lowered async iteration and `using` need, and returns a factory for the injected
// error classes built only from intrinsics captured before the program can change them.
const preludeSource = `(function () {
	"use strict";
	const defineProperty = Object.defineProperty, symbolFor = Symbol.for, toString = String;
	for (const n of ["asyncIterator", "dispose", "asyncDispose"]) {
		if (!Symbol[n]) defineProperty(Symbol, n, { __proto__: null, value: symbolFor("Symbol." + n) });
	}
	const BaseError = Error;
	return function makeErrorClass(name, member) {
		const C = class extends BaseError {
			constructor(memberName, message) {
				super(message);
				defineProperty(this, "name", { __proto__: null, value: name, enumerable: true });
				defineProperty(this, member, { __proto__: null, value: toString(memberName), enumerable: true });
			}
		};
		defineProperty(C, "name", { __proto__: null, value: name });
		return C;
	};
})()`

var identifierRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// reservedWords are ECMAScript reserved and strict-mode words, none usable as a parameter name.
var reservedWords = wordSet(`break case catch class const continue debugger default delete do
	else enum export extends false finally for function if import in instanceof new null return
	super switch this throw true try typeof var void while with yield let static implements
	interface package private protected public await arguments eval undefined NaN Infinity`)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// reservedGlobals are names the runtime itself injects.
var reservedGlobals = map[string]bool{"console": true}

// reservedMembers cannot name the member-name property of an error class.
var reservedMembers = map[string]bool{
	"name": true, "message": true, "stack": true, "cause": true, "constructor": true,
	"args": true, "with_traceback": true, "add_note": true,
}

// checkIdentifier reports why name cannot be injected as a parameter of the program function.
// Names starting with "__" are reserved: esbuild's helpers live there.
func checkIdentifier(what, name string) error {
	if !identifierRE.MatchString(name) || reservedWords[name] {
		return fmt.Errorf("%w: %s %q is not a usable identifier", ErrInvalidRequest, what, name)
	}
	if reservedGlobals[name] || strings.HasPrefix(name, "__") {
		return fmt.Errorf("%w: reserved binding global %q", ErrInvalidRequest, name)
	}
	return nil
}

func validateBindings(nss []Namespace) error {
	injected := map[string]bool{}
	for _, ns := range nss {
		if err := checkIdentifier("binding global", ns.Global); err != nil {
			return err
		}
		if injected[ns.Global] {
			return fmt.Errorf("%w: duplicate binding global %q", ErrInvalidRequest, ns.Global)
		}
		injected[ns.Global] = true
		names := make(map[string]bool, len(ns.Functions))
		for _, f := range ns.Functions {
			if names[f.Name] {
				return fmt.Errorf("%w: duplicate function %q in binding %q", ErrInvalidRequest, f.Name, ns.Global)
			}
			names[f.Name] = true
			if f.Call == nil {
				return fmt.Errorf("%w: function %q in binding %q has no Call", ErrInvalidRequest, f.Name, ns.Global)
			}
		}
	}
	for _, ns := range nss {
		ec := ns.ErrorClass
		if ec == nil {
			continue
		}
		if err := checkIdentifier("binding error class", ec.Name); err != nil {
			return err
		}
		if injected[ec.Name] {
			return fmt.Errorf("%w: duplicate injected global %q", ErrInvalidRequest, ec.Name)
		}
		injected[ec.Name] = true
		m := ec.MemberNameProperty
		if m == "" || reservedMembers[m] || (len(m) > 4 && strings.HasPrefix(m, "__") && strings.HasSuffix(m, "__")) {
			return fmt.Errorf("%w: binding error member property %q is not usable", ErrInvalidRequest, m)
		}
	}
	return nil
}
