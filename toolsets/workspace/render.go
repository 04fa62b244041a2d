package workspace

import (
	"fmt"
	"path"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// presented gives a tool its model-facing rendering and its UI presentation. A program receives
// the JSON value either way; the rendering is what a model reads when it calls the tool
// directly, so it reads like the tool's natural output rather than escaped JSON.
func presented(t registry.Tool) registry.Tool {
	switch t.Name {
	case "read_file":
		t.Output.Render = renderRead
		t.PresentResult = presentRead
	case "grep":
		t.Output.Render = renderGrep
		t.PresentResult = presentGrep
	case "glob":
		t.Output.Render = renderGlob
		t.PresentResult = presentGlob
	case "list_dir":
		t.Output.Render = renderListDir
	}
	return t
}

func text(s string) []registry.Content { return []registry.Content{registry.TextContent(s)} }

// renderRead shows the returned lines as they are, under a header naming the range.
func renderRead(_, v jsonv.Value) []registry.Content {
	start, end, total := int(v.Lookup("startLine").AsNumber()), int(v.Lookup("endLine").AsNumber()), int(v.Lookup("totalLines").AsNumber())
	header := fmt.Sprintf("%s (lines %d-%d of %d)", v.Lookup("path").AsString(), start, end, total)
	if end < start {
		header = fmt.Sprintf("%s (empty file)", v.Lookup("path").AsString())
	}
	return text(header + "\n" + v.Lookup("content").AsString())
}

// renderGrep shows one "path:line: text" line per match, like grep -n.
func renderGrep(_, v jsonv.Value) []registry.Content {
	matches := v.Lookup("matches")
	if matches.Len() == 0 {
		return text("no matches")
	}
	var b strings.Builder
	for i := range matches.Len() {
		m := matches.Index(i)
		fmt.Fprintf(&b, "%s:%d: %s\n", m.Lookup("path").AsString(), int(m.Lookup("line").AsNumber()), m.Lookup("text").AsString())
	}
	if v.Lookup("truncated").AsBool() {
		b.WriteString("(more matches were left out: raise maxMatches or narrow the search)\n")
	}
	return text(strings.TrimSuffix(b.String(), "\n"))
}

// renderGlob shows one path per line.
func renderGlob(_, v jsonv.Value) []registry.Content {
	matches := v.Lookup("matches")
	if matches.Len() == 0 {
		return text("no matches")
	}
	lines := make([]string, matches.Len())
	for i := range lines {
		lines[i] = matches.Index(i).AsString()
	}
	if v.Lookup("truncated").AsBool() {
		lines = append(lines, "(more paths were left out)")
	}
	return text(strings.Join(lines, "\n"))
}

// renderListDir shows one entry per line, directories with a trailing slash, files with their
// size.
func renderListDir(_, v jsonv.Value) []registry.Content {
	entries := v.Lookup("entries")
	if entries.Len() == 0 {
		return text(v.Lookup("path").AsString() + " is empty")
	}
	lines := make([]string, entries.Len())
	for i := range lines {
		e := entries.Index(i)
		name := e.Lookup("name").AsString()
		switch e.Lookup("type").AsString() {
		case "dir":
			lines[i] = name + "/"
		case "file":
			lines[i] = fmt.Sprintf("%s (%d bytes)", name, int64(e.Lookup("size").AsNumber()))
		default:
			lines[i] = name + " (" + e.Lookup("type").AsString() + ")"
		}
	}
	return text(strings.Join(lines, "\n"))
}

// presentRead describes a completed read for a read card. Presenters see only the durable
// projection of a result (its content), so the range is taken from the rendered header.
func presentRead(args jsonv.Value, res registry.ResultSummary) *registry.ResultView {
	if res.IsError || len(res.Content) == 0 {
		return nil
	}
	header, body, _ := strings.Cut(res.Content[0].Text, "\n")
	p := args.Lookup("path").AsString()
	offset := 1
	if s := args.Lookup("startLine"); s.IsDefined() {
		offset = int(s.AsNumber())
	}
	var total, lo, hi int
	if i := strings.LastIndex(header, "(lines "); i >= 0 {
		fmt.Sscanf(header[i:], "(lines %d-%d of %d)", &lo, &hi, &total)
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if body == "" {
		lines = nil
	}
	return &registry.ResultView{Card: registry.CardRead, Title: p, Path: p, Offset: offset, Lines: lines,
		TotalLines: total, Lang: strings.TrimPrefix(path.Ext(p), "."), Content: res.Content}
}

// presentGrep groups the rendered matches by file for a search card.
func presentGrep(args jsonv.Value, res registry.ResultSummary) *registry.ResultView {
	if res.IsError || len(res.Content) == 0 {
		return nil
	}
	view := &registry.ResultView{Card: registry.CardSearch, Shape: "matches", Title: "grep " + args.Lookup("pattern").AsString()}
	for _, line := range strings.Split(res.Content[0].Text, "\n") {
		file, rest, ok := strings.Cut(line, ":")
		if !ok {
			view.Truncated = view.Truncated || strings.HasPrefix(line, "(more matches")
			continue
		}
		var n int
		num, txt, _ := strings.Cut(rest, ": ")
		if _, err := fmt.Sscanf(num, "%d", &n); err != nil {
			continue
		}
		if k := len(view.Files); k == 0 || view.Files[k-1].Path != file {
			view.Files = append(view.Files, registry.SearchFile{Path: file})
		}
		f := &view.Files[len(view.Files)-1]
		f.Matches = append(f.Matches, registry.SearchMatch{Line: n, Text: txt})
		view.Total++
	}
	return view
}

// presentGlob lists the rendered paths for a search card.
func presentGlob(args jsonv.Value, res registry.ResultSummary) *registry.ResultView {
	if res.IsError || len(res.Content) == 0 {
		return nil
	}
	view := &registry.ResultView{Card: registry.CardSearch, Shape: "paths", Title: "glob " + args.Lookup("pattern").AsString()}
	for _, line := range strings.Split(res.Content[0].Text, "\n") {
		switch {
		case line == "no matches":
		case strings.HasPrefix(line, "(more paths"):
			view.Truncated = true
		default:
			view.Paths = append(view.Paths, line)
		}
	}
	view.Total = len(view.Paths)
	return view
}
