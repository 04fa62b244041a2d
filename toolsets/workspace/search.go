package workspace

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

const (
	// maxGlobMatches caps the matches glob returns.
	maxGlobMatches = 10000
	// maxGrepMatches is the largest maxMatches grep accepts (its schema's maximum), glob's cap
	// too. Every match is held in the host until the result is handed over (about 220 bytes
	// plus twice its text, see matchCost), so an uncapped maxMatches let one grep of "" over a
	// file of empty lines hold 1.35 GB for 2 MiB of newlines. 10,000 lines is already more than
	// a model can read in one result; a program that wants more narrows the path or glob.
	maxGrepMatches = 10000
	// defaultMaxGrepMatches is grep's maxMatches when the caller gives none.
	defaultMaxGrepMatches = 1000
	// maxLineChars is the longest line text grep returns, in characters.
	maxLineChars = 500
)

// Memory of grep's matches, for their reservation (see grepSearch.hold). Measured on amd64,
// a match retains about 220 bytes (the object of three members, the boxed path, line and
// text, its item in the matches slice and in the result's array) plus 2.06 times its text
// (the text, and its line of the rendering for the model, which also repeats the path). The
// estimate adds a third copy of the text and a second of the path for the rendering's
// buffer, which grows by doubling, and rounds the fixed part up.
const (
	matchFixedBytes = 320
	matchTextCopies = 3
	matchPathCopies = 2
)

// matchCost is the estimated memory of one match of path with line text (see matchFixedBytes).
func matchCost(path, text string) int64 {
	return matchFixedBytes + matchPathCopies*int64(len(path)) + matchTextCopies*int64(len(text))
}

// Memory of glob's paths, for their reservation. Measured on amd64, a path retains about 40
// bytes (its item in the matches slice, in the items and in the result's array) plus twice its
// length (the path, and its line of the rendering); the estimate adds a third copy and rounds
// the fixed part up.
const (
	pathFixedBytes = 64
	pathCopies     = 3
)

// pathCost is the estimated memory of one path glob returns (see pathFixedBytes).
func pathCost(p string) int64 { return pathFixedBytes + pathCopies*int64(len(p)) }

// resultReservation reserves, from the run's memory budget, for the items a search tool
// (grep's matches, glob's paths) is about to hold, before it holds each one. It reserves a
// chunk at a time: reservations under membudget.MinReserve are not counted, and one per item
// would take the budget's lock per item. What it reserved is held until the call's account is
// closed (the result handed over), less what releaseUnused returns.
type resultReservation struct {
	ctx            context.Context
	reserved, used int64 // reserved from the budget; the estimated memory of the items held
	count          int   // items held
}

// hold reserves n bytes for one more item of kind ("matches", "paths"), the search being of
// shown, before the item is held; a refusal names the items held so far.
func (r *resultReservation) hold(shown, kind string, n int64) error {
	if r.used+n > r.reserved {
		chunk := max(membudget.MinReserve, r.used+n-r.reserved)
		what := fmt.Sprintf("the %d %s found so far hold %s", r.count, kind, membudget.Size(r.used))
		if err := reserveFor(r.ctx, "search", shown, what, chunk); err != nil {
			return err
		}
		r.reserved += chunk
	}
	r.used += n
	r.count++
	return nil
}

// releaseUnused returns the part of the reservation that no item took; all of it when the
// items take less than membudget.MinReserve, which the budget does not count.
func (r *resultReservation) releaseUnused() {
	if r.used < membudget.MinReserve {
		membudget.Release(r.ctx, r.reserved)
	} else {
		membudget.Release(r.ctx, r.reserved-r.used)
	}
}

// skipDir reports whether a walk skips directory entry name: .git and node_modules are skipped
// unless the glob (possibly nil) names them explicitly.
func skipDir(name string, g *globPattern) bool {
	if name != ".git" && name != "node_modules" {
		return false
	}
	return g == nil || !g.names(name)
}

// relTo returns walk path p relative to the walk's base directory.
func relTo(base, p string) string {
	if base == "." {
		return p
	}
	if p == base {
		return "."
	}
	return strings.TrimPrefix(p, base+"/")
}

