package bridge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// The event types.
const (
	EventStart  = "code-dispatch-start"
	EventSettle = "code-dispatch"
	// EventRunStart and EventRunEnd open and close a run's trace (`runcode run --trace`): the
	// program, then its outcome. The bridge itself emits neither; its host writes them.
	EventRunStart = "code-run-start"
	EventRunEnd   = "code-run"
)

// Event is one dispatch event: the start (Type EventStart) or the settlement (Type
// EventSettle, with IsError, Content and the outcome the program received) of one sub-call; or,
// in a trace file, the start of the run (EventRunStart, with its Program and Description) or its
// end (EventRunEnd, with its Outcome), which carry RootCallID and the times only.
//
// The times are those of the bridge's clock (wall time with a monotonic reading, so durations
// are exact even when the wall clock steps): a call is submitted when the program calls the
// binding, starts when the bridge gives it its turn (Time of its start event), has its outcome
// ready when its pre-dispatch stages and body are done, and settles when its outcome is handed
// to the program (Time of its settle event), which is after every earlier call has settled.
type Event struct {
	Type         string
	RootCallID   string
	ParentCallID string
	SubCallID    string
	Name         string
	// Namespace is the registry namespace of the called tool (EventStart only; "" for a
	// top-level tool), so that a replay declares it where the program reached it:
	// tools.<Namespace>.<member>.
	Namespace string
	// Binding names the program binding a call was made through when it is not a tool:
	// "state" for an operation on the state store (Name "state.get", "state.set",
	// "state.delete" or "state.keys"), which no tool runs and a replay does not answer. ""
	// for a tool sub-call.
	Binding   string
	Arguments jsonv.Value
	IsError   bool               // EventSettle only
	Content   []registry.Content // EventSettle only: the sub-call's final model-facing content
	// Result is the value the program received (EventSettle of a success only). Content is
	// what the model would see, shaped by the dispatch-log waterfall; Result is what a replay
	// gives the program.
	Result jsonv.Value
	// ErrorMessage is the message of the program's rejection (EventSettle of a failure only):
	// the ToolCallError a replay raises again.
	ErrorMessage string

	// Program and Description are the run's program text and description (EventRunStart only).
	Program, Description string
	// Outcome is the run's canonical outcome, {"logs": [...], "result": ...} or {"logs": [...],
	// "error": {"kind", "message"}} (EventRunEnd only).
	Outcome jsonv.Value

	// Time is when the event happened: when the call started (EventStart) or settled
	// (EventSettle).
	Time time.Time
	// Started is when the call started: Time of its start event.
	Started time.Time
	// Queued is how long the call waited between the program's call and its start: for a
	// concurrency slot (codemode.Options.MaxParallelSubCalls), for an exclusive call to finish,
	// or, when it is exclusive, for every earlier call to settle.
	Queued time.Duration
	// Running is how long the call ran (EventSettle only): from its start until its outcome
	// was ready, its pre-dispatch stages and body included. Duration minus Running is the time
	// its outcome waited for earlier calls to settle (settle events keep submission order),
	// plus its post-execute stages.
	Running time.Duration
}

// Duration is the time from the call's start to its settlement (EventSettle; zero for a start
// event).
func (e Event) Duration() time.Duration {
	if (e.Type != EventSettle && e.Type != EventRunEnd) || e.Time.IsZero() || e.Started.IsZero() {
		return 0
	}
	return e.Time.Sub(e.Started)
}

// TimeFormat is how the trace writes times: RFC 3339 in UTC with nanoseconds, always nine
// digits, so that the text sorts as the times do.
const TimeFormat = "2006-01-02T15:04:05.000000000Z07:00"

