package mcptools

// The client side over streamable HTTP: an HTTP client that keeps a source's credentials on
// its own origin and bounds every message the server sends.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/runcode-dev/runcode/internal/mcpwire"
)

// sseSlackBytes is how far the SDK's own bound on one server-sent event is set above
// MaxMessageBytes: boundedTransport passes on no event longer than MaxMessageBytes, so the
// SDK's bound, which ends the session, is never the one met.
const sseSlackBytes = 64 << 10

// maxRedirects is how many redirects (all to the source's own origin) one request follows.
const maxRedirects = 10

// CrossOriginRedirectError is the error of a request to a streamable HTTP source that the
// server redirected to another origin (scheme, host or port): the redirect is not followed,
// so that the source's headers, URL credentials and session id never reach a host they were
// not configured for.
type CrossOriginRedirectError struct {
	From, To string // the URLs, without user information or query
}

// Error names both URLs and the remedy.
func (e *CrossOriginRedirectError) Error() string {
	return fmt.Sprintf("refused a redirect from %s to another origin, %s: an MCP source's headers and credentials go only to its own origin; configure the new URL if it is trusted", e.From, e.To)
}

// newHTTPClient returns the client of the streamable HTTP source at endpoint: headers set on
// every request to endpoint's origin, redirects followed only within that origin, and every
// response body bounded by limit bytes per message (boundedTransport).
func newHTTPClient(endpoint *url.URL, headers map[string]string, limit int, server string) *http.Client {
	var rt http.RoundTripper = http.DefaultTransport
	if len(headers) > 0 {
		rt = &headerTransport{base: rt, headers: headers, origin: originOf(endpoint)}
	}
	return &http.Client{
		Transport:     &boundedTransport{base: rt, limit: limit, server: server},
		CheckRedirect: sameOriginRedirect,
	}
}

// sameOriginRedirect is the CheckRedirect of a source's client. Go's client drops
// Authorization on a redirect to another domain, but not the other configured headers (which
// headerTransport sets on every request) nor the SDK's session id; so no redirect leaves the
// origin of the first request.
func sameOriginRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	if originOf(req.URL) != originOf(via[0].URL) {
		return &CrossOriginRedirectError{From: shownURL(via[len(via)-1].URL), To: shownURL(req.URL)}
	}
	return nil
}

// originOf is u's origin as scheme://host:port, the port made explicit.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// boundedTransport bounds what each response of an MCP server holds in memory to limit bytes
// per message, whatever the server sends, and fails only the call that a too long message
// answers, where the SDK would read a JSON response without bound and end the whole session
// at an event over its own bound:
//
//   - a JSON response (application/json) is read to at most limit bytes; a longer one is cut
//     there, and the SDK reads in its place a JSON-RPC error response for the call the
//     request carried (MessageTooLargeError, by codeMessageTooLarge);
//   - a server-sent event stream passes on each event of at most limit bytes as it is. On the
//     stream of a call, an event over limit that does not show itself a notification (a
//     "method" member and no id within its first limit bytes) ends the stream with the same
//     error response; any other event over limit (a notification, or on the standalone stream)
//     is read to its end and dropped, holding none of it beyond limit bytes;
//   - any other body (an error page) ends with MessageTooLargeError after limit bytes.
type boundedTransport struct {
	base   http.RoundTripper
	limit  int
	server string // the server's name, for warnings
}

// RoundTrip sends req and wraps the response's body.
func (t *boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	switch baseMediaType(resp.Header.Get("Content-Type")) {
	case "application/json":
		resp.Body = &jsonBody{body: resp.Body, limit: t.limit, callID: callID(req)}
	case "text/event-stream":
		resp.Body = &sseBody{body: resp.Body, r: bufio.NewReaderSize(resp.Body, mcpwire.ReadChunkBytes), limit: t.limit,
			callID: callID(req), server: t.server, lineStart: true}
	default:
		resp.Body = &cappedBody{body: resp.Body, limit: t.limit}
	}
	return resp, nil
}

func baseMediaType(contentType string) string {
	if t, _, err := mime.ParseMediaType(contentType); err == nil {
		return t
	}
	t, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// callID is the raw id of the JSON-RPC call req posts, or nil when it posts none (a
// notification, a response, a GET).
func callID(req *http.Request) json.RawMessage {
	if req.Method != http.MethodPost || req.GetBody == nil {
		return nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil
	}
	defer body.Close()
	var env mcpwire.Envelope
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		env.Feed(buf[:n])
		if err != nil {
			break
		}
	}
	if !env.IsRequest() {
		return nil
	}
	return env.ID()
}

// tooLargeReply is the JSON-RPC error response that takes the place of a too long answer to
// the call with the raw id.
func tooLargeReply(id json.RawMessage, limit int) []byte {
	return mcpwire.ErrorReply(id, codeMessageTooLarge, (&MessageTooLargeError{Limit: limit}).Error())
}

