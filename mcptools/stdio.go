package mcptools

// The server side over stdio: a transport that answers bad input with JSON-RPC errors instead of
// ending the session.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxMessageBytes is the default cap on one inbound JSON-RPC message: one line over
// LineTransport, one request body over HTTPHandler. A run_code call carries the whole program
// text, so the cap is far above the SDK's defaults (16 MiB per line over stdio, 4 MiB per HTTP
// body), and equal to the CLI's default --max-output.
const DefaultMaxMessageBytes = 64 << 20

// jsonSpace is JSON's whitespace but the newline, which ends a line.
const jsonSpace = " \t\r"

// readChunkBytes is the read buffer of LineTransport: lines longer than this are assembled from
// chunks, and the remainder of an oversized line is discarded a chunk at a time.
const readChunkBytes = 64 << 10

// LineTransport is an MCP transport over newline-delimited JSON, like the SDK's IOTransport,
// for a server that must outlive any input: each line is checked before the SDK sees it, and a
// line that is not a JSON-RPC message gets an error response on Writer while the session goes
// on:
//
//   - a line that is not JSON: -32700 (parse error), id null;
//   - JSON that is not one JSON-RPC 2.0 message object (null, a number, an array — batches are
//     not supported —, a wrong "jsonrpc" tag, an id that is neither a string nor a number, a
//     response without an id, …): -32600 (invalid request) with the message's id when it has a
//     usable one, else null;
//   - a number id the answer could not carry exactly as sent (the SDK holds ids as int64 from
//     a float64): one with a fraction or an exponent, beyond ±(2^53-1), or "-0": -32600 with
//     that id as written; an id given twice: -32600 with id null;
//   - a line longer than MaxMessageBytes: -32600 with the message's id when it has a usable
//     one anywhere in the line (so the client's waiting call fails rather than hangs), else
//     null. Only the first MaxMessageBytes bytes are kept; the rest is read and discarded,
//     followed only far enough to find the id.
//
// A run_code call's arguments reach the handler of NewServer's run_code without passing through
// the SDK's decoding (see splitArguments): serve only NewServer's server with it.
//
// Blank lines are skipped. Only the end of Reader (or a failed read or write) ends the
// connection.
//
// The connection reads Reader in a goroutine of its own so that Close unblocks a pending Read,
// as the SDK's transports do: Close closes Reader and Writer; the goroutine ends when Reader's
// Read returns (at once for pipes; for a terminal or a blocking os.Stdin only at its next input
// or the end of the process).
type LineTransport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
	// MaxMessageBytes caps one line, without its newline (zero: DefaultMaxMessageBytes).
	MaxMessageBytes int

	mu   sync.Mutex
	conn *lineConn // the connection, once connected
}

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	if t.Reader == nil || t.Writer == nil {
		return nil, errors.New("mcptools: LineTransport needs a Reader and a Writer")
	}
	limit := t.MaxMessageBytes
	if limit <= 0 {
		limit = DefaultMaxMessageBytes
	}
	c := newLineConn(t.Reader, t.Writer)
	t.mu.Lock()
	t.conn = c
	t.mu.Unlock()
	go c.readLoop(limit)
	return c, nil
}

// WaitAnswered waits until every call read so far has been answered (its response written), or
// ctx is done. A server that is shutting down waits here before it closes the session: the SDK
// drops the responses of calls that finish after the close.
func (t *LineTransport) WaitAnswered(ctx context.Context) error {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c == nil {
		return nil
	}
	return c.answered.wait(ctx)
}

