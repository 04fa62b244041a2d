package typecheck

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"unicode/utf16"
)

// tsserverProcess is TypeScript 5's tsserver and the session with it: requests are JSON lines
// on its stdin, responses and events come back framed like LSP messages. Each check opens
// tools.d.ts and main.ts once (open, with their text) and later replaces their whole text
// (change, from the first position to the end of the text the server has), then asks for
// main.ts's syntactic and semantic diagnostics (and tools.d.ts's when it changed).
type tsserverProcess struct {
	*serverPipe
	dir string

	calls calls[tsResponse]

	texts    map[string]string // file name → text the server has (one check at a time)
	declDiag []Diagnostic
}

type tsResponse struct {
	Type       string          `json:"type"`
	RequestSeq int             `json:"request_seq"`
	Success    bool            `json:"success"`
	Message    string          `json:"message"`
	Body       json.RawMessage `json:"body"`
}

// tsserverStarter starts tsservers: the node script exe.
func tsserverStarter(exe string) startFunc {
	return func(ctx context.Context, dir string) (serverProcess, error) {
		p := &tsserverProcess{
			serverPipe: newServerPipe(exe, []string{"--disableAutomaticTypingAcquisition", "--suppressDiagnosticEvents"}, dir),
			dir:        dir, texts: map[string]string{},
		}
		if err := p.start(p.handle); err != nil {
			return nil, err
		}
		// A first request answers when the server is up.
		if _, err := p.request(ctx, "status", nil); err != nil {
			p.kill()
			return nil, p.withStderr(err)
		}
		return p, nil
	}
}

func (p *tsserverProcess) check(ctx context.Context, declarations, text string) ([]Diagnostic, error) {
	return checkDocuments(ctx, p, declarations, text, &p.declDiag)
}

func (p *tsserverProcess) path(name string) string { return filepath.Join(p.dir, name) }

// setText opens a file with text, or replaces the whole text of an open one.
func (p *tsserverProcess) setText(ctx context.Context, name, text string) (bool, error) {
	old, open := p.texts[name]
	if open && old == text {
		return false, nil
	}
	if !open {
		if _, err := p.request(ctx, "open", map[string]any{"file": p.path(name), "fileContent": text, "scriptKindName": "TS", "projectRootPath": p.dir}); err != nil {
			return false, err
		}
	} else {
		endLine, endOffset := endPosition(old)
		// change has no response: the diagnostics request that follows sees it (requests are
		// handled in order).
		if err := p.send("change", map[string]any{"file": p.path(name), "line": 1, "offset": 1,
			"endLine": endLine, "endOffset": endOffset, "insertString": text}); err != nil {
			return false, err
		}
	}
	p.texts[name] = text
	return true, nil
}

// endPosition is the 1-based line and offset (UTF-16) just past the end of text, as tsserver
// counts lines (\n, \r\n and \r end them).
func endPosition(text string) (line, offset int) {
	line = 1
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				continue
			}
			line, start = line+1, i+1
		}
	}
	return line, len(utf16.Encode([]rune(text[start:]))) + 1
}

// diagnostics asks for the syntactic error diagnostics of one open file and, as tsc does, for
// its semantic ones only when there are none.
func (p *tsserverProcess) diagnostics(ctx context.Context, name string) ([]Diagnostic, error) {
	var out []Diagnostic
	for _, cmd := range []string{"syntacticDiagnosticsSync", "semanticDiagnosticsSync"} {
		if len(out) > 0 {
			break
		}
		body, err := p.request(ctx, cmd, map[string]any{"file": p.path(name)})
		if err != nil {
			return nil, err
		}
		var items []struct {
			Start    struct{ Line, Offset int } `json:"start"`
			Text     string                     `json:"text"`
			Code     int                        `json:"code"`
			Category string                     `json:"category"`
		}
		if err := json.Unmarshal(body, &items); err != nil {
			return nil, fmt.Errorf("unexpected %s answer: %v", cmd, err)
		}
		for _, it := range items {
			if it.Category != "error" {
				continue
			}
			out = append(out, Diagnostic{Line: it.Start.Line, Column: it.Start.Offset, Code: it.Code, Message: it.Text})
		}
	}
	return out, nil
}

func (p *tsserverProcess) request(ctx context.Context, command string, args any) (json.RawMessage, error) {
	seq, response, done := p.calls.open()
	defer done()
	if err := p.sendSeq(seq, command, args); err != nil {
		return nil, err
	}
	r, err := await(ctx, p.serverPipe, response)
	if err != nil {
		return nil, err
	}
	if !r.Success {
		return nil, fmt.Errorf("%s: %s", command, r.Message)
	}
	return r.Body, nil
}

// send sends a request that has no response.
func (p *tsserverProcess) send(command string, args any) error {
	return p.sendSeq(p.calls.next(), command, args)
}

func (p *tsserverProcess) sendSeq(seq int, command string, args any) error {
	msg := map[string]any{"seq": seq, "type": "request", "command": command}
	if args != nil {
		msg["arguments"] = args
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	// tsserver reads one request per line; JSON escapes every newline inside strings.
	return p.write(append(data, '\n'))
}

// handle routes a response to its request; events are dropped.
func (p *tsserverProcess) handle(body []byte) {
	var r tsResponse
	if json.Unmarshal(body, &r) != nil || r.Type != "response" {
		return
	}
	p.calls.deliver(r.RequestSeq, r)
}

// tsserverFor returns the tsserver script beside a tsc script of the typescript npm package
// (<pkg>/bin/tsc → <pkg>/bin/tsserver), or "".
func tsserverFor(tscPath string) string {
	real, err := filepath.EvalSymlinks(tscPath)
	if err != nil {
		return ""
	}
	cand := filepath.Join(filepath.Dir(real), "tsserver")
	if filepath.Base(filepath.Dir(real)) == "bin" && isExecutable(cand) {
		return cand
	}
	return ""
}
