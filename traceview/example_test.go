package traceview_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/traceview"
)

// The waterfall page of a `runcode run --trace` file (here: one sub-call that succeeded and one
// that failed), written next to it, as `runcode trace view FILE` does.
func Example() {
	trace := `{"type":"code-dispatch-start","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:1","name":"read_file","arguments":{"path":"go.mod"},"time":"2026-12-01T10:00:00.000000000Z"}
{"type":"code-dispatch-start","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:2","name":"read_file","arguments":{"path":"nope"},"time":"2026-12-01T10:00:00.001000000Z"}
{"type":"code-dispatch","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:1","name":"read_file","arguments":{"path":"go.mod"},"isError":false,"content":[{"type":"text","text":"module x"}],"time":"2026-12-01T10:00:00.004000000Z","durationMs":4,"result":"module x"}
{"type":"code-dispatch","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:2","name":"read_file","arguments":{"path":"nope"},"isError":true,"content":[{"type":"text","text":"Error: no such file"}],"time":"2026-12-01T10:00:00.005000000Z","durationMs":4,"errorMessage":"no such file"}
`
	events, err := bridge.ReadEvents(strings.NewReader(trace))
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "traceview")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	page, err := os.Create(filepath.Join(dir, "run.html"))
	if err != nil {
		panic(err)
	}
	defer page.Close()
	if err := traceview.Write(page, events, traceview.Options{Title: "run-1"}); err != nil {
		panic(err)
	}

	rows, err := traceview.Rows(events) // what the page shows, one row per sub-call
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		fmt.Println(r.Index, r.SubCallID, r.Name, r.Outcome)
	}
	// Output:
	// 1 run-1:code:1 read_file ok
	// 2 run-1:code:2 read_file failed
}