// lineConn is the mcp.Connection of a LineTransport, and of the client's commandTransport.
type lineConn struct {
	reader io.ReadCloser
	writer io.WriteCloser

	// fromServer is set on the client's side of a connection: what is read comes from a
	// server (scanServerMessages), named server in warnings. Close then waits for the read
	// loop, which closing the writer (the subprocess) ends.
	fromServer bool
	server     string

	writeMu sync.Mutex // one message per line: the SDK's writes and the error replies

	incoming chan jsonrpc.Message // valid messages; closed when the read loop ends
	readErr  error                // why the read loop ended; written before incoming is closed

	pendingMu sync.Mutex
	pending   map[jsonrpc.ID]int // calls read and not answered yet, by id
	answered  idleCounter        // counts the unanswered calls

	closeOnce sync.Once
	closed    chan struct{}
	readDone  chan struct{} // closed when the read loop has ended
}

func newLineConn(r io.ReadCloser, w io.WriteCloser) *lineConn {
	return &lineConn{
		reader:   r,
		writer:   w,
		incoming: make(chan jsonrpc.Message),
		closed:   make(chan struct{}),
		readDone: make(chan struct{}),
		pending:  map[jsonrpc.ID]int{},
	}
}

func (c *lineConn) readLoop(limit int) {
	defer close(c.readDone)
	defer close(c.incoming)
	deliver := func(m jsonrpc.Message) bool {
		select {
		case c.incoming <- m:
			return true
		case <-c.closed:
			return false
		}
	}
	var err error
	if c.fromServer {
		err = scanServerMessages(c.reader, limit, c.server, deliver, c.writeLine)
	} else {
		err = scanMessages(c.reader, limit, deliver, c.writeLine)
	}
	if err == nil { // closed
		err = io.EOF
	}
	c.readErr = err
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case m, ok := <-c.incoming:
		if !ok {
			return nil, c.readErr
		}
		if req, isReq := m.(*jsonrpc.Request); isReq && req.IsCall() {
			c.pendingMu.Lock()
			c.pending[req.ID]++
			c.pendingMu.Unlock()
			c.answered.add()
		}
		return m, nil
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		defer c.answer(resp.ID)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// answer records that the call with id has been answered (or its answer failed).
func (c *lineConn) answer(id jsonrpc.ID) {
	c.pendingMu.Lock()
	n, ok := c.pending[id]
	if ok {
		if n > 1 {
			c.pending[id] = n - 1
		} else {
			delete(c.pending, id)
		}
	}
	c.pendingMu.Unlock()
	if ok {
		c.answered.done()
	}
}

// writeLine writes one message and its newline.
func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	_, err := c.writer.Write(append(data, '\n'))
	return err
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = errors.Join(c.reader.Close(), c.writer.Close())
		if c.fromServer {
			<-c.readDone
		}
	})
	return err
}

// SessionID implements mcp.Connection: a stream has no session id.
func (c *lineConn) SessionID() string { return "" }

// scanMessages reads newline-delimited JSON-RPC messages from r until its end, passing each
// valid message to deliver and, for each other non-blank line, exactly one JSON-RPC error
// response (without newline) to reply, by LineTransport's rules. A line longer than limit bytes
// is never held beyond its first limit bytes. It returns io.EOF at the end of r; another error
// when reading r fails, reply fails, or deliver returns false (then nil).
func scanMessages(r io.Reader, limit int, deliver func(jsonrpc.Message) bool, reply func([]byte) error) error {
	lines := lineReader{r: bufio.NewReaderSize(r, readChunkBytes), limit: limit}
	for {
		line, tooLong, err := lines.next()
		if err != nil {
			return err
		}
		if tooLong {
			if err := reply(oversizeReply(lines.env.ID(), limit)); err != nil {
				return err
			}
			continue
		}
		line = bytes.Trim(line, jsonSpace)
		if len(line) == 0 {
			continue
		}
		msg, bad := checkRequestLine(line)
		if bad != nil {
			if err := reply(bad.reply()); err != nil {
				return err
			}
			continue
		}
		if !deliver(msg) {
			return nil
		}
	}
}

