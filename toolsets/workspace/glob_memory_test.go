package workspace

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/internal/membudget"
)

// glob reserves for every path it holds before holding it, and keeps the reservation until its
// account is closed (the result handed over): what it reserves covers what the result retains.
// Before, glob reserved nothing: 10,000 paths of up to 4096 bytes were held for nothing.
func TestGlobReservesItsMatches(t *testing.T) {
	const n = 2000
	for _, nameLen := range []int{8, 200} {
		f := newFixture(t)
		files := map[string]string{}
		for i := range n {
			files[fmt.Sprintf("g/%s-%05d", strings.Repeat("n", nameLen), i)] = ""
		}
		writeFiles(t, f.dir, files)
		b := membudget.New(256 * mib)
		a := b.Open()
		before := retainedHeap()
		res := f.callIn(membudget.NewContext(context.Background(), a), "glob", `{"pattern": "g/*"}`)
		retained := retainedHeap() - before
		if res.IsError || res.Value.Lookup("matches").Len() != n {
			t.Fatalf("glob: %v", res.Err)
		}
		runtime.KeepAlive(res)
		reserved := held(b)
		t.Logf("names of %d bytes: %d paths retain %s (%d bytes a path), %s reserved", nameLen, n,
			membudget.Size(retained), retained/n, membudget.Size(reserved))
		if reserved < retained {
			t.Errorf("names of %d bytes: %d paths retain %d bytes, but only %d were reserved", nameLen, n, retained, reserved)
		}
		if reserved > 4*retained {
			t.Errorf("names of %d bytes: %d bytes reserved for a result retaining %d: the estimate is far off", nameLen, reserved, retained)
		}
		a.Close()

		if nameLen < 200 {
			continue
		}
		// 2000 paths of 208 bytes could never fit a budget of 256 KiB.
		res = f.callIn(membudget.NewContext(context.Background(), membudget.New(mib/4).Open()), "glob", `{"pattern": "g/*"}`)
		if res.IsError {
			t.Log(res.Err.Message)
		}
		if !res.IsError || !strings.Contains(res.Err.Message, `cannot search ".": the `) ||
			!strings.Contains(res.Err.Message, "paths found so far hold") || !strings.Contains(res.Err.Message, "over this run's memory budget of 256 KiB") {
			t.Fatalf("glob over the budget: %v", res.Err)
		}
	}
}
