// Package toolsets builds a host's registry from its tool sources at once: tool manifests
// (package toolsets/command), MCP servers and MCP client configuration files (package
// mcptools), and the built-in workspace file tools (package toolsets/workspace).
//
//	reg, closeAll, err := toolsets.Load(ctx, toolsets.Sources{Configs: []string{"mcp.json"}, Workspace: "."})
//
// A tool name defined by two sources is an error naming both; MCP servers start (or are dialled)
// all at once, and their tools stay registered as they change ([mcptools.Sync]).
package toolsets

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/toolsets/command"
	"github.com/runcode-dev/runcode/toolsets/workspace"
)

// ConfigChainEnv is the variable through which Load tells the servers it starts from Configs
// which files it loads (absolute paths, in filepath.ListSeparator-separated form), so that a
// runcode among them that would load one of them again (the client's own file, with runcode's
// entry in it) stops with an error instead of starting itself without end.
const ConfigChainEnv = "RUNCODE_CONFIG_CHAIN"

// DefaultConnectTimeout bounds starting, initializing and listing one MCP server.
const DefaultConnectTimeout = 30 * time.Second

// Sources are the tool sources of one host. The zero value loads the workspace of the current
// directory (see DefaultWorkspace).
type Sources struct {
	// Manifests are tool manifest files (command.Load).
	Manifests []string
	// MCP are MCP servers, labelled in errors by their names.
	MCP []mcptools.Source
	// Configs are MCP client configuration files (mcptools.LoadConfig): one source per server
	// not marked disabled, namespaced by its name. A server name in two files is an error
	// naming both.
	Configs []string
	// MaxMessageBytes is the Source.MaxMessageBytes of each MCP source that sets none (zero:
	// mcptools.DefaultMaxMessageBytes).
	MaxMessageBytes int
	// Workspace, when set, adds the workspace file tools rooted at that directory, opened with
	// WorkspaceOptions.
	Workspace        string
	WorkspaceOptions workspace.Options
	// NoDefaultWorkspace keeps Load from opening the workspace of the current directory when
	// no source is given (the default: a host with no sources still has files to work on).
	NoDefaultWorkspace bool
	// ConnectTimeout bounds connecting every MCP server (zero: DefaultConnectTimeout).
	ConnectTimeout time.Duration
	// NoApprovals makes no tool need approval (registry.Tool.RequiresApproval false): a
	// manifest's "approval": "required", a configuration's approval keys and the MCP
	// destructiveHint default are all ignored. For trusted setups (runcode's --no-approvals).
	NoApprovals bool
	// OnNote, when set, receives the configuration files' notes (servers skipped as disabled,
	// keys without effect yet), once each: warnings for the user.
	OnNote func(note string)
}

