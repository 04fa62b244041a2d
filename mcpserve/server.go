package mcpserve

// The server side: NewServer offers a registry's run_code, with the SDK of the registry's tools
// in its description, to any MCP client.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

// DefaultProgressInterval is the heartbeat interval of ServerOptions.ProgressInterval when zero.
const DefaultProgressInterval = time.Second

// ServerOptions configure NewServer.
type ServerOptions struct {
	// Name and Version are the server's implementation info sent to clients; Name defaults to
	// "runcode".
	Name, Version string
	// Scope is the agent the calls run for and whose SDK the tool describes (nil: the global
	// view).
	Scope *registry.Scope
	// CompactAbove picks the full or the compact SDK in the tool's description, as
	// codemode.SectionOptions.CompactAbove; pass the value given to codemode.New.
	CompactAbove int
	// ProgressInterval is how often a running program reports progress to a client that asked
	// for it with a progress token (zero: DefaultProgressInterval; negative: no heartbeat, only
	// the notifications of settled sub-calls).
	ProgressInterval time.Duration
	// Gate, when set, admits the calls: once it drains, a call fails at once with a message
	// saying the server is shutting down (ShuttingDown), and the calls in flight end when it
	// aborts them.
	Gate *RunGate
	// OnRun, when set, is called with the report of every call once its result is ready, before
	// the result is sent (so it must not block): the host's logs and metrics. Calls that ran no
	// program (refused while draining, invalid arguments) are reported too, with their kind.
	OnRun func(RunReport)
	// Structured says when replies carry structuredContent and whether run_code declares its
	// outputSchema ("": StructuredAuto; see StructuredMode).
	Structured StructuredMode
	// MaxReplyBytes bounds one reply, as a JSON-RPC message (zero: DefaultMaxReplyBytes): a
	// larger one loses its structuredContent, then its content is cut with a marker.
	MaxReplyBytes int
	// ApprovalTimeout is how long a call that needs approval waits for the person's answer to
	// an elicitation/create request before it is denied (zero: DefaultApprovalTimeout); the
	// run's own wall time bounds the wait too. See Approver.
	ApprovalTimeout time.Duration
	// RequestStateKey signs the request state of in-band approvals (input_required results,
	// SEP-2322), so that a retry with a changed state is refused; at least
	// MinRequestStateKeyBytes. nil: a random key of this server, so a retry must come back to
	// this server: replicas that serve one deployment statelessly need the same key.
	RequestStateKey []byte
	// SessionState, when set, is the store of codemode.Options.State, kept per MCP session:
	// each call runs in the state scope of its session (codemode.WithStateScope with the
	// session id), so two sessions never see each other's values, and the values of a session
	// that has ended are dropped at the next call of any session. Leave it nil when all
	// clients share one scope (a --state directory, or stdio's one session).
	SessionState *codemode.MemoryStore
	// State declares the state binding in the tool's description (codemode.SectionOptions.State):
	// set it when the registry's codemode has a state store (codemode.Options.State).
	State bool
}

