package main

// Configured MCP sources: --config files (the mcpServers / servers JSON that MCP clients keep)
// and --mcp-url with its --mcp-header values.

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/runcode-dev/runcode/mcptools"
)

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
