package main

import (
	"fmt"
	"github.com/runcode-dev/runcode/codemode"
	"slices"
	"strings"

	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/replay"
)

// loadReplay reads the trace of `run --replay FILE`. A file that cannot be read, or is not a
// trace, is a usage error (exit 2) naming the file and the line.
func loadReplay(path string) (*replay.Executor, error) {
	rp, err := replay.Load(path)
	if err != nil {
		return nil, fmt.Errorf("--replay: %w", err)
	}
	return rp, nil
}

// given reports whether any tool source flag was given.
func (s *sources) given() bool {
	return len(s.manifests) > 0 || len(s.mcp) > 0 || len(s.remotes) > 0 || len(s.configs) > 0 || s.workspace != ""
}

// replayTools is the registry of a replay without source flags: the tool names the trace
// records, each accepting any arguments and returning any JSON value. The default workspace
// is not opened: a replay needs nothing but its trace.
func replayTools(rp *replay.Executor, library bool) (*registry.Registry, func(), error) {
	reg := registry.New()
	tools := rp.Tools()
	if library {
		// The saved programs' tools come from the library (codemode registers them); the
		// recording still answers their calls.
		tools = slices.DeleteFunc(tools, func(t registry.Tool) bool { return strings.HasPrefix(t.Name, codemode.ProgramsNamespace+".") })
	}
	if _, err := reg.Register(tools...); err != nil {
		return nil, nil, fmt.Errorf("--replay: %w", err)
	}
	return reg, func() {}, nil
}
