package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/internal/childenv"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/toolsets"
	"github.com/runcode-dev/runcode/toolsets/workspace"
)

// stringList is a repeatable string flag.
type stringList []string

// String joins the values with commas.
func (l *stringList) String() string { return strings.Join(*l, ",") }

// Set appends one value.
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// mcpList is --mcp: each command with the --mcp-env names given after it.
type mcpList []mcpCommand

type mcpCommand struct {
	line    string   // shell words
	inherit []string // --mcp-env: the host's variables it gets beside the minimal environment
}

// String lists the commands.
func (l *mcpList) String() string {
	lines := make([]string, len(*l))
	for i, m := range *l {
		lines[i] = m.line
	}
	return strings.Join(lines, ",")
}

// Set appends one command.
func (l *mcpList) Set(s string) error { *l = append(*l, mcpCommand{line: s}); return nil }

// mcpEnvFlag is --mcp-env: it belongs to the --mcp given before it, so that a variable reaches
// the one server it is for. Problems are reported by load, with the other source errors.
type mcpEnvFlag struct{ s *sources }

// String is empty: the flag has no default.
func (f mcpEnvFlag) String() string { return "" }

// Set adds a variable name or pattern to the latest --mcp.
func (f mcpEnvFlag) Set(v string) error {
	if len(f.s.mcp) == 0 {
		f.s.orphanEnv = true
		return nil
	}
	last := &f.s.mcp[len(f.s.mcp)-1]
	last.inherit = append(last.inherit, v)
	return nil
}

// sources are the tool sources of one invocation.
type sources struct {
	manifests stringList
	mcp       mcpList    // --mcp commands, each with its --mcp-env names
	remotes   remoteList // --mcp-url, each with its --mcp-header values
	configs   stringList // --config files
	// orphanHeader is an --mcp-header given before any --mcp-url.
	orphanHeader bool
	workspace    string
	// maxWrite is the workspace tools' write budget per run; zero means the default.
	maxWrite int64
	// noApprovals is --no-approvals of run and serve: no tool needs approval.
	noApprovals bool
	// orphanEnv is an --mcp-env given before any --mcp.
	orphanEnv bool
	// mcpMaxMessage is --mcp-max-message, the cap on one message from an MCP source; zero
	// means mcpserve.DefaultMaxMessageBytes. A config entry's "maxMessageBytes" wins.
	mcpMaxMessage byteSize
}

// mcpConnectTimeout bounds starting, initializing and listing one MCP server.
const mcpConnectTimeout = 30 * time.Second

func (s *sources) register(fs *flag.FlagSet) {
	fs.Var(&s.manifests, "tools", "a tool manifest `FILE` (JSON, or YAML for .yaml/.yml); repeatable")
	fs.Var(&s.mcp, "mcp", "an MCP server started as `'CMD ARG…'` (shell words) over stdio; repeatable")
	fs.Var(mcpEnvFlag{s}, "mcp-env", "pass the host's environment variable `NAME` (or PREFIX_*, or * for all) to the --mcp before it; repeatable")
	fs.Var(&s.remotes, "mcp-url", "an MCP server over streamable HTTP at `URL`; repeatable")
	fs.Var(headerFlag{s}, "mcp-header", "an HTTP header `'Name: value'` (${VAR} expanded) for the --mcp-url before it; repeatable")
	fs.Var(&s.mcpMaxMessage, "mcp-max-message", "the largest message an MCP server may send (a stdio line, a JSON response, one server-sent event), in bytes or KiB/MiB/GiB (default 64MiB; a --config entry's maxMessageBytes wins); a larger answer fails its call only")
	fs.Var(&s.configs, "config", "an MCP client configuration `FILE` (mcpServers/servers JSON); each server's tools in a namespace named after it; repeatable")
	fs.StringVar(&s.workspace, "workspace", "", "the built-in workspace file tools rooted at `DIR`")
}

// load builds a registry from the sources (toolsets.Load); with none given, the workspace of
// the current directory. The flags' problems are usage errors. Warnings (a config's disabled
// servers) go to warn.
func (s *sources) load(warn io.Writer) (*registry.Registry, func(), error) {
	var mcpSources []mcptools.Source
	if s.orphanEnv {
		return nil, nil, &usageError{"--mcp-env must follow the --mcp it is for"}
	}
	for _, m := range s.mcp {
		argv, err := splitWords(m.line)
		if err != nil {
			return nil, nil, &usageError{fmt.Sprintf("--mcp %q: %v", m.line, err)}
		}
		if len(argv) == 0 {
			return nil, nil, &usageError{"--mcp needs a command"}
		}
		for _, p := range m.inherit {
			if err := childenv.CheckPattern(p); err != nil {
				return nil, nil, &usageError{fmt.Sprintf("--mcp-env: %v", err)}
			}
		}
		mcpSources = append(mcpSources, mcptools.Source{Command: argv, InheritEnv: m.inherit})
	}
	remotes, err := s.remoteSources()
	if err != nil {
		return nil, nil, err
	}
	mcpSources = append(mcpSources, remotes...)
	if s.mcpMaxMessage != 0 && (s.mcpMaxMessage < 1<<10 || s.mcpMaxMessage > 1<<30) {
		return nil, nil, &usageError{"--mcp-max-message must be between 1KiB and 1GiB"}
	}
	return toolsets.Load(context.Background(), toolsets.Sources{
		Manifests:        s.manifests,
		MCP:              mcpSources,
		Configs:          s.configs,
		MaxMessageBytes:  int(s.mcpMaxMessage),
		Workspace:        s.workspace,
		WorkspaceOptions: workspace.Options{MaxWriteBytes: s.maxWrite},
		ConnectTimeout:   mcpConnectTimeout,
		NoApprovals:      s.noApprovals,
		OnNote:           func(note string) { fmt.Fprintf(warn, "runcode: warning: %s\n", note) },
	})
}

// splitWords splits a command line into words the way a POSIX shell does for plain words:
// blanks separate words; 'single quotes' keep everything literally; "double quotes" keep
// everything but a backslash before one of $ ` " \ or a newline; outside quotes a backslash
// keeps the next character. There is no expansion of variables, globs or substitutions.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			inWord = true
			if i+1 == len(s) {
				return nil, errors.New("trailing backslash")
			}
			i++
			if s[i] != '\n' { // backslash-newline is a line continuation
				cur.WriteByte(s[i])
			}
		case c == '\'':
			inWord = true
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			inWord = true
			closed := false
			for i++; i < len(s); i++ {
				if s[i] == '"' {
					closed = true
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
				}
				cur.WriteByte(s[i])
			}
			if !closed {
				return nil, errors.New("unterminated double quote")
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