// searchBase resolves a search tool's path argument: its clean name and whether it is a
// directory. Anything else than a directory or a regular file is refused.
func (w *Workspace) searchBase(shown string) (name string, isDir bool, err error) {
	name, err = cleanPath(shown)
	if err != nil {
		return "", false, err
	}
	info, err := w.root.Stat(name)
	if err != nil {
		return "", false, fsError("search", shown, "no such file or directory", err)
	}
	if !info.IsDir() && !info.Mode().IsRegular() {
		return "", false, fmt.Errorf("cannot search %q: it is neither a directory nor a regular file", shown)
	}
	return name, info.IsDir(), nil
}

func (w *Workspace) globTool() registry.Tool {
	return registry.Tool{
		Name: "glob",
		Description: "Find files and directories in the workspace whose paths match a glob pattern. " +
			"The pattern is slash-separated and relative to the search directory; in each segment * matches any run of characters except /, ? matches one character, and [...] a character class; " +
			"a segment ** matches zero or more directories (e.g. **/*.go). " +
			"Returned paths are relative to the workspace root, sorted. " +
			".git and node_modules directories are skipped unless the pattern names them; symbolic links are not followed; names that are not valid UTF-8 are left out. " +
			"At most 10,000 matches are returned; truncated is true when there were more.",
		Parameters: jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"pattern": {"type": "string", "description": "Glob pattern relative to the search directory, e.g. **/*.ts or src/*/index.js."},
				"path": {"type": "string", "description": "Directory to search, relative to the workspace root. Defaults to the root."}
			},
			"required": ["pattern"],
			"additionalProperties": false
		}`),
		Output: registry.OutputOf(jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"matches": {"type": "array", "items": {"type": "string"}, "description": "Matching paths relative to the workspace root, sorted."},
				"truncated": {"type": "boolean", "description": "True when there were more than 10,000 matches and only the first 10,000 found are returned."}
			},
			"required": ["matches", "truncated"],
			"additionalProperties": false
		}`)),
		ConcurrencySafe: alwaysSafe,
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			g, err := parseGlob(inv.Arguments.Lookup("pattern").AsString())
			if err != nil {
				return jsonv.Value{}, err
			}
			shown := inv.Arguments.Lookup("path").AsString()
			base, isDir, err := w.searchBase(shown)
			if err != nil {
				return jsonv.Value{}, err
			}
			if !isDir {
				return jsonv.Value{}, fmt.Errorf("cannot search %q: it is not a directory", shown)
			}
			var matches []string
			truncated := false
			held := resultReservation{ctx: ctx}
			err = fs.WalkDir(walkFS{w}, base, func(p string, d fs.DirEntry, err error) error {
				if cerr := ctx.Err(); cerr != nil {
					return context.Cause(ctx)
				}
				if err != nil {
					if p == base {
						return fsError("search", shown, "no such directory", err)
					}
					return nil // an unreadable entry below the base is skipped
				}
				if p == base {
					return nil
				}
				if d.IsDir() && skipDir(d.Name(), &g) {
					return fs.SkipDir
				}
				rel := relTo(base, p)
				if g.match(rel) {
					if len(matches) == maxGlobMatches {
						truncated = true
						return fs.SkipAll
					}
					if err := held.hold(cmp.Or(shown, "."), "paths", pathCost(p)); err != nil {
						return err
					}
					matches = append(matches, p)
				}
				if d.IsDir() && !g.mayMatchUnder(rel) {
					return fs.SkipDir
				}
				return nil
			})
			if err != nil {
				return jsonv.Value{}, err
			}
			held.releaseUnused()
			sort.Strings(matches)
			items := make([]jsonv.Value, len(matches))
			for i, m := range matches {
				items[i] = jsonv.StringValue(m)
			}
			return jsonv.ObjectValue(
				member("matches", jsonv.ArrayValue(items...)),
				member("truncated", jsonv.BoolValue(truncated)),
			), nil
		},
	}
}

