package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/internal/childenv"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// DefaultCallTimeout bounds one tool call when Source.CallTimeout is zero.
const DefaultCallTimeout = 60 * time.Second

// Source is one MCP server to import: a command started as a subprocess and spoken to over
// stdio, or the URL of a streamable HTTP endpoint. Exactly one of Command and URL is set.
type Source struct {
	// Command is the program and its arguments (stdio transport).
	Command []string
	// URL is a streamable HTTP endpoint.
	URL string
	// Prefix, optional, is put before every tool name ("memory." makes the top-level tool
	// "memory.read_graph", which a program calls as tools["memory.read_graph"]).
	Prefix string
	// Namespace, optional, groups the server's tools (registry.Tool.Namespace): "memory" makes
	// the tool "memory.read_graph" that a program calls as tools.memory.read_graph. A Prefix
	// goes before the tool's own name inside the namespace.
	Namespace string
	// Env (Command only) holds variables set in the command's environment. Their values are
	// secrets (see Headers).
	//
	// The command does not inherit the host's whole environment: it gets the host's PATH,
	// HOME, USER, LOGNAME, SHELL, TERM, locale (LANG, LANGUAGE, LC_*), TZ and TMPDIR (the
	// variables the official MCP SDKs pass, plus locale and temporary directory), those
	// InheritEnv names, then HostEnv and Env. A token meant for one server thus never
	// reaches another, whose results are not redacted for it.
	Env map[string]string
	// HostEnv (Command only) holds variables set like Env whose values are not secrets: the
	// host's own bookkeeping, such as a guard against a server that starts its host again.
	HostEnv map[string]string
	// InheritEnv (Command only) names more of the host's environment variables the command
	// gets: names ("NODE_OPTIONS"), prefixes ending in "*" ("AWS_*"), or "*" for the whole
	// environment, secrets meant for other servers included. The values of the variables it
	// names (other than through "*") are secrets like Env's.
	InheritEnv []string
	// Dir (Command only) is the command's working directory; empty means the current one.
	Dir string
	// Headers (URL only) are set on every HTTP request to the server. Header and Env values
	// (and the URL's password and query values) are secrets: no error, log line or result of
	// this server's tools shows them, nor do its tool definitions (each value that could be a
	// credential, see the package documentation, and the credential after an authorization
	// scheme, is replaced by Redacted, also where JSON escapes it; messages show the URL
	// without its user information and query).
	Headers map[string]string
	// Include, when not empty, keeps only the listed tools (by the server's own names);
	// Exclude drops the listed ones. A name the server does not list is an error of Connect.
	Include, Exclude []string
	// ConcurrencySafe lists tools (by the server's own names) whose calls may overlap, beside
	// those the server marks readOnlyHint.
	ConcurrencySafe []string
	// Name labels the server in messages; empty means the base name of Command[0], or the
	// URL's host.
	Name string
	// CallTimeout bounds one tool call (registry.Tool.Timeout); zero means DefaultCallTimeout.
	CallTimeout time.Duration
	// MaxMessageBytes caps one message from the server (zero: DefaultMaxMessageBytes): a line
	// over stdio; over HTTP, a JSON response body or one server-sent event. A longer answer is
	// discarded without being held whole and fails only its call (MessageTooLargeError); the
	// connection goes on.
	MaxMessageBytes int
	// Secrets are more values treated like Header and Env values (when they could be
	// credentials): ParseConfig puts here every value it took from the environment for a
	// ${VAR}, wherever it went (a URL's path, an argument).
	Secrets []string
	// Approval says which of the server's tools need approval (registry.Tool.RequiresApproval:
	// every call goes to the registry's Approver first). ApprovalDefault: the tools whose
	// annotations say destructiveHint: true and not readOnlyHint: true, and those
	// RequireApproval names; ApprovalRequired: every tool; either way none AutoApprove names.
	// ApprovalNone: none at all (a trusted setup, runcode's --no-approvals).
	Approval ApprovalPolicy
	// RequireApproval names tools (by the server's own names) that need approval under
	// ApprovalDefault; a name the server does not list is an error of Connect.
	RequireApproval []string
	// AutoApprove holds the tool names of a configuration's "autoApprove" or "alwaysAllow"
	// list: they never need approval (unless Approval is ApprovalNone, none does), whatever
	// their annotations.
	AutoApprove []string
	// OnToolsChanged, when set, is called after the server announced that its tool list
	// changed (notifications/tools/list_changed) and Refresh listed the new set. It runs on a
	// goroutine the Server owns, one call at a time, never after Close returns, and possibly
	// before Connect has returned. A long-lived host sets it to a Sync's Update, which
	// re-registers the new set. A failed re-listing is reported with a nil tool set.
	OnToolsChanged func(tools []registry.Tool, err error)
}

