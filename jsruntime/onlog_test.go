package jsruntime_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// Request.OnLog gets each console line as the run's output admits it, in both isolations: in
// order, before the calls made after it, a line cut at the output cap as it was kept, and
// nothing after Run returns.
func TestOnLogStreamsConsoleLines(t *testing.T) {
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{MaxOutputBytes: 40})
			defer rt.Close()
			var mu sync.Mutex
			var seen []string
			note := func(s string) {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, s)
			}
			mark := jsruntime.Function{Name: "mark", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
				note(fmt.Sprintf("call %s", args.String()))
				settle(args, nil)
			}}
			res, err := rt.Run(context.Background(), jsruntime.Request{
				Program:  `console.log("one"); await tools.mark(1); console.log("two", 2); await tools.mark(2); console.log("x".repeat(100)); return 1`,
				Bindings: toolsNamespace(mark),
				OnLog:    func(line string) { note("log " + line) },
			})
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			got := slices.Clone(seen)
			mu.Unlock()
			// The third line overflows the 40-byte cap: the prefix the ledger kept is reported,
			// and the run ends as output-limit.
			want := []string{"log one", "call 1", "log two 2", "call 2", "log xxxxxxxxxxxxxxxxxxxxxx"}
			if !slices.Equal(got, want) || res.Error == nil || res.Error.Kind != jsruntime.KindOutputLimit {
				t.Fatalf("seen %q, want %q; error %v", got, want, res.Error)
			}
			if _, err := rt.Run(context.Background(), jsruntime.Request{Program: `console.log("later")`}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != len(want) {
				t.Fatalf("a later run's line reached this run's OnLog: %q", seen)
			}
		})
	}
}