func (w *Workspace) grepTool() registry.Tool {
	return registry.Tool{
		Name: "grep",
		Description: "Search the text files of the workspace for lines matching a regular expression (Go RE2 syntax, matched against each line without its line ending). " +
			"Returns one match per matching line with its path (relative to the workspace root), 1-based line number and text; " +
			"a line longer than 500 characters is cut to its first 500 characters in text. " +
			"Binary files (containing NUL bytes), files that are not valid UTF-8 or whose names are not, files over 16 MiB, special files (named pipes, devices, sockets), symbolic links met while walking, and .git and node_modules directories are skipped. " +
			"Stops after maxMatches matches (default 1000, at most 10,000) and sets truncated. " +
			"Under a run's memory budget the matches are reserved as they are found, and a search whose matches could never fit fails naming the sizes.",
		Parameters: jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"pattern": {"type": "string", "description": "Regular expression in Go RE2 syntax, e.g. func\\s+main or TODO|FIXME."},
				"path": {"type": "string", "description": "File or directory to search, relative to the workspace root. Defaults to the root."},
				"glob": {"type": "string", "description": "Only search files whose path relative to the searched directory matches this glob pattern (same syntax as the glob tool), e.g. **/*.go."},
				"ignoreCase": {"type": "boolean", "description": "Match letters case-insensitively. Defaults to false."},
				"maxMatches": {"type": "integer", "minimum": 1, "maximum": 10000, "description": "Maximum number of matches to return, at most 10,000 (narrow the path or glob to see more). Defaults to 1000."}
			},
			"required": ["pattern"],
			"additionalProperties": false
		}`),
		Output: registry.OutputOf(jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"matches": {
					"type": "array",
					"description": "Matching lines, file by file in path order, lines in file order.",
					"items": {
						"type": "object",
						"properties": {
							"path": {"type": "string", "description": "File path relative to the workspace root."},
							"line": {"type": "integer", "minimum": 1, "description": "Line number (1-based)."},
							"text": {"type": "string", "description": "The line without its line ending, cut to 500 characters."}
						},
						"required": ["path", "line", "text"],
						"additionalProperties": false
					}
				},
				"truncated": {"type": "boolean", "description": "True when the search stopped at maxMatches with more matches left."}
			},
			"required": ["matches", "truncated"],
			"additionalProperties": false
		}`)),
		ConcurrencySafe: alwaysSafe,
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			args := inv.Arguments
			expr := args.Lookup("pattern").AsString()
			src := expr
			if args.Lookup("ignoreCase").AsBool() {
				src = "(?i)" + expr
			}
			re, err := regexp.Compile(src)
			if err != nil {
				return jsonv.Value{}, fmt.Errorf("invalid regular expression %q: %v", expr, regexpReason(err))
			}
			var g *globPattern
			if gv, ok := args.Get("glob"); ok {
				p, err := parseGlob(gv.AsString())
				if err != nil {
					return jsonv.Value{}, err
				}
				g = &p
			}
			limit, ok := intArg(args, "maxMatches")
			if !ok {
				limit = defaultMaxGrepMatches
			}
			shown := args.Lookup("path").AsString()
			base, isDir, err := w.searchBase(shown)
			if err != nil {
				return jsonv.Value{}, err
			}

			s := &grepSearch{ctx: ctx, w: w, re: re, limit: limit, held: resultReservation{ctx: ctx}}
			if !isDir {
				if err := s.file(base, shown); err != nil {
					return jsonv.Value{}, err
				}
			} else {
				err = fs.WalkDir(walkFS{w}, base, func(p string, d fs.DirEntry, err error) error {
					if ctx.Err() != nil {
						return context.Cause(ctx)
					}
					if err != nil {
						if p == base {
							return fsError("search", shown, "no such directory", err)
						}
						return nil
					}
					if p == base {
						return nil
					}
					if d.IsDir() {
						if skipDir(d.Name(), g) || (g != nil && !g.mayMatchUnder(relTo(base, p))) {
							return fs.SkipDir
						}
						return nil
					}
					if !d.Type().IsRegular() {
						return nil // symbolic links and special files
					}
					if g != nil && !g.match(relTo(base, p)) {
						return nil
					}
					if err := s.file(p, ""); err != nil {
						return err
					}
					if s.truncated {
						return fs.SkipAll
					}
					return nil
				})
				if err != nil {
					return jsonv.Value{}, err
				}
			}
			s.held.releaseUnused()
			return jsonv.ObjectValue(
				member("matches", jsonv.ArrayValue(s.matches...)),
				member("truncated", jsonv.BoolValue(s.truncated)),
			), nil
		},
	}
}

