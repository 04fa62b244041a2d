package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/registry"
)

const mib = 1 << 20

// bigText is n bytes of text in lines of 64 bytes.
func bigText(n int) string {
	line := strings.Repeat("x", 63) + "\n"
	return strings.Repeat(line, n/len(line))
}

// held returns what b holds now.
func held(b *membudget.Budget) int64 {
	now, _ := b.Held()
	return now
}

// read_file reserves the file's size times readCopies before reading it, and holds it until
// its call's account is closed (by the bridge, once the result has been handed over).
func TestReadFileReservesItsCopies(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"big.txt": bigText(mib)})
	b := membudget.New(4 * mib)
	a := b.Open()
	res := f.callIn(membudget.NewContext(context.Background(), a), "read_file", `{"path": "big.txt"}`)
	if res.IsError {
		t.Fatal(res.Err.Message)
	}
	if got := held(b); got != readCopies*mib {
		t.Fatalf("held %d after the read, want %d", got, readCopies*mib)
	}
	a.Close()
	if got := held(b); got != 0 {
		t.Fatalf("held %d after Close", got)
	}

	// A range of lines holds the file and the range's rendering only.
	a = b.Open()
	res = f.callIn(membudget.NewContext(context.Background(), a), "read_file", `{"path": "big.txt", "startLine": 2, "endLine": 3}`)
	if res.IsError || res.Value.Lookup("content").AsString() != strings.Repeat("x", 63)+"\n"+strings.Repeat("x", 63)+"\n" {
		t.Fatalf("range read: %v %v", res.Value, res.Err)
	}
	if got := held(b); got != mib+128 {
		t.Fatalf("held %d after a range read, want %d", got, mib+128)
	}
	a.Close()
}

// A file whose reading could never fit the run's budget is refused at once, with the sizes.
func TestReadFileOverTheBudgetIsRefused(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"big.txt": bigText(mib)})
	b := membudget.New(mib + mib/2)
	res := f.callIn(membudget.NewContext(context.Background(), b.Open()), "read_file", `{"path": "big.txt"}`)
	want := `cannot read "big.txt": it is 1 MiB, and to read it this call needs 2 MiB, over this run's memory budget of 1.5 MiB`
	if !res.IsError || res.Err.Message != want {
		t.Fatalf("got %v / %v, want the error %q", res.Value, res.Err, want)
	}
	if got := held(b); got != 0 {
		t.Fatalf("held %d after a refusal", got)
	}
}

// Within a run's memory budget read_file's limit is the budget, not a fixed size: it refused any
// file over 16 MiB whatever --memory said (issue 23), so a 20 MiB log had to be paged by lines.
// Outside a run the 16 MiB limit stays.
func TestReadFileLimitFollowsTheBudget(t *testing.T) {
	f := newFixture(t)
	text := bigText(20 * mib)
	writeFiles(t, f.dir, map[string]string{"log.txt": text})
	b := membudget.New(48 * mib)
	res := f.callIn(membudget.NewContext(context.Background(), b.Open()), "read_file", `{"path": "log.txt"}`)
	if res.IsError || len(res.Value.Lookup("content").AsString()) != len(text) {
		t.Fatalf("read_file of 20 MiB under a 48 MiB budget: %v", res.Err)
	}
	res = f.callIn(membudget.NewContext(context.Background(), membudget.New(32*mib).Open()), "read_file", `{"path": "log.txt"}`)
	if !res.IsError || !strings.Contains(res.Err.Message, "over this run's memory budget of 32 MiB") {
		t.Fatalf("read_file of 20 MiB under a 32 MiB budget: %v", res.Err)
	}
	res = f.call(t, "read_file", `{"path": "log.txt"}`)
	if !res.IsError || !strings.Contains(res.Err.Message, "over the 16 MiB limit") {
		t.Fatalf("read_file of 20 MiB outside a run: %v", res.Err)
	}
}

// A read that does not fit waits for earlier calls to release the budget; its context ends
// the wait.
func TestReadFileWaitsForTheBudget(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"big.txt": bigText(mib)})
	b := membudget.New(4 * mib)
	earlier := b.Open()
	if err := earlier.Reserve(context.Background(), 3*mib); err != nil {
		t.Fatal(err)
	}

	done := make(chan registry.Result, 1)
	reader := b.Open()
	go func() {
		done <- f.callIn(membudget.NewContext(context.Background(), reader), "read_file", `{"path": "big.txt"}`)
	}()
	select {
	case res := <-done:
		t.Fatalf("the read did not wait: %v %v", res.Value, res.Err)
	case <-time.After(100 * time.Millisecond):
	}
	earlier.Close()
	select {
	case res := <-done:
		if res.IsError || len(res.Value.Lookup("content").AsString()) != mib {
			t.Fatalf("the read after the release: %v", res.Err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the read still waits after the release")
	}
	reader.Close()

	// A wait ends with its context (a run's timeout or abort).
	earlier = b.Open()
	if err := earlier.Reserve(context.Background(), 4*mib); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		done <- f.callIn(membudget.NewContext(ctx, b.Open()), "read_file", `{"path": "big.txt"}`)
	}()
	time.Sleep(50 * time.Millisecond)
	cancel(errors.New("run timed out"))
	select {
	case res := <-done:
		if !res.IsError {
			t.Fatal("a read whose context ended succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the wait outlived its context")
	}
	earlier.Close()
}

// grep holds each file's data only while it searches it.
func TestGrepReservesEachFileWhileSearching(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"big/a.txt": bigText(mib) + "needle\n", "big/b.txt": bigText(mib)})
	b := membudget.New(mib + mib/2)
	a := b.Open()
	res := f.callIn(membudget.NewContext(context.Background(), a), "grep", `{"pattern": "needle", "path": "big"}`)
	if res.IsError || res.Value.Lookup("matches").Len() != 1 {
		t.Fatalf("grep: %v %v", res.Value, res.Err)
	}
	if got := held(b); got != 0 {
		t.Fatalf("held %d after the search", got)
	}
	a.Close()

	small := membudget.New(mib / 2)
	res = f.callIn(membudget.NewContext(context.Background(), small.Open()), "grep", `{"pattern": "needle", "path": "big/a.txt"}`)
	if !res.IsError || !strings.Contains(res.Err.Message, `cannot search "big/a.txt": it is 1 MiB`) {
		t.Fatalf("grep over the budget: %v %v", res.Value, res.Err)
	}
}

