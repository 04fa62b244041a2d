package typecheck

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// warmServer is one long-lived compiler process in language-server mode (`tsc --lsp --stdio`)
// over a scratch project directory: tsconfig.json (Config), tools.d.ts and main.ts exist on disk,
// so the project holds both files with the same options as a cold check, and each check replaces
// their text in the server's memory (didOpen/didChange) and pulls main.ts's diagnostics
// (textDocument/diagnostic). The server keeps what does not change (the library, an unchanged
// tools.d.ts), which is what makes a warm check cheap.
//
// Checks are serialized (one program text at a time). The server is started on the first
// check; a server that exits or breaks the protocol fails the check in progress with
// ErrCompiler, is killed and waited for, and a new one is started for the next check (the check
// in progress is retried once on a fresh server). close kills the server and waits for its
// reader goroutine.
type warmServer struct {
	exe string

	mu     sync.Mutex // serializes checks and guards the fields below
	closed bool
	srv    *lspProcess
	dir    string // the scratch project, removed by close
}

func newWarmServer(exe string) *warmServer { return &warmServer{exe: exe} }

// check returns the diagnostics of text (the program as the compiler checks it, in the
// ProgramFile of the project) against declarations.
func (w *warmServer) check(ctx context.Context, declarations, text string) ([]Diagnostic, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, errClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		if w.srv == nil {
			if err := w.start(ctx); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, err
			}
		}
		// A server stuck on a write or a request is killed when the check's time is up, which
		// unblocks both.
		srv := w.srv
		stopKill := context.AfterFunc(ctx, srv.kill)
		diags, err := srv.check(ctx, declarations, text)
		stopKill()
		if err == nil {
			return diags, nil
		}
		if ctx.Err() != nil {
			// The server may still be working on the cancelled request: a fresh one is cheaper
			// to reason about than a server in an unknown state.
			w.stop()
			return nil, ctx.Err()
		}
		w.stop()
		err = srv.withStderr(err)
		if attempt > 0 || !errors.Is(err, errServerGone) {
			return nil, fmt.Errorf("%w: %v", ErrCompiler, err)
		}
	}
}

// start creates the scratch project (once) and starts a server on it.
func (w *warmServer) start(ctx context.Context) error {
	if w.dir == "" {
		dir, err := os.MkdirTemp("", "runcode-typecheck-warm-")
		if err != nil {
			return fmt.Errorf("%w: %v", ErrCompiler, err)
		}
		w.dir = dir
	}
	// The files on disk put both in the project; their text comes from the server's overlay.
	if err := WriteProject(w.dir, ""); err != nil {
		return fmt.Errorf("%w: %v", ErrCompiler, err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, ProgramFile), nil, 0o644); err != nil {
		return fmt.Errorf("%w: %v", ErrCompiler, err)
	}
	srv, err := startLSP(ctx, w.exe, w.dir)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCompiler, err)
	}
	w.srv = srv
	return nil
}

// stop kills the server, if any, and waits for it.
func (w *warmServer) stop() {
	if w.srv != nil {
		w.srv.kill()
		w.srv = nil
	}
}

func (w *warmServer) close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	w.stop()
	if w.dir != "" {
		return os.RemoveAll(w.dir)
	}
	return nil
}

// errServerGone is a server that exited or closed its output.
var errServerGone = errors.New("the compiler's language server exited")

// lspProcess is one running language server and the JSON-RPC session with it.
type lspProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	dir    string
	done   chan struct{} // closed when the reader goroutine has ended (the server's output closed)
	stderr *tailBuffer

	killOnce sync.Once
	writeMu  sync.Mutex
	mu       sync.Mutex
	nextID   int
	waiting  map[int]chan rpcMessage
	readErr  error

	// What the server has open, so a check sends only what changed.
	versions map[string]int    // file name → document version
	texts    map[string]string // file name → text the server has
	declDiag []Diagnostic      // the diagnostics of tools.d.ts for texts[DeclarationsFile]
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