// NewServer returns an MCP server whose one tool is the registry's run_code (the registry must
// have codemode installed and present code or both for the scope).
//
// The MCP tool, titled RunCodeTitle, is annotated as neither read-only nor idempotent, possibly
// destructive and open-world (a program may call any tool, to any effect). It takes run_code's
// parameters (code, description); its description is run_code's
// followed by the SDK section of the scope's tools and saved programs (codemode.Sections), taken
// when NewServer is called and again whenever the registry changes (saved programs reloaded,
// tools added: the tool is replaced and clients are told the list changed). Each call is one
// reg.Execute of run_code with a call id unique to the server ("mcp-1", "mcp-2", …) and the request's context, so a client's cancellation stops the
// program. The result's content is run_code's rendered text (isError when the run failed),
// then the content of the result's additional contexts in order (such as the text and images
// of an image-bearing sub-call), images as MCP image content. Its structuredContent is the
// canonical outcome (codemode.CanonicalOutcome), which the tool declares as its outputSchema
// (OutputSchema) under StructuredAlways; a call that ran no program carries a failure of its
// own kind there (KindInvalidArguments, KindShuttingDown, KindInternal). opts.Structured says
// when structuredContent is sent, and opts.MaxReplyBytes bounds each reply (see replyShaper).
//
// When the client supplies a progress token, the call sends notifications/progress while the
// program runs: one every ProgressInterval (a heartbeat with the elapsed time) and one when
// sub-calls settle (coalesced when they settle faster than the client reads). Progress is the
// elapsed time in seconds; the message counts the settled sub-calls.
//
// Each call carries what Approver needs to put the program's calls that need approval to the
// client's person (see the package documentation, Approvals). For the in-band form, NewServer
// adds one around-dispatch wrapper to reg (Registry.WrapExecute) that records the calls of this
// server's runs and gives a retry their recorded results, and one post-execute listener
// (Registry.OnPostExecute) that records approved calls a guard denied; both leave every other
// call alone.
func NewServer(reg *registry.Registry, opts ServerOptions) (*mcp.Server, error) {
	if reg == nil {
		return nil, errors.New("mcpserve: NewServer needs a registry")
	}
	if mode := reg.PresentationOf(opts.Scope); mode == registry.PresentNative {
		return nil, fmt.Errorf("mcpserve: the scope presents %q: present code or both to serve %s", mode, registry.ReservedName)
	}
	tool, ok := reg.Get(registry.ReservedName, opts.Scope)
	if !ok {
		return nil, fmt.Errorf("mcpserve: %s is not installed: install it with codemode.New", registry.ReservedName)
	}
	describe := func() (string, error) {
		sections, err := codemode.Sections(reg, opts.Scope, codemode.SectionOptions{CompactAbove: opts.CompactAbove, State: opts.State || opts.SessionState != nil})
		if err != nil {
			return "", fmt.Errorf("mcpserve: %w", err)
		}
		description := strings.TrimSpace(tool.Description)
		for _, s := range sections {
			if s.Name == codemode.SectionSDK && strings.TrimSpace(s.Text) != "" {
				description += "\n\n" + strings.TrimRight(s.Text, "\n")
			}
		}
		return description, nil
	}
	description, err := describe()
	if err != nil {
		return nil, err
	}
	params := tool.Parameters
	if !params.IsDefined() {
		params = jsonv.ObjectValue(jsonv.Member{Key: "type", Value: jsonv.StringValue("object")})
	}
	name := opts.Name
	if name == "" {
		name = "runcode"
	}
	interval := opts.ProgressInterval
	if interval == 0 {
		interval = DefaultProgressInterval
	}
	mode := cmp.Or(opts.Structured, StructuredAuto)
	if _, err := ParseStructuredMode(string(mode)); err != nil {
		return nil, fmt.Errorf("mcpserve: ServerOptions.Structured: %w", err)
	}
	maxReply := cmp.Or(opts.MaxReplyBytes, DefaultMaxReplyBytes)
	if maxReply < minMaxReplyBytes {
		return nil, fmt.Errorf("mcpserve: ServerOptions.MaxReplyBytes must be at least %d, got %d", minMaxReplyBytes, maxReply)
	}
	var outputSchema any // declared only when every reply carries structuredContent
	if mode == StructuredAlways {
		outputSchema = json.RawMessage(OutputSchema)
	}
	key := opts.RequestStateKey
	switch {
	case key == nil:
		key = newStateKey()
	case len(key) < MinRequestStateKeyBytes:
		return nil, fmt.Errorf("mcpserve: ServerOptions.RequestStateKey must be at least %d bytes, got %d", MinRequestStateKeyBytes, len(key))
	}
	if opts.ApprovalTimeout < 0 {
		return nil, fmt.Errorf("mcpserve: ServerOptions.ApprovalTimeout must not be negative, got %s", opts.ApprovalTimeout)
	}
	h := &runHandler{reg: reg, scope: opts.Scope, interval: interval, gate: opts.Gate, onRun: opts.OnRun, reply: replyShaper{mode: mode, maxBytes: maxReply},
		approvalTimeout: cmp.Or(opts.ApprovalTimeout, DefaultApprovalTimeout), stateKey: bytes.Clone(key), state: opts.SessionState}
	// The in-band approvals' record and replay of a run's calls (see runApprovals.wrap).
	reg.WrapExecute(func(ctx context.Context, exec registry.Execution, next func(context.Context) registry.Result) registry.Result {
		ra, _ := ctx.Value(approvalsKey{}).(*runApprovals)
		if ra == nil || ra.owner != h || ra.form != formInBand || exec.CallID == ra.callID {
			return next(ctx)
		}
		return ra.wrap(ctx, exec, next)
	})
	// A call the approver let through that never reached the wrapper (a guard denied it) settles
	// here.
	reg.OnPostExecute(func(ctx context.Context, exec registry.Execution, res registry.Result, next func() registry.PostDecision) registry.PostDecision {
		if ra, _ := ctx.Value(approvalsKey{}).(*runApprovals); ra != nil && ra.owner == h && ra.form == formInBand && exec.CallID != ra.callID {
			ra.settled(exec, res)
		}
		return next()
	})
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Version: opts.Version}, nil)
	h.srv = srv
	destructive, openWorld := true, true
	runCode := &mcp.Tool{
		Name:        registry.ReservedName,
		Title:       RunCodeTitle,
		Description: description,
		// A program may call any of the tools, write through them and reach what they reach;
		// nothing vouches for less, so the hints say so (the MCP defaults, spelled out).
		Annotations: &mcp.ToolAnnotations{
			Title:           RunCodeTitle,
			ReadOnlyHint:    false,
			DestructiveHint: &destructive,
			IdempotentHint:  false,
			OpenWorldHint:   &openWorld,
		},
		InputSchema:  json.RawMessage(jsonv.AppendJSON(nil, params)),
		OutputSchema: outputSchema,
	}
	srv.AddTool(runCode, h.call)
	// The description follows the tools and the saved programs (codemode.Options.Programs,
	// reloaded when the library changes): a change replaces the tool, and the SDK notifies
	// the clients (notifications/tools/list_changed).
	var mu sync.Mutex
	reg.OnChange(func(*registry.Scope) {
		text, err := describe()
		if err != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if text == runCode.Description {
			return
		}
		next := *runCode
		next.Description = text
		runCode = &next
		srv.AddTool(runCode, h.call)
	})
	return srv, nil
}

