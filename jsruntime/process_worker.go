package jsruntime

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/runcode-dev/runcode/internal/gcpace"
	"github.com/runcode-dev/runcode/internal/procstatus"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime/internal/pipe"
)

// workerEnv is the environment variable the pool sets, to the worker's JSON configuration, when
// it starts a worker process.
const workerEnv = "RUNCODE_JSRUNTIME_WORKER"

// maxWorkerFrame bounds one frame the worker reads from its parent (a program, a reply): any
// frame the length prefix can describe. The parent is trusted, and the worker's memory limit
// bounds what it can hold.
const maxWorkerFrame = maxFrameBody

// stuckGrace is how long a worker waits for a stopped run to end before it reports the failure
// and exits: JavaScript stuck in one native step cannot be interrupted.
const stuckGrace = 200 * time.Millisecond

// Exit statuses of a worker.
const (
	workerExitOK     = 0
	workerExitBroken = 3 // bad configuration or protocol error
	workerExitStuck  = 4 // a stopped run did not end; its failure was reported first
)

// workerConfig travels to the worker in workerEnv.
type workerConfig struct {
	Config      Config
	MemoryLimit int64
}

// frameWriter writes frames; it is safe for concurrent use.
type frameWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte // encoding buffer, kept while small
}

func (fw *frameWriter) write(f *frame) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	buf, err := appendFrame(fw.buf[:0], f)
	if err != nil {
		return err
	}
	if cap(buf) <= 64<<10 {
		fw.buf = buf
	}
	_, err = fw.w.Write(buf)
	return err
}

// streamReplyBytes is the size of a reply's value from which writeReply writes it in pieces.
const streamReplyBytes = 1 << 20

// writeReply writes a reply frame carrying the value v, whose encoding is size bytes
// (valueSize). A value of streamReplyBytes or more is written in pieces as it is encoded, so the
// parent never holds its encoding whole; a smaller one is encoded first and written at once.
func (fw *frameWriter) writeReply(id uint64, v jsonv.Value, size int64) error {
	if size < streamReplyBytes {
		return fw.write(&frame{T: frameReply, ID: id, Value: v})
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	buf, err := writeReplyValue(fw.w, fw.buf, id, v, size)
	if cap(buf) <= 64<<10 {
		fw.buf = buf
	}
	return err
}

// outboxBytes is how much encoded output a worker queues before send waits for the parent.
const outboxBytes = 1 << 20

// errOutboxClosed is send's error once the outbox is closed.
var errOutboxClosed = errors.New("jsruntime: worker output closed")

// outbox sends the worker's frames to the parent in order. A frame sent while nothing is queued
// is written at once by the sender, if the pipe takes it without waiting (tryWrite): so a
// binding call reaches the parent without a hop to another goroutine. What the pipe does not
// take is queued, and the goroutine of run writes whatever is queued, many frames per write. So
// a run does not wait for the parent to read what it logs (a console flood writes thousands of
// lines, and while the parent is slow to read, waiting in the loop would be charged to the
// run's compute budget); it waits only while more than outboxBytes are queued, which bounds
// the worker's memory. It is safe for concurrent use.
type outbox struct {
	w io.Writer
	// tryWrite writes what the pipe takes without waiting and returns how much that was; nil
	// when w cannot be written without waiting (every frame is then queued).
	tryWrite func([]byte) (int, error)
	done     chan struct{} // closed when run returns

	mu      sync.Mutex
	cond    *sync.Cond // signalled when frames are queued or written, or the outbox closes
	queue   []byte     // encoded frames not yet taken by run
	scratch []byte     // encoding buffer of frames written at once
	writing bool       // run is writing frames it took
	closed  bool
	err     error // of the write that failed; frames are dropped since
}

func newOutbox(w io.Writer, tryWrite func([]byte) (int, error)) *outbox {
	o := &outbox{w: w, tryWrite: tryWrite, done: make(chan struct{})}
	o.cond = sync.NewCond(&o.mu)
	return o
}

// send writes or queues f. It fails once the outbox is closed or a write has failed.
func (o *outbox) send(f *frame) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for len(o.queue) > outboxBytes && !o.closed && o.err == nil {
		o.cond.Wait()
	}
	switch {
	case o.err != nil:
		return o.err
	case o.closed:
		return errOutboxClosed
	}
	if len(o.queue) == 0 && !o.writing && o.tryWrite != nil {
		buf, err := appendFrame(o.scratch[:0], f)
		if err != nil {
			return err
		}
		if cap(buf) <= 64<<10 {
			o.scratch = buf[:0] // keep a small buffer for the next frame
		}
		n, err := o.tryWrite(buf)
		if err != nil {
			o.err = err
			o.cond.Broadcast()
			return err
		}
		if n == len(buf) {
			return nil
		}
		buf = buf[n:]
		o.queue = append(o.queue, buf...)
		o.cond.Broadcast()
		return nil
	}
	buf, err := appendFrame(o.queue, f)
	if err != nil {
		return err
	}
	o.queue = buf
	o.cond.Broadcast()
	return nil
}

