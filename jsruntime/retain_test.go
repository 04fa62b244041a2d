package jsruntime

import (
	"context"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// A host call's text result is held once: goja's ToValue of a Go string kept the string beside
// its UTF-16 form, so a non-ASCII file a program read (a 50 MB export) stayed live twice through
// the whole computation, in a worker as in-process. The program awaits 32 MiB of non-ASCII text
// (UTF-16 in goja), drops a first copy, keeps a second, and then calls a function that measures
// the live heap.
func TestResultTextIsHeldOnce(t *testing.T) {
	g, err := New(Config{MaxHeapBytes: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	const units = 16 << 20 // "é": 2 bytes of UTF-8 and one UTF-16 code unit each
	var base, during uint64
	live := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	fns := toolsNS(
		Function{Name: "big", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
			settle(jsonv.StringValue(strings.Repeat("é", units)), nil)
		}},
		Function{Name: "measure", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
			during = live()
			settle(jsonv.Int(1), nil)
		}},
	)
	base = live()
	got := runValue(t, g, Request{Program: `const { length } = await tools.big(); const text = await tools.big(); await tools.measure(); return text.length + length`, Bindings: fns})
	if got != "33554432" {
		t.Fatalf("value %s, want 33554432", got)
	}
	grew := int64(during) - int64(base)
	t.Logf("live heap grew by %d MiB holding the 32 MiB UTF-16 string", grew>>20)
	if grew > 48<<20 {
		t.Errorf("live heap grew by %d MiB while the program held a 32 MiB string: the result's 32 MiB of UTF-8 is still held", grew>>20)
	}
}

// A large result crosses to a worker without the parent encoding it whole: the parent's copy of
// a 50 MB read_file result (its frame to the worker) was a third copy of the file in the host,
// beside the tool's text and its rendering, while the worker converted it. The tool settles a
// 32 MiB string; what the parent allocates while settling (encoding and writing the reply) must
// be a small fraction of it.
func TestProcessReplyIsNotEncodedWhole(t *testing.T) {
	p := newTestPool(t, ProcessConfig{Size: 1, MemoryLimit: 1 << 30})
	text := strings.Repeat("é", 16<<20) // 32 MiB of UTF-8
	var allocated uint64
	fns := toolsNS(Function{Name: "big", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		settle(jsonv.StringValue(text), nil)
		runtime.ReadMemStats(&after)
		allocated = after.TotalAlloc - before.TotalAlloc
	}})
	got := runValue(t, p, Request{Program: `return (await tools.big()).length`, Bindings: fns})
	if got != "16777216" {
		t.Fatalf("value %s, want 16777216", got)
	}
	t.Logf("settling a 32 MiB result allocated %d KiB in the parent", allocated>>10)
	if allocated > 4<<20 {
		t.Errorf("settling a 32 MiB result allocated %d MiB in the parent: the reply was encoded whole", allocated>>20)
	}
}

// After a large result has crossed to a worker, the parent returns the memory it took to the
// system while the worker computes: it allocates nothing meanwhile, so neither a collection nor
// the scavenger would otherwise come, and a 50 MB read_file result kept the host's resident set
// at several times the file through the run. The tool makes a 32 MiB string and settles it; the
// program computes for 300 ms and then calls a function that measures the heap memory the parent
// holds from the system.
func TestProcessParentReturnsALargeResultsMemory(t *testing.T) {
	p := newTestPool(t, ProcessConfig{Size: 1, MemoryLimit: 1 << 30})
	held := func() uint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapSys - ms.HeapReleased
	}
	var during uint64
	fns := toolsNS(
		Function{Name: "big", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
			settle(jsonv.StringValue(strings.Repeat("é", 16<<20)), nil)
		}},
		Function{Name: "measure", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
			during = held()
			settle(jsonv.Int(1), nil)
		}},
	)
	runValue(t, p, Request{Program: `return 1`, Bindings: fns}) // the worker is started
	debug.FreeOSMemory()
	base := held()
	got := runValue(t, p, Request{Program: `const t = await tools.big(); const end = Date.now() + 300; while (Date.now() < end) {} await tools.measure(); return t.length`, Bindings: fns})
	if got != "16777216" {
		t.Fatalf("value %s, want 16777216", got)
	}
	grew := int64(during) - int64(base)
	t.Logf("the parent held %d MiB more heap from the system while the worker computed", grew>>20)
	if grew > 16<<20 {
		t.Errorf("the parent held %d MiB more heap from the system while the worker computed, after settling a 32 MiB result", grew>>20)
	}
}