// RunCodeTitle is the human-readable title of the served run_code tool.
const RunCodeTitle = "Run code"

// runHandler serves the run_code tool of one server.
type runHandler struct {
	reg      *registry.Registry
	scope    *registry.Scope
	interval time.Duration
	gate     *RunGate        // nil: every call runs
	onRun    func(RunReport) // nil: no reports
	calls    atomic.Int64    // calls so far, for unique call ids
	reply    replyShaper
	state    *codemode.MemoryStore // nil: state is not kept per session
	srv      *mcp.Server

	approvalTimeout time.Duration
	stateKey        []byte // signs in-band approvals' request states
}

// sessionState puts ctx in the state scope of session id and drops the state of the
// sessions that are no longer live.
func (h *runHandler) sessionState(ctx context.Context, id string) context.Context {
	live := map[string]bool{}
	for ss := range h.srv.Sessions() {
		live[ss.ID()] = true
	}
	live[id] = true
	h.state.Retain(func(scope string) bool { return live[scope] })
	return codemode.WithStateScope(ctx, id)
}

// ShuttingDown is the text of a call refused because the server is draining.
const ShuttingDown = "Error: the server is shutting down and starts no new runs; retry on another server or later"

func (h *runHandler) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	start := time.Now()
	rep := RunReport{CallID: fmt.Sprintf("mcp-%d", h.calls.Add(1))}
	res := h.reply.shape(h.run(ctx, req, &rep))
	rep.Duration = time.Since(start)
	if h.onRun != nil {
		h.onRun(rep)
	}
	return res, nil
}

