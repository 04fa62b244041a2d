package dispatch_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// checkTimes checks the invariants every run's events keep: each settle's Started is its start
// event's Time, its Queued is the start's, Running is within Duration, and start and settle
// times never go backwards (both come in submission order). It returns the settles by id.
func checkTimes(t *testing.T, events []bridge.Event) map[string]bridge.Event {
	t.Helper()
	starts := map[string]bridge.Event{}
	settles := map[string]bridge.Event{}
	var lastStart, lastSettle time.Time
	for _, e := range events {
		if e.Time.IsZero() || e.Started.IsZero() {
			t.Fatalf("event without times: %+v", e)
		}
		switch e.Type {
		case bridge.EventStart:
			if e.Time.Before(lastStart) || e.Started != e.Time || e.Queued < 0 || e.Running != 0 {
				t.Errorf("start %s: time %v (last start %v), started %v, queued %v, running %v", e.SubCallID, e.Time, lastStart, e.Started, e.Queued, e.Running)
			}
			lastStart = e.Time
			starts[e.SubCallID] = e
		case bridge.EventSettle:
			s, ok := starts[e.SubCallID]
			if !ok {
				t.Fatalf("settle %s before its start", e.SubCallID)
			}
			if e.Time.Before(lastSettle) || !e.Started.Equal(s.Time) || e.Queued != s.Queued || e.Running < 0 || e.Running > e.Duration() {
				t.Errorf("settle %s: time %v (last settle %v), started %v (start event %v), queued %v (start %v), running %v, duration %v",
					e.SubCallID, e.Time, lastSettle, e.Started, s.Time, e.Queued, s.Queued, e.Running, e.Duration())
			}
			lastSettle = e.Time
			settles[e.SubCallID] = e
		}
	}
	return settles
}

// A call that waits for a concurrency slot shows it as queued time; a call whose body finished
// early but whose settle waited for an earlier call shows a running time well below its
// duration. The waits are made by the test (gates), so the bounds below are lower bounds the
// test itself enforces, whatever the machine's load.
func TestEventsCarryQueuedRunningAndSettleTimes(t *testing.T) {
	const hold = 40 * time.Millisecond
	pool := newSchedPool()
	reg := newRegistry(t, pool.tool("job", schedSafe))
	rec := &recorder{}
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"job"}, Events: rec.record, MaxParallel: 2})
	ns := b.Namespace()
	// 1 and 2 run at once; 3 waits for a slot until 2 finishes.
	o1, o2, o3 := call(ns, "job", schedArgs("1")), call(ns, "job", schedArgs("2")), call(ns, "job", schedArgs("3"))
	schedExpectSet(t, pool.started, "1", "2")
	time.Sleep(hold)
	pool.release("2") // 2's body is done; its settle waits for 1
	schedExpect(t, pool.ended, "2")
	schedExpect(t, pool.started, "3")
	time.Sleep(hold)
	pool.release("1", "3")
	schedWait(t, o1, o2, o3)
	b.Close()

	settles := checkTimes(t, rec.events)
	if len(settles) != 3 {
		t.Fatalf("%d settle events, want 3", len(settles))
	}
	s1, s2, s3 := settles["c:code:1"], settles["c:code:2"], settles["c:code:3"]
	if s3.Queued < hold {
		t.Errorf("call 3 waited %v for a slot, queued time %v", hold, s3.Queued)
	}
	if s1.Queued >= hold || s2.Queued >= hold {
		t.Errorf("calls 1 and 2 started at once, queued %v and %v", s1.Queued, s2.Queued)
	}
	if s2.Running < hold || s2.Duration()-s2.Running < hold {
		t.Errorf("call 2 ran %v and then waited %v for call 1; running %v, duration %v", hold, hold, s2.Running, s2.Duration())
	}
	if s1.Running < 2*hold || s1.Time.After(s2.Time) {
		t.Errorf("call 1: running %v (held %v), settled %v, call 2 settled %v", s1.Running, 2*hold, s1.Time, s2.Time)
	}
}

// The JSON form of an event carries time (RFC 3339 UTC, nine fraction digits) on every event
// and durationMs on settles, then the outcome the program received; ParseEvent reads it back.
func TestEventJSONCarriesTimesAndRoundTrips(t *testing.T) {
	reg := newRegistry(t, echo, registry.Tool{Name: "fail", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		return jsonv.Value{}, errors.New("deliberate failure")
	}})
	rec := &recorder{}
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"echo", "fail"}, Events: rec.record})
	ns := b.Namespace()
	schedWait(t, call(ns, "echo", `{"value":"v"}`), call(ns, "fail", `{}`))
	b.Close()
	checkTimes(t, rec.events)

	timeRE := regexp.MustCompile(`"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z"`)
	for _, e := range rec.events {
		line := e.Value().String()
		if !timeRE.MatchString(line) {
			t.Errorf("no RFC 3339 UTC time with nanoseconds: %s", line)
		}
		v := jsonv.MustParse(line)
		if e.Type == bridge.EventSettle {
			ms := v.Lookup("durationMs")
			if ms.Kind() != jsonv.Number || math.Abs(ms.AsNumber()-float64(e.Duration())/1e6) > 1e-6 {
				t.Errorf("durationMs %s, duration %v: %s", ms, e.Duration(), line)
			}
		} else if _, ok := v.Get("durationMs"); ok {
			t.Errorf("a start event has durationMs: %s", line)
		}
		back, err := bridge.ParseEvent(v)
		if err != nil {
			t.Fatalf("ParseEvent(%s): %v", line, err)
		}
		// Durations come from the monotonic clock, times from the wall clock: a start read back
		// as time minus duration may differ from the recorded start by the clocks' drift.
		if !back.Time.Equal(e.Time) || back.Started.Sub(e.Started).Abs() > time.Microsecond || back.Duration() != e.Duration() ||
			(e.Type == bridge.EventSettle && (back.Queued != e.Queued || back.Running != e.Running)) {
			t.Errorf("times do not round-trip: %v/%v/%v, want %v/%v/%v", back.Time, back.Started, back.Duration(), e.Time, e.Started, e.Duration())
		}
		if got := back.Value().String(); got != line {
			t.Errorf("round trip:\n%s\nwant:\n%s", got, line)
		}
	}
	settle := rec.events[len(rec.events)-1]
	if settle.Type != bridge.EventSettle || !settle.IsError || settle.ErrorMessage != "deliberate failure" || settle.Result.IsDefined() {
		t.Errorf("failed settle: %+v", settle)
	}
	if ok := rec.events[1]; ok.Type != bridge.EventSettle || ok.Result.AsString() != "echo:v" || ok.ErrorMessage != "" {
		t.Errorf("successful settle: %+v", ok)
	}
}

// Close's settle events for detached bodies carry times too: the body's running time so far.
func TestDetachedSettleEventsCarryTimes(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	stuck := registry.Tool{Name: "stuck", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		close(started)
		<-release // ignores cancellation
		return jsonv.NullValue(), nil
	}}
	reg := newRegistry(t, stuck)
	rec := &recorder{}
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"stuck"}, Events: rec.record, DrainGrace: 50 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	call(b.Namespace(), "stuck", `{}`)
	<-started
	b.Close()
	settles := checkTimes(t, rec.events)
	s := settles["c:code:1"]
	if !s.IsError || !strings.Contains(s.ErrorMessage, "detached") || s.Running < 50*time.Millisecond {
		t.Errorf("detached settle: error %v %q, running %v", s.IsError, s.ErrorMessage, s.Running)
	}
}