// checkRequestLine is checkMessage for a line a client sent: a run_code call's arguments are
// moved out of the message the SDK decodes, into its RequestExtra (see splitArguments).
func checkRequestLine(line []byte) (jsonrpc.Message, *badLine) {
	rest, args, moved := splitArguments(line)
	if !moved {
		return checkMessage(line)
	}
	msg, bad := checkMessage(rest)
	if req, ok := msg.(*jsonrpc.Request); ok && bad == nil {
		req.Extra = withMovedArguments(nil, args)
	}
	return msg, bad
}

// lineReader splits a stream into lines of at most limit bytes.
type lineReader struct {
	r     *bufio.Reader
	limit int
	atEOF bool
	env   envelope // of the last line that was too long, all of it
}

// next returns the next line without its newline. A line longer than limit comes back as its
// first limit bytes with tooLong set, the rest having been read and dropped (env has followed
// all of it). A last line without a newline is a line; then next returns io.EOF.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	if l.atEOF {
		return nil, false, io.EOF
	}
	// A line is kept in chunks joined once at its end: appending to one slice would allocate
	// about five times a long line's size as it grows.
	var j joiner
	for {
		chunk, err := l.r.ReadSlice('\n')
		content := bytes.TrimSuffix(chunk, []byte{'\n'})
		switch {
		case tooLong:
			l.env.feed(content)
		case len(content) > l.limit-j.n:
			room := l.limit - j.n
			j.add(content[:room])
			tooLong = true
			l.env = envelope{}
			for _, c := range j.chunks {
				l.env.feed(c)
			}
			l.env.feed(content[room:])
		default:
			j.add(content)
		}
		switch {
		case err == nil:
			return j.join(), tooLong, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			l.atEOF = true
			if j.n == 0 && !tooLong {
				return nil, false, io.EOF
			}
			return j.join(), tooLong, nil
		default:
			return nil, false, err
		}
	}
}

// joiner holds a message read in chunks and joins them once: reading a message of n bytes
// allocates about 2n in all.
type joiner struct {
	chunks [][]byte
	n      int // bytes held
}

// add keeps a copy of p.
func (j *joiner) add(p []byte) {
	if len(p) == 0 {
		return
	}
	j.chunks = append(j.chunks, append([]byte(nil), p...))
	j.n += len(p)
}

// join returns the bytes held, as one slice (nil when none).
func (j *joiner) join() []byte {
	switch len(j.chunks) {
	case 0:
		return nil
	case 1:
		return j.chunks[0]
	}
	out := make([]byte, 0, j.n)
	for _, c := range j.chunks {
		out = append(out, c...)
	}
	return out
}

// badLine is why a line is not a JSON-RPC message the SDK accepts.
type badLine struct {
	id      json.RawMessage // the line's id when it has a usable one, else nil
	code    int
	message string
}

// reply is the JSON-RPC error response that answers the line.
func (b *badLine) reply() []byte { return errorReply(b.id, b.code, b.message) }