// Server is a connected MCP server whose tools are registry tools. Its methods are safe for
// concurrent use.
type Server struct {
	src     Source
	secrets *secrets
	label   string // MCP server "name" (command or URL)
	session *mcp.ClientSession
	raw     *tap // nil for HTTP
	stderr  *tail

	mu    sync.Mutex
	tools []registry.Tool

	images   sync.Map // registry.Token → []registry.Content of a successful call with images
	progress sync.Map // progress token → func(*mcp.ProgressNotificationParams) of a call in flight
	nextRef  atomic.Uint64

	changed chan struct{}
	done    chan struct{}
	wg      sync.WaitGroup
	closed  sync.Once
	err     error
}

// Connect starts (Command) or dials (URL) the server, initializes the session and lists its
// tools, following pagination. ctx bounds these steps only; the session lives until Close.
// Errors name the server and the cause.
func Connect(ctx context.Context, src Source) (*Server, error) {
	s := &Server{src: src, secrets: newSecrets(src), changed: make(chan struct{}, 1), done: make(chan struct{})}
	if s.src.CallTimeout <= 0 {
		s.src.CallTimeout = DefaultCallTimeout
	}
	if s.src.MaxMessageBytes <= 0 {
		s.src.MaxMessageBytes = DefaultMaxMessageBytes
	}
	var transport mcp.Transport
	switch {
	case len(src.Command) > 0 && src.URL != "":
		return nil, errors.New("MCP source: set either a command or a URL, not both")
	case len(src.Command) > 0 && len(src.Headers) > 0:
		return nil, errors.New("MCP source: headers need a URL, not a command")
	case src.URL != "" && (len(src.Env)+len(src.HostEnv)+len(src.InheritEnv) > 0 || src.Dir != ""):
		return nil, errors.New("MCP source: env and dir need a command, not a URL")
	case len(src.Command) > 0:
		if s.src.Name == "" {
			s.src.Name = filepath.Base(src.Command[0])
		}
		// Redacted once here: every message of the server starts with it, and an argument may
		// hold a secret.
		s.label = s.secrets.text(fmt.Sprintf("MCP server %q (%s)", s.src.Name, strings.Join(src.Command, " ")))
		cmd := exec.Command(src.Command[0], src.Command[1:]...)
		cmd.Dir = src.Dir
		for _, p := range src.InheritEnv {
			if err := childenv.CheckPattern(p); err != nil {
				return nil, fmt.Errorf("%s: inheritEnv: %v", s.label, err)
			}
		}
		// Never nil: a nil Env would hand the command the host's whole environment.
		cmd.Env = childenv.Build(os.Environ(), src.InheritEnv, src.HostEnv, src.Env)
		s.stderr = &tail{max: 2048}
		cmd.Stderr = s.stderr
		s.raw = &tap{wanted: map[string][]byte{}, pending: map[jsonrpc.ID]string{}, toolDefs: map[string]jsonv.Value{}}
		inner := &commandTransport{cmd: cmd, limit: s.src.MaxMessageBytes, server: s.src.Name, grace: 2 * time.Second}
		transport = &tapTransport{inner: inner, tap: s.raw}
	case src.URL != "":
		u, err := url.Parse(src.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			// Not the URL itself: its parts may be secrets (and url.Parse's error quotes it).
			if src.Name != "" {
				return nil, fmt.Errorf("MCP server %q: the URL is not an http(s) URL", src.Name)
			}
			return nil, errors.New("MCP server: the URL is not an http(s) URL")
		}
		if s.src.Name == "" {
			s.src.Name = u.Host
		}
		s.label = s.secrets.text(fmt.Sprintf("MCP server %q (%s)", s.src.Name, shownURL(u))) // a path may hold a secret
		transport = &mcp.StreamableClientTransport{Endpoint: src.URL, MaxRetries: 2,
			HTTPClient: newHTTPClient(u, src.Headers, s.src.MaxMessageBytes, s.src.Name),
			// Events are bounded by the client's transport (boundedTransport), which fails only
			// the call whose stream has a larger one; the SDK's own bound (16 MiB by default)
			// would end the session.
			MaxEventSize: s.src.MaxMessageBytes + min(sseSlackBytes, math.MaxInt-s.src.MaxMessageBytes)}
	default:
		return nil, errors.New("MCP source: no command or URL")
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "runcode", Version: "1"}, &mcp.ClientOptions{
		// No roots: a server must not narrow what it was configured with to an empty root list.
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case s.changed <- struct{}{}:
			default: // a refresh is already due
			}
		},
		ProgressNotificationHandler: s.progressed,
	})
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return nil, s.connectError("cannot start", err)
	}
	s.session = session
	tools, listed, err := s.list(ctx)
	if err != nil {
		session.Close()
		return nil, s.connectError("cannot list tools", err)
	}
	if err := s.checkNames(listed); err != nil {
		session.Close()
		return nil, err
	}
	s.tools = tools
	if src.OnToolsChanged != nil {
		s.wg.Add(1)
		go s.watch()
	}
	return s, nil
}

