package mcpserve

// The server side over stdio: a transport that answers bad input with JSON-RPC errors instead of
// ending the session.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/runcode-dev/runcode/internal/mcpwire"
)

// DefaultMaxMessageBytes is the default cap on one inbound JSON-RPC message: one line over
// LineTransport, one request body over HTTPHandler. A run_code call carries the whole program
// text, so the cap is far above the SDK's defaults (16 MiB per line over stdio, 4 MiB per HTTP
// body), and equal to the CLI's default --max-output.
const DefaultMaxMessageBytes = mcpwire.DefaultMaxMessageBytes

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
	conn *mcpwire.Conn // the connection, once connected
}

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	if t.Reader == nil || t.Writer == nil {
		return nil, errors.New("mcpserve: LineTransport needs a Reader and a Writer")
	}
	limit := t.MaxMessageBytes
	if limit <= 0 {
		limit = DefaultMaxMessageBytes
	}
	c := mcpwire.NewConn(t.Reader, t.Writer, scanMessages, false)
	t.mu.Lock()
	t.conn = c
	t.mu.Unlock()
	go c.ReadLoop(limit)
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
	return c.WaitAnswered(ctx)
}

// scanMessages reads newline-delimited JSON-RPC messages from r until its end, passing each
// valid message to deliver and, for each other non-blank line, exactly one JSON-RPC error
// response (without newline) to reply, by LineTransport's rules. A line longer than limit bytes
// is never held beyond its first limit bytes. It returns io.EOF at the end of r; another error
// when reading r fails, reply fails, or deliver returns false (then nil).
func scanMessages(r io.Reader, limit int, deliver func(jsonrpc.Message) bool, reply func([]byte) error) error {
	lines := mcpwire.LineReader{R: bufio.NewReaderSize(r, mcpwire.ReadChunkBytes), Limit: limit}
	for {
		line, tooLong, err := lines.Next()
		if err != nil {
			return err
		}
		if tooLong {
			if err := reply(mcpwire.OversizeReply(lines.Env.ID(), limit)); err != nil {
				return err
			}
			continue
		}
		line = bytes.Trim(line, mcpwire.JSONSpace)
		if len(line) == 0 {
			continue
		}
		msg, bad := checkRequestLine(line)
		if bad != nil {
			if err := reply(bad.Reply()); err != nil {
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
func checkRequestLine(line []byte) (jsonrpc.Message, *mcpwire.BadLine) {
	rest, args, moved := splitArguments(line)
	if !moved {
		return mcpwire.CheckMessage(line)
	}
	msg, bad := mcpwire.CheckMessage(rest)
	if req, ok := msg.(*jsonrpc.Request); ok && bad == nil {
		req.Extra = withMovedArguments(nil, args)
	}
	return msg, bad
}