// run runs one call and fills in rep's arguments, kind, outcome and sub-call count.
func (h *runHandler) run(ctx context.Context, req *mcp.CallToolRequest, rep *RunReport) *mcp.CallToolResult {
	args := jsonv.ObjectValue()
	raw := []byte(req.Params.Arguments)
	if moved := movedArguments(req.Extra); moved != nil {
		raw = moved // the transport kept them out of the SDK's copies
	}
	if len(raw) > 0 {
		v, err := jsonv.Parse(raw)
		if err != nil {
			return h.refuse(rep, KindInvalidArguments, "invalid arguments: "+err.Error())
		}
		args = v
		rep.Description, rep.Program = args.Lookup("description").AsString(), args.Lookup("code").AsString()
	}
	if h.gate != nil {
		runCtx, leave, ok := h.gate.enter(ctx)
		if !ok {
			return h.refuse(rep, KindShuttingDown, ShuttingDown)
		}
		defer leave()
		ctx = runCtx
	}
	ra, refused := h.approvals(req, rep)
	if refused != nil {
		return refused
	}
	runCtx, stop := context.WithCancelCause(ctx)
	defer func() {
		stop(nil)
		ra.endQuestions() // withdraws the questions still open, before the answer
	}()
	ra.stop, ra.callCtx = stop, runCtx
	ctx = context.WithValue(runCtx, approvalsKey{}, ra)
	if ra.form == formInBand {
		ctx = codemode.WithStateInterceptor(ctx, ra.stateOp)
	}
	ctx = mcptools.ExtractTraceContext(ctx, req.Params.Meta)
	if req.Session != nil {
		ctx = codemode.WithCaller(ctx, req.Session.ID()) // workers are shared fairly across sessions
		if h.state != nil {
			ctx = h.sessionState(ctx, req.Session.ID())
		}
	}
	call := registry.Call{CallID: rep.CallID, Name: registry.ReservedName, Arguments: args, Scope: h.scope}
	// One trace for this call alone counts its sub-calls and drives its progress: each settle
	// event is one of the program's tool calls settled (a call the run gave up on when it ended
	// settles then, as a failure).
	var p *progress
	if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
		p = &progress{session: req.Session, token: token, start: time.Now(), kick: make(chan struct{}, 1)}
		ctx = mcptools.WithUpstreamProgress(ctx, p.forward)
	}
	var subCalls atomic.Int64
	if h.onRun != nil || p != nil {
		ctx = codemode.WithRunTrace(ctx, &codemode.RunTrace{OnEvent: func(e bridge.Event) {
			if e.Type != bridge.EventSettle {
				return
			}
			subCalls.Add(1)
			if p != nil {
				p.settle(e)
			}
		}})
	}
	var res registry.Result
	if p != nil {
		runCtx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		wg.Go(func() { p.report(runCtx, h.interval) })
		res = h.reg.Execute(ctx, call)
		stop()
		wg.Wait()
	} else {
		res = h.reg.Execute(ctx, call)
	}
	rep.SubCalls = int(subCalls.Load())
	if ra.form == formInBand {
		if out := h.inBandResult(ra, rep); out != nil {
			return out
		}
	}
	rep.Outcome, rep.Kind = outcomeOf(res)
	return toolResult(res, rep.Outcome)
}

// refuse is the result of a call that runs no program.
func (h *runHandler) refuse(rep *RunReport, kind, message string) *mcp.CallToolResult {
	res, outcome := failureResult(kind, message)
	rep.Kind, rep.Outcome = kind, outcome
	return res
}

