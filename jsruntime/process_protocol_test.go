package jsruntime

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
)

// toolsNS is the namespace Code Mode passes: "tools" with ToolCallError.
func toolsNS(fns ...Function) []Namespace {
	return []Namespace{{Global: "tools", Functions: fns, ErrorClass: &ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"}}}
}

// runValue runs req on rt and returns its value as compact JSON, failing the test on a failure.
func runValue(t *testing.T, rt Runtime, req Request) string {
	t.Helper()
	res, err := rt.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Error != nil {
		t.Fatalf("%s: %s", res.Error.Kind, res.Error.Message)
	}
	return res.Value.String()
}

// newTestPool returns a pool of cfg that is closed when the test ends.
func newTestPool(t *testing.T, cfg ProcessConfig) *ProcessPool {
	t.Helper()
	p, err := NewProcessPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// ledgeredPool is a pool of one worker whose runs may hold limit bytes of sub-call data in
// flight, closed when t ends; *flight is the ledger of its latest run.
func ledgeredPool(t *testing.T, limit int64) (p *ProcessPool, flight **flightLedger) {
	t.Helper()
	p = newTestPool(t, ProcessConfig{Size: 1, MaxInFlightBytes: limit})
	flight = new(*flightLedger)
	p.onRunStart = func(l *flightLedger) { *flight = l }
	return p, flight
}

// TestProcessInFlightArgumentsAreBounded: a program that makes 16 calls with a 1 MiB argument
// each, which the host holds until a last call releases them, would have 16 MiB of arguments in
// the parent at once. With MaxInFlightBytes at 4 MiB, the parent admits three (each is 1 MiB
// and 18 bytes) and refuses the others without reading them: they reject in the program
// with an error naming the limit, and the run goes on.
func TestProcessInFlightArgumentsAreBounded(t *testing.T) {
	const limit = 4 << 20
	p, flight := ledgeredPool(t, limit)
	var held []func(jsonv.Value, error) // calls arrive on the run's goroutine, in order
	hold := Function{Name: "hold", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		held = append(held, settle)
	}}
	release := Function{Name: "release", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		for _, s := range held {
			s(jsonv.StringValue("ok"), nil)
		}
		settle(jsonv.Int(int64(len(held))), nil)
	}}
	got := runValue(t, p, Request{Bindings: toolsNS(hold, release), Program: `
		const big = "x".repeat(1 << 20);
		const calls = [];
		for (let i = 0; i < 16; i++) calls.push(tools.hold(big));
		const released = await tools.release({});
		const rs = await Promise.allSettled(calls);
		const refused = rs.filter((r) => r.status === "rejected");
		return [released, rs.length - refused.length, refused.length, refused[0].reason.message]`})
	want := `[3,3,13,"sub-call data in flight limited to 4194304 bytes: an argument of 1048590 bytes refused while 3145770 bytes are in flight (make fewer or smaller calls at once)"]`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if now, peak := (*flight).held(); now != 0 || peak > limit || peak < 3<<20 {
		t.Fatalf("in flight after the run %d, peak %d; want 0 and a peak of 3 MiB to %d", now, peak, limit)
	}
}

// TestProcessInFlightResultsAreBounded: 16 calls whose results (1 MiB each) settle at once
// while the worker reads nothing (it is stopped), so that no reply can be written: the parent
// holds three results and refuses the others, which reject in the program; a single result
// over the limit is refused too.
func TestProcessInFlightResultsAreBounded(t *testing.T) {
	const limit = 4 << 20
	p, flight := ledgeredPool(t, limit)
	w := p.idle[0]
	var settles sync.WaitGroup
	defer settles.Wait()
	var held []func(jsonv.Value, error)
	big := jsonv.StringValue(strings.Repeat("y", 1<<20))
	fetch := Function{Name: "fetch", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		held = append(held, settle)
		if len(held) < 16 {
			return
		}
		// All 16 calls are in: stop the worker, settle them all at once, and let it go on
		// once the parent has decided on each.
		if err := w.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Error(err)
		}
		for _, s := range held {
			settles.Add(1)
			go func() {
				defer settles.Done()
				s(big, nil)
			}()
		}
		settles.Add(1)
		go func() {
			defer settles.Done()
			defer w.cmd.Process.Signal(syscall.SIGCONT)
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				// 16 arguments, then 16 results.
				if admitted, refused := (*flight).decisions(); admitted+refused == 32 {
					return
				}
			}
			t.Error("the parent did not decide on every result")
		}()
	}}
	got := runValue(t, p, Request{Bindings: toolsNS(fetch), Program: `
		const rs = await Promise.allSettled(Array.from({length: 16}, () => tools.fetch({})));
		const refused = rs.filter((r) => r.status === "rejected");
		return [rs.length - refused.length, refused.length, refused[0].reason.message.replace(/while \d+ bytes/, "while N bytes")]`})
	want := `[3,13,"sub-call data in flight limited to 4194304 bytes: a result of 1048580 bytes refused while N bytes are in flight (make fewer or smaller calls at once)"]`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	// A reply's bytes are released once its write returns, which may be after the worker has
	// read it and finished.
	settles.Wait()
	if now, peak := (*flight).held(); now != 0 || peak > limit {
		t.Fatalf("in flight after the run %d, peak %d; want 0 and a peak of at most %d", now, peak, limit)
	}

	huge := Function{Name: "huge", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		settle(jsonv.StringValue(strings.Repeat("z", limit)), nil)
	}}
	got = runValue(t, p, Request{Bindings: toolsNS(huge), Program: `try { await tools.huge(1); return "accepted" } catch (e) { return e.message }`})
	if want := `"sub-call data in flight limited to 4194304 bytes: a result of 4194309 bytes refused while 0 bytes are in flight (make fewer or smaller calls at once)"`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// TestProcessBadWorkers: a worker that writes what is not the protocol, claims a frame of