// run writes the queued frames until the outbox is closed and drained, or a write fails.
func (o *outbox) run() {
	defer close(o.done)
	var out []byte
	o.mu.Lock()
	defer o.mu.Unlock()
	for {
		for len(o.queue) == 0 && !o.closed {
			o.cond.Wait()
		}
		if len(o.queue) == 0 || o.err != nil {
			return
		}
		out, o.queue = o.queue, out[:0]
		o.writing = true
		o.cond.Broadcast() // senders waiting for room
		o.mu.Unlock()
		_, err := o.w.Write(out)
		if cap(out) > 2*outboxBytes {
			out = nil // a huge result: do not keep its buffer
		}
		o.mu.Lock()
		o.writing = false
		o.cond.Broadcast() // flush
		if err != nil {
			o.err = err
			o.queue = nil
			return
		}
	}
}

// flush waits until every frame sent so far has been written, or a write has failed.
func (o *outbox) flush() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for (len(o.queue) > 0 || o.writing) && o.err == nil {
		o.cond.Wait()
	}
	return o.err
}

// close stops accepting frames; run writes what is queued, then returns.
func (o *outbox) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	o.cond.Broadcast()
}

// frameTooLargeError reports a frame longer than its reader accepts.
type frameTooLargeError struct {
	t     frameType
	n     uint32
	limit int64
}

// Error names the frame's length and the limit it passed.
func (e *frameTooLargeError) Error() string {
	return fmt.Sprintf("a %s frame of %d bytes exceeds the limit of %d bytes", e.t, e.n, e.limit)
}

// readHeader reads the length prefix and type of the next frame.
func readHeader(r *bufio.Reader) (frameType, uint32, error) {
	hdr, err := r.Peek(frameHeaderBytes)
	if err != nil {
		if err == io.EOF && len(hdr) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return 0, 0, err
	}
	n := binary.BigEndian.Uint32(hdr)
	t := frameType(hdr[4])
	_, _ = r.Discard(frameHeaderBytes)
	return t, n, nil
}

// readBody reads and decodes the n-byte body of a frame of type t. A body that fits r's buffer
// is decoded in place.
func readBody(r *bufio.Reader, t frameType, n uint32) (*frame, error) {
	if int(n) <= r.Size() {
		body, err := r.Peek(int(n))
		if err != nil {
			return nil, unexpectedEOF(err)
		}
		f, err := decodeFrame(t, body)
		_, _ = r.Discard(int(n))
		return f, err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, unexpectedEOF(err)
	}
	return decodeFrame(t, body)
}

func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readFrame reads one frame whose body is at most maxBody bytes.
func readFrame(r *bufio.Reader, maxBody int64) (*frame, error) {
	t, n, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	if int64(n) > maxBody {
		return nil, &frameTooLargeError{t: t, n: n, limit: maxBody}
	}
	return readBody(r, t, n)
}

// RunWorkerIfRequested turns the process into a jsruntime worker when a ProcessPool started it:
// it serves runs on stdin and stdout and exits, never returning. Otherwise it returns at once.
// A binary that uses a ProcessPool must call it first thing in main (tests: in TestMain),
// before anything writes to stdout:
//
//	func main() {
//		jsruntime.RunWorkerIfRequested()
//		...
//	}
func RunWorkerIfRequested() {
	spec, ok := os.LookupEnv(workerEnv)
	if !ok {
		return
	}
	in, out, tryWrite := pipe.WorkerPipes()
	os.Exit(serveWorker(spec, in, out, tryWrite))
}

