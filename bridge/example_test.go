package bridge_test

import (
	"fmt"
	"strings"

	"github.com/runcode-dev/runcode/bridge"
)

// ReadEvents reads a `runcode run --trace` file back: each sub-call's start and settle event,
// with the call's arguments, outcome and times.
func Example() {
	trace := `{"type":"code-dispatch-start","rootCallId":"call-7","parentCallId":"call-7","subCallId":"call-7:code:1","name":"echo","arguments":{"value":1},"time":"2026-12-02T09:00:00.000000000Z"}
{"type":"code-dispatch","rootCallId":"call-7","parentCallId":"call-7","subCallId":"call-7:code:1","name":"echo","arguments":{"value":1},"isError":false,"content":[{"type":"text","text":"1"}],"time":"2026-12-02T09:00:00.002500000Z","durationMs":2.5,"result":1}
`
	events, err := bridge.ReadEvents(strings.NewReader(trace))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range events {
		fmt.Println(e.Type, e.SubCallID, bridge.CallPath(e.Name), e.Arguments, e.Duration())
	}
	// Output:
	// code-dispatch-start call-7:code:1 tools.echo {"value":1} 0s
	// code-dispatch call-7:code:1 tools.echo {"value":1} 2.5ms
}
