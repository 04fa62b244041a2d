package registry

import (
	"fmt"

	"github.com/runcode-dev/runcode/jsonv"
)

// Card names a UI presentation of a tool call. Pending calls use CardGeneric, CardTerminal or
// CardDiff; completed calls may also use CardSearch, CardRead and CardWeb. A UI that does not
// know a card falls back to the generic presentation and the raw content.
type Card string

// The cards.
const (
	CardGeneric  Card = "generic"  // title, kind, raw input, content, locations
	CardTerminal Card = "terminal" // a shell command: description, cwd; output and exit status
	CardDiff     Card = "diff"     // file changes
	CardSearch   Card = "search"   // grep matches grouped by file, or glob paths
	CardRead     Card = "read"     // a file read with line numbers
	CardWeb      Card = "web"      // a web search or fetch
)

// Location is a file (and optionally a 1-based line) a call reads or changes.
type Location struct {
	Path string
	Line int // 0: none
}

// FileDiff is one file change; OldText nil means a new file.
type FileDiff struct {
	Path    string
	OldText *string
	NewText string
}

// CallView is how a UI should present a pending call. Fields apply by Card: generic uses Kind,
// RawInput, Content and Locations; terminal uses Description and Cwd; diff uses Diffs and
// Locations.
type CallView struct {
	Card        Card
	Title       string
	Kind        string
	RawInput    jsonv.Value
	Content     []Content
	Locations   []Location
	Description string
	Cwd         string
	Diffs       []FileDiff
}

// ResultSummary is what PresentResult sees of a completed call: its durable projection.
type ResultSummary struct {
	Content []Content
	IsError bool
	Meta    jsonv.Value
}

// SearchMatch is one matching line.
type SearchMatch struct {
	Line int
	Text string
}

// SearchFile groups the matches of one file.
type SearchFile struct {
	Path    string
	Matches []SearchMatch
}

// WebSource is one source of a web search.
type WebSource struct {
	Title, URL, Snippet string
}

// ResultView is how a UI should present a completed call. Fields apply by Card: generic uses
// Content; terminal uses Output, ExitCode and Signal; diff uses Diffs; search uses Shape
// ("matches" with Files, or "paths" with Paths), Truncated and Total; read uses Path, Offset
// (the requested first line, 1-based), Lines, TotalLines, Lang and Content; web uses WebKind
// ("search" with Sources, Answer and Truncated, or "fetch" with URL, StatusCode and Truncated).
type ResultView struct {
	Card       Card
	Title      string
	Content    []Content
	Output     string
	ExitCode   *int
	Signal     string
	Diffs      []FileDiff
	Shape      string
	Files      []SearchFile
	Paths      []string
	Truncated  bool
	Total      int
	Path       string
	Offset     int
	Lines      []string
	TotalLines int
	Lang       string
	WebKind    string
	Sources    []WebSource
	Answer     string
	URL        string
	StatusCode int
}

// validate reports what is wrong with a call view.
func (v *CallView) validate() error {
	switch v.Card {
	case CardGeneric, CardTerminal:
	case CardDiff:
		if len(v.Diffs) == 0 {
			return fmt.Errorf("a diff card needs Diffs")
		}
	case "":
		return fmt.Errorf("no card")
	default:
		return fmt.Errorf("card %q has no pending presentation", v.Card)
	}
	if v.Title == "" {
		return fmt.Errorf("no title")
	}
	return nil
}

// validate reports what is wrong with a result view.
func (v *ResultView) validate() error {
	switch v.Card {
	case CardGeneric, CardTerminal, CardRead:
	case CardDiff:
		if len(v.Diffs) == 0 {
			return fmt.Errorf("a diff card needs Diffs")
		}
	case CardSearch:
		if v.Shape != "matches" && v.Shape != "paths" {
			return fmt.Errorf(`a search card's Shape must be "matches" or "paths", got %q`, v.Shape)
		}
	case CardWeb:
		if v.WebKind != "search" && v.WebKind != "fetch" {
			return fmt.Errorf(`a web card's WebKind must be "search" or "fetch", got %q`, v.WebKind)
		}
	default:
		return fmt.Errorf("unknown card %q", v.Card)
	}
	return nil
}

// PresentCall returns how a UI should present a pending call of the tool name as scope sees it:
// the tool's own view, or the generic one (title = tool name, raw input = args) when the tool
// has none, returns nil, panics or returns an invalid view.
func (r *Registry) PresentCall(name string, args jsonv.Value, scope *Scope) CallView {
	fallback := CallView{Card: CardGeneric, Title: name, RawInput: args}
	t, ok := r.Get(name, scope)
	if !ok || t.PresentCall == nil {
		return fallback
	}
	v, err := protect("presentCall", func() *CallView { return t.PresentCall(args) })
	if err != nil || v == nil || v.validate() != nil {
		return fallback
	}
	return *v
}

// PresentResult returns how a UI should present a completed call, or nil to keep the pending
// view and show the raw content (also when the tool's presenter panics or returns an invalid
// view).
func (r *Registry) PresentResult(name string, args jsonv.Value, res ResultSummary, scope *Scope) *ResultView {
	t, ok := r.Get(name, scope)
	if !ok || t.PresentResult == nil {
		return nil
	}
	v, err := protect("presentResult", func() *ResultView { return t.PresentResult(args, res) })
	if err != nil || v == nil || v.validate() != nil {
		return nil
	}
	return v
}