// serveWorker applies the memory limits, then runs programs one at a time until stdin closes.
// tryWrite, when not nil, writes to out what it takes without waiting (see outbox).
func serveWorker(spec string, in io.Reader, out io.Writer, tryWrite func([]byte) (int, error)) int {
	var wc workerConfig
	if err := json.Unmarshal([]byte(spec), &wc); err != nil {
		fmt.Fprintln(os.Stderr, "jsruntime worker: bad configuration:", err)
		return workerExitBroken
	}
	if wc.MemoryLimit > 0 {
		if !raceEnabled {
			if err := limitData(dataLimit(wc.MemoryLimit)); err != nil {
				fmt.Fprintln(os.Stderr, "jsruntime worker:", err)
			}
		}
		// Above the watchdog's trip point (MaxHeapBytes, at most half the limit), so the
		// collector works harder near the limit without thrashing below it.
		debug.SetMemoryLimit(wc.MemoryLimit * 3 / 4)
	}
	// Large live heaps collect at up to 100 % instead of the process's percent (400 under the
	// runcode CLI), so a run holding hundreds of MB does not peak at the soft limit.
	defer gcpace.Start(10 * time.Millisecond).Close()
	// A second P once the live heap is large, for the collector (see gcpace.StartProcs).
	defer gcpace.StartProcs(10*time.Millisecond, min(2, runtime.NumCPU())).Close()
	rt, err := New(wc.Config)
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsruntime worker:", err)
		return workerExitBroken
	}
	w := &workerServer{rt: rt, out: newOutbox(out, tryWrite), calls: map[uint64]func(jsonv.Value, error){}}
	go w.out.run()
	defer func() {
		w.out.close()
		<-w.out.done
	}()
	rt.hooks = runHooks{
		onStuck: func(f *Failure) {
			// The failure, after the logs queued before it; a parent that does not read
			// within stuckGrace is not waited for.
			_ = w.out.send(&frame{T: frameFail, Failure: f})
			w.out.close()
			t := time.NewTimer(stuckGrace)
			select {
			case <-w.out.done:
			case <-t.C:
			}
			os.Exit(workerExitStuck)
		},
		stuckGrace: stuckGrace,
	}
	if err := w.out.send(&frame{T: frameReady}); err != nil {
		return workerExitBroken
	}
	return w.serve(bufio.NewReaderSize(in, 64<<10))
}

// threadReserve is how many OS threads beyond GOMAXPROCS the worker's RLIMIT_DATA leaves room
// for: the Go runtime starts threads as it needs them (sysmon, syscalls that block, such as a
// write to a full pipe, hand their P to another thread) and never ends them.
const threadReserve = 8

// dataLimit returns the RLIMIT_DATA that gives the programs memoryLimit bytes. RLIMIT_DATA
// counts address space, not memory: every private writable mapping, used or not. A Go worker
// starts with about 100 MiB of it and 15 MiB resident (the runtime's reservations; a stack of
// RLIMIT_STACK bytes, 8 MiB by default, for every thread of a cgo build), and each thread the
// runtime starts later adds one more stack. Charged against memoryLimit, that left a 128 MiB
// worker about 20 MiB, and the thread that a busy machine made the runtime start crossed it:
// the runtime aborted (pthread_create failed, or "fatal error: runtime: cannot allocate
// memory") whatever the run was doing. So the limit is memoryLimit on top of the footprint
// measured now (/proc/self/status VmData), plus stacks for GOMAXPROCS + threadReserve more
// threads. The heap itself stays bounded by the watchdog and the Go soft limit, both below
// memoryLimit; one native step that allocates past them (see Config.MaxHeapBytes) meets the
// kernel's refusal at most the unused part of that thread reserve beyond memoryLimit.
func dataLimit(memoryLimit int64) int64 {
	return procstatus.Bytes("/proc/self/status", "VmData:") + memoryLimit +
		int64(runtime.GOMAXPROCS(0)+threadReserve)*threadStackBytes()
}

// threadStackBytes is the address space of one thread stack: glibc's default, the soft
// RLIMIT_STACK, or 8 MiB when that is unlimited or unknown.
func threadStackBytes() int64 {
	const fallback = 8 << 20
	data, err := os.ReadFile("/proc/self/limits")
	if err != nil {
		return fallback
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "Max stack size"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				if n, err := strconv.ParseInt(f[0], 10, 64); err == nil && n > 0 {
					return n
				}
			}
		}
	}
	return fallback
}

// workerServer is the worker side of the protocol.
type workerServer struct {
	rt  *Goja
	out *outbox

	mu     sync.Mutex
	nextID uint64
	calls  map[uint64]func(jsonv.Value, error) // settle functions of pending host calls
	cancel context.CancelCauseFunc             // of the current run
	runs   sync.WaitGroup

	// last are the bindings of the latest run frame that carried them, for the runs that are
	// bound the same (frame.SameBindings); only serve's goroutine touches it.
	last    []Namespace
	lastErr error
}