// Value returns the event as a JSON object in the documented order: type, the ids, name,
// arguments; then for a settle event isError and content; then time (RFC 3339, UTC, with
// nanoseconds) when the event has one, and for a settle event durationMs (from its start
// event), queuedMs and runningMs (in fractional milliseconds), then result (a success) or
// errorMessage (a failure).
func (e Event) Value() jsonv.Value {
	if e.Type == EventRunStart || e.Type == EventRunEnd {
		return e.runValue()
	}
	ms := make([]jsonv.Member, 0, 11)
	ms = append(ms,
		jsonv.Member{Key: "type", Value: jsonv.StringValue(e.Type)},
		jsonv.Member{Key: "rootCallId", Value: jsonv.StringValue(e.RootCallID)},
		jsonv.Member{Key: "parentCallId", Value: jsonv.StringValue(e.ParentCallID)},
		jsonv.Member{Key: "subCallId", Value: jsonv.StringValue(e.SubCallID)},
		jsonv.Member{Key: "name", Value: jsonv.StringValue(e.Name)},
	)
	if e.Namespace != "" {
		ms = append(ms, jsonv.Member{Key: "namespace", Value: jsonv.StringValue(e.Namespace)})
	}
	if e.Binding != "" {
		ms = append(ms, jsonv.Member{Key: "binding", Value: jsonv.StringValue(e.Binding)})
	}
	ms = append(ms, jsonv.Member{Key: "arguments", Value: e.Arguments})
	settle := e.Type == EventSettle
	if settle {
		ms = append(ms,
			jsonv.Member{Key: "isError", Value: jsonv.BoolValue(e.IsError)},
			jsonv.Member{Key: "content", Value: registry.ContentValue(e.Content)})
	}
	if !e.Time.IsZero() {
		ms = append(ms, jsonv.Member{Key: "time", Value: jsonv.StringValue(e.Time.UTC().Format(TimeFormat))})
		if settle && !e.Started.IsZero() {
			ms = append(ms,
				jsonv.Member{Key: "durationMs", Value: millis(e.Duration())},
				jsonv.Member{Key: "queuedMs", Value: millis(e.Queued)},
				jsonv.Member{Key: "runningMs", Value: millis(e.Running)})
		}
	}
	if settle {
		switch {
		case e.IsError:
			ms = append(ms, jsonv.Member{Key: "errorMessage", Value: jsonv.StringValue(e.ErrorMessage)})
		case e.Result.IsDefined():
			ms = append(ms, jsonv.Member{Key: "result", Value: e.Result})
		}
	}
	return jsonv.ObjectValue(ms...)
}

// runValue is Value of a run event: type, rootCallId, then description and program (start) or
// outcome (end), then time and, for the end, durationMs from the start.
func (e Event) runValue() jsonv.Value {
	ms := []jsonv.Member{
		{Key: "type", Value: jsonv.StringValue(e.Type)},
		{Key: "rootCallId", Value: jsonv.StringValue(e.RootCallID)},
	}
	if e.Type == EventRunStart {
		ms = append(ms,
			jsonv.Member{Key: "description", Value: jsonv.StringValue(e.Description)},
			jsonv.Member{Key: "program", Value: jsonv.StringValue(e.Program)})
	} else {
		ms = append(ms, jsonv.Member{Key: "outcome", Value: e.Outcome})
	}
	if !e.Time.IsZero() {
		ms = append(ms, jsonv.Member{Key: "time", Value: jsonv.StringValue(e.Time.UTC().Format(TimeFormat))})
		if e.Type == EventRunEnd && !e.Started.IsZero() {
			ms = append(ms, jsonv.Member{Key: "durationMs", Value: millis(e.Duration())})
		}
	}
	return jsonv.ObjectValue(ms...)
}

// millis is d in fractional milliseconds (nanosecond precision).
func millis(d time.Duration) jsonv.Value {
	v, err := jsonv.NumberValue(float64(d) / float64(time.Millisecond))
	if err != nil { // unreachable: a Duration is finite
		return jsonv.Int(d.Milliseconds())
	}
	return v
}

