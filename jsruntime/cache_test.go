package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// typeScriptProgram is a TypeScript program of about size bytes (the transform runs for it).
func typeScriptProgram(tag string, size int) string {
	line := "{ const xs: number[] = [1, 2, 3].map((x: number): number => x * 2); n += xs.length; }\n"
	return "// " + tag + "\nlet n: number = 0;\n" + strings.Repeat(line, max(size/len(line), 1)) + "return n;"
}

func TestConcurrentRunsOfANewProgramCompileItOnce(t *testing.T) {
	g, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	program := typeScriptProgram("concurrent", 64<<10)
	const runs = 8
	var start, done sync.WaitGroup
	start.Add(1)
	errs := make(chan error, runs)
	for i := 0; i < runs; i++ {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			res, err := g.Run(context.Background(), Request{Program: program})
			if err == nil && res.Error != nil {
				err = errors.New(res.Error.Message)
			}
			errs <- err
		}()
	}
	start.Done()
	done.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := g.cache.compiles.Load(); n != 1 {
		t.Errorf("%d concurrent runs of one new program compiled it %d times, want once", runs, n)
	}
}

func TestProgramsOverTheOldPerProgramLimitAreCached(t *testing.T) {
	g, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	program := typeScriptProgram("large", 300<<10) // over the former 256 KiB per-program limit
	for i := 0; i < 2; i++ {
		if res, err := g.Run(context.Background(), Request{Program: program}); err != nil || res.Error != nil {
			t.Fatalf("run %d: %v %+v", i, err, res.Error)
		}
	}
	if n := g.cache.compiles.Load(); n != 1 {
		t.Errorf("two runs of a %d-byte program compiled it %d times, want once", len(program), n)
	}
}

func TestProgramCacheIsBoundedByEstimatedBytesAndEvictsTheLeastRecentlyUsed(t *testing.T) {
	c := &programCache{maxBytes: 3 * cacheCost("k0", 100)}
	for i := 0; i < 3; i++ {
		c.put(fmt.Sprintf("k%d", i), 100, compiled{msg: fmt.Sprint(i)})
	}
	if _, ok := c.get("k0"); !ok { // k0 is now the most recently used; k1 the least
		t.Fatal("k0 missing before the cache was full")
	}
	c.put("k3", 100, compiled{msg: "3"})
	for key, want := range map[string]bool{"k0": true, "k1": false, "k2": true, "k3": true} {
		if _, ok := c.get(key); ok != want {
			t.Errorf("%s cached = %v, want %v", key, ok, want)
		}
	}
	if c.bytes > c.maxBytes {
		t.Errorf("cache holds %d estimated bytes, over its bound %d", c.bytes, c.maxBytes)
	}
	c.put("huge", 4*100, compiled{}) // alone over the bound: not kept, nothing evicted
	if _, ok := c.get("huge"); ok || len(c.entries) != 3 {
		t.Errorf("an entry over the whole bound was kept (or evicted others): %d entries", len(c.entries))
	}
}

func TestWaitingForAnotherRunsCompileEndsWithTheContext(t *testing.T) {
	c := &programCache{}
	release := make(chan struct{})
	started := make(chan struct{})
	first := make(chan compiled, 1)
	go func() {
		e, _ := c.compile(context.Background(), "k", 1, func() compiled {
			close(started)
			<-release
			return compiled{msg: "built"}
		})
		first <- e
	}()
	<-started
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("caller gave up"))
	if _, err := c.compile(ctx, "k", 1, func() compiled { t.Error("second build"); return compiled{} }); err == nil || err.Error() != "caller gave up" {
		t.Errorf("waiting caller got %v, want its context's cause", err)
	}
	close(release)
	if e := <-first; e.msg != "built" {
		t.Errorf("first caller got %+v", e)
	}
	if e, ok := c.get("k"); !ok || e.msg != "built" {
		t.Error("the build was not cached")
	}
}