func startLSP(ctx context.Context, exe, dir string) (*lspProcess, error) {
	cmd := exec.Command(exe, "--lsp", "--stdio")
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &lspProcess{cmd: cmd, stdin: stdin, dir: dir, done: make(chan struct{}), stderr: &tailBuffer{max: 4096},
		waiting: map[int]chan rpcMessage{}, versions: map[string]int{}, texts: map[string]string{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go p.readLoop(bufio.NewReader(stdout))
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

// check puts declarations and text into the server and returns the diagnostics: those of
// tools.d.ts (asked again only when it changed) and those of main.ts.
func (p *lspProcess) check(ctx context.Context, declarations, text string) ([]Diagnostic, error) {
	declChanged, err := p.setText(DeclarationsFile, declarations)
	if err != nil {
		return nil, err
	}
	if _, err := p.setText(ProgramFile, text); err != nil {
		return nil, err
	}
	if declChanged {
		d, err := p.diagnostics(ctx, DeclarationsFile)
		if err != nil {
			return nil, err
		}
		for i := range d {
			d[i].File = DeclarationsFile
		}
		p.declDiag = d
	}
	diags, err := p.diagnostics(ctx, ProgramFile)
	if err != nil {
		return nil, err
	}
	return append(append([]Diagnostic(nil), p.declDiag...), diags...), nil
}

// setText opens or changes one file in the server; changed is false when the server already has
// that text.
func (p *lspProcess) setText(name, text string) (changed bool, err error) {
	if old, ok := p.texts[name]; ok && old == text {
		return false, nil
	}
	uri := fileURI(filepath.Join(p.dir, name))
	v, open := p.versions[name]
	v++
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
	p.versions[name], p.texts[name] = v, text
	return true, nil
}

// diagnostics pulls the diagnostics of one open file.
func (p *lspProcess) diagnostics(ctx context.Context, name string) ([]Diagnostic, error) {
	raw, err := p.request(ctx, "textDocument/diagnostic", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(filepath.Join(p.dir, name))},
	})
	if err != nil {
		return nil, err
	}
	var report struct {
		Kind  string `json:"kind"`
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
	p.mu.Lock()
	if p.readErr != nil {
		p.mu.Unlock()
		return nil, p.readErr
	}
	p.nextID++
	id := p.nextID
	ch := make(chan rpcMessage, 1)
	p.waiting[id] = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.waiting, id)
		p.mu.Unlock()
	}()
	if err := p.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		return m.Result, nil
	case <-p.done:
		return nil, p.goneErr()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *lspProcess) notify(method string, params any) error {
	return p.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (p *lspProcess) send(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	if _, err := fmt.Fprintf(p.stdin, "Content-Length: %d\r\n\r\n%s", len(data), data); err != nil {
		return fmt.Errorf("%w: %v", errServerGone, err)
	}
	return nil
}

// readLoop reads the server's messages until its output closes: responses go to their waiting
// request; requests from the server get an empty answer (this client registers nothing and has
// no configuration); notifications are dropped.
func (p *lspProcess) readLoop(r *bufio.Reader) {
	defer close(p.done)
	for {
		m, err := readMessage(r)
		if err != nil {
			p.mu.Lock()
			p.readErr = fmt.Errorf("%w: %v", errServerGone, err)
			p.mu.Unlock()
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
				continue
			}
			p.mu.Lock()
			ch := p.waiting[id]
			p.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
	}
}

// maxMessage bounds one message from the server (a diagnostic report of a huge program is far
// smaller).
const maxMessage = 64 << 20

func readMessage(r *bufio.Reader) (rpcMessage, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return rpcMessage{}, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 || n > maxMessage {
				return rpcMessage{}, fmt.Errorf("bad Content-Length %q", v)
			}
			length = n
		}
	}
	if length < 0 {
		return rpcMessage{}, errors.New("message without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return rpcMessage{}, err
	}
	var m rpcMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return rpcMessage{}, fmt.Errorf("bad message: %v", err)
	}
	return m, nil
}

func (p *lspProcess) goneErr() error {
	p.mu.Lock()
	err := p.readErr
	p.mu.Unlock()
	if err == nil {
		err = errServerGone
	}
	return err
}

// withStderr adds the end of the server's stderr to err. Call it after kill, when all of the
// stderr has been read.
func (p *lspProcess) withStderr(err error) error {
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		return fmt.Errorf("%w; its stderr ends: %s", err, tail)
	}
	return err
}

// kill ends the server and waits for the process and the reader goroutine.
// It is safe to call more than once and from several goroutines; each call returns once the
// process has been reaped.
func (p *lspProcess) kill() {
	p.killOnce.Do(func() {
		if p.cmd.Process != nil {
			_ = p.cmd.Process.Kill()
		}
		_ = p.stdin.Close()
		<-p.done
		_ = p.cmd.Wait()
	})
}

func fileURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write appends p, dropping the oldest bytes past max.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// String returns the kept bytes.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