// Load builds a registry from the sources. MCP servers are started or dialled all at once and
// closed, with the workspace, by the returned function; their tools stay registered as the
// servers change them (mcptools.Sync). A tool name defined by two sources is an error naming
// both; on any error, what was opened is closed.
// ctx bounds connecting the MCP servers only; they live until the returned function is called.
func Load(ctx context.Context, s Sources) (*registry.Registry, func(), error) {
	type sourced struct {
		label string
		tools []registry.Tool
		live  *mcptools.Sync // MCP sources: keeps the registration current
	}
	var all []sourced
	var closers []func() error
	closeAll := func() {
		for _, c := range closers {
			c()
		}
	}
	for _, m := range s.Manifests {
		tools, err := command.Load(m)
		if err != nil {
			return nil, nil, err
		}
		if s.NoApprovals {
			for i := range tools {
				tools[i].RequiresApproval = false
			}
		}
		all = append(all, sourced{"manifest " + m, tools, nil})
	}
	mcpSources := slices.Clone(s.MCP)
	mcpLabels := make([]string, len(mcpSources)) // "" for a server labelled by its name
	configured, labels, err := configSources(s.Configs, s.OnNote)
	if err != nil {
		return nil, nil, err
	}
	mcpSources = append(mcpSources, configured...)
	mcpLabels = append(mcpLabels, labels...)
	reg := registry.New()
	lives := make([]*mcptools.Sync, len(mcpSources))
	for i := range mcpSources {
		if mcpSources[i].MaxMessageBytes == 0 {
			mcpSources[i].MaxMessageBytes = s.MaxMessageBytes
		}
		if s.NoApprovals {
			mcpSources[i].Approval = mcptools.ApprovalNone
		}
		lives[i] = mcptools.NewSync(reg)
		mcpSources[i].OnToolsChanged = lives[i].Update
	}
	timeout := s.ConnectTimeout
	if timeout <= 0 {
		timeout = DefaultConnectTimeout
	}
	servers, err := connectAll(ctx, mcpSources, timeout)
	if err != nil {
		return nil, nil, err
	}
	for i, srv := range servers {
		closers = append(closers, srv.Close)
		label := fmt.Sprintf("MCP server %q", srv.Name())
		if mcpLabels[i] != "" {
			label = mcpLabels[i]
		}
		all = append(all, sourced{label, srv.Tools(), lives[i]})
	}
	if s.Workspace != "" || (!s.NoDefaultWorkspace && len(s.Manifests) == 0 && len(mcpSources) == 0) {
		dir := s.Workspace
		if dir == "" {
			dir = "."
		}
		ws, err := workspace.OpenWith(dir, s.WorkspaceOptions)
		if err != nil {
			closeAll() // the MCP servers connected above
			return nil, nil, fmt.Errorf("workspace: %w", err)
		}
		closers = append(closers, ws.Close)
		all = append(all, sourced{"workspace " + ws.Root(), ws.Tools(), nil})
	}
	owner := map[string]string{}
	for _, src := range all {
		for _, t := range src.tools {
			if prev, dup := owner[t.Name]; dup {
				closeAll()
				return nil, nil, fmt.Errorf("tool %q is defined by both %s and %s", t.Name, prev, src.label)
			}
			owner[t.Name] = src.label
		}
		if src.live != nil {
			if err := src.live.Register(src.label, src.tools); err != nil {
				closeAll()
				return nil, nil, err
			}
			continue
		}
		if _, err := reg.Register(src.tools...); err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("%s: %w", src.label, err)
		}
	}
	return reg, closeAll, nil
}

// configSources reads the configuration files: one source per server, namespaced by default,
// with its label. A server name in two files is an error naming both. The files' notes go to
// onNote, once each.
func configSources(configs []string, onNote func(string)) ([]mcptools.Source, []string, error) {
	var out []mcptools.Source
	var labels []string
	fileOf := map[string]string{} // server name → the file that defines it
	chain := filepath.SplitList(os.Getenv(ConfigChainEnv))
	for _, file := range configs {
		if abs, err := filepath.Abs(file); err == nil {
			if slices.Contains(chain, abs) {
				return nil, nil, fmt.Errorf("config %s is already being loaded by the runcode that started this one (a loop: keep runcode's own entry out of the file it reads)", file)
			}
			chain = append(chain, abs)
		}
	}
	// A runcode among the servers must not load these files again.
	hostEnv := map[string]string{ConfigChainEnv: strings.Join(chain, string(filepath.ListSeparator))}
	for _, file := range configs {
		cfg, err := mcptools.LoadConfig(file)
		if err != nil {
			return nil, nil, err
		}
		for _, note := range cfg.Notes {
			if onNote != nil {
				onNote(note)
			}
		}
		for _, src := range cfg.Sources {
			if prev, dup := fileOf[src.Name]; dup {
				return nil, nil, fmt.Errorf("server %q is defined by both config %s and config %s", src.Name, prev, file)
			}
			fileOf[src.Name] = file
			if len(src.Command) > 0 {
				src.HostEnv = hostEnv
			}
			out = append(out, src)
			labels = append(labels, fmt.Sprintf("server %q of config %s", src.Name, file))
		}
	}
	return out, labels, nil
}

// connectAll starts or dials every MCP source at once, so that start-up takes as long as the
// slowest server, bounded by timeout. When one fails, the others are stopped (those still
// starting are cancelled) and the error is the failed server's, naming it.
func connectAll(ctx context.Context, srcs []mcptools.Source, timeout time.Duration) ([]*mcptools.Server, error) {
	servers := make([]*mcptools.Server, len(srcs))
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	g, ctx := errgroup.WithContext(ctx)
	for i, src := range srcs {
		g.Go(func() error {
			srv, err := mcptools.Connect(ctx, src)
			servers[i] = srv
			return err
		})
	}
	if err := g.Wait(); err != nil {
		for _, srv := range servers {
			if srv != nil {
				srv.Close()
			}
		}
		return nil, err
	}
	return servers, nil
}
