package traceview_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/traceview"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// synthetic builds the events of n sub-calls: call i starts at i ms and lasts 5 + i%7 ms (so
// several overlap), every failEvery-th fails, and the last one never settles when unsettled.
// extra, if set, is put into every call's arguments.
func synthetic(n, failEvery int, unsettled bool, extra string) []bridge.Event {
	var events []bridge.Event
	for i := 1; i <= n; i++ {
		args := jsonv.ObjectValue(jsonv.Member{Key: "i", Value: jsonv.Int(int64(i))}, jsonv.Member{Key: "note", Value: jsonv.StringValue(extra)})
		start := t0.Add(time.Duration(i) * time.Millisecond)
		id := fmt.Sprintf("run-1:code:%d", i)
		name := "fetch"
		if i%3 == 0 {
			name = "my-tool"
		}
		events = append(events, bridge.Event{Type: bridge.EventStart, RootCallID: "run-1", ParentCallID: "run-1", SubCallID: id, Name: name, Arguments: args, Time: start, Started: start})
		if unsettled && i == n {
			continue
		}
		// Odd calls ran half their time and waited the rest for earlier calls; every fourth
		// started at once, the others queued 1-3 ms.
		dur := time.Duration(5+i%7) * time.Millisecond
		settle := bridge.Event{Type: bridge.EventSettle, RootCallID: "run-1", ParentCallID: "run-1", SubCallID: id, Name: name, Arguments: args,
			Time: start.Add(dur), Started: start, Queued: time.Duration(i%4) * time.Millisecond, Running: dur / time.Duration(1+i%2)}
		if failEvery > 0 && i%failEvery == 0 {
			settle.IsError, settle.ErrorMessage = true, fmt.Sprintf("failure number %d %s", i, extra)
			settle.Content = []registry.Content{registry.TextContent("Error: " + settle.ErrorMessage)}
		} else {
			settle.Result = jsonv.ObjectValue(jsonv.Member{Key: "value", Value: jsonv.Int(int64(i * i))})
			settle.Content = registry.RenderValue(args, settle.Result)
		}
		events = append(events, settle)
	}
	return events
}

func render(t *testing.T, events []bridge.Event) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := traceview.Write(&b, events, traceview.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRows(t *testing.T) {
	rows, err := traceview.Rows(synthetic(4, 2, true, ""))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%d:%s:%s", r.Index, r.Name, r.Outcome))
	}
	if want := "1:fetch:ok 2:fetch:failed 3:my-tool:ok 4:fetch:unsettled"; strings.Join(got, " ") != want {
		t.Errorf("rows %s, want %s", strings.Join(got, " "), want)
	}
	settleOnly := synthetic(1, 0, false, "")[1:]
	if _, err := traceview.Rows(settleOnly); err == nil || !strings.Contains(err.Error(), "settles without a start event") {
		t.Errorf("Rows of a settle without start: %v", err)
	}
}

// The page's own code (style, script, markup around the rows) is small, a row costs a few
// hundred bytes, and the CSP allows exactly the page's script.
func TestPageIsSmallAndItsCSPAllowsOnlyItsScript(t *testing.T) {
	empty := render(t, nil)
	if len(empty) > 8<<10 {
		t.Errorf("the page without rows is %d bytes, want at most 8 KiB", len(empty))
	}
	page := render(t, synthetic(1000, 0, false, ""))
	if perRow := (len(page) - len(empty)) / 1000; perRow > 1100 {
		t.Errorf("%d bytes per row", perRow)
	}
	script := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllSubmatch(page, -1)
	if len(script) != 1 {
		t.Fatalf("%d scripts in the page", len(script))
	}
	sum := sha256.Sum256(script[0][1])
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindSubmatch(page)
	if csp == nil {
		t.Fatal("no Content-Security-Policy meta tag")
	}
	policy := strings.ReplaceAll(string(csp[1]), "&#39;", "'")
	for _, want := range []string{"default-src 'none'", "script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"} {
		if !strings.Contains(policy, want) {
			t.Errorf("policy %q lacks %q", policy, want)
		}
	}
	if bytes.Contains(page, []byte("http://")) || bytes.Contains(page, []byte("https://")) {
		t.Error("the page names a URL")
	}
}

// The running chart counts calls from start until their outcome was ready: a call done and
// waiting for an earlier one to settle holds no slot.
func TestMaxRunningCountsRunningCallsOnly(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	calls := []struct{ start, running int }{{0, 10}, {1, 2}, {5, 1}}
	var events []bridge.Event
	for i, c := range calls {
		start := t0.Add(ms(c.start))
		events = append(events, bridge.Event{Type: bridge.EventStart, SubCallID: fmt.Sprint(i), Name: "x", Arguments: jsonv.ObjectValue(), Time: start, Started: start})
	}
	for i, c := range calls { // all settle at 10 ms, in order
		events = append(events, bridge.Event{Type: bridge.EventSettle, SubCallID: fmt.Sprint(i), Name: "x", Arguments: jsonv.ObjectValue(),
			Time: t0.Add(ms(10)), Started: t0.Add(ms(c.start)), Running: ms(c.running)})
	}
	page := string(render(t, events))
	if !strings.Contains(page, "max running <b>2</b>") {
		t.Errorf("want max running 2: %s", regexp.MustCompile(`max running <b>\d+`).FindString(page))
	}
}