// 2 GiB, stops answering or dies mid-frame ends its run with the right kind, the parent does
// not allocate what the worker claims, and the pool goes on with a new worker. Each case is a
// shell script that plays a worker once (it leaves a mark) and then starts this test binary
// as the real worker.
func TestProcessBadWorkers(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	const ready, started = `\000\000\000\000\001`, `\000\000\000\000\002`
	cases := []struct {
		name   string
		script string // after "ready" and "started"
		kind   FailureKind
		msg    string // contained in the failure message
	}{
		{"unknown frame type", `printf '\000\000\000\005\143hello'; exec sleep 30`, KindWorkerExit, "worker error: malformed frame: unknown frame type 99"},
		{"bad value tag", `printf '\000\000\000\002\007\001\377'; exec sleep 30`, KindWorkerExit, "worker error: done: malformed frame: bad value tag"},
		{"count beyond the frame", `printf '\000\000\000\007\007\001\006\377\377\377\377\017'; exec sleep 30`, KindWorkerExit, "worker error: done: malformed frame: count larger than the frame"},
		{"invalid failure kind", `printf '\000\000\000\011\010\001\005bogus\001m'; exec sleep 30`, KindWorkerExit, "worker error: malformed failure"},
		{"2 GiB result frame", `printf '\200\000\000\000\007'; exec sleep 30`, KindWorkerExit, "worker error: a done frame of 2147483648 bytes exceeds the limit of"},
		{"2 GiB call frame, never sent", `printf '\200\000\000\000\004\000\000\000\000\000\000\000\001'; exec sleep 30`, KindTimeout, "wall-clock ceiling reached"},
		{"call too short for its id", `printf '\000\000\000\003\004abc'; exec sleep 30`, KindWorkerExit, "worker error: malformed frame: call of 3 bytes"},
		{"silent", `exec sleep 30`, KindTimeout, "wall-clock ceiling reached"},
		{"dies mid-frame", `printf '\000\000\000\144\006abc'; exit 7`, KindWorkerExit, "worker exited with code 7 before completing"},
		{"reports its own death", `printf '\000\000\000\016\010\001\013worker-exit\000'; exit 0`, KindWorkerExit, ""},
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			mark := filepath.Join(t.TempDir(), "played")
			script := `if [ -e "$1" ]; then exec "$2"; fi; : > "$1"; printf '` + ready + `'; head -c 1 >/dev/null; printf '` + started + `'; ` + c.script
			p, err := NewProcessPool(ProcessConfig{Size: 1, Command: []string{sh, "-c", script, "sh", mark, self}, Config: Config{WallCeiling: time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			res, err := p.Run(context.Background(), Request{Program: `return 1`})
			if err != nil {
				t.Fatal(err)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if res.Error == nil || res.Error.Kind != c.kind || !strings.Contains(res.Error.Message, c.msg) {
				t.Fatalf("got %+v, want %s containing %q", res.Error, c.kind, c.msg)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("the parent allocated %d MiB reading the worker", grew>>20)
			}
			if got := runValue(t, p, Request{Program: `return "recovered"`}); got != `"recovered"` {
				t.Fatalf("after the bad worker: %s", got)
			}
		})
	}
}

// TestIsolationsAgreeOnText: text that is not valid UTF-8, and lone surrogates, come out of a
// program the same in both isolations: the pipe carries strings byte for byte (JSON frames
// turned invalid UTF-8 into U+FFFD on the way, so even an unchanged round trip through a
// process-isolated program changed the text, and the isolations disagreed).
func TestIsolationsAgreeOnText(t *testing.T) {
	texts := []string{"caf\xe9", "\xff\xfe", "a\xed\xa0\x80b", "ok é"}
	run := func(rt Runtime) []string {
		var got []string // appended on the run's goroutine, one call at a time
		source := Function{Name: "source", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
			settle(jsonv.StringValue(texts[int(args.AsNumber())]), nil)
		}}
		sink := Function{Name: "sink", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
			got = append(got, args.AsString())
			settle(args, nil)
		}}
		res, err := rt.Run(context.Background(), Request{Bindings: toolsNS(source, sink), Program: `
			const out = [];
			for (let i = 0; i < 4; i++) out.push(await tools.sink(await tools.source(i)));
			return out`})
		if err != nil {
			t.Fatal(err)
		}
		if res.Error != nil {
			got = append(got, string(res.Error.Kind)+": "+res.Error.Message)
		} else {
			for i := range res.Value.Len() {
				got = append(got, res.Value.Index(i).AsString())
			}
		}
		return got
	}
	g, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	p, err := NewProcessPool(ProcessConfig{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	in, out := run(g), run(p)
	if strings.Join(in, "|") != strings.Join(out, "|") {
		t.Fatalf("in-process %q\nprocess    %q", in, out)
	}
}