// checkMessage decodes one line as a JSON-RPC message the SDK accepts, or says why it is not
// one.
func checkMessage(line []byte) (jsonrpc.Message, *badLine) {
	// The common case first, with one pass over the line: a result can be tens of MiB.
	msg, err := jsonrpc.DecodeMessage(line)
	if err == nil && line[0] == '{' {
		if id, problem := inexactID(msg, line); problem != "" {
			return nil, &badLine{id, jsonrpc.CodeInvalidRequest, "invalid request: " + problem}
		}
		return msg, nil
	}
	if !json.Valid(line) {
		return nil, &badLine{nil, jsonrpc.CodeParseError, "parse error: the line is not valid JSON"}
	}
	if line[0] != '{' {
		what := "a JSON " + jsonKind(line[0])
		if line[0] == '[' {
			what = "a batch (a JSON array); batches are not supported"
		}
		return nil, &badLine{nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON-RPC object, got " + what}
	}
	if err == nil { // not reached: DecodeMessage takes only objects
		err = errors.New("not a JSON-RPC object")
	}
	return nil, &badLine{idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()}
}

// inexactIDReply returns the -32600 error response for msg, decoded from data, when its id is a
// number the SDK would not answer under exactly as sent (checkNumberID); else nil. The SDK holds
// a number id as an int64 converted from a float64: -1.5 became -1 and 9007199254740993 became
// …992, so the answer went out under another id.
func inexactIDReply(msg jsonrpc.Message, data []byte) []byte {
	if id, problem := inexactID(msg, data); problem != "" {
		return errorReply(id, jsonrpc.CodeInvalidRequest, "invalid request: "+problem)
	}
	return nil
}

// inexactID returns the id of msg as written in data, and what is wrong with it, when it is a
// number the SDK would not answer under exactly as sent (checkNumberID); else "".
func inexactID(msg jsonrpc.Message, data []byte) (json.RawMessage, string) {
	if _, isNumber := messageID(msg).Raw().(int64); !isNumber {
		return nil, ""
	}
	return checkNumberID(data)
}

// messageID is the id of a request or response.
func messageID(msg jsonrpc.Message) jsonrpc.ID {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return m.ID
	case *jsonrpc.Response:
		return m.ID
	}
	return jsonrpc.ID{}
}

// maxExactID is the largest number id answered: up to it (JavaScript's Number.MAX_SAFE_INTEGER)
// every integer survives the SDK's float64 and comes back as sent.
const maxExactID = 1<<53 - 1

// checkNumberID reads the "id" members of a message object whose id the SDK decoded as a
// number, and says what is wrong when the answer could not carry the id exactly as sent: a
// fraction or exponent, a magnitude over maxExactID, "-0", or an id given twice. It returns
// the id to answer under (the one given, as written) with the problem.
func checkNumberID(object []byte) (json.RawMessage, string) {
	// The members are only followed, not copied: a message can be tens of MiB.
	var id json.RawMessage
	n := 0
	if !scanMembers(object, 0, func(key string, start, end int) {
		if key == "id" {
			id, n = object[start:end:end], n+1
		}
	}) {
		return nil, "" // cannot happen: the line decoded as a message
	}
	switch {
	case n == 0:
		return nil, ""
	case n > 1:
		return nil, "the id is given twice"
	}
	digits := bytes.TrimPrefix(id, []byte{'-'})
	v, err := strconv.ParseUint(string(digits), 10, 64)
	if err != nil || v > maxExactID || string(id) == "-0" {
		return id, fmt.Sprintf("id %s cannot be answered exactly as sent: a number id must be an integer without fraction or exponent, from -%d to %d (or use a string id)", id, uint64(maxExactID), uint64(maxExactID))
	}
	return nil, ""
}

func jsonKind(first byte) string {
	switch first {
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	case '"':
		return "string"
	default:
		return "number"
	}
}

// idOf returns the raw "id" member of a JSON object when it is a string or a number; else nil.
// The object may be cut short (an oversized line's prefix): members are read until the id or
// the first value that cannot be read.
func idOf(object []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(object))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if key != "id" {
			continue
		}
		if len(value) > 0 && (value[0] == '"' || value[0] == '-' || (value[0] >= '0' && value[0] <= '9')) {
			return value
		}
		return nil
	}
	return nil
}

// oversizeReply answers a line longer than limit whose id (nil: none usable) is id.
func oversizeReply(id json.RawMessage, limit int) []byte {
	return errorReply(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the message is longer than the maximum of %d bytes; it was discarded", limit))
}

// errorReply encodes a JSON-RPC error response; a nil id is null, as JSON-RPC requires when the
// request's id cannot be known.
func errorReply(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	text, _ := json.Marshal(message) // a string always marshals
	out := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	out = fmt.Appendf(out, `,"error":{"code":%d,"message":`, code)
	out = append(out, text...)
	return append(out, "}}"...)
}
