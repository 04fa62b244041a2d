package mcpserve

// The server side over streamable HTTP: the SDK's handler behind authentication, cross-origin
// protection and a session cap that evicts the longest-idle session.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/runcode-dev/runcode/internal/mcpwire"
)

// HTTPOptions configure NewHTTPHandler.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry
	// (Authorization: Bearer <token>); others get 401 with WWW-Authenticate: Bearer.
	Token string
	// SessionTimeout ends an MCP session that has had no request for this long (zero: never).
	SessionTimeout time.Duration
	// MaxSessions caps the live MCP sessions (zero: no cap). At the cap, a request that starts a
	// session first ends the session idle the longest (no request in flight, the oldest last
	// request); only when every session has a request in flight does it get 503 with a message
	// saying so. A client whose session was ended (evicted, timed out) gets 404 on its session
	// id and must start a new session (initialize again), as the MCP specification says.
	MaxSessions int
	// MaxMessageBytes caps one request body (zero: DefaultMaxMessageBytes); a larger one gets
	// 413.
	MaxMessageBytes int64
	// Stateless serves every request on its own (the SDK's stateless streamable handler): no
	// session outlives a request, so any replica of the server can answer any request, and
	// SessionTimeout and MaxSessions do not apply (they are ignored). See StatelessDraining for
	// how a draining replica refuses requests.
	Stateless bool
	// Gate is the server's run gate (ServerOptions.Gate); with Stateless, once it drains, every
	// request is refused with 503 (StatelessDraining).
	Gate *RunGate
}

// HTTPHandler serves an MCP server over streamable HTTP (the SDK's StreamableHTTPHandler) with:
//
//   - cross-origin protection (net/http.CrossOriginProtection): a browser's cross-origin
//     request (by Sec-Fetch-Site, or an Origin that is not the Host) that is not GET, HEAD or
//     OPTIONS gets 403; the SDK's own DNS-rebinding protection (a loopback listener refuses
//     requests whose Host is not loopback) stays on;
//   - bearer-token authentication when HTTPOptions.Token is set, compared in constant time;
//   - the idle-session timeout and the session cap of HTTPOptions, or with
//     HTTPOptions.Stateless no sessions at all, and a 503 for every request once the server
//     drains;
//   - a message whose number id the SDK would answer under another id (-1.5, 1e3, beyond
//     ±(2^53-1): see LineTransport) gets 400 and a -32600 error under the id as sent;
//   - a body is read once, up to HTTPOptions.MaxMessageBytes (one whose Content-Length is over
//     it gets 413 unread), and a run_code call's arguments reach the handler of NewServer's
//     run_code without passing through the SDK's decoding (see splitArguments);
//   - with HTTPOptions.Stateless, a request is handled under a context that ends with the POST
//     that carried it, so a client that abandons its call stops the run (see postContexts).
//
// Checks run in that order: cross-origin, token, draining (stateless), cap.
type HTTPHandler struct {
	srv     *mcp.Server
	inner   http.Handler // the SDK's handler behind the cross-origin check
	token   [sha256.Size]byte
	auth    bool
	max     int
	limitMu sync.Mutex          // serializes admission of new sessions
	pending map[*creation]bool  // session-creating requests admitted and not finished (guarded by limitMu)
	posts   mcpwire.IdleCounter // POST requests in flight (each carries a message and, for a call, its answer)
	active  *sessionActivity    // the sessions' requests, for eviction at the cap (nil: no cap)
	posted  *postContexts       // Stateless: the contexts of the POSTs in flight (else nil)
}

