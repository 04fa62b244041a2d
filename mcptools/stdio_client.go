package mcptools

// The client side over stdio: a subprocess transport whose connection outlives any one
// message of the server.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/runcode-dev/runcode/internal/mcpwire"
)

// MessageTooLargeError is the error of a tool call whose answer from the server (over stdio,
// the response line; over HTTP, the response body or one server-sent event of the call's
// stream) was longer than the source's MaxMessageBytes. The message was discarded without
// being held whole; only this call failed, and the connection goes on.
type MessageTooLargeError struct {
	Limit int // the cap, in bytes
}

// Error names the cap and how to raise it.
func (e *MessageTooLargeError) Error() string {
	return fmt.Sprintf("the server's answer is longer than the maximum of %d bytes (MaxMessageBytes; \"maxMessageBytes\" in an MCP config); it was discarded", e.Limit)
}

// codeMessageTooLarge is the JSON-RPC error code of the response the HTTP transport puts in
// place of an answer over the cap (an implementation-defined server error code; the response
// never leaves this process).
const codeMessageTooLarge = -32099

// commandTransport runs an MCP server as a subprocess and speaks newline-delimited JSON over
// its stdin and stdout, as the SDK's CommandTransport does, but reads the server's lines as
// scanServerMessages does: a line longer than limit is discarded without being held and fails
// only the call it answers. The SDK's transport ends the connection, for every later call, at
// the first line over 16 MiB or the first line that is not JSON.
type commandTransport struct {
	cmd    *exec.Cmd
	limit  int           // the longest line kept, in bytes
	server string        // the server's name, for warnings
	grace  time.Duration // how long Close waits for the server to exit before each signal
}

// Connect starts the command.
func (t *commandTransport) Connect(context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if t.cmd.WaitDelay == 0 {
		// A grandchild that keeps stderr open must not keep Wait, and so Close, waiting.
		t.cmd.WaitDelay = t.grace
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	// The connection closes by closing stdin (the server's cue to exit), not stdout, which
	// Wait closes once the server is gone.
	server := t.server
	scan := func(r io.Reader, limit int, deliver func(jsonrpc.Message) bool, reply func([]byte) error) error {
		return scanServerMessages(r, limit, server, deliver, reply)
	}
	c := mcpwire.NewConn(io.NopCloser(stdout), &subprocess{cmd: t.cmd, stdin: stdin, grace: t.grace}, scan, true)
	go c.ReadLoop(t.limit)
	return c, nil
}

// subprocess is the writing end of a commandTransport connection: closing it ends the
// subprocess as the MCP specification asks (close stdin, wait, SIGTERM, wait, SIGKILL) and
// waits for it.
type subprocess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	grace time.Duration
}

func (p *subprocess) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close ends the subprocess and returns Wait's error.
func (p *subprocess) Close() error {
	closeErr := p.stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	timer := time.NewTimer(p.grace)
	defer timer.Stop()
	select {
	case err := <-exited:
		return errors.Join(closeErr, err)
	case <-timer.C:
	}
	if p.cmd.Process.Signal(syscall.SIGTERM) == nil {
		timer.Reset(p.grace)
		select {
		case err := <-exited:
			return err
		case <-timer.C:
		}
	}
	killErr := p.cmd.Process.Kill()
	return errors.Join(killErr, <-exited) // WaitDelay bounds Wait once the process is gone
}

// scanServerMessages reads what an MCP server writes on its stdout until its end, passing each
// valid JSON-RPC message to deliver. No line ends the connection; each line longer than limit
// bytes is read and discarded without being held beyond its first limit bytes, and each other
// line that is not a JSON-RPC message is dropped too:
//
//   - when it is a response (an id and no method), an error response for its id is delivered
//     in its place, so that the call waiting for it fails (a too long one with
//     MessageTooLargeError) rather than waits until its timeout;
//   - when it is a request of the server (an id and a method), the server gets a JSON-RPC
//     error response through reply, as LineTransport answers;
//   - anything else (a notification, a line without a usable id, stray output) is dropped
//     with a warning naming server.
//
// It returns io.EOF at the end of r; another error when reading r fails, reply fails, or
// deliver returns false (then nil).
func scanServerMessages(r io.Reader, limit int, server string, deliver func(jsonrpc.Message) bool, reply func([]byte) error) error {
	lines := mcpwire.LineReader{R: bufio.NewReaderSize(r, mcpwire.ReadChunkBytes), Limit: limit}
	for {
		line, tooLong, err := lines.Next()
		if err != nil {
			return err
		}
		var env *mcpwire.Envelope
		var cause error
		var answer []byte
		if tooLong {
			env = &lines.Env
			cause = &MessageTooLargeError{Limit: limit}
			answer = mcpwire.OversizeReply(env.ID(), limit)
		} else {
			line = bytes.Trim(line, mcpwire.JSONSpace)
			if len(line) == 0 {
				continue
			}
			msg, bad := mcpwire.CheckMessage(line)
			if bad == nil {
				if !deliver(msg) {
					return nil
				}
				continue
			}
			env = &mcpwire.Envelope{}
			env.Feed(line)
			cause = fmt.Errorf("the server's answer is not a JSON-RPC message the client accepts (%s); it was discarded", bad.Message)
			answer = bad.Reply()
		}
		id := env.ID()
		switch {
		case id != nil && !env.IsRequest():
			if resp, ok := errorResponse(id, cause); ok {
				if !deliver(resp) {
					return nil
				}
				continue
			}
		case id != nil:
			if err := reply(answer); err != nil {
				return err
			}
			continue
		}
		slog.Warn("dropped a message from an MCP server", "server", server, "reason", cause)
	}
}

// errorResponse is a response to the call with the raw id that fails with err; ok is false
// when the SDK would not take id as a call's id.
func errorResponse(id json.RawMessage, err error) (*jsonrpc.Response, bool) {
	msg, decodeErr := jsonrpc.DecodeMessage(mcpwire.ErrorReply(id, jsonrpc.CodeInternalError, "placeholder"))
	resp, ok := msg.(*jsonrpc.Response)
	if decodeErr != nil || !ok || !resp.ID.IsValid() {
		return nil, false
	}
	resp.Error = err
	return resp, true
}
