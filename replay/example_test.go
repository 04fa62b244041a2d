package replay_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/replay"
)

// A test of a program against a trace recorded earlier (here: two lines of a
// `runcode run --trace` file): no tool runs, and the tools are declared by the recording.
func Example() {
	trace := `{"type":"code-dispatch-start","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:1","name":"weather","arguments":{"city":"Oslo"},"time":"2026-12-01T10:00:00.000000000Z"}
{"type":"code-dispatch","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:1","name":"weather","arguments":{"city":"Oslo"},"isError":false,"content":[{"type":"text","text":"-3"}],"time":"2026-12-01T10:00:00.250000000Z","durationMs":250,"result":-3}
`
	events, err := bridge.ReadEvents(strings.NewReader(trace))
	if err != nil {
		panic(err)
	}
	rp, err := replay.New(events)
	if err != nil {
		panic(err)
	}
	reg := registry.New()
	if _, err := reg.Register(rp.Tools()...); err != nil {
		panic(err)
	}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		panic(err)
	}
	if err := codemode.Install(reg, codemode.Options{Runtime: rt, Executor: rp}); err != nil {
		panic(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		panic(err)
	}
	res := reg.Execute(context.Background(), codemode.Call("run-1", `const t = await tools.weather({ city: "Oslo" }); return t < 0 ? "freezing" : "fine"`, "Check the weather"))
	fmt.Println(registry.TextOf(res.Content))
	fmt.Println("complete:", rp.Check() == nil)
	// Output:
	// freezing
	// complete: true
}