// ParseEvent is the inverse of Event.Value: it reads one event of a trace. Times are optional
// (a trace written before they existed has none); a settle event's Started is its time minus
// durationMs. A start event's Queued is unknown (zero): its settle event carries it. A settle event without result or errorMessage
// gets the failure message from its content (the text after "Error: "), and no result.
func ParseEvent(v jsonv.Value) (Event, error) {
	if v.Kind() != jsonv.Object {
		return Event{}, fmt.Errorf("an event must be a JSON object, got %s", v.Kind())
	}
	str := func(key string, required bool) (string, error) {
		f, ok := v.Get(key)
		if !ok {
			if required {
				return "", fmt.Errorf("missing %q", key)
			}
			return "", nil
		}
		if f.Kind() != jsonv.String {
			return "", fmt.Errorf("%q must be a string, got %s", key, f.Kind())
		}
		return f.AsString(), nil
	}
	var e Event
	var err error
	if e.Type, err = str("type", true); err != nil {
		return Event{}, err
	}
	switch e.Type {
	case EventStart, EventSettle:
	case EventRunStart, EventRunEnd:
		return parseRunEvent(v, e.Type, str)
	default:
		return Event{}, fmt.Errorf("unknown event type %q (want %q, %q, %q or %q)", e.Type, EventStart, EventSettle, EventRunStart, EventRunEnd)
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"rootCallId", &e.RootCallID}, {"parentCallId", &e.ParentCallID}, {"subCallId", &e.SubCallID}, {"name", &e.Name}} {
		if *f.dst, err = str(f.key, true); err != nil {
			return Event{}, err
		}
	}
	if e.Namespace, err = str("namespace", false); err != nil {
		return Event{}, err
	}
	if e.Binding, err = str("binding", false); err != nil {
		return Event{}, err
	}
	args, ok := v.Get("arguments")
	if !ok {
		return Event{}, errors.New(`missing "arguments"`)
	}
	e.Arguments = args
	if ts, err := str("time", false); err != nil {
		return Event{}, err
	} else if ts != "" {
		if e.Time, err = time.Parse(time.RFC3339Nano, ts); err != nil {
			return Event{}, fmt.Errorf(`"time": %v`, err)
		}
		e.Started = e.Time
	}
	if e.Type == EventStart {
		return e, nil
	}
	isErr, ok := v.Get("isError")
	if !ok || isErr.Kind() != jsonv.Bool {
		return Event{}, errors.New(`a settle event needs "isError", a boolean`)
	}
	e.IsError = isErr.AsBool()
	content, ok := v.Get("content")
	if !ok || content.Kind() != jsonv.Array {
		return Event{}, errors.New(`a settle event needs "content", an array`)
	}
	for i, c := range content.Items() {
		block, err := parseContent(c)
		if err != nil {
			return Event{}, fmt.Errorf("content[%d]: %v", i, err)
		}
		e.Content = append(e.Content, block)
	}
	for _, f := range []struct {
		key string
		dst *time.Duration
	}{{"durationMs", nil}, {"queuedMs", &e.Queued}, {"runningMs", &e.Running}} {
		d, ok := v.Get(f.key)
		if !ok {
			continue
		}
		ms := d.AsNumber()
		if d.Kind() != jsonv.Number || ms < 0 || ms > float64(math.MaxInt64/int64(time.Millisecond)) {
			return Event{}, fmt.Errorf("%q must be a non-negative number of milliseconds, got %s", f.key, d)
		}
		dur := time.Duration(math.Round(ms * float64(time.Millisecond)))
		if f.dst != nil {
			*f.dst = dur
			continue
		}
		if e.Time.IsZero() {
			return Event{}, errors.New(`"durationMs" without "time"`)
		}
		e.Started = e.Time.Add(-dur)
	}
	if e.IsError {
		msg, err := str("errorMessage", false)
		if err != nil {
			return Event{}, err
		}
		if _, ok := v.Get("errorMessage"); !ok {
			msg = registry.TextOf(e.Content)
			msg = strings.TrimPrefix(msg, "Error: ")
		}
		e.ErrorMessage = msg
	} else if r, ok := v.Get("result"); ok {
		e.Result = r
	}
	return e, nil
}