// asTooLarge returns the MessageTooLargeError err carries, over stdio as such and over HTTP as
// the code of the response boundedTransport put in place of the answer; else nil.
func asTooLarge(err error, limit int) *MessageTooLargeError {
	var tooLarge *MessageTooLargeError
	if errors.As(err, &tooLarge) {
		return tooLarge
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && wire.Code == codeMessageTooLarge {
		return &MessageTooLargeError{Limit: limit}
	}
	return nil
}

// jsonBody is a JSON response body read to at most limit bytes (see boundedTransport).
type jsonBody struct {
	body   io.ReadCloser
	limit  int
	callID json.RawMessage

	started bool
	data    []byte // what is left to return
	err     error  // returned once data is exhausted
}

func (b *jsonBody) Read(p []byte) (int, error) {
	if !b.started {
		b.started = true
		b.data, b.err = io.ReadAll(io.LimitReader(b.body, int64(b.limit)+1))
		if b.err == nil {
			b.err = io.EOF
			if len(b.data) > b.limit {
				b.body.Close() // the rest is never read
				b.data = nil
				if b.callID != nil {
					b.data = tooLargeReply(b.callID, b.limit)
				} else {
					b.err = &MessageTooLargeError{Limit: b.limit}
				}
			}
		}
	}
	if len(b.data) == 0 {
		return 0, b.err
	}
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}

func (b *jsonBody) Close() error { return b.body.Close() }

// cappedBody is a body that fails with MessageTooLargeError past limit bytes.
type cappedBody struct {
	body  io.ReadCloser
	limit int
	read  int
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.read > b.limit {
		return 0, &MessageTooLargeError{Limit: b.limit}
	}
	if room := b.limit + 1 - b.read; len(p) > room {
		p = p[:room]
	}
	n, err := b.body.Read(p)
	b.read += n
	return n, err
}

func (b *cappedBody) Close() error { return b.body.Close() }

// sseBody is a server-sent event stream whose events are bounded (see boundedTransport). It
// follows the SDK's reading of the stream: lines end with '\n', and an empty line ends an
// event.
type sseBody struct {
	body   io.ReadCloser
	r      *bufio.Reader
	limit  int
	callID json.RawMessage // the call whose stream this is; nil for the standalone stream
	server string

	out       []byte           // what Read returns next
	err       error            // returned once out is exhausted
	event     []byte           // the current event, while within limit
	lineStart bool             // the next bytes read start a line
	over      bool             // the current event passed limit: the rest of it is read and dropped
	inData    bool             // the current line of an event over limit is a "data" field
	env       mcpwire.Envelope // the data of the current event, once over limit
}

func (b *sseBody) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		b.step()
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

func (b *sseBody) Close() error { return b.body.Close() }

// step reads the next piece of a line.
func (b *sseBody) step() {
	chunk, err := b.r.ReadSlice('\n')
	start := b.lineStart
	b.lineStart = err == nil
	blank := start && err == nil && len(bytes.TrimRight(chunk, "\r\n")) == 0
	switch {
	case len(chunk) == 0:
	case !b.over && blank: // the end of an event within limit
		b.out, b.event = append(b.event, chunk...), nil
	case !b.over && len(b.event)+len(chunk) <= b.limit:
		b.event = append(b.event, chunk...)
	case !b.over:
		b.over, b.env = true, mcpwire.Envelope{}
		kept := b.event
		b.event = nil
		for len(kept) > 0 { // the kept lines, each from its start
			line := kept
			if i := bytes.IndexByte(kept, '\n'); i >= 0 {
				line = kept[:i+1]
			}
			b.follow(line, true)
			kept = kept[len(line):]
		}
		b.follow(chunk, start)
		if b.callID != nil && !b.env.IsRequest() {
			// The call's answer, or a server's request in its place: neither can be passed
			// on, and the call fails now rather than after the rest.
			b.out = fmt.Appendf(nil, "event: message\ndata: %s\n\n", tooLargeReply(b.callID, b.limit))
			b.err = io.EOF
			b.body.Close()
			return
		}
	case blank: // the end of an event over limit
		b.over = false
		slog.Warn("dropped a server-sent event from an MCP server: longer than the maximum message size",
			"server", b.server, "maxMessageBytes", b.limit, "id", string(b.env.ID()))
	default:
		b.follow(chunk, start)
	}
	switch {
	case err == nil, errors.Is(err, bufio.ErrBufferFull):
	case errors.Is(err, io.EOF):
		if !b.over && len(b.out) == 0 {
			b.out, b.event = b.event, nil // an unfinished last event, as the SDK reads it
		}
		b.err = io.EOF
	default:
		b.err = err
	}
}

// follow feeds the envelope with the data of a piece of a line of an event over limit.
func (b *sseBody) follow(piece []byte, start bool) {
	if start {
		b.inData = bytes.HasPrefix(piece, []byte("data:"))
		if !b.inData {
			return
		}
		piece = piece[len("data:"):]
		piece = bytes.TrimPrefix(piece, []byte{' '})
	}
	if b.inData {
		b.env.Feed(piece)
	}
}
