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
	"runtime/debug"
	"sync"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
)

// workerEnv is the environment variable the pool sets, to the worker's JSON configuration, when
// it starts a worker process.
const workerEnv = "RUNCODE_JSRUNTIME_WORKER"

// maxFrame bounds one protocol frame (a program, a value, a result).
const maxFrame = 1 << 30

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

// frame is one message of the pipe protocol: a 4-byte big-endian length, then this as JSON.
// Values are jsonv, so key order survives.
//
// Parent to worker: "run" (Program, Bindings), "reply" (ID, Value or Error), "abort" (Reason).
// Worker to parent: "ready" (first, once), "call" (ID, NS, Fn, Value), "log" (Line), "done"
// (Result), "fail" (Failure; the worker exits next).
type frame struct {
	T        string          `json:"t"`
	Program  string          `json:"program,omitempty"`
	Bindings []wireNamespace `json:"bindings,omitempty"`
	ID       int64           `json:"id,omitempty"`
	NS       int             `json:"ns,omitempty"`
	Fn       string          `json:"fn,omitempty"`
	Value    []jsonv.Value   `json:"value,omitempty"` // zero or one value: JSON null survives
	Error    *string         `json:"error,omitempty"`
	Line     string          `json:"line,omitempty"`
	Reason   string          `json:"reason,omitempty"`
	Result   *wireResult     `json:"result,omitempty"`
	Failure  *Failure        `json:"failure,omitempty"`
}

type wireNamespace struct {
	Global     string      `json:"global"`
	Functions  []string    `json:"functions"`
	ErrorClass *ErrorClass `json:"errorClass,omitempty"`
}

type wireResult struct {
	Value []jsonv.Value `json:"value,omitempty"` // zero or one value
	Logs  []string      `json:"logs"`
	Error *Failure      `json:"error,omitempty"`
}

func toWire(res Result) *wireResult {
	w := &wireResult{Logs: res.Logs, Error: res.Error}
	if res.Value.IsDefined() {
		w.Value = []jsonv.Value{res.Value}
	}
	return w
}

func fromWire(w *wireResult) Result {
	res := Result{Logs: w.Logs, Error: w.Error}
	if len(w.Value) == 1 {
		res.Value = w.Value[0]
	}
	return res
}

// frameWriter writes frames; it is safe for concurrent use.
type frameWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (fw *frameWriter) write(f *frame) error {
	body, err := json.Marshal(f)
	if err != nil {
		return err
	}
	buf := make([]byte, 4, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	buf = append(buf, body...)
	fw.mu.Lock()
	defer fw.mu.Unlock()
	_, err = fw.w.Write(buf)
	return err
}

func readFrame(r *bufio.Reader) (*frame, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return nil, fmt.Errorf("jsruntime: frame of %d bytes", n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	f := new(frame)
	if err := json.Unmarshal(body, f); err != nil {
		return nil, err
	}
	return f, nil
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
	os.Exit(serveWorker(spec, os.Stdin, os.Stdout))
}

// serveWorker applies the memory limits, then runs programs one at a time until stdin closes.
func serveWorker(spec string, in io.Reader, out io.Writer) int {
	var wc workerConfig
	if err := json.Unmarshal([]byte(spec), &wc); err != nil {
		fmt.Fprintln(os.Stderr, "jsruntime worker: bad configuration:", err)
		return workerExitBroken
	}
	if wc.MemoryLimit > 0 {
		if !raceEnabled {
			if err := limitData(wc.MemoryLimit); err != nil {
				fmt.Fprintln(os.Stderr, "jsruntime worker:", err)
			}
		}
		// Above the watchdog's trip point (MaxHeapBytes, at most half the limit), so the
		// collector works harder near the limit without thrashing below it.
		debug.SetMemoryLimit(wc.MemoryLimit * 3 / 4)
	}
	w := &workerServer{out: &frameWriter{w: out}, calls: map[int64]func(jsonv.Value, error){}}
	rt, err := New(wc.Config)
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsruntime worker:", err)
		return workerExitBroken
	}
	rt.hooks = runHooks{
		onLog: func(line string) { _ = w.out.write(&frame{T: "log", Line: line}) },
		onStuck: func(f *Failure) {
			_ = w.out.write(&frame{T: "fail", Failure: f})
			os.Exit(workerExitStuck)
		},
		stuckGrace: stuckGrace,
	}
	w.rt = rt
	if err := w.out.write(&frame{T: "ready"}); err != nil {
		return workerExitBroken
	}
	return w.serve(bufio.NewReader(in))
}

// workerServer is the worker side of the protocol.
type workerServer struct {
	rt  *Goja
	out *frameWriter

	mu     sync.Mutex
	nextID int64
	calls  map[int64]func(jsonv.Value, error) // settle functions of pending host calls
	cancel context.CancelCauseFunc            // of the current run
	runs   sync.WaitGroup
}

func (w *workerServer) serve(in *bufio.Reader) int {
	defer w.runs.Wait()
	for {
		f, err := readFrame(in)
		if err != nil {
			w.abort("worker input closed")
			if errors.Is(err, io.EOF) {
				return workerExitOK
			}
			return workerExitBroken
		}
		switch f.T {
		case "run":
			ctx, cancel := context.WithCancelCause(context.Background())
			w.mu.Lock()
			w.cancel = cancel
			w.mu.Unlock()
			w.runs.Add(1)
			go func() {
				defer w.runs.Done()
				defer cancel(nil)
				w.run(ctx, f)
			}()
		case "reply":
			w.mu.Lock()
			settle := w.calls[f.ID]
			delete(w.calls, f.ID)
			w.mu.Unlock()
			if settle == nil {
				continue // the run that made the call is over
			}
			switch {
			case f.Error != nil:
				settle(jsonv.Value{}, errors.New(*f.Error))
			case len(f.Value) == 1:
				settle(f.Value[0], nil)
			default:
				settle(jsonv.Value{}, nil)
			}
		case "abort":
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

// run runs one program; its host functions forward calls to the parent.
func (w *workerServer) run(ctx context.Context, f *frame) {
	nss := make([]Namespace, len(f.Bindings))
	for i, wn := range f.Bindings {
		nss[i] = Namespace{Global: wn.Global, ErrorClass: wn.ErrorClass}
		for _, name := range wn.Functions {
			nss[i].Functions = append(nss[i].Functions, Function{Name: name, Call: w.forward(i, name)})
		}
	}
	res, err := w.rt.Run(ctx, Request{Program: f.Program, Bindings: nss})
	w.mu.Lock()
	clear(w.calls)
	w.mu.Unlock()
	if err != nil {
		res = Result{Error: &Failure{Kind: KindWorkerExit, Message: "worker error: " + err.Error()}}
	}
	_ = w.out.write(&frame{T: "done", Result: toWire(res)})
}

// forward returns a host function that sends the call to the parent.
func (w *workerServer) forward(ns int, name string) HostFunc {
	return func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		w.mu.Lock()
		w.nextID++
		id := w.nextID
		w.calls[id] = settle
		w.mu.Unlock()
		if err := w.out.write(&frame{T: "call", ID: id, NS: ns, Fn: name, Value: []jsonv.Value{args}}); err != nil {
			settle(jsonv.Value{}, err)
		}
	}
}
