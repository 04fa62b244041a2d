package workspace

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/registry"
)

// retainedHeap returns the bytes of heap in use after two collections: what live values hold.
func retainedHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// summary describes a grep result without its matches, for messages.
func summary(res registry.Result) string {
	if res.IsError {
		return "an error"
	}
	return fmt.Sprintf("%d matches, truncated %v", res.Value.Lookup("matches").Len(), res.Value.Lookup("truncated").AsBool())
}

// maxMatches is capped by the schema: a grep asking for a billion matches of "" over a file of
// empty lines held every match in the host (2 MiB of newlines reached 1.35 GB at --memory
// 512MiB), so it is refused before it searches, naming the limit.
func TestGrepMaxMatchesIsCapped(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"lines.txt": strings.Repeat("\n", maxGrepMatches+1)})
	res := f.call(t, "grep", `{"pattern": "", "path": "lines.txt", "maxMatches": 1e9}`)
	if !res.IsError || res.Err.Code != registry.CodeInvalidArgs || !strings.Contains(res.Err.Message, "maxMatches") ||
		!strings.Contains(res.Err.Message, "10,000") {
		t.Fatalf("maxMatches 1e9: got %s / %v, want an invalid-arguments error naming maxMatches and its maximum", summary(res), res.Err)
	}
	res = f.call(t, "grep", fmt.Sprintf(`{"pattern": "", "path": "lines.txt", "maxMatches": %d}`, maxGrepMatches))
	if res.IsError || res.Value.Lookup("matches").Len() != maxGrepMatches || !res.Value.Lookup("truncated").AsBool() {
		t.Fatalf("maxMatches at the maximum: %v", res.Err)
	}
	// The maximum is in the schema, so the SDK shows it.
	for _, tool := range f.ws.Tools() {
		if tool.Name == "grep" {
			if got := tool.Parameters.Lookup("properties").Lookup("maxMatches").Lookup("maximum").AsNumber(); got != maxGrepMatches {
				t.Fatalf("grep's maxMatches schema has maximum %v, want %d", got, maxGrepMatches)
			}
		}
	}
}

// grep reserves for every match it holds, text included, before holding it, and keeps the
// reservation until its account is closed (the result handed over): what it reserves covers
// what the result actually retains. Before, only each file's size was reserved, while it was
// searched: matches of a file of empty lines were held for nothing.
func TestGrepReservesItsMatches(t *testing.T) {
	const n = 2000 // enough to measure; few enough to be quick under -race
	f := newFixture(t)
	for _, c := range []struct{ name, line string }{
		{"empty", ""},
		{"ascii", strings.Repeat("x", 100)},
		{"long", strings.Repeat("é", 600)}, // cut to 500 characters, 1000 bytes
	} {
		name := "lines/some/dir/" + c.name + ".txt"
		writeFiles(t, f.dir, map[string]string{name: strings.Repeat(c.line+"\n", n)})
		b := membudget.New(256 * mib)
		a := b.Open()
		before := retainedHeap()
		res := f.callIn(membudget.NewContext(context.Background(), a), "grep",
			fmt.Sprintf(`{"pattern": "", "path": %q, "maxMatches": %d}`, name, n))
		retained := retainedHeap() - before
		if res.IsError || res.Value.Lookup("matches").Len() != n {
			t.Fatalf("%s: %v", c.name, res.Err)
		}
		runtime.KeepAlive(res)
		reserved := held(b)
		t.Logf("%s lines: %d matches retain %s (%d bytes a match), %s reserved", c.name, n,
			membudget.Size(retained), retained/n, membudget.Size(reserved))
		if reserved < retained {
			t.Errorf("%s lines: %d matches retain %d bytes, but only %d were reserved", c.name, n, retained, reserved)
		}
		if reserved > 4*retained {
			t.Errorf("%s lines: %d bytes reserved for a result retaining %d: the estimate is far off", c.name, reserved, retained)
		}
		a.Close()
		if got := held(b); got != 0 {
			t.Fatalf("%s lines: held %d after Close", c.name, got)
		}
	}
}

// Matches that could never fit the run's budget fail the call at once, naming the sizes; the
// file itself (20 KB) is too small to be counted.
func TestGrepMatchesOverTheBudgetAreRefused(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"lines.txt": strings.Repeat("\n", 2*maxGrepMatches)})
	b := membudget.New(mib)
	res := f.callIn(membudget.NewContext(context.Background(), b.Open()), "grep",
		fmt.Sprintf(`{"pattern": "", "path": "lines.txt", "maxMatches": %d}`, maxGrepMatches))
	if !res.IsError || !strings.Contains(res.Err.Message, `cannot search "lines.txt": the `) ||
		!strings.Contains(res.Err.Message, `matches found so far hold`) || !strings.Contains(res.Err.Message, "over this run's memory budget of 1 MiB") {
		t.Fatalf("grep over the budget: got %s / %v", summary(res), res.Err)
	}
	t.Log(res.Err.Message)
	if got := held(b); got > mib {
		t.Fatalf("held %d after a refusal, over the limit", got)
	}
}