// parseRunEvent reads a run event of type typ from v (see Event.runValue).
func parseRunEvent(v jsonv.Value, typ string, str func(key string, required bool) (string, error)) (Event, error) {
	e := Event{Type: typ}
	var err error
	if e.RootCallID, err = str("rootCallId", true); err != nil {
		return Event{}, err
	}
	if typ == EventRunStart {
		if e.Program, err = str("program", true); err != nil {
			return Event{}, err
		}
		if e.Description, err = str("description", false); err != nil {
			return Event{}, err
		}
	} else {
		out, ok := v.Get("outcome")
		if !ok || out.Kind() != jsonv.Object {
			return Event{}, errors.New(`a run's end needs "outcome", an object`)
		}
		e.Outcome = out
	}
	ts, err := str("time", false)
	if err != nil {
		return Event{}, err
	}
	if ts != "" {
		if e.Time, err = time.Parse(time.RFC3339Nano, ts); err != nil {
			return Event{}, fmt.Errorf(`"time": %v`, err)
		}
		e.Started = e.Time
	}
	if d, ok := v.Get("durationMs"); ok && typ == EventRunEnd {
		ms := d.AsNumber()
		if d.Kind() != jsonv.Number || ms < 0 || ms > float64(math.MaxInt64/int64(time.Millisecond)) || e.Time.IsZero() {
			return Event{}, fmt.Errorf(`"durationMs" must be a non-negative number of milliseconds beside "time", got %s`, d)
		}
		e.Started = e.Time.Add(-time.Duration(math.Round(ms * float64(time.Millisecond))))
	}
	return e, nil
}

func parseContent(c jsonv.Value) (registry.Content, error) {
	if c.Kind() != jsonv.Object {
		return registry.Content{}, fmt.Errorf("a content block must be an object, got %s", c.Kind())
	}
	get := func(key string) (string, error) {
		f, ok := c.Get(key)
		if !ok || f.Kind() != jsonv.String {
			return "", fmt.Errorf("needs %q, a string", key)
		}
		return f.AsString(), nil
	}
	typ, err := get("type")
	if err != nil {
		return registry.Content{}, err
	}
	if typ == "text" {
		text, err := get("text")
		return registry.TextContent(text), err
	}
	data, err := get("data")
	if err != nil {
		return registry.Content{}, err
	}
	mime, err := get("mimeType")
	return registry.Content{Type: typ, Data: data, MimeType: mime}, err
}

// ReadEvents reads a trace: dispatch events as JSON Lines, the format of `runcode run --trace`
// (one Event.Value per line). Blank lines are skipped; any other line that is not an event is
// an error naming its line number.
func ReadEvents(r io.Reader) ([]Event, error) {
	br := bufio.NewReader(r)
	var events []Event
	for n := 1; ; n++ {
		line, err := readLine(br, maxEventLine)
		if errors.Is(err, errLineTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d MiB: not a trace file", n, maxEventLine>>20)
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		if text := bytes.TrimSpace(line); len(text) > 0 {
			v, perr := jsonv.Parse(text)
			if perr != nil {
				return nil, fmt.Errorf("line %d: not JSON: %v", n, perr)
			}
			e, perr := ParseEvent(v)
			if perr != nil {
				return nil, fmt.Errorf("line %d: %v", n, perr)
			}
			events = append(events, e)
		}
		if err == io.EOF {
			return events, nil
		}
	}
}

// maxEventLine bounds one line of a trace file (the default --max-output): an event carries one
// sub-call's arguments or result, and a line this long is most likely not a trace at all
// (/dev/zero, a binary file).
const maxEventLine = 64 << 20

var errLineTooLong = errors.New("line too long")

// readLine reads through the next '\n' like bufio.Reader.ReadBytes, failing with
// errLineTooLong once the line passes limit bytes.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return nil, errLineTooLong
		}
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}
