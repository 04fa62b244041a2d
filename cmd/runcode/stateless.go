package main

import (
	"flag"
	"fmt"
)

// registerStateless registers --stateless.
func (s *serveFlags) registerStateless(fs *flag.FlagSet) {
	fs.BoolVar(&s.stateless, "stateless", false, "--http: keep no MCP sessions, so that any replica behind a load balancer answers any request; once draining, every request gets 503 with Retry-After (--session-timeout and --max-sessions do not apply)")
}

// validateStateless refuses --stateless beside the flags it makes meaningless; set names the
// flags given on the command line.
func (s *serveFlags) validateStateless(set map[string]bool) error {
	if !s.stateless {
		return nil
	}
	if s.stdio {
		return &flagUsageError{"--stateless applies to --http only"}
	}
	for _, name := range []string{"session-timeout", "max-sessions"} {
		if set[name] {
			return &flagUsageError{fmt.Sprintf("--%s does not apply with --stateless: a stateless server keeps no MCP sessions (each request is served on its own)", name)}
		}
	}
	return nil
}
