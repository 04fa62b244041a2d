package command

import (
	"context"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// A command's output is reserved from the run's memory budget as it arrives (stdoutCopies
// times, in steps), so a call holds what it reserved until its account closes; output that can
// never fit ends the command with an error naming the budget.
func TestOutputIsReservedAsItArrives(t *testing.T) {
	dir := t.TempDir()
	// A JSON string of 2 MiB of "x", printed in 64 KiB pieces.
	writeFile(t, dir, "big.py", "import sys\nsys.stdout.write('\"')\nfor _ in range(32):\n    sys.stdout.write('x' * 65536)\n    sys.stdout.flush()\nsys.stdout.write('\"')\n", 0o644)
	path := writeFile(t, dir, "tools.json", `{"tools": [{"name": "big", "command": ["python3", "big.py"]}]}`, 0o644)
	reg := loadRegistry(t, path)
	call := func(b *membudget.Budget) (registry.Result, *membudget.Account) {
		a := b.Open()
		return reg.Execute(membudget.NewContext(context.Background(), a), registry.Call{CallID: "c1", Name: "big", Arguments: jsonv.MustParse(`{}`)}), a
	}

	b := membudget.New(64 << 20)
	res, a := call(b)
	if res.IsError || len(res.Value.AsString()) != 2<<20 {
		t.Fatalf("big: %v", res.Err)
	}
	now, _ := b.Held()
	if out := int64(2<<20 + 2); now < stdoutCopies*out || now > stdoutCopies*out*3/2+stdoutCopies*reserveStep {
		t.Fatalf("held %d for %d bytes of output; want %d times it, plus at most half again and a step", now, out, stdoutCopies)
	}
	a.Close()

	res, a = call(membudget.New(4 << 20))
	defer a.Close()
	if !res.IsError || !strings.Contains(res.Err.Message, `command "big" printed more on stdout than this run's memory budget lets a call hold`) ||
		!strings.Contains(res.Err.Message, "over this run's memory budget of 4 MiB") {
		t.Fatalf("big over the budget: %v %v", res.Value, res.Err)
	}
}
