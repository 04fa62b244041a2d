package workspace

import (
	"fmt"
	"path"
	"strings"
)

// A glob pattern is slash-separated. Each segment is matched against one path segment with
// path.Match (`*`, `?`, `[...]`, `\` escapes); a segment that is exactly `**` matches zero or
// more whole segments.

// globPattern is a validated, normalized glob pattern.
type globPattern struct {
	raw  string   // as the caller wrote it
	segs []string // normalized segments: no "", "." or ".."
}

// parseGlob validates and normalizes a pattern: "." and empty segments are dropped, so
// "./src//*.go" is "src/*.go"; an absolute pattern, a ".." segment or a malformed segment is an
// error.
func parseGlob(pattern string) (globPattern, error) {
	if pattern == "" {
		return globPattern{}, fmt.Errorf("glob pattern must not be empty")
	}
	if strings.HasPrefix(pattern, "/") {
		return globPattern{}, fmt.Errorf("glob pattern %q must be relative to the search directory", pattern)
	}
	var segs []string
	for _, s := range strings.Split(pattern, "/") {
		switch s {
		case "", ".":
			continue
		case "..":
			return globPattern{}, fmt.Errorf("glob pattern %q escapes the search directory", pattern)
		case "**":
		default:
			if _, err := path.Match(s, ""); err != nil {
				return globPattern{}, fmt.Errorf("invalid glob pattern %q: malformed segment %q", pattern, s)
			}
		}
		segs = append(segs, s)
	}
	if len(segs) == 0 {
		return globPattern{}, fmt.Errorf("glob pattern %q matches nothing but the search directory itself", pattern)
	}
	return globPattern{raw: pattern, segs: segs}, nil
}

// match reports whether the slash-separated relative path name matches the pattern.
func (g globPattern) match(name string) bool {
	return matchSegs(g.segs, strings.Split(name, "/"))
}

// mayMatchUnder reports whether some path below directory dir (a slash-separated relative
// path) could match the pattern; false means a walk can skip dir's contents. It may report true
// when nothing below matches.
func (g globPattern) mayMatchUnder(dir string) bool {
	return mayMatchUnder(g.segs, strings.Split(dir, "/"))
}

// names reports whether the pattern has a literal segment equal to name, naming that directory
// explicitly (so walks do not skip it).
func (g globPattern) names(name string) bool {
	for _, s := range g.segs {
		if s == name {
			return true
		}
	}
	return false
}

// matchGlob reports whether name matches pattern, splitting both on "/" without any
// normalization. A malformed segment matches nothing.
func matchGlob(pattern, name string) bool {
	return matchSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func segMatch(pat, seg string) bool {
	ok, err := path.Match(pat, seg)
	return ok && err == nil
}

// matchSegs matches pattern segments against name segments. It runs in O(len(p)·len(n)) segment
// comparisons however many `**` the pattern holds.
func matchSegs(p, n []string) bool {
	// next[j] reports whether p[i+1:] matches n[j:]; cur[j] whether p[i:] does.
	next := make([]bool, len(n)+1)
	next[len(n)] = true
	cur := make([]bool, len(n)+1)
	for i := len(p) - 1; i >= 0; i-- {
		for j := len(n); j >= 0; j-- {
			if p[i] == "**" {
				cur[j] = next[j] || (j < len(n) && cur[j+1])
			} else {
				cur[j] = j < len(n) && next[j+1] && segMatch(p[i], n[j])
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

// mayMatchUnder runs the pattern over the directory's segments as a set of states (pattern
// positions) and reports whether any state can still consume a further segment.
func mayMatchUnder(p, dir []string) bool {
	states := closure(p, map[int]bool{0: true})
	for _, d := range dir {
		nextStates := map[int]bool{}
		for i := range states {
			if i >= len(p) {
				continue
			}
			if p[i] == "**" {
				nextStates[i] = true
			} else if segMatch(p[i], d) {
				nextStates[i+1] = true
			}
		}
		states = closure(p, nextStates)
		if len(states) == 0 {
			return false
		}
	}
	for i := range states {
		if i < len(p) {
			return true
		}
	}
	return false
}

// closure adds, for every state at a `**`, the state after it (the `**` matching nothing).
func closure(p []string, states map[int]bool) map[int]bool {
	for i := 0; i < len(p); i++ {
		if states[i] && p[i] == "**" {
			states[i+1] = true
		}
	}
	return states
}