// list_dir reserves for the entries it reads, batch by batch.
func TestListDirReservesItsEntries(t *testing.T) {
	f := newFixture(t)
	files := map[string]string{}
	for i := range 3000 {
		files[filepath.Join("many", fmt.Sprintf("entry-%05d.txt", i))] = ""
	}
	writeFiles(t, f.dir, files)
	perEntry := int64(listNameCopies*len("entry-00000.txt") + listEntryBytes)
	b := membudget.New(4 * mib)
	a := b.Open()
	res := f.callIn(membudget.NewContext(context.Background(), a), "list_dir", `{"path": "many"}`)
	if res.IsError || res.Value.Lookup("entries").Len() != 3000 {
		t.Fatalf("list_dir: %v", res.Err)
	}
	if got := held(b); got != 3000*perEntry {
		t.Fatalf("held %d, want %d", got, 3000*perEntry)
	}
	a.Close()

	small := membudget.New(2 * listBatchEntries * perEntry)
	res = f.callIn(membudget.NewContext(context.Background(), small.Open()), "list_dir", `{"path": "many"}`)
	if !res.IsError || !strings.Contains(res.Err.Message, `cannot list "many": it has at least 3000 entries`) {
		t.Fatalf("list_dir over the budget: %v %v", res.Value, res.Err)
	}
}

// A file that grows between its fstat and its read is read whole (up to read_file's limit),
// after reserving for its largest size; one that grows past the limit is refused.
func TestReadersOfAFileThatGrows(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"grows.txt": "one\n"})
	grow := func(by string) func(string) {
		return func(name string) {
			file, err := os.OpenFile(filepath.Join(f.dir, name), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer file.Close()
			if _, err := file.WriteString(by); err != nil {
				t.Error(err)
			}
		}
	}
	b := membudget.New(64 * mib)
	a := b.Open()
	f.ws.beforeRead = grow("two\nneedle\n")
	res := f.callIn(membudget.NewContext(context.Background(), a), "read_file", `{"path": "grows.txt"}`)
	if res.IsError || res.Value.Lookup("content").AsString() != "one\ntwo\nneedle\n" {
		t.Fatalf("read_file of a growing file: %v %v", res.Value, res.Err)
	}
	// 4 bytes for the size it had (too small to count), then the rest up to the limit.
	if want := int64(readCopies * (64*mib/readCopies - len("one\n"))); held(b) != want {
		t.Fatalf("held %d, want the reservation for the largest readable file, %d", held(b), want)
	}
	a.Close()
	res = f.callIn(membudget.NewContext(context.Background(), b.Open()), "grep", `{"pattern": "needle", "path": "grows.txt"}`)
	if res.IsError || res.Value.Lookup("matches").Len() != 2 {
		t.Fatalf("grep of a growing file: %v %v", res.Value, res.Err)
	}
	// grep reserves for the growth too: it used to read up to 16 MiB on a reservation of the
	// size the file had, which a budget of 1 MiB let through.
	f.ws.beforeRead = grow("three\n")
	res = f.callIn(membudget.NewContext(context.Background(), membudget.New(mib).Open()), "grep", `{"pattern": "needle", "path": "grows.txt"}`)
	if !res.IsError || !strings.Contains(res.Err.Message, `cannot search "grows.txt": it grew while being read`) {
		t.Fatalf("grep of a growing file over the budget: %v %v", res.Value, res.Err)
	}

	writeFiles(t, f.dir, map[string]string{"huge.txt": "x\n"})
	f.ws.beforeRead = grow(bigText(maxFileSize))
	res = f.call(t, "read_file", `{"path": "huge.txt"}`)
	if !res.IsError || !strings.Contains(res.Err.Message, "over the 16 MiB limit") {
		t.Fatalf("read_file of a file grown past the limit: %v", res.Err)
	}
	f.ws.beforeRead = nil
}

// grep searches a file as large as the run's memory budget holds twice, as read_file reads one
// (issue 23: no fixed size below the budget); outside a budgeted run it keeps 16 MiB.
func TestGrepLimitFollowsTheBudget(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"log.txt": bigText(20*mib) + "\nneedle at the end\n"})
	res := f.callIn(membudget.NewContext(context.Background(), membudget.New(48*mib).Open()), "grep", `{"pattern": "needle", "path": "log.txt"}`)
	if res.IsError || !strings.Contains(res.Value.String(), "needle at the end") {
		t.Fatalf("grep of 20 MiB under a 48 MiB budget: %v %.300s", res.Err, res.Value)
	}
	res = f.call(t, "grep", `{"pattern": "needle", "path": "log.txt"}`)
	if res.IsError || strings.Contains(res.Value.String(), "needle at the end") {
		t.Fatalf("grep of 20 MiB outside a run searched it: %v %.300s", res.Err, res.Value)
	}
}