// toolResult converts a run_code result: its content, then the content of its additional
// contexts, with the canonical outcome as structuredContent.
func toolResult(res registry.Result, outcome jsonv.Value) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: res.IsError, Content: []mcp.Content{}}
	out.Content = appendContent(out.Content, res.Content)
	for _, m := range res.AdditionalContexts {
		out.Content = appendContent(out.Content, m.Content)
	}
	if len(out.Content) == 0 {
		out.Content = append(out.Content, &mcp.TextContent{Text: codemode.NoOutput})
	}
	out.StructuredContent = json.RawMessage(jsonv.AppendJSON(nil, outcome))
	return out
}

// appendContent appends registry content blocks as MCP content: text as text, images as images
// (an image whose data is not base64 becomes a text note).
func appendContent(dst []mcp.Content, blocks []registry.Content) []mcp.Content {
	for _, b := range blocks {
		switch b.Type {
		case "image":
			data, err := base64.StdEncoding.DecodeString(b.Data)
			if err != nil {
				dst = append(dst, &mcp.TextContent{Text: fmt.Sprintf("[an image (%s) whose data is not valid base64]", b.MimeType)})
				continue
			}
			dst = append(dst, &mcp.ImageContent{Data: data, MIMEType: b.MimeType})
		default:
			dst = append(dst, &mcp.TextContent{Text: b.Text})
		}
	}
	return dst
}

// progress reports one call's progress to the client that asked for it.
type progress struct {
	session *mcp.ServerSession
	token   any
	start   time.Time
	kick    chan struct{} // a sub-call settled since the last report (capacity 1)

	mu       sync.Mutex
	settled  int    // sub-calls settled so far
	failed   int    // of which failed
	last     string // the name of the last settled sub-call
	upstream string // the latest progress of an upstream MCP tool not reported yet
}

// forward is the run's upstream progress sink (mcptools.WithUpstreamProgress): the next notification passes on the tool's progress
// in its message ("tool: message (progress/total)"); the run's progress value stays the
// elapsed time, so it still increases. Progress reported faster than the client reads is
// coalesced to the latest.
func (p *progress) forward(tool string, up *mcp.ProgressNotificationParams) {
	amount := strconv.FormatFloat(up.Progress, 'g', -1, 64)
	if up.Total > 0 {
		amount += "/" + strconv.FormatFloat(up.Total, 'g', -1, 64)
	}
	msg := tool + ": " + amount
	if up.Message != "" {
		msg = tool + ": " + up.Message + " (" + amount + ")"
	}
	p.mu.Lock()
	p.upstream = msg
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// settle counts a settled sub-call (a settle event of the run) and wakes the reporter without
// ever blocking the run.
func (p *progress) settle(e bridge.Event) {
	p.mu.Lock()
	p.settled++
	if e.IsError {
		p.failed++
	}
	p.last = e.Name
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// report sends a notification every interval (when positive) and after sub-calls settle,
// until ctx is done. Progress is the elapsed time in seconds, strictly increasing.
func (p *progress) report(ctx context.Context, interval time.Duration) {
	var tick <-chan time.Time
	if interval > 0 {
		t := time.NewTicker(interval)
		defer t.Stop()
		tick = t.C
	}
	var sent float64
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		case <-p.kick:
		}
		elapsed := time.Since(p.start)
		value := max(elapsed.Seconds(), sent+1e-6)
		sent = value
		// A failed notification (a client gone, a closed stream) is not the run's failure.
		_ = p.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: p.token,
			Progress:      value,
			Message:       p.message(elapsed),
		})
	}
}

// message is the next notification's: the pending upstream progress, else the run's own.
func (p *progress) message(elapsed time.Duration) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if msg := p.upstream; msg != "" {
		p.upstream = ""
		return msg
	}
	msg := fmt.Sprintf("%s running for %s", registry.ReservedName, elapsed.Round(100*time.Millisecond))
	if p.settled > 0 {
		msg += fmt.Sprintf("; %d sub-call(s) settled", p.settled)
		if p.failed > 0 {
			msg += fmt.Sprintf(" (%d failed)", p.failed)
		}
		msg += ", last: " + p.last
	}
	return msg
}