// NewHTTPHandler returns the handler of srv; srv must serve only this handler's sessions, as
// the cap counts srv's sessions. With a cap, it adds a receiving middleware to srv that tracks
// each session's requests (which sessions are idle, and since when).
func NewHTTPHandler(srv *mcp.Server, opts HTTPOptions) *HTTPHandler {
	maxBody := opts.MaxMessageBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxMessageBytes
	}
	if opts.Stateless {
		opts.SessionTimeout, opts.MaxSessions = 0, 0
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:           opts.Stateless,
		SessionTimeout:      opts.SessionTimeout,
		MaxRequestBodyBytes: maxBody,
	})
	h := &HTTPHandler{srv: srv, max: opts.MaxSessions}
	if h.max > 0 {
		h.pending = map[*creation]bool{}
		h.active = &sessionActivity{of: map[*mcp.ServerSession]*activity{}}
		srv.AddReceivingMiddleware(h.active.middleware)
	}
	if opts.Stateless {
		h.posted = &postContexts{of: map[string]context.Context{}}
		srv.AddReceivingMiddleware(h.posted.middleware)
	}
	if opts.Token != "" {
		h.auth, h.token = true, sha256.Sum256([]byte(opts.Token))
	}
	h.inner = http.NewCrossOriginProtection().Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.authorized(r) {
			unauthorized(w)
			return
		}
		if opts.Stateless && refuseWhileDraining(w, opts.Gate) {
			return
		}
		if opensSession(r) && h.max > 0 {
			c, ok := h.admit()
			if !ok {
				http.Error(w, fmt.Sprintf("Service Unavailable: the server has reached its maximum of %d live MCP sessions and every one has a request in flight; retry later", h.max), http.StatusServiceUnavailable)
				return
			}
			defer h.admitted(c)
			r = r.WithContext(context.WithValue(r.Context(), creationKey{}, c))
		}
		if r.Method == http.MethodPost {
			h.posts.Add()
			defer h.posts.Done()
			var handled bool
			if r, handled = readPOST(w, r, maxBody); handled {
				return
			}
			if h.posted != nil {
				var done func()
				r, done = h.posted.add(r)
				defer done()
			}
		}
		sdk.ServeHTTP(w, r)
	}))
	return h
}

// WaitAnswered waits until no POST request is in flight (so every call received has been
// answered), or ctx is done. A server that is shutting down waits here before it closes the
// sessions: the SDK drops the responses of calls that finish after the close.
func (h *HTTPHandler) WaitAnswered(ctx context.Context) error { return h.posts.Wait(ctx) }

