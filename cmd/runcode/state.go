package main

import (
	"flag"
	"fmt"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/sdkgen"
)

// stateFlags are --state and --max-state of run and serve.
type stateFlags struct {
	dir string
	max byteSize
}

// registerState registers --state and --max-state.
func (c *cli) registerState(fs *flag.FlagSet) {
	c.state.max = codemode.DefaultMaxState
	fs.StringVar(&c.state.dir, "state", "", "keep the values programs put in `state` in `DIR` (created if missing); without it run has no state, serve keeps it in memory (per MCP session over --http) and serve --http --stateless has none")
	fs.Var(&c.state.max, "max-state", "the most state one scope may hold, as JSON bytes of its keys and values (KiB/MiB/GiB); a state.set over it fails naming the cap")
}

func (s *stateFlags) validate() error {
	if s.max < 1<<10 {
		return &flagUsageError{"--max-state must be at least 1KiB"}
	}
	return nil
}

// stateMode is where a command keeps state when --state is not given.
type stateMode int

const (
	stateNone       stateMode = iota // run: no state without --state
	stateProcess                     // serve --stdio: one scope in memory for the process
	stateSession                     // serve --http: a scope in memory per MCP session
	stateNoneServed                  // serve --http --stateless: none without --state
)

// stateOptions sets the state fields of opts for mode, and returns the per-session store of
// serve --http (nil otherwise).
func (s *stateFlags) stateOptions(opts *codemode.Options, mode stateMode) (*codemode.MemoryStore, error) {
	if s.dir != "" {
		store, err := codemode.NewDirStore(s.dir, int64(s.max))
		if err != nil {
			return nil, fmt.Errorf("--state: %w", err)
		}
		opts.State = store
		return nil, nil
	}
	switch mode {
	case stateProcess:
		opts.State = codemode.NewMemoryStore(int64(s.max))
	case stateSession:
		m := codemode.NewMemoryStore(int64(s.max))
		opts.State = m
		return m, nil
	case stateNoneServed:
		opts.NoStateMessage = "state is not available: a serve --stateless server keeps nothing between requests; start it with --state DIR, which all its clients then share"
	default:
		opts.NoStateMessage = "state is not available: pass --state DIR to keep values between runs in DIR"
	}
	return nil, nil
}

// registerStateSDK registers --state on check, sdk and init, where it only declares state in
// the SDK (as run and serve with a store do); DIR is not opened.
func (c *cli) registerStateSDK(fs *flag.FlagSet) {
	fs.StringVar(&c.state.dir, "state", "", "declare `state` in the SDK, as run --state DIR has it (DIR is not read here)")
}

// dts is sdkgen.DTS of tools, with the state declaration when --state is given.
func (c *cli) dts(tools []sdkgen.Tool) string {
	text := sdkgen.DTS(tools)
	if c.state.dir != "" {
		text += "\n" + sdkgen.StateDeclaration + "\n"
	}
	return text
}