// A trace written before events had times still shows its rows, without bars.
func TestTraceWithoutTimes(t *testing.T) {
	events := synthetic(3, 2, false, "")
	for i := range events {
		events[i].Time, events[i].Started = time.Time{}, time.Time{}
	}
	page := string(render(t, events))
	if !strings.Contains(page, "this trace has no times") || strings.Contains(page, `class="bar"`) || strings.Count(page, `<details class="row `) != 3 {
		t.Errorf("page of a trace without times:\n%s", page)
	}
}

func TestLongValuesAreCut(t *testing.T) {
	page := string(render(t, synthetic(1, 0, false, strings.Repeat("x", 3*traceview.MaxShownBytes))))
	if !strings.Contains(page, "more bytes not shown)") || len(page) > 3*traceview.MaxShownBytes {
		t.Errorf("a %d-byte argument makes a %d-byte page", 3*traceview.MaxShownBytes, len(page))
	}
}

// chromium returns the command that runs headless Chromium, or skips the test when there is
// none and RUNCODE_REQUIRE_CHROMIUM is not set (.ci/run installs Chromium and sets it).
func chromium(t *testing.T, ctx context.Context, args ...string) *exec.Cmd {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("RUNCODE_REQUIRE_CHROMIUM") != "" {
			t.Fatal("chromium is required (RUNCODE_REQUIRE_CHROMIUM is set) and not on PATH")
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + t.TempDir(), "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--hide-scrollbars", "--window-size=1200,800"}
	return exec.CommandContext(ctx, bin, append(base, args...)...)
}

func dumpDOM(t *testing.T, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out, err := chromium(t, ctx, "--dump-dom", url).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom %s: %v", url, err)
	}
	return string(out)
}