// connectError names the server, the step and the cause, with the tail of its stderr.
func (s *Server) connectError(step string, err error) error {
	msg := s.secrets.text(fmt.Sprintf("%s: %s: %v", s.label, step, err))
	if s.stderr != nil {
		t, cut := s.stderr.kept()
		if cut {
			t = s.secrets.tail(t) // the cut may have left the end of a secret
		}
		if t = strings.TrimSpace(s.secrets.text(t)); t != "" {
			msg += "\nstderr: " + t
		}
	}
	return &registry.Error{Message: msg, Err: s.secrets.cause(err)}
}

// shownURL is u as messages show it: without user information or query, which may carry
// credentials (their values are secrets too, see newSecrets).
func shownURL(u *url.URL) string {
	shown := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	if u.RawQuery != "" {
		return shown.String() + "?…"
	}
	return shown.String()
}

// checkNames fails when Include, Exclude or ConcurrencySafe name a tool the server does not
// list (a misspelt name would otherwise silently change nothing).
func (s *Server) checkNames(listed map[string]bool) error {
	lists := [...]struct {
		key   string
		names []string
	}{{"include", s.src.Include}, {"exclude", s.src.Exclude}, {"concurrencySafe", s.src.ConcurrencySafe}, {"requireApproval", s.src.RequireApproval}}
	for _, l := range lists {
		for _, n := range l.names {
			if !listed[n] {
				return &registry.Error{Message: s.secrets.text(fmt.Sprintf("%s: %s names tool %q, which the server does not have", s.label, l.key, n))}
			}
		}
	}
	return nil
}

// keeps reports whether the server's tool name passes Include and Exclude.
func (s *Server) keeps(name string) bool {
	if len(s.src.Include) > 0 && !slices.Contains(s.src.Include, name) {
		return false
	}
	return !slices.Contains(s.src.Exclude, name)
}

// qualified returns the registry name of the server's tool name.
func (s *Server) qualified(name string) string {
	return registry.QualifiedName(s.src.Namespace, s.src.Prefix+name)
}

// Name returns the server's label.
func (s *Server) Name() string { return s.src.Name }

// Tools returns one registry tool per MCP tool, as last listed.
func (s *Server) Tools() []registry.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]registry.Tool(nil), s.tools...)
}

// Refresh lists the server's tools again and returns the new set (which Tools returns from
// then on). Registering it is the caller's business: unregister the previous set, register
// this one.
func (s *Server) Refresh(ctx context.Context) ([]registry.Tool, error) {
	tools, _, err := s.list(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot list tools: %w", s.label, s.secrets.cause(err))
	}
	s.mu.Lock()
	s.tools = tools
	s.mu.Unlock()
	return append([]registry.Tool(nil), tools...), nil
}

