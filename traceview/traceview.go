// Package traceview renders a run's dispatch events (a `runcode run --trace` file) as one
// self-contained HTML page: the waterfall of its sub-calls. A row per sub-call in submission
// order, a bar from its start to its settle on a shared time axis (bars that overlap ran at the
// same time; a chart of the calls running sits above them), failures marked, and each row's
// arguments, result and content on demand (a native <details> element: click the row). The top
// shows the span from the first start to the last settle and the count by outcome.
//
//	events, err := bridge.ReadEvents(traceFile)
//	err = traceview.Write(page, events, traceview.Options{})
//
// [Write] writes the page of the events ([bridge.Event]) read with [bridge.ReadEvents]; [Rows]
// returns its rows as data ([Row]).
//
// The page loads nothing: its style and its one small script are inline, and a
// Content-Security-Policy (default-src 'none', the script allowed by its hash) forbids every
// fetch, so no text in a trace can make the page reach the network. The page needs no script to
// show the waterfall; the script only opens the row a URL fragment names (#run-1:code:3).
package traceview

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// MaxShownBytes bounds each of a row's arguments, result and content as the page shows them:
// a trace of large results still makes a page a browser opens quickly. Longer text is cut
// with a note of how much was left out.
const MaxShownBytes = 16 << 10

// Outcomes of a sub-call.
const (
	OutcomeOK        = "ok"
	OutcomeFailed    = "failed"
	OutcomeUnsettled = "unsettled" // the trace ends before the call settled
)

// Options configure a page.
type Options struct {
	// Title is the page's title and heading; empty means "runcode trace".
	Title string
}

// Row is one sub-call of the waterfall.
type Row struct {
	Index     int // submission order, from 1
	SubCallID string
	Name      string
	Arguments jsonv.Value
	Outcome   string
	Start     bridge.Event
	Settle    *bridge.Event // nil when unsettled
}

// Rows pairs the start and settle events of a trace into rows in submission order (the order
// of the start events). A settle event without a start is an error.
func Rows(events []bridge.Event) ([]Row, error) {
	var rows []Row
	index := map[string]int{}
	for i, e := range events {
		switch e.Type {
		case bridge.EventStart:
			if _, dup := index[e.SubCallID]; dup {
				return nil, fmt.Errorf("event %d: sub-call %s starts twice", i+1, e.SubCallID)
			}
			index[e.SubCallID] = len(rows)
			rows = append(rows, Row{Index: len(rows) + 1, SubCallID: e.SubCallID, Name: e.Name, Arguments: e.Arguments, Outcome: OutcomeUnsettled, Start: e})
		case bridge.EventSettle:
			n, ok := index[e.SubCallID]
			if !ok {
				return nil, fmt.Errorf("event %d: sub-call %s settles without a start event", i+1, e.SubCallID)
			}
			settle := e
			rows[n].Settle = &settle
			rows[n].Outcome = OutcomeOK
			if e.IsError {
				rows[n].Outcome = OutcomeFailed
			}
		}
	}
	return rows, nil
}

//go:embed page.html.tmpl
var pageTemplate string

//go:embed page.js
var pageScript string

var page = template.Must(template.New("page").Parse(pageTemplate))

// view is what the template renders.
type view struct {
	Title       string
	CSP         string
	Script      template.JS
	Rows        []viewRow
	Count       map[string]int
	Total       string
	Timed       bool
	Ticks       []tick
	TickStep    template.CSS // the grid's period, a percentage of the lane
	Flight      string       // SVG points of the in-flight chart
	MaxInFlight int
	Runs        string
	// Program, Description and Outcome are the run's (EventRunStart, EventRunEnd), when the
	// trace has them; RunTime is the run's duration.
	Program, Description, Outcome, RunTime string
	RunFailed                              bool
}

type viewRow struct {
	Index     int
	ID        string
	Call      string
	Outcome   string
	Bar       template.CSS // start to settle
	Queue     template.CSS // the program's call to the start
	Run       template.CSS // the running part of Bar
	Duration  string
	Timing    string
	Start     string
	Arguments string
	Result    string
	Error     string
	Content   string
}

type tick struct {
	Left  template.CSS
	Label string
}

