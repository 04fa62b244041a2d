package typecheck

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// errServerGone is a server that exited or closed its output.
var errServerGone = errors.New("the compiler's server exited")

// serverPipe is a server process with its stdin, a reader goroutine that hands each framed
// message of its stdout (Content-Length headers, as both LSP and tsserver write them) to a
// handler, and the end of its stderr.
type serverPipe struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	done   chan struct{} // closed when the reader goroutine has ended (the server's output closed)
	stderr *tailBuffer

	killOnce sync.Once
	writeMu  sync.Mutex
	mu       sync.Mutex
	readErr  error
}

// newServerPipe prepares exe with args in dir; start runs it.
func newServerPipe(exe string, args []string, dir string) *serverPipe {
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	inOwnGroup(cmd) // kill kills the group
	return &serverPipe{cmd: cmd, done: make(chan struct{}), stderr: &tailBuffer{max: 4096}}
}

// start starts the process; handle gets every message body, on the reader goroutine, until
// the output closes or breaks the framing.
func (p *serverPipe) start(handle func(body []byte)) error {
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	p.stdin = stdin
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		return err
	}
	go func() {
		defer close(p.done)
		r := bufio.NewReader(stdout)
		for {
			body, err := readFrame(r)
			if err != nil {
				p.mu.Lock()
				p.readErr = fmt.Errorf("%w: %v", errServerGone, err)
				p.mu.Unlock()
				return
			}
			handle(body)
		}
	}()
	return nil
}

// write sends data to the server's stdin.
func (p *serverPipe) write(data []byte) error {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	if _, err := p.stdin.Write(data); err != nil {
		return fmt.Errorf("%w: %v", errServerGone, err)
	}
	return nil
}

// goneErr is why the reader ended.
func (p *serverPipe) goneErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.readErr == nil {
		return errServerGone
	}
	return p.readErr
}

// kill ends the server, with every process of its group, and waits for the process and the
// reader goroutine. It is safe to call more than once and from several goroutines; each call
// returns once the process has been reaped.
func (p *serverPipe) kill() {
	p.killOnce.Do(func() {
		_ = killGroup(p.cmd)
		_ = p.stdin.Close()
		<-p.done
		_ = p.cmd.Wait()
	})
}

// withStderr adds the end of the server's stderr to err. Call it after kill, when all of the
// stderr has been read.
func (p *serverPipe) withStderr(err error) error {
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		return fmt.Errorf("%w; its stderr ends: %s", err, tail)
	}
	return err
}

func (p *serverPipe) command() *exec.Cmd { return p.cmd }

// maxMessage bounds one message from a server (a diagnostic report of a huge program is far
// smaller).
const maxMessage = 64 << 20

// readFrame reads one message: headers up to an empty line, then Content-Length bytes.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length < 0 {
				continue // tsserver may separate messages with blank lines
			}
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 || n > maxMessage {
				return nil, fmt.Errorf("bad Content-Length %q", v)
			}
			length = n
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
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

// calls numbers a server session's requests and hands each response to the request waiting
// for it. The zero calls is ready to use.
type calls[M any] struct {
	mu      sync.Mutex
	last    int
	waiting map[int]chan M
}

// next numbers a request that expects no response.
func (c *calls[M]) next() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last++
	return c.last
}

// open numbers a request and returns the channel its response arrives on; done forgets it.
func (c *calls[M]) open() (id int, response <-chan M, done func()) {
	ch := make(chan M, 1)
	c.mu.Lock()
	c.last++
	id = c.last
	if c.waiting == nil {
		c.waiting = map[int]chan M{}
	}
	c.waiting[id] = ch
	c.mu.Unlock()
	return id, ch, func() {
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
	}
}

// deliver hands m to the request numbered id, if one is waiting.
func (c *calls[M]) deliver(id int, m M) {
	c.mu.Lock()
	ch := c.waiting[id]
	c.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

// await waits for a response on response, the end of the server p or ctx.
func await[M any](ctx context.Context, p *serverPipe, response <-chan M) (M, error) {
	var zero M
	select {
	case m := <-response:
		return m, nil
	case <-p.done:
		return zero, p.goneErr()
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}