// RequireToken returns next behind the handler's bearer-token check (HTTPOptions.Token): a
// request without the token gets 401 as on the MCP endpoint. Without a token it returns next.
// A host serves its other protected endpoints (metrics) with it.
func (h *HTTPHandler) RequireToken(next http.Handler) http.Handler {
	if !h.auth {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.authorized(r) {
			unauthorized(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func unauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="runcode"`)
	// The body is never read: closing the connection lets net/http answer at once, where it
	// would otherwise read up to 256 KiB of the body first, as slowly as a client sends it.
	w.Header().Set("Connection", "close")
	http.Error(w, "Unauthorized: this server needs Authorization: Bearer <token>", http.StatusUnauthorized)
}

// ServeHTTP implements http.Handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.inner.ServeHTTP(w, r) }

// LiveSessions returns the number of MCP sessions the server holds.
func (h *HTTPHandler) LiveSessions() int {
	n := 0
	for range h.srv.Sessions() {
		n++
	}
	return n
}

// CloseSessions ends every live session (their streams end; calls in flight are cancelled).
func (h *HTTPHandler) CloseSessions() {
	for s := range h.srv.Sessions() {
		s.Close()
	}
}

func (h *HTTPHandler) authorized(r *http.Request) bool {
	if !h.auth {
		return true
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	// Hashing first makes the comparison's time independent of the token's length too.
	got := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return subtle.ConstantTimeCompare(got[:], h.token[:]) == 1
}

// opensSession reports whether the SDK would start a session for r: a POST without a session id.
func opensSession(r *http.Request) bool {
	return r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == ""
}

// admit admits a session-creating request when the initialized sessions plus those being
// created are under the cap, ending the longest-idle session to make room when they are not.
// A session whose creating request did not initialize it (a probe such as the Go SDK client's
// discover request) does not count: the SDK closes it when that request ends.
func (h *HTTPHandler) admit() (*creation, bool) {
	h.limitMu.Lock()
	defer h.limitMu.Unlock()
	for {
		live := slices.Collect(h.srv.Sessions())
		if h.active.count(live, h.pending) < h.max {
			break
		}
		idle := h.active.evict(live)
		if idle == nil {
			return nil, false
		}
		// Close returns once the session is gone from the server and from the SDK's handler
		// (its id gets 404); it has no request in flight to wait for, and gets no new one.
		idle.Close()
	}
	c := &creation{}
	h.pending[c] = true
	return c, true
}

func (h *HTTPHandler) admitted(c *creation) {
	h.limitMu.Lock()
	delete(h.pending, c)
	h.limitMu.Unlock()
}

// creation is one admitted session-creating request; its context carries it (creationKey)
// to the middleware, which records the session once created so that the session is not
// counted twice, as live and as being created.
type creation struct {
	session *mcp.ServerSession // guarded by sessionActivity.mu
}

type creationKey struct{}

// errSessionEvicted answers a request that reaches a session as it is being evicted.
var errSessionEvicted = errors.New("this MCP session was ended to make room for a new one (the server's session cap); start a new session")

// sessionActivity tracks the requests of each MCP session: how many are in flight, and when
// the last one started or ended, so that a new session at the cap can take the place of the
// session idle the longest.
type sessionActivity struct {
	mu    sync.Mutex
	clock uint64 // advances at every request's start and end: orders the sessions' activity
	of    map[*mcp.ServerSession]*activity
}

// activity is one session's.
type activity struct {
	inFlight int
	last     uint64 // the clock at the last request's start or end
	evicted  bool   // chosen for eviction: admits no more requests
}

// middleware is a receiving middleware (every request and notification of every session).
func (a *sessionActivity) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok {
			return next(ctx, method, req)
		}
		if !a.begin(ctx, ss) {
			return nil, errSessionEvicted
		}
		defer a.end(ss)
		return next(ctx, method, req)
	}
}

// begin records the start of a request of ss; it reports false when ss is being evicted.
// The first request of a session (initialize) carries the creation that admitted it.
func (a *sessionActivity) begin(ctx context.Context, ss *mcp.ServerSession) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := ctx.Value(creationKey{}).(*creation); ok && c.session == nil {
		c.session = ss
	}
	s := a.of[ss]
	if s == nil {
		s = &activity{}
		a.of[ss] = s
	}
	if s.evicted {
		return false
	}
	a.clock++
	s.inFlight++
	s.last = a.clock
	return true
}

func (a *sessionActivity) end(ss *mcp.ServerSession) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.clock++
	s := a.of[ss]
	s.inFlight--
	s.last = a.clock
}

// count counts the sessions held against the cap: the initialized live sessions, and the
// admitted creations whose session does not exist yet or is still answering its first request.
func (a *sessionActivity) count(live []*mcp.ServerSession, pending map[*creation]bool) int {
	n := 0
	for _, ss := range live {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for c := range pending {
		if c.session == nil {
			n++
		} else if s := a.of[c.session]; s != nil && s.inFlight > 0 && c.session.InitializeParams() == nil {
			n++
		}
	}
	return n
}

// evict picks, among the live sessions, the one with no request in flight whose last request
// is the oldest, and marks it so that it admits no more requests; nil when every session is
// busy. A session not initialized yet (being created, or a probe about to close) is never
// picked. It forgets the sessions that are no longer live.
func (a *sessionActivity) evict(live []*mcp.ServerSession) *mcp.ServerSession {
	a.mu.Lock()
	defer a.mu.Unlock()
	var idle *mcp.ServerSession
	var oldest *activity
	seen := make(map[*mcp.ServerSession]bool, len(live))
	for _, ss := range live {
		seen[ss] = true
		s := a.of[ss]
		if s == nil || s.evicted || s.inFlight > 0 || ss.InitializeParams() == nil {
			continue
		}
		if oldest == nil || s.last < oldest.last {
			idle, oldest = ss, s
		}
	}
	for ss := range a.of {
		if !seen[ss] {
			delete(a.of, ss)
		}
	}
	if oldest != nil {
		oldest.evicted = true
	}
	return idle
}

// readPOST reads the message of a POST (up to maxBody bytes: a larger one gets 413 at once)
// and answers it when the SDK would answer it wrongly: a number id the SDK would answer under
// another id (see LineTransport) gets 400 and a -32600 error under the id as sent. Otherwise it
// returns the request for the SDK, its body the message read (run_code's arguments moved out of
// it into a header only the handler reads: see splitArguments), and handled false.
func readPOST(w http.ResponseWriter, r *http.Request, maxBody int64) (_ *http.Request, handled bool) {
	if r.ContentLength > maxBody {
		tooLarge(w, maxBody)
		return r, true
	}
	body, err := readBody(http.MaxBytesReader(w, r.Body, maxBody), r.ContentLength)
	if err != nil {
		if errors.As(err, new(*http.MaxBytesError)) {
			tooLarge(w, maxBody)
		} else {
			http.Error(w, "failed to read body", http.StatusBadRequest)
		}
		return r, true
	}
	toSDK := bytes.TrimLeft(body, " \t\r\n")
	rest, args, moved := splitArguments(toSDK)
	if moved {
		toSDK = rest
	}
	if len(toSDK) > 0 && toSDK[0] == '{' {
		if msg, err := jsonrpc.DecodeMessage(toSDK); err == nil {
			if reply := mcpwire.InexactIDReply(msg, toSDK); reply != nil {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				w.Write(reply)
				return r, true
			}
		}
	}
	r = r.WithContext(r.Context())
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(toSDK)), int64(len(toSDK))
	r.Header = r.Header.Clone() // the SDK passes it on to the handlers (RequestExtra.Header)
	// Neither can come from a client (a space is not allowed in a field name); never trust one
	// that did.
	delete(r.Header, movedArgumentsHeader)
	delete(r.Header, postHeader)
	if moved {
		r.Header[movedArgumentsHeader] = movedValue(args)
	}
	return r, false
}

// postHeader is the RequestExtra.Header entry naming the POST a stateless request came in (a
// key of postContexts). Like movedArgumentsHeader, no client can send it.
const postHeader = "Runcode Post"

// postContexts ties the handling of a stateless request to the POST that carries it. Without a
// session, a client's notifications/cancelled arrives in a POST of its own, which the SDK
// serves on a new session that does not know the call, and it does not end a request's
// handler when the client goes away: a cancelled run went on until its timeout, holding its
// worker. The POST carries the whole call (its answer can go nowhere else), so its end ends the
// call's context.
type postContexts struct {
	mu   sync.Mutex
	next uint64
	of   map[string]context.Context // by postHeader value
}

// add records r's context under a new key, returns r carrying the key, and a func that
// forgets it (when the POST has been answered).
func (p *postContexts) add(r *http.Request) (*http.Request, func()) {
	p.mu.Lock()
	p.next++
	key := strconv.FormatUint(p.next, 10)
	p.of[key] = r.Context()
	p.mu.Unlock()
	r.Header[postHeader] = []string{key}
	return r, func() {
		p.mu.Lock()
		delete(p.of, key)
		p.mu.Unlock()
	}
}

// middleware is a receiving middleware: a request that came in a POST is handled under a
// context that ends when the POST's does.
func (p *postContexts) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		extra := req.GetExtra()
		if extra == nil || len(extra.Header[postHeader]) != 1 {
			return next(ctx, method, req)
		}
		p.mu.Lock()
		post := p.of[extra.Header[postHeader][0]]
		p.mu.Unlock()
		if post == nil {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		stop := context.AfterFunc(post, func() { cancel(context.Cause(post)) })
		defer stop()
		return next(ctx, method, req)
	}
}

// tooLarge answers a body over maxBody as the SDK does, and ends the connection (the rest of
// the body is not read).
func tooLarge(w http.ResponseWriter, maxBody int64) {
	w.Header().Set("Connection", "close")
	http.Error(w, fmt.Sprintf("request body exceeds %d bytes", maxBody), http.StatusRequestEntityTooLarge)
}

// readBody reads r to its end into one slice allocated once when size (the Content-Length,
// -1 when unknown) is known; otherwise in chunks joined at the end, so that the message costs
// at most twice its size (io.ReadAll's growth allocates several times the size in all).
func readBody(r io.Reader, size int64) ([]byte, error) {
	if size >= 0 {
		body := make([]byte, size) // net/http ends the body at its Content-Length
		if _, err := io.ReadFull(r, body); err != nil {
			return nil, err
		}
		return body, nil
	}
	var j mcpwire.Joiner
	for {
		chunk := make([]byte, mcpwire.ReadChunkBytes)
		n, err := io.ReadFull(r, chunk)
		j.Take(chunk[:n])
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return j.Join(), nil
		case err != nil:
			return nil, err
		}
	}
}
