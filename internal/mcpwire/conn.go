package mcpwire

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSONSpace is JSON's whitespace but the newline, which ends a line.
const JSONSpace = " \t\r"

// ReadChunkBytes is the read buffer of LineTransport: lines longer than this are assembled from
// chunks, and the remainder of an oversized line is discarded a chunk at a time.
const ReadChunkBytes = 64 << 10

// Conn is an mcp.Connection over newline-delimited JSON: the server's LineTransport and the
// client's command transport. It counts the calls read and not answered yet (WaitAnswered).
type Conn struct {
	reader io.ReadCloser
	writer io.WriteCloser

	scan ScanFunc // reads the messages off reader
	// waitRead is set on the client's side of a connection: Close then waits for the read
	// loop, which closing the writer (the subprocess) ends.
	waitRead bool

	writeMu sync.Mutex // one message per line: the SDK's writes and the error replies

	incoming chan jsonrpc.Message // valid messages; closed when the read loop ends
	readErr  error                // why the read loop ended; written before incoming is closed

	pendingMu sync.Mutex
	pending   map[jsonrpc.ID]int // calls read and not answered yet, by id
	answered  IdleCounter        // counts the unanswered calls

	closeOnce sync.Once
	closed    chan struct{}
	readDone  chan struct{} // closed when the read loop has ended
}

// ScanFunc reads newline-delimited JSON-RPC messages from r until its end, passing each valid
// message to deliver and error responses (without newline) to reply; a line longer than limit
// bytes is never held whole. It returns io.EOF at the end of r; another error when reading r
// fails or reply fails; nil when deliver returns false.
type ScanFunc func(r io.Reader, limit int, deliver func(jsonrpc.Message) bool, reply func([]byte) error) error

// NewConn returns the connection over r and w whose read loop (ReadLoop, which the caller
// starts) reads r with scan. With waitRead, Close waits for the read loop to end.
func NewConn(r io.ReadCloser, w io.WriteCloser, scan ScanFunc, waitRead bool) *Conn {
	return &Conn{
		reader:   r,
		writer:   w,
		scan:     scan,
		waitRead: waitRead,
		incoming: make(chan jsonrpc.Message),
		closed:   make(chan struct{}),
		readDone: make(chan struct{}),
		pending:  map[jsonrpc.ID]int{},
	}
}

// ReadLoop reads the connection's messages until the end of its reader or Close; its owner
// runs it in a goroutine of its own.
func (c *Conn) ReadLoop(limit int) {
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
	err := c.scan(c.reader, limit, deliver, c.writeLine)
	if err == nil { // closed
		err = io.EOF
	}
	c.readErr = err
}

// WaitAnswered waits until every call read so far has been answered (its response written),
// or ctx is done.
func (c *Conn) WaitAnswered(ctx context.Context) error { return c.answered.Wait(ctx) }

// Read implements mcp.Connection.
func (c *Conn) Read(ctx context.Context) (jsonrpc.Message, error) {
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
			c.answered.Add()
		}
		return m, nil
	}
}

// Write implements mcp.Connection.
func (c *Conn) Write(ctx context.Context, msg jsonrpc.Message) error {
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
func (c *Conn) answer(id jsonrpc.ID) {
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
		c.answered.Done()
	}
}

// writeLine writes one message and its newline.
func (c *Conn) writeLine(data []byte) error {
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
func (c *Conn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = errors.Join(c.reader.Close(), c.writer.Close())
		if c.waitRead {
			<-c.readDone
		}
	})
	return err
}

// SessionID implements mcp.Connection: a stream has no session id.
func (c *Conn) SessionID() string { return "" }
