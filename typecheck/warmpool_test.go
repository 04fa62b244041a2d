package typecheck

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// typeBomb is a program whose types take the compiler many seconds (12s cold with TypeScript
// 7.0 on the development machine): a union that doubles at each of 80 levels, compared
// structurally with another.
const typeBomb = `type Pair<T> = { l: T; r: T };
type Tree<T, N extends unknown[]> = N["length"] extends 80 ? T : Tree<Pair<T> | [T, T] | (T extends object ? { x: T } : never), [...N, 0]>;
type Deep<T> = { [K in keyof T]: T[K] extends object ? Deep<T[K]> : T[K] };
declare const a: Deep<Tree<{ v: 1 }, []>>;
declare const b: Deep<Tree<{ v: 2 }, []>>;
const c: typeof a = b;
export {};`

// A check that takes a warm server long does not stall or fail the checks of others: they go
// on on another server, and their time counts from when they have one.
func TestSlowWarmCheckDoesNotStallOthers(t *testing.T) {
	c, err := New(Options{Warm: true, Timeout: 5 * time.Second})
	if errors.Is(err, ErrNoCompiler) || errors.Is(err, ErrNoServer) {
		t.Skipf("no warm TypeScript compiler: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	decls := testDeclarations()
	// Warm up one server, so the slow check has it.
	if _, err := c.Check(context.Background(), decls, "return 1;"); err != nil {
		t.Fatal(err)
	}
	bombDone := make(chan error, 1)
	go func() {
		_, err := c.Check(context.Background(), decls, typeBomb)
		bombDone <- err
	}()
	time.Sleep(500 * time.Millisecond) // the slow check has its server
	start := time.Now()
	diags, err := c.Check(context.Background(), decls, "const s: string = 1;\nreturn s;")
	if err != nil || len(diags) != 1 || diags[0].Code != 2322 {
		t.Fatalf("check beside a slow one: %v, %v", diags, err)
	}
	took := time.Since(start)
	select {
	case err := <-bombDone:
		t.Fatalf("the check returned only after the slow one had ended (%v), %v after it started", err, took)
	default:
	}
	t.Logf("a check beside a slow one took %v", took)
	err = <-bombDone
	if !errors.Is(err, ErrCompiler) || !strings.Contains(err.Error(), "no answer within 5s") {
		t.Fatalf("slow check: err = %v, want ErrCompiler: no answer", err)
	}
}

// After a check times out, its server is replaced: the next check on the same checker, with a
// single server, succeeds at once.
func TestWarmServerReplacedAfterTimeout(t *testing.T) {
	c, err := New(Options{Warm: true, WarmServers: 1, Timeout: time.Second})
	if errors.Is(err, ErrNoCompiler) || errors.Is(err, ErrNoServer) {
		t.Skipf("no warm TypeScript compiler: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	decls := testDeclarations()
	if _, err := c.Check(context.Background(), decls, typeBomb); !errors.Is(err, ErrCompiler) || !strings.Contains(err.Error(), "no answer within 1s") {
		t.Fatalf("slow check: err = %v, want ErrCompiler: no answer", err)
	}
	first := onlyServer(t, c)
	start := time.Now()
	diags, err := c.Check(context.Background(), decls, "const s: string = 1;\nreturn s;")
	if err != nil || len(diags) != 1 || diags[0].Code != 2322 {
		t.Fatalf("check after a slow one: %v, %v", diags, err)
	}
	t.Logf("the check after a timed-out one took %v", time.Since(start))
	if onlyServer(t, c) != first || first.srv == nil {
		t.Fatal("not the same slot with a fresh server")
	}
}