func (w *workerServer) serve(in *bufio.Reader) int {
	defer w.runs.Wait()
	for {
		f, err := readFrame(in, maxWorkerFrame)
		if err != nil {
			w.abort("worker input closed")
			if errors.Is(err, io.EOF) {
				return workerExitOK
			}
			return workerExitBroken
		}
		switch f.T {
		case frameRun:
			// Acknowledged, and in the pipe, before any of the program runs: a worker that dies
			// before the parent reads this cannot have run it, and the parent may start it
			// elsewhere.
			err := w.out.send(&frame{T: frameStarted})
			if err == nil {
				err = w.out.flush()
			}
			if err != nil {
				w.abort("worker output closed")
				return workerExitBroken
			}
			if !f.SameBindings {
				w.last, w.lastErr = w.namespaces(f.Bindings)
			} else if w.last == nil && w.lastErr == nil {
				w.lastErr = errors.New("a run frame refers to bindings the worker was never sent")
			}
			nss, nssErr := w.last, w.lastErr
			ctx, cancel := context.WithCancelCause(context.Background())
			w.mu.Lock()
			w.cancel = cancel
			w.mu.Unlock()
			w.runs.Add(1)
			go func() {
				defer w.runs.Done()
				defer cancel(nil)
				w.run(ctx, f.Program, nss, nssErr)
			}()
		case frameReply:
			w.mu.Lock()
			settle := w.calls[f.ID]
			delete(w.calls, f.ID)
			w.mu.Unlock()
			if settle == nil {
				continue // the run that made the call is over
			}
			switch {
			case f.Error != nil && f.ErrorCode != "":
				settle(jsonv.Value{}, &CodedError{Code: f.ErrorCode, Message: *f.Error})
			case f.Error != nil:
				settle(jsonv.Value{}, errors.New(*f.Error))
			default:
				settle(f.Value, nil)
			}
		case frameAbort:
			w.abort(f.Reason)
		}
	}
}

func (w *workerServer) abort(reason string) {
	w.mu.Lock()
	cancel := w.cancel
	w.mu.Unlock()
	if cancel != nil {
		cancel(errors.New(reason))
	}
}

// namespaces returns the namespaces of a run frame, each bound with its member list and a
// Dispatch that forwards calls to the parent. The member lists stay the same while the runs are
// bound the same, so the runtime's prepared realms serve them.
func (w *workerServer) namespaces(wire []wireNamespace) ([]Namespace, error) {
	nss := make([]Namespace, len(wire))
	for i, wn := range wire {
		ms := make([]Member, len(wn.Functions))
		for j, fn := range wn.Functions {
			ms[j] = Member(fn)
		}
		members, err := NewMembers(ms)
		if err != nil {
			return nil, err
		}
		nss[i] = Namespace{Global: wn.Global, ErrorClass: wn.ErrorClass, MemberNoun: wn.MemberNoun, Positional: wn.Positional, ResolveUndefined: wn.ResolveUndefined, Members: members, Dispatch: w.forward(i)}
	}
	return nss, nil
}

// run runs one program; its host functions forward calls to the parent.
func (w *workerServer) run(ctx context.Context, program string, nss []Namespace, nssErr error) {
	res, err := Result{}, nssErr
	if err == nil {
		res, err = w.rt.Run(ctx, Request{Program: program, Bindings: nss, OnLog: w.sendLog})
	}
	w.mu.Lock()
	clear(w.calls)
	w.mu.Unlock()
	if err != nil {
		res = Result{Error: &Failure{Kind: KindWorkerExit, Message: "worker error: " + err.Error()}}
	}
	_ = w.out.send(&frame{T: frameDone, Result: &res})
}

// sendLog streams a console line the run's output admitted to the parent, in order with the
// run's calls.
func (w *workerServer) sendLog(line string) { _ = w.out.send(&frame{T: frameLog, Line: line}) }

// forward returns the Dispatch of namespace ns: it sends each call to the parent.
func (w *workerServer) forward(ns int) Dispatch {
	return func(_ context.Context, fn int, args jsonv.Value, settle func(jsonv.Value, error)) {
		w.mu.Lock()
		w.nextID++
		id := w.nextID
		w.calls[id] = settle
		w.mu.Unlock()
		if err := w.out.send(&frame{T: frameCall, ID: id, NS: ns, Fn: fn, Value: args}); err != nil {
			settle(jsonv.Value{}, err)
		}
	}
}
