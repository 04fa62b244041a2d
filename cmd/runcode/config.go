package main

// Configured MCP sources: --config files (the mcpServers / servers JSON that MCP clients keep)
// and --mcp-url with its --mcp-header values.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/runcode-dev/runcode/mcptools"
)

// configChainEnv is the variable through which runcode tells the servers it starts from
// --config files which files it loads (absolute paths, in filepath.ListSeparator-separated
// form), so that a runcode among them that would load one of them again (the client's own file,
// with runcode's entry in it) stops with an error instead of starting itself without end.
const configChainEnv = "RUNCODE_CONFIG_CHAIN"

// remoteList is --mcp-url: each URL with the --mcp-header values given after it.
type remoteList []remote

type remote struct {
	url     string
	headers []string // "Name: value", as given
}

// String lists the URLs.
func (l *remoteList) String() string {
	urls := make([]string, len(*l))
	for i, r := range *l {
		urls[i] = r.url
	}
	return strings.Join(urls, ",")
}

// Set appends one URL.
func (l *remoteList) Set(s string) error { *l = append(*l, remote{url: s}); return nil }

// headerFlag is --mcp-header: it belongs to the --mcp-url given before it, so that a token is
// sent to the one server it is for. Set never fails: the flag package would quote the value
// (a secret) in its error, so problems are reported by remoteSources.
type headerFlag struct{ s *sources }

// String is empty: the values are secrets.
func (h headerFlag) String() string { return "" }

// Set adds 'Name: value' to the latest --mcp-url.
func (h headerFlag) Set(v string) error {
	if len(h.s.remotes) == 0 {
		h.s.orphanHeader = true
		return nil
	}
	last := &h.s.remotes[len(h.s.remotes)-1]
	last.headers = append(last.headers, v)
	return nil
}

// parseHeader parses 'Name: value' and expands ${VAR} in the value. Its errors never show the
// value.
func parseHeader(line string) (name, value string, err error) {
	name, value, ok := strings.Cut(line, ":")
	name = strings.TrimSpace(name)
	if !ok || !mcptools.ValidHeaderName(name) {
		return "", "", errors.New("--mcp-header wants 'Name: value' with a header name before the colon")
	}
	value, err = mcptools.Expand(strings.TrimSpace(value), os.LookupEnv)
	if err != nil {
		return "", "", fmt.Errorf("--mcp-header %s: %v", name, err)
	}
	return name, value, nil
}

// remoteSources returns the --mcp-url sources with their headers.
func (s *sources) remoteSources() ([]mcptools.Source, error) {
	if s.orphanHeader {
		return nil, &usageError{"--mcp-header must follow the --mcp-url it is for"}
	}
	var out []mcptools.Source
	for _, r := range s.remotes {
		src := mcptools.Source{URL: r.url}
		for _, h := range r.headers {
			name, value, err := parseHeader(h)
			if err != nil {
				return nil, &usageError{err.Error()}
			}
			if src.Headers == nil {
				src.Headers = map[string]string{}
			}
			src.Headers[name] = value
		}
		out = append(out, src)
	}
	return out, nil
}

// configSources reads the --config files: one source per server, namespaced by default. A
// server name in two files is an error naming both. The files' notes (servers skipped as
// disabled, keys without effect yet) are written to warn, once each, as warnings.
func (s *sources) configSources(warn io.Writer) ([]mcptools.Source, []string, error) {
	var out []mcptools.Source
	var labels []string
	fileOf := map[string]string{} // server name → the file that defines it
	chain := filepath.SplitList(os.Getenv(configChainEnv))
	for _, file := range s.configs {
		if abs, err := filepath.Abs(file); err == nil {
			if slices.Contains(chain, abs) {
				return nil, nil, fmt.Errorf("config %s is already being loaded by the runcode that started this one (a loop: keep runcode's own entry out of the file it reads)", file)
			}
			chain = append(chain, abs)
		}
	}
	// A runcode among the servers must not load these files again.
	hostEnv := map[string]string{configChainEnv: strings.Join(chain, string(filepath.ListSeparator))}
	for _, file := range s.configs {
		cfg, err := mcptools.LoadConfig(file)
		if err != nil {
			return nil, nil, err
		}
		for _, note := range cfg.Notes {
			fmt.Fprintf(warn, "runcode: warning: %s\n", note)
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
// slowest server, bounded by mcpConnectTimeout. When one fails, the others are stopped (those
// still starting are cancelled) and the error is the failed server's, naming it.
func connectAll(srcs []mcptools.Source) ([]*mcptools.Server, error) {
	servers := make([]*mcptools.Server, len(srcs))
	ctx, cancel := context.WithTimeout(context.Background(), mcpConnectTimeout)
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
