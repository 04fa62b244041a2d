package typecheck

import (
	"context"
	"errors"
	"testing"
	"time"
)

// typeBomb is a program whose types take the compiler minutes (at 80 levels instead of 200,
// 12s cold with TypeScript 7.0 on the development machine): a union that doubles at each level,
// compared structurally with another. Tests end its checks with their context.
const typeBomb = `type Pair<T> = { l: T; r: T };
type Tree<T, N extends unknown[]> = N["length"] extends 200 ? T : Tree<Pair<T> | [T, T] | (T extends object ? { x: T } : never), [...N, 0]>;
type Deep<T> = { [K in keyof T]: T[K] extends object ? Deep<T[K]> : T[K] };
declare const a: Deep<Tree<{ v: 1 }, []>>;
declare const b: Deep<Tree<{ v: 2 }, []>>;
const c: typeof a = b;
export {};`

// newWarm returns a warm checker over the compiler on PATH with opts, or skips.
func newWarm(t *testing.T, opts Options) *Checker {
	t.Helper()
	opts.Warm = true
	c, err := New(opts)
	if errors.Is(err, ErrNoCompiler) || errors.Is(err, ErrNoServer) {
		t.Skipf("no warm TypeScript compiler: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A check that takes a warm server long does not stall or fail the checks of others: they go
// on on another server.
func TestSlowWarmCheckDoesNotStallOthers(t *testing.T) {
	c := newWarm(t, Options{Timeout: time.Minute})
	decls := testDeclarations()
	// Warm up one server, so the slow check has it.
	if _, err := c.Check(context.Background(), decls, "return 1;"); err != nil {
		t.Fatal(err)
	}
	bombCtx, stopBomb := context.WithCancel(context.Background())
	defer stopBomb()
	bombDone := make(chan error, 1)
	go func() {
		_, err := c.Check(bombCtx, decls, typeBomb)
		bombDone <- err
	}()
	time.Sleep(500 * time.Millisecond) // the slow check has its server
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	diags, err := c.Check(ctx, decls, "const s: string = 1;\nreturn s;")
	took := time.Since(start)
	if err != nil || len(diags) != 1 || diags[0].Code != 2322 {
		t.Fatalf("check beside a slow one, after %v: %v, %v", took, diags, err)
	}
	select {
	case err := <-bombDone:
		t.Fatalf("the check returned only after the slow one had ended (%v), %v after it started", err, took)
	default:
	}
	t.Logf("a check beside a slow one took %v", took)
	stopBomb()
	if err := <-bombDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("slow check: err = %v, want context.Canceled", err)
	}
}

// After a check's context ends, its server is replaced: the next check on the same checker,
// with a single server, succeeds at once.
func TestWarmServerReplacedAfterTimeout(t *testing.T) {
	c := newWarm(t, Options{WarmServers: 1, Timeout: time.Minute})
	decls := testDeclarations()
	if _, err := c.Check(context.Background(), decls, "return 1;"); err != nil {
		t.Fatal(err)
	}
	slow := onlyServer(t, c).srv.command()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := c.Check(ctx, decls, typeBomb); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow check: err = %v, want context.DeadlineExceeded", err)
	}
	first := onlyServer(t, c)
	start := time.Now()
	diags, err := c.Check(context.Background(), decls, "const s: string = 1;\nreturn s;")
	if err != nil || len(diags) != 1 || diags[0].Code != 2322 {
		t.Fatalf("check after a slow one: %v, %v", diags, err)
	}
	t.Logf("the check after a timed-out one took %v", time.Since(start))
	if onlyServer(t, c) != first || first.srv.command() == slow {
		t.Fatal("not the same slot with a fresh server")
	}
	if slow.ProcessState == nil {
		t.Fatal("the slow check's server was not reaped")
	}
}