// regexpReason returns the part of a regexp compile error that explains it.
func regexpReason(err error) string {
	var re *syntax.Error
	if errors.As(err, &re) {
		return fmt.Sprintf("%s: `%s`", re.Code, re.Expr)
	}
	return err.Error()
}

// grepSearch accumulates one grep call's matches.
type grepSearch struct {
	ctx       context.Context
	w         *Workspace
	re        *regexp.Regexp
	limit     int
	matches   []jsonv.Value
	truncated bool
	held      resultReservation // for the matches
}

// file searches one file (clean, root-relative name). Files that are too large, binary or not
// valid UTF-8 are skipped; so are files that cannot be opened as regular files, met while
// walking (shown empty). Opening the file the caller named (shown) is an error when it fails.
func (s *grepSearch) file(name, shown string) error {
	f, info, err := s.w.open(name, false)
	if err != nil {
		if shown == "" {
			return nil
		}
		if te, ok := asTypeError(err); ok {
			return notRegular("search", shown, te)
		}
		return fsError("search", shown, "no such file or directory", err)
	}
	defer f.Close()
	size := info.Size()
	// The largest file searched: 16 MiB, or within a run whatever its memory budget could hold
	// (issue 23: no fixed size below the budget). A file within the limit that the budget cannot
	// hold now waits for it or fails with an error naming its size, as before.
	limit, budgeted := readLimit(s.ctx, 1)
	if !budgeted || limit < maxFileSize {
		limit = maxFileSize
	}
	if size > limit {
		return nil
	}
	// The file's data is held while it is searched, then let go: reserved for that long.
	if err := reserveFor(s.ctx, "search", cmp.Or(shown, name), "it is "+membudget.Size(size), size); err != nil {
		return err
	}
	defer membudget.Release(s.ctx, size)
	if s.w.beforeRead != nil {
		s.w.beforeRead(name)
	}
	data := make([]byte, size+1) // one byte more: a file that grew since the fstat is noticed
	n, err := io.ReadFull(f, data)
	switch {
	case err == nil: // it grew: reserve for the largest file searched, and read on up to it
		// A file that grows is read on up to 16 MiB, as ever: the budget's limit is for files
		// as they stand, not for logs being written.
		grow := max(maxFileSize-size, 0)
		if err := reserveFor(s.ctx, "search", cmp.Or(shown, name), "it grew while being read", grow); err != nil {
			return err
		}
		defer membudget.Release(s.ctx, grow)
		rest, rerr := io.ReadAll(io.LimitReader(f, grow))
		data, err = append(data, rest...), rerr
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		data, err = data[:n], nil
	}
	if err != nil || int64(len(data)) > max(limit, size+1) || bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil
	}
	for lineNo := 1; len(data) > 0; lineNo++ {
		if lineNo%4096 == 0 && s.ctx.Err() != nil {
			return context.Cause(s.ctx)
		}
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if !s.re.Match(line) {
			continue
		}
		if len(s.matches) == s.limit {
			s.truncated = true
			return nil
		}
		text := cutLine(line)
		if err := s.held.hold(cmp.Or(shown, name), "matches", matchCost(name, text)); err != nil {
			return err
		}
		s.matches = append(s.matches, jsonv.ObjectValue(
			member("path", jsonv.StringValue(name)),
			member("line", jsonv.Int(int64(lineNo))),
			member("text", jsonv.StringValue(text)),
		))
	}
	return nil
}

// cutLine returns line as a string of at most maxLineChars characters.
func cutLine(line []byte) string {
	if len(line) <= maxLineChars {
		return string(line)
	}
	n := 0
	for i := range len(line) {
		if utf8.RuneStart(line[i]) {
			if n == maxLineChars {
				return string(line[:i])
			}
			n++
		}
	}
	return string(line)
}