// watch refreshes the tool set on every list_changed notification until Close.
func (s *Server) watch() {
	defer s.wg.Done()
	for {
		select {
		case <-s.done:
			return
		case <-s.changed:
		}
		ctx, cancel := context.WithTimeout(context.Background(), s.src.CallTimeout)
		go func() { // ends the listing when Close is called
			select {
			case <-s.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		tools, err := s.Refresh(ctx)
		cancel()
		select {
		case <-s.done:
			return
		default:
		}
		s.src.OnToolsChanged(tools, err)
	}
}

// Close ends the session and, for a command, the subprocess (stdin is closed, then it is
// terminated if it does not exit), and waits for them. Calls in flight fail.
func (s *Server) Close() error {
	s.closed.Do(func() {
		close(s.done)
		s.err = s.session.Close()
		s.wg.Wait()
		if s.err != nil && s.stderr != nil {
			// A server killed by the closing signal is not a failure worth reporting.
			var ee *exec.ExitError
			if errors.As(s.err, &ee) {
				s.err = nil
			}
		}
	})
	return s.err
}

// list lists every tool (following pagination) and converts those Include and Exclude keep;
// listed has the names of all of them. A tool whose definition a registry would refuse (a
// schema that is invalid or beyond registry.MaxSchemaDepth or MaxSchemaValues, an empty name) is
// left out with a warning: one bad tool does not cost the server's others.
func (s *Server) list(ctx context.Context) (tools []registry.Tool, listed map[string]bool, err error) {
	listed = map[string]bool{}
	// One Compiler per listing: schemas the server's tools share compile once, and a changed
	// tool list does not accumulate the schemas of lists gone by.
	compiler := registry.NewCompiler()
	for mt, err := range s.session.Tools(ctx, nil) {
		if err != nil {
			return nil, nil, err
		}
		listed[mt.Name] = true
		if !s.keeps(mt.Name) {
			continue
		}
		if s.secrets.in(mt.Name) { // a redacted name could not be called
			slog.Warn("skipping an MCP tool whose name shows one of the server's secrets", "server", s.label, "tool", s.secrets.text(mt.Name))
			continue
		}
		def, ok := s.raw.toolDef(mt.Name)
		if !ok {
			def, err = toValue(mt)
			if err != nil {
				return nil, nil, fmt.Errorf("tool %q: %w", mt.Name, err)
			}
		}
		// The definition reaches the model's prompt: the server's secrets must not be in it
		// (a description or a schema default quoting the token it was started with).
		def = s.secrets.value(def)
		t, err := s.tool(def)
		if err == nil {
			t, err = compiler.Compile(ctx, t)
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, nil, ctxErr
		}
		if err != nil {
			slog.Warn("skipping an MCP tool with an invalid definition", "server", s.label, "tool", mt.Name, "error", err)
			continue
		}
		tools = append(tools, t)
	}
	return tools, listed, nil
}

// call runs one MCP tool call of the server's tool name, the registry tool qualified, and
// converts its result (structured: the tool declares an outputSchema).
func (s *Server) call(ctx context.Context, inv *registry.Invocation, name, qualified string, structured bool) (jsonv.Value, error) {
	ref := strconv.FormatUint(s.nextRef.Add(1), 10)
	params := &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(jsonv.AppendJSON(nil, inv.Arguments))}
	if s.raw != nil {
		params.Meta = mcp.Meta{refKey: ref}
		s.raw.want(ref)
	}
	params.Meta = InjectTraceContext(ctx, params.Meta)
	// A run whose client asked for progress passes on the progress the tool reports.
	if sink, ok := ctx.Value(upstreamProgressKey{}).(upstreamProgress); ok {
		token := "runcode-" + ref
		s.progress.Store(token, func(p *mcp.ProgressNotificationParams) { sink(qualified, p) })
		defer s.progress.Delete(token)
		params.SetProgressToken(token)
	}
	res, err := s.session.CallTool(ctx, params)
	var raw []byte
	if s.raw != nil {
		raw = s.raw.take(ref)
	}
	if err != nil {
		if ctx.Err() != nil {
			return jsonv.Value{}, ctx.Err()
		}
		if tooLarge := asTooLarge(err, s.src.MaxMessageBytes); tooLarge != nil {
			return jsonv.Value{}, &registry.Error{Message: s.secrets.text(fmt.Sprintf("%s: %v", s.label, tooLarge)), Err: tooLarge}
		}
		if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return jsonv.Value{}, &registry.Error{Message: s.label + ": connection closed", Err: s.secrets.cause(err)}
		}
		return jsonv.Value{}, &registry.Error{Message: s.secrets.text(fmt.Sprintf("%s: %v", s.label, err)), Err: s.secrets.cause(err)}
	}
	var v jsonv.Value
	if raw != nil {
		v, err = jsonv.Parse(raw)
		// The decoded result would carry the same text altered (U+FFFD) or the same depth.
		if errors.Is(err, jsonv.ErrInvalidText) || errors.Is(err, jsonv.ErrTooDeep) {
			return jsonv.Value{}, fmt.Errorf("%s: unreadable result: %w", s.label, s.secrets.cause(err))
		}
	}
	if raw == nil || err != nil {
		if v, err = toValue(res); err != nil {
			return jsonv.Value{}, fmt.Errorf("%s: unreadable result: %w", s.label, s.secrets.cause(err))
		}
	}
	// The server's own secrets never come back through its results (an "echo the
	// environment" tool, an error page quoting the request's headers).
	v = s.secrets.value(v)
	out := convertResult(v, qualified, structured)
	if out.err != nil {
		return jsonv.Value{}, out.err
	}
	if out.hasImage {
		s.images.Store(inv.Token, out.content)
	}
	return out.value, nil
}