// Write renders the page of events to w.
func Write(w io.Writer, events []bridge.Event, opts Options) error {
	rows, err := Rows(events)
	if err != nil {
		return err
	}
	v := view{Title: opts.Title, Count: map[string]int{}, Script: template.JS(pageScript)}
	if v.Title == "" {
		v.Title = "runcode trace"
	}
	sum := sha256.Sum256([]byte(pageScript))
	v.CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; base-uri 'none'; form-action 'none'"

	// The time axis: from the first start to the last settle (or start).
	v.Timed = len(rows) > 0
	var t0, t1 time.Time
	for _, r := range rows {
		times := []time.Time{r.Start.Time}
		if r.Settle != nil {
			times = append(times, r.Settle.Time)
			if !r.Start.Time.IsZero() {
				times = append(times, r.Start.Time.Add(-r.Settle.Queued))
			}
		}
		for _, t := range times {
			if t.IsZero() {
				v.Timed = false
				continue
			}
			if t0.IsZero() || t.Before(t0) {
				t0 = t
			}
			if t.After(t1) {
				t1 = t
			}
		}
	}
	span := t1.Sub(t0)
	if v.Timed {
		v.Total = formatDuration(span)
		v.Ticks, v.TickStep = axis(span)
		v.Flight, v.MaxInFlight = inFlight(rows, t0, t1)
	}
	pct := func(t time.Time) float64 {
		if span <= 0 {
			return 0
		}
		return 100 * float64(t.Sub(t0)) / float64(span)
	}
	for _, e := range events {
		switch e.Type {
		case bridge.EventRunStart:
			v.Program, v.Description = cut(e.Program), visible(e.Description)
		case bridge.EventRunEnd:
			v.Outcome = show(e.Outcome)
			_, v.RunFailed = e.Outcome.Get("error")
			if d := e.Duration(); d > 0 {
				v.RunTime = formatDuration(d)
			}
		}
	}
	runs := map[string]bool{}
	var runList []string
	for _, r := range rows {
		v.Count[r.Outcome]++
		if p := r.Start.ParentCallID; !runs[p] {
			runs[p] = true
			runList = append(runList, p)
		}
		vr := viewRow{Index: r.Index, ID: visible(r.SubCallID), Call: visible(bridge.CallPath(r.Name)), Outcome: r.Outcome, Arguments: show(r.Arguments)}
		if !r.Start.Time.IsZero() {
			vr.Start = r.Start.Time.UTC().Format(bridge.TimeFormat)
		}
		if v.Timed {
			left := pct(r.Start.Time)
			right := 100.0
			if r.Settle != nil {
				right = pct(r.Settle.Time)
			}
			vr.Bar = template.CSS(fmt.Sprintf("left:%.3f%%;width:%.3f%%", left, math.Max(right-left, 0)))
			if s := r.Settle; s != nil && s.Queued > 0 {
				q := pct(r.Start.Time.Add(-s.Queued))
				vr.Queue = template.CSS(fmt.Sprintf("left:%.3f%%;width:%.3f%%", q, left-q))
			}
			if s := r.Settle; s != nil && s.Running > 0 && s.Duration() > 0 {
				vr.Run = template.CSS(fmt.Sprintf("width:%.2f%%", math.Min(100, 100*float64(s.Running)/float64(s.Duration()))))
			}
		}
		if s := r.Settle; s != nil {
			if s.Time.IsZero() || s.Started.IsZero() {
				vr.Duration = "–"
			} else {
				vr.Duration = formatDuration(s.Duration())
				if s.Running > 0 || s.Queued > 0 {
					vr.Timing = fmt.Sprintf("queued %s before its start · ran %s · then waited %s for earlier calls to settle",
						formatDuration(s.Queued), formatDuration(s.Running), formatDuration(max(s.Duration()-s.Running, 0)))
				}
			}
			if s.IsError {
				vr.Error = cut(s.ErrorMessage)
			} else if s.Result.IsDefined() {
				vr.Result = show(s.Result)
			}
			vr.Content = cut(registry.TextOf(s.Content))
		} else {
			vr.Duration = "unsettled"
		}
		v.Rows = append(v.Rows, vr)
	}
	v.Runs = visible(strings.Join(runList, ", "))
	return page.Execute(w, v)
}

