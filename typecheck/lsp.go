package typecheck

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// lspProcess is a TypeScript 7 language server (`tsc --lsp --stdio`) and the JSON-RPC session
// with it: each check opens or changes tools.d.ts and main.ts (didOpen/didChange, the text only
// when it changed) and pulls main.ts's diagnostics (textDocument/diagnostic), and tools.d.ts's
// when it changed.
type lspProcess struct {
	*serverPipe
	dir string

	calls calls[rpcMessage]

	// What the server has open, so a check sends only what changed (used by one check at a
	// time).
	docs     map[string]lspDocument // file name → the open document
	declDiag []Diagnostic           // the diagnostics of tools.d.ts for docs[DeclarationsFile]
}

// lspDocument is a file the language server has open: its version and its text.
type lspDocument struct {
	version int
	text    string
}

type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// lspStarter starts language servers of exe.
func lspStarter(exe string) startFunc {
	return func(ctx context.Context, dir string) (serverProcess, error) { return startLSP(ctx, exe, dir) }
}

func startLSP(ctx context.Context, exe, dir string) (*lspProcess, error) {
	p := &lspProcess{serverPipe: newServerPipe(exe, []string{"--lsp", "--stdio"}, dir), dir: dir,
		docs: map[string]lspDocument{}}
	if err := p.start(p.handle); err != nil {
		return nil, err
	}
	root := fileURI(dir)
	init := map[string]any{
		"processId": os.Getpid(),
		"rootUri":   root,
		"capabilities": map[string]any{
			"textDocument": map[string]any{"diagnostic": map[string]any{"dynamicRegistration": false}},
		},
		"workspaceFolders": []any{map[string]any{"uri": root, "name": "runcode"}},
	}
	if _, err := p.request(ctx, "initialize", init); err != nil {
		p.kill()
		return nil, p.withStderr(err)
	}
	if err := p.notify("initialized", map[string]any{}); err != nil {
		p.kill()
		return nil, p.withStderr(err)
	}
	return p, nil
}

func (p *lspProcess) check(ctx context.Context, declarations, text string) ([]Diagnostic, error) {
	return checkDocuments(ctx, p, declarations, text, &p.declDiag)
}

// setText opens or changes one file in the server; changed is false when the server already has
// that text. A notification has no answer to wait for, so ctx is not used.
func (p *lspProcess) setText(_ context.Context, name, text string) (changed bool, err error) {
	doc, open := p.docs[name]
	if open && doc.text == text {
		return false, nil
	}
	uri := fileURI(filepath.Join(p.dir, name))
	v := doc.version + 1
	if !open {
		err = p.notify("textDocument/didOpen", map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "typescript", "version": v, "text": text},
		})
	} else {
		err = p.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v},
			"contentChanges": []any{map[string]any{"text": text}},
		})
	}
	if err != nil {
		return false, err
	}
	p.docs[name] = lspDocument{version: v, text: text}
	return true, nil
}

// diagnostics pulls the error diagnostics of one open file.
func (p *lspProcess) diagnostics(ctx context.Context, name string) ([]Diagnostic, error) {
	raw, err := p.request(ctx, "textDocument/diagnostic", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(filepath.Join(p.dir, name))},
	})
	if err != nil {
		return nil, err
	}
	var report struct {
		Items []struct {
			Range struct {
				Start struct{ Line, Character int } `json:"start"`
			} `json:"range"`
			Severity int             `json:"severity"`
			Code     json.RawMessage `json:"code"`
			Message  string          `json:"message"`
		} `json:"items"`
	}
	if err := json.Unmarshal(raw, &report); err != nil {
		return nil, fmt.Errorf("unexpected diagnostic report: %v", err)
	}
	var out []Diagnostic
	for _, it := range report.Items {
		if it.Severity != 0 && it.Severity != 1 { // errors only, as tsc reports
			continue
		}
		code, _ := strconv.Atoi(strings.Trim(string(it.Code), `"`))
		out = append(out, Diagnostic{Line: it.Range.Start.Line + 1, Column: it.Range.Start.Character + 1, Code: code, Message: it.Message})
	}
	return out, nil
}

func (p *lspProcess) request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	id, response, done := p.calls.open()
	defer done()
	if err := p.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	m, err := await(ctx, p.serverPipe, response)
	if err != nil {
		return nil, err
	}
	if m.Error != nil {
		return nil, fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
	}
	return m.Result, nil
}

func (p *lspProcess) notify(method string, params any) error {
	return p.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (p *lspProcess) send(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return p.write(fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(data), data))
}

// handle routes one message from the server: a response goes to its waiting request; a request
// from the server gets an empty answer (this client registers nothing and has no configuration);
// notifications (logs) are dropped.
func (p *lspProcess) handle(body []byte) {
	var m rpcMessage
	if json.Unmarshal(body, &m) != nil {
		return
	}
	switch {
	case m.Method != "" && len(m.ID) > 0:
		var result any
		if m.Method == "workspace/configuration" {
			var params struct {
				Items []json.RawMessage `json:"items"`
			}
			_ = json.Unmarshal(m.Params, &params)
			result = make([]any, len(params.Items))
		}
		_ = p.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	case m.Method == "" && len(m.ID) > 0:
		id, err := strconv.Atoi(string(m.ID))
		if err != nil {
			return
		}
		p.calls.deliver(id, m)
	}
}

func fileURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}

// documentSession is a warm server's session as a check uses it, whatever its protocol.
type documentSession interface {
	// setText puts text into the server as file name; changed is false when it had that text.
	setText(ctx context.Context, name, text string) (changed bool, err error)
	// diagnostics returns the error diagnostics of file name.
	diagnostics(ctx context.Context, name string) ([]Diagnostic, error)
}

// checkDocuments puts declarations and text into the server s as tools.d.ts and main.ts, asks
// for the program's diagnostics, after those of the declarations when they changed (kept in
// *declDiag for the checks that follow), and returns both, the declarations' first.
func checkDocuments(ctx context.Context, s documentSession, declarations, text string, declDiag *[]Diagnostic) ([]Diagnostic, error) {
	declChanged, err := s.setText(ctx, DeclarationsFile, declarations)
	if err != nil {
		return nil, err
	}
	if _, err := s.setText(ctx, ProgramFile, text); err != nil {
		return nil, err
	}
	if declChanged {
		d, err := s.diagnostics(ctx, DeclarationsFile)
		if err != nil {
			return nil, err
		}
		for i := range d {
			d[i].File = DeclarationsFile
		}
		*declDiag = d
	}
	diags, err := s.diagnostics(ctx, ProgramFile)
	if err != nil {
		return nil, err
	}
	return append(append([]Diagnostic(nil), *declDiag...), diags...), nil
}