// progressed passes a progress notification of the server on to the run whose call it is
// about (by its token); others are ignored. The message is redacted as results are.
func (s *Server) progressed(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if req.Params == nil {
		return
	}
	f, ok := s.progress.Load(req.Params.ProgressToken)
	if !ok {
		return
	}
	p := *req.Params
	p.Message = s.secrets.text(p.Message)
	f.(func(*mcp.ProgressNotificationParams))(&p)
}

// finalize puts an image-bearing call's MCP content in place of the rendered value.
func (s *Server) finalize(exec registry.Execution, res registry.Result) []registry.Content {
	c, ok := s.images.LoadAndDelete(exec.Token)
	if !ok || res.IsError {
		return nil
	}
	return c.([]registry.Content)
}

// refKey is the _meta key that ties a tools/call request to its raw response.
const refKey = "dev.runcode/ref"

// tapTransport wraps a stdio transport to keep the raw JSON of tools/list and tools/call
// results: the SDK decodes them into Go maps, which lose the server's key order.
type tapTransport struct {
	inner mcp.Transport
	tap   *tap
}

// Connect connects the inner transport and wraps its connection.
func (t *tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tapConn{Connection: c, tap: t.tap}, nil
}

// tap records raw results. The zero of its maps is not usable: Connect makes them.
type tap struct {
	mu       sync.Mutex
	pending  map[jsonrpc.ID]string // request id → ref ("" for tools/list)
	wanted   map[string][]byte     // ref → raw result, nil until it arrives
	toolDefs map[string]jsonv.Value
}

func (t *tap) want(ref string) {
	t.mu.Lock()
	t.wanted[ref] = nil
	t.mu.Unlock()
}

func (t *tap) take(ref string) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	raw := t.wanted[ref]
	delete(t.wanted, ref)
	return raw
}

func (t *tap) toolDef(name string) (jsonv.Value, bool) {
	if t == nil {
		return jsonv.Value{}, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.toolDefs[name]
	return v, ok
}

// tapConn is a connection whose traffic the tap watches.
type tapConn struct {
	mcp.Connection
	tap *tap
}

// Write notes the ids of tools/list and tools/call requests.
func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		switch req.Method {
		case "tools/list":
			c.tap.mu.Lock()
			c.tap.pending[req.ID] = ""
			c.tap.mu.Unlock()
		case "tools/call":
			if p, err := jsonv.Parse(req.Params); err == nil {
				if ref := p.Lookup("_meta").Lookup(refKey); ref.Kind() == jsonv.String {
					c.tap.mu.Lock()
					c.tap.pending[req.ID] = ref.AsString()
					c.tap.mu.Unlock()
				}
			}
		}
	}
	return c.Connection.Write(ctx, msg)
}

// Read keeps the raw results of the noted requests.
func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	resp, ok := msg.(*jsonrpc.Response)
	if err != nil || !ok {
		return msg, err
	}
	c.tap.mu.Lock()
	defer c.tap.mu.Unlock()
	ref, ok := c.tap.pending[resp.ID]
	if !ok {
		return msg, err
	}
	delete(c.tap.pending, resp.ID)
	switch {
	case resp.Error != nil || resp.Result == nil:
	case ref == "":
		if v, err := jsonv.Parse(resp.Result); err == nil {
			for _, t := range v.Lookup("tools").Items() {
				if name := t.Lookup("name"); name.Kind() == jsonv.String {
					c.tap.toolDefs[name.AsString()] = t
				}
			}
		}
	default:
		if _, wanted := c.tap.wanted[ref]; wanted {
			c.tap.wanted[ref] = bytes.Clone(resp.Result)
		}
	}
	return msg, err
}

// toValue converts an SDK value to JSON (object keys sorted, as encoding/json writes maps).
func toValue(x any) (jsonv.Value, error) {
	data, err := json.Marshal(x)
	if err != nil {
		return jsonv.Value{}, err
	}
	return jsonv.Parse(data)
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool // bytes were dropped
}

// Write appends p, dropping the oldest bytes beyond max.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	return len(p), nil
}

// kept returns what is kept and whether earlier bytes were dropped.
func (t *tail) kept() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf), t.cut
}
