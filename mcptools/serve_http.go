package mcptools

// The server side over streamable HTTP: the SDK's handler behind authentication, cross-origin
// protection and a session cap.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure NewHTTPHandler.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry
	// (Authorization: Bearer <token>); others get 401 with WWW-Authenticate: Bearer.
	Token string
	// SessionTimeout ends an MCP session that has had no request for this long (zero: never).
	SessionTimeout time.Duration
	// MaxSessions caps the live MCP sessions (zero: no cap). A request that would start a session
	// over the cap gets 503 with a message saying so; sessions end by DELETE, by SessionTimeout
	// or with the server.
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
//     ±(2^53-1): see LineTransport) gets 400 and a -32600 error under the id as sent.
//
// Checks run in that order: cross-origin, token, draining (stateless), cap.
type HTTPHandler struct {
	srv     *mcp.Server
	inner   http.Handler // the SDK's handler behind the cross-origin check
	token   [sha256.Size]byte
	auth    bool
	max     int
	limitMu sync.Mutex  // serializes admission of new sessions
	pending int         // session-creating requests admitted and not finished (guarded by limitMu)
	posts   idleCounter // POST requests in flight (each carries a message and, for a call, its answer)
}

// NewHTTPHandler returns the handler of srv; srv must serve only this handler's sessions, as
// the cap counts srv's sessions.
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
			if !h.admit() {
				http.Error(w, fmt.Sprintf("Service Unavailable: the server has reached its maximum of %d live MCP sessions; end a session (DELETE) or retry later", h.max), http.StatusServiceUnavailable)
				return
			}
			defer h.admitted()
		}
		if r.Method == http.MethodPost {
			h.posts.add()
			defer h.posts.done()
			if refuseInexactID(w, r, maxBody) {
				return
			}
		}
		sdk.ServeHTTP(w, r)
	}))
	return h
}

// WaitAnswered waits until no POST request is in flight (so every call received has been
// answered), or ctx is done. A server that is shutting down waits here before it closes the
// sessions: the SDK drops the responses of calls that finish after the close.
func (h *HTTPHandler) WaitAnswered(ctx context.Context) error { return h.posts.wait(ctx) }

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

// admit admits a session-creating request when the live sessions plus those being created are
// under the cap. A request's session counts twice while the request runs, so concurrent
// creations near the cap may be refused early, never admitted over it.
func (h *HTTPHandler) admit() bool {
	h.limitMu.Lock()
	defer h.limitMu.Unlock()
	if h.LiveSessions()+h.pending >= h.max {
		return false
	}
	h.pending++
	return true
}

func (h *HTTPHandler) admitted() {
	h.limitMu.Lock()
	h.pending--
	h.limitMu.Unlock()
}

// refuseInexactID answers a POST whose message has a number id the SDK would answer under
// another id (see LineTransport) with 400 and a -32600 error under the id as sent, and reports
// whether it did. Otherwise the body is left for the SDK as it was: a body over maxBody, or one
// that is not a JSON-RPC message, is the SDK's to refuse.
func refuseInexactID(w http.ResponseWriter, r *http.Request, maxBody int64) bool {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	if err != nil || int64(len(body)) > maxBody {
		return false
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	msg, err := jsonrpc.DecodeMessage(trimmed)
	if err != nil {
		return false
	}
	reply := inexactIDReply(msg, trimmed)
	if reply == nil {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(reply)
	return true
}
