package mcptools

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/runcode-dev/runcode/registry"
)

// Sync keeps one MCP server's tools registered in a registry while the server changes them:
// set its Update as the Source's OnToolsChanged, connect, and make the first registration with
// Register.
//
//	sync := mcptools.NewSync(reg)
//	src.OnToolsChanged = sync.Update
//	srv, err := mcptools.Connect(ctx, src)
//	…
//	err = sync.Register("MCP server "+srv.Name(), srv.Tools())
//
// A change may arrive at any time, even before Register (the server may announce one while
// Connect lists its tools): the newest set delivered by Update then replaces the one given to
// Register. Update and Register may run concurrently. Programs see a new set from their next
// run; a run that starts during the swap may miss the server's tools. A set that changes
// nothing models or programs see is ignored. A failed re-listing is logged and keeps the
// current set; a refused registration is logged and leaves the server without tools rather
// than with stale ones.
type Sync struct {
	reg *registry.Registry

	mu         sync.Mutex
	label      string          // names the source in warnings
	registered bool            // Register has been called
	pending    []registry.Tool // the newest set delivered by Update before Register
	hasPending bool
	unregister func() // of the registered set; never nil once registered
	current    string // fingerprint of the registered set
}

// NewSync returns a Sync for one server's tools in reg.
func NewSync(reg *registry.Registry) *Sync {
	return &Sync{reg: reg, label: "MCP server", unregister: func() {}}
}

// Register makes the first registration: tools (the server's set as Connect listed it,
// Server.Tools), or the newer set Update delivered before. label names the source in its error
// and in the warnings of later changes (e.g. `MCP server "memory"`). It fails as
// registry.Register does; it is called once.
func (s *Sync) Register(label string, tools []registry.Tool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.label = label
	if s.registered {
		return fmt.Errorf("%s: mcptools.Sync.Register called twice", s.label)
	}
	s.registered = true
	if s.hasPending {
		tools, s.pending, s.hasPending = s.pending, nil, false
	}
	unregister, err := s.reg.Register(tools...)
	if err != nil {
		return fmt.Errorf("%s: %w", s.label, err)
	}
	s.unregister, s.current = unregister, fingerprint(tools)
	return nil
}

// Update is the Source.OnToolsChanged of the server whose tools s keeps.
func (s *Sync) Update(tools []registry.Tool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		slog.Warn("refreshing MCP tools failed", "source", s.label, "error", err)
		return
	}
	if !s.registered {
		s.pending, s.hasPending = tools, true
		return
	}
	fp := fingerprint(tools)
	if fp == s.current {
		return
	}
	s.current = fp
	s.unregister()
	s.unregister = func() {}
	unregister, err := s.reg.Register(tools...)
	if err != nil {
		slog.Warn("registering refreshed MCP tools failed", "source", s.label, "error", err)
		return
	}
	s.unregister = unregister
}

// fingerprint identifies a tool set by what models and programs see of it.
func fingerprint(tools []registry.Tool) string {
	var b strings.Builder
	for _, t := range tools {
		b.WriteString(t.Name + "\x00" + t.Description + "\x00" + t.Parameters.String() + "\x00" + t.Output.Schema.String() + "\x01")
	}
	return b.String()
}