// show renders a JSON value for the page, indented and cut at MaxShownBytes.
func show(v jsonv.Value) string {
	if !v.IsDefined() {
		return ""
	}
	return cut(string(jsonv.AppendIndent(nil, v, "  ", 12)))
}

// cut shortens s to MaxShownBytes, noting what it left out, and shows its bidirectional
// controls as escapes (see visible).
func cut(s string) string {
	s = visible(s)
	if len(s) <= MaxShownBytes {
		return s
	}
	n := MaxShownBytes
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + fmt.Sprintf("\n… (%d more bytes not shown)", len(s)-n)
}

// visible replaces the Unicode bidirectional controls in s with \uXXXX escapes: shown raw
// they reorder the text around them ("\u202etxt.exe" reads as "exe.txt"), so a tool name,
// argument or result could show something other than what it holds.
func visible(s string) string {
	if !strings.ContainsFunc(s, isBidiControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isBidiControl(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isBidiControl reports the characters that change the display order of text (Unicode's
// Bidi_Control property).
func isBidiControl(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }

// axis returns the ticks of a time axis spanning span: a round step (1, 2 or 5 times a power
// of ten) giving at most ten intervals, and that step as a percentage of the span.
func axis(span time.Duration) ([]tick, template.CSS) {
	if span <= 0 {
		return []tick{{Left: "left:0%", Label: "0"}}, "100%"
	}
	// A span near the largest Duration (over 292 years, from clocks gone wrong) must neither
	// overflow the step nor the ticks: the step is at most span, and at most ten ticks are made.
	step := span
search:
	for p := time.Duration(1); p <= math.MaxInt64/10; p *= 10 {
		for _, m := range []time.Duration{1, 2, 5} {
			if span/(m*p) <= 10 {
				step = m * p
				break search
			}
		}
	}
	var ticks []tick
	for i := time.Duration(0); i <= 10 && i <= span/step; i++ {
		t := i * step
		ticks = append(ticks, tick{Left: template.CSS(fmt.Sprintf("left:%.3f%%", 100*float64(t)/float64(span))), Label: formatDuration(t)})
	}
	return ticks, template.CSS(fmt.Sprintf("%.4f%%", 100*float64(step)/float64(span)))
}

// inFlight returns the step chart of how many calls were running over time (from start until
// their outcome was ready; until their settle when the trace lacks running times), as SVG
// polygon points in a 1000×100 box, and the maximum. Calls done but waiting for earlier calls
// to settle do not count: they hold no concurrency slot.
func inFlight(rows []Row, t0, t1 time.Time) (string, int) {
	type change struct {
		at    time.Time
		delta int
	}
	var changes []change
	for _, r := range rows {
		changes = append(changes, change{r.Start.Time, 1})
		end := t1
		switch s := r.Settle; {
		case s != nil && s.Running > 0:
			end = r.Start.Time.Add(s.Running)
		case s != nil:
			end = s.Time
		}
		changes = append(changes, change{end, -1})
	}
	slices.SortStableFunc(changes, func(a, b change) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return a.delta - b.delta // a settle before a start at the same instant
	})
	peak, level := 0, 0
	for _, c := range changes {
		level += c.delta
		peak = max(peak, level)
	}
	span := float64(t1.Sub(t0))
	x := func(t time.Time) string {
		if span <= 0 {
			return "0"
		}
		return strconv.FormatFloat(1000*float64(t.Sub(t0))/span, 'f', 2, 64)
	}
	y := func(l int) string {
		if peak == 0 {
			return "100"
		}
		return strconv.FormatFloat(100-100*float64(l)/float64(peak), 'f', 2, 64)
	}
	var b strings.Builder
	b.WriteString("0,100")
	level = 0
	for _, c := range changes {
		b.WriteString(" " + x(c.at) + "," + y(level))
		level += c.delta
		b.WriteString(" " + x(c.at) + "," + y(level))
	}
	b.WriteString(" 1000," + y(level) + " 1000,100")
	return b.String(), peak
}

// formatDuration renders d for a reader: "0.042 ms", "12.3 ms", "1.25 s".
func formatDuration(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case d == 0:
		return "0"
	case ms < 1:
		return strconv.FormatFloat(ms, 'f', 3, 64) + " ms"
	case ms < 100:
		return strconv.FormatFloat(ms, 'f', 1, 64) + " ms"
	case ms < 1000:
		return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
}