// The waterfall of 1,000 sub-calls in a real browser: a row per sub-call in submission order,
// failures and the unsettled call marked, the counts and the total at the top, the row the URL
// names opened with its arguments and error; the screenshot shows the bars.
func TestPageInChromium(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "trace.html")
	const n, failEvery = 1000, 50
	if err := os.WriteFile(file, render(t, synthetic(n, failEvery, true, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := dumpDOM(t, "file://"+file+"#run-1:code:100")
	rows := regexp.MustCompile(`<details class="row (ok|failed|unsettled)" id="run-1:code:(\d+)"`).FindAllStringSubmatch(dom, -1)
	if len(rows) != n {
		t.Fatalf("%d rows in the DOM, want %d", len(rows), n)
	}
	count := map[string]int{}
	for i, r := range rows {
		if r[2] != fmt.Sprint(i+1) {
			t.Fatalf("row %d is sub-call %s: not in submission order", i+1, r[2])
		}
		count[r[1]]++
	}
	// The last call (a multiple of failEvery) is the unsettled one.
	failed := n/failEvery - 1
	if count["failed"] != failed || count["unsettled"] != 1 || count["ok"] != n-failed-1 {
		t.Errorf("rows by outcome: %v", count)
	}
	summary := fmt.Sprintf(`data-calls="%d" data-ok="%d" data-failed="%d" data-unsettled="1"`, n, n-failed-1, failed)
	if !strings.Contains(dom, summary) {
		t.Errorf("summary lacks %s", summary)
	}
	// From the first start (1 ms) to the last settle (999 ms + 5 + 999%7 ms = 1009 ms).
	if !strings.Contains(dom, `total <b>1.01 s</b>`) {
		t.Errorf("no total of 1.00 s in the summary: %s", regexp.MustCompile(`(?s)<div class="summary".*?</div>`).FindString(dom))
	}
	opened := regexp.MustCompile(`(?s)<details class="row failed" id="run-1:code:100"[^>]*\bopen=""`).MatchString(dom)
	if !opened || !strings.Contains(dom, "failure number 100") {
		t.Error("the row the URL names is not open with its error")
	}
	// Queued calls show the queue before their bar; calls that waited to settle show their
	// running part.
	if queued, split := strings.Count(dom, `<span class="queue"`), strings.Count(dom, `<span class="bar split"`); queued != 750 || split != 999 {
		t.Errorf("%d queued segments (want 750), %d bars with a running part (want 999)", queued, split)
	}
	if strings.Count(dom, " open=\"\"") != 1 {
		t.Errorf("%d rows open, want only the named one", strings.Count(dom, " open=\"\""))
	}

	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if out, err := chromium(t, ctx, "--screenshot="+shot, "file://"+file).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	checkScreenshot(t, shot)
}

// checkScreenshot checks that the PNG shows bars: many pixels of the ok colour and some of the
// failure colour, on a page that is not one colour.
func checkScreenshot(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	near := func(r, g, b uint32, want [3]uint32) bool {
		d := func(x, y uint32) uint32 {
			if x > y {
				return x - y
			}
			return y - x
		}
		return d(r>>8, want[0]) < 24 && d(g>>8, want[1]) < 24 && d(b>>8, want[2]) < 24
	}
	ok, failed := [3]uint32{0x2f, 0x7d, 0xe1}, [3]uint32{0xd9, 0x30, 0x25}
	var okPixels, failedPixels int
	colours := map[[3]uint32]bool{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
			switch {
			case near(r, g, b, ok):
				okPixels++
			case near(r, g, b, failed):
				failedPixels++
			}
		}
	}
	if len(colours) < 16 || okPixels < 500 || failedPixels < 10 {
		t.Errorf("screenshot %dx%d: %d colours, %d bar pixels, %d failure pixels", bounds.Dx(), bounds.Dy(), len(colours), okPixels, failedPixels)
	}
}

// Text in a trace cannot make the page reach the network: arguments and errors holding markup
// that would fetch (an image, a script, a stylesheet) show as text, and a loopback server sees
// no request. The same markup in a plain page does reach the server, so the check can fail.
func TestPageMakesNoNetworkRequest(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
	}))
	defer srv.Close()
	hostile := fmt.Sprintf(`<img src="%[1]s/img"><script src="%[1]s/js"></script></pre><link rel="stylesheet" href="%[1]s/css"><style>body{background:url(%[1]s/bg)}</style>`, srv.URL)
	dir := t.TempDir()
	file := filepath.Join(dir, "trace.html")
	if err := os.WriteFile(file, render(t, synthetic(3, 2, false, hostile)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := dumpDOM(t, "file://"+file+"#run-1:code:2")
	if n := hits.Load(); n != 0 {
		t.Errorf("the page made %d requests", n)
	}
	if !strings.Contains(dom, "&lt;img src=") || strings.Contains(dom, "<img") {
		t.Error("the hostile markup is not shown as text")
	}

	control := filepath.Join(dir, "control.html")
	if err := os.WriteFile(control, []byte("<!DOCTYPE html><p>control</p>"+hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	dumpDOM(t, "file://"+control)
	if hits.Load() == 0 {
		t.Error("the control page made no request: the check cannot see requests")
	}
}

// A trace spanning over 292 years (the largest time.Duration; clocks gone wrong) renders: the
// axis loop used to overflow its step and never end, until out of memory.
func TestTraceSpanningCenturies(t *testing.T) {
	events := synthetic(2, 0, false, "")
	far := t0.AddDate(400, 0, 0)
	events[3].Time = far // the second call's settle
	done := make(chan []byte, 1)
	go func() { done <- render(t, events) }()
	select {
	case page := <-done:
		axis := regexp.MustCompile(`<div class="axis">(.*?)</div>`).FindStringSubmatch(string(page))
		if axis == nil {
			t.Fatal("no time axis")
		}
		if n := strings.Count(axis[1], "<span"); n < 1 || n > 11 {
			t.Errorf("%d ticks, want 1 to 11", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("rendering a trace spanning 400 years did not end")
	}
}

// Bidirectional controls are shown as escapes: raw, "\u202etxt.exe" reads as "exe.txt".
func TestBidiControlsAreShownEscaped(t *testing.T) {
	events := synthetic(1, 0, false, "invoice\u202etxt.exe")
	events[1].Content = []registry.Content{registry.TextContent("saved \u2067evil\u2069")}
	page := string(render(t, events))
	for _, r := range []string{"\u202e", "\u2067", "\u2069"} {
		if strings.Contains(page, r) {
			t.Errorf("the page holds %U raw", []rune(r)[0])
		}
	}
	if !strings.Contains(page, `invoice\u202etxt.exe`) || !strings.Contains(page, `saved \u2067evil\u2069`) {
		t.Errorf("the escapes are not shown")
	}
}

// A trace that records its run shows the program and the outcome, escaped like the rest.
func TestPageShowsTheRunsProgramAndOutcome(t *testing.T) {
	events := synthetic(1, 0, false, "")
	outcome := jsonv.ObjectValue(jsonv.Member{Key: "logs", Value: jsonv.ArrayValue()}, jsonv.Member{Key: "error", Value: jsonv.ObjectValue(
		jsonv.Member{Key: "kind", Value: jsonv.StringValue("exception")}, jsonv.Member{Key: "message", Value: jsonv.StringValue("Error: <boom>")})})
	events = append([]bridge.Event{{Type: bridge.EventRunStart, RootCallID: "run-1", Program: `return "<b>" + 1`, Description: "Run p.ts", Time: t0, Started: t0}}, events...)
	events = append(events, bridge.Event{Type: bridge.EventRunEnd, RootCallID: "run-1", Outcome: outcome, Time: t0.Add(2 * time.Second), Started: t0})
	page := string(render(t, events))
	for _, want := range []string{`Run p.ts · 2.00 s`, `<b class="error">failed</b>`, `return &#34;&lt;b&gt;&#34; &#43; 1`, `Error: &lt;boom&gt;`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Count(page, `<details class="row `) != 1 {
		t.Error("the run events became rows")
	}
}
