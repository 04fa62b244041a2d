package membudget

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

const mib = 1 << 20

// reserveAsync starts a.Reserve(ctx, n) and returns the channel its error arrives on.
func reserveAsync(ctx context.Context, a *Account, n int64) <-chan error {
	done := make(chan error, 1)
	go func() { done <- a.Reserve(ctx, n) }()
	return done
}

// pending fails the test if done has delivered within a short while.
func pending(t *testing.T, done <-chan error, what string) {
	t.Helper()
	select {
	case err := <-done:
		t.Fatalf("%s returned (%v) instead of waiting", what, err)
	case <-time.After(50 * time.Millisecond):
	}
}

// granted waits for done and fails the test unless it delivers nil.
func granted(t *testing.T, done <-chan error, what string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s still waiting", what)
	}
}

func TestReserveWaitsUntilReleased(t *testing.T) {
	b := New(10 * mib)
	first, second := b.Open(), b.Open()
	if err := first.Reserve(context.Background(), 8*mib); err != nil {
		t.Fatal(err)
	}
	// A younger account waits while the older one holds the budget.
	third := b.Open()
	done := reserveAsync(context.Background(), third, 4*mib)
	pending(t, done, "a reservation that does not fit")
	if now, _ := b.Held(); now != 8*mib {
		t.Fatalf("held %d while one waits, want %d", now, 8*mib)
	}
	first.Close()
	granted(t, done, "the reservation after Close")
	second.Close()
	third.Close()
	if now, peak := b.Held(); now != 0 || peak != 8*mib {
		t.Fatalf("held %d, peak %d after every account closed; want 0 and %d", now, peak, 8*mib)
	}
}

func TestReserveWaitEndsWithItsContext(t *testing.T) {
	b := New(10 * mib)
	holder := b.Open()
	if err := holder.Reserve(context.Background(), 10*mib); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("run timed out")
	waiter := b.Open()
	done := reserveAsync(ctx, waiter, 2*mib)
	pending(t, done, "a reservation over the limit")
	cancel(stop)
	select {
	case err := <-done:
		if !errors.Is(err, stop) || !strings.Contains(err.Error(), "waiting for 2 MiB of this run's memory budget of 10 MiB") {
			t.Fatalf("error %v; want the context's cause, and what it waited for", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the wait outlived its context")
	}
	// The abandoned wait holds nothing and blocks no one.
	holder.Close()
	if err := b.Open().Reserve(context.Background(), 10*mib); err != nil {
		t.Fatal(err)
	}
}

func TestReserveOverTheLimitFailsAtOnce(t *testing.T) {
	b := New(256 * mib)
	a := b.Open()
	err := a.Reserve(context.Background(), 300*mib)
	var over *OverBudgetError
	if !errors.As(err, &over) || !errors.Is(err, ErrOverBudget) || over.Size != 300*mib || over.Limit != 256*mib {
		t.Fatalf("error %v (%T); want an *OverBudgetError for 300 MiB over 256 MiB", err, err)
	}
	if got := err.Error(); got != "300 MiB is over this run's memory budget of 256 MiB" {
		t.Fatalf("message %q", got)
	}
	// Over the limit counting what the account holds already.
	if err := a.Reserve(context.Background(), 200*mib); err != nil {
		t.Fatal(err)
	}
	err = a.Reserve(context.Background(), 100*mib)
	if !errors.Is(err, ErrOverBudget) || !strings.Contains(err.Error(), "on top of 200 MiB held by this call") {
		t.Fatalf("error %v; want the account's total refused", err)
	}
	if now, _ := b.Held(); now != 200*mib {
		t.Fatalf("held %d after a refusal, want %d", now, 200*mib)
	}
}

// TestOldestAccountIsNeverKeptWaiting: later accounts hold the whole budget and keep it until
// the oldest closes (as the bridge's ordered commits do); the oldest is granted past the
// limit instead of waiting for them forever.
func TestOldestAccountIsNeverKeptWaiting(t *testing.T) {
	b := New(10 * mib)
	oldest := b.Open()
	younger := []*Account{b.Open(), b.Open()}
	for _, a := range younger {
		if err := a.Reserve(context.Background(), 5*mib); err != nil {
			t.Fatal(err)
		}
	}
	// Another younger account waits: the budget is full.
	youngest := b.Open()
	waiting := reserveAsync(context.Background(), youngest, 5*mib)
	pending(t, waiting, "a younger reservation")
	granted(t, reserveAsync(context.Background(), oldest, 8*mib), "the oldest account's reservation")
	if now, peak := b.Held(); now != 18*mib || peak != 18*mib {
		t.Fatalf("held %d (peak %d); want the oldest's overdraft, 18 MiB", now, peak)
	}
	pending(t, waiting, "a younger reservation during the overdraft")
	// They commit in order: the oldest, then the others.
	oldest.Close()
	pending(t, waiting, "a younger reservation while the budget is still full")
	younger[0].Close()
	granted(t, waiting, "the youngest account's reservation")
	if _, peak := b.Held(); peak > 2*b.Limit() {
		t.Fatalf("peak %d over twice the limit", peak)
	}
}

func TestWaitersAreGrantedInOrder(t *testing.T) {
	b := New(10 * mib)
	holder := b.Open()
	if err := holder.Reserve(context.Background(), 10*mib); err != nil {
		t.Fatal(err)
	}
	big, small := b.Open(), b.Open()
	bigDone := reserveAsync(context.Background(), big, 8*mib)
	pending(t, bigDone, "the first waiter")
	smallDone := reserveAsync(context.Background(), small, 1*mib)
	pending(t, smallDone, "the second waiter")
	holder.Release(4 * mib) // 6 MiB held: the small one would fit, but waits behind the big one
	pending(t, smallDone, "a waiter behind one that does not fit")
	holder.Close()
	granted(t, bigDone, "the first waiter")
	granted(t, smallDone, "the second waiter")
}

func TestSmallReservationsCostNothing(t *testing.T) {
	b := New(1 * mib)
	a := b.Open()
	for range 1000 {
		if err := a.Reserve(context.Background(), MinReserve-1); err != nil {
			t.Fatal(err)
		}
	}
	if now, _ := b.Held(); now != 0 {
		t.Fatalf("held %d after small reservations, want 0", now)
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = Reserve(context.Background(), 100) }); allocs != 0 {
		t.Fatalf("a small Reserve allocates %v times", allocs)
	}
	// Without an account in the context, nothing is reserved, whatever the size.
	if err := Reserve(context.Background(), 1<<40); err != nil {
		t.Fatal(err)
	}
}

func TestContextCarriesTheAccount(t *testing.T) {
	b := New(10 * mib)
	a := b.Open()
	ctx := NewContext(context.Background(), a)
	if FromContext(ctx) != a {
		t.Fatal("FromContext does not return the account")
	}
	if err := Reserve(ctx, 3*mib); err != nil {
		t.Fatal(err)
	}
	Release(ctx, 1*mib)
	if now, _ := b.Held(); now != 2*mib {
		t.Fatalf("held %d, want %d", now, 2*mib)
	}
	a.Close()
	a.Close()
	if err := Reserve(ctx, 3*mib); err != nil { // after Close: grants nothing
		t.Fatal(err)
	}
	if now, _ := b.Held(); now != 0 {
		t.Fatalf("held %d after Close, want 0", now)
	}
}

// TestConcurrentAccountsStayWithinBounds runs many accounts that reserve, hold and close in
// opening order, like a run's sub-calls; the budget never holds more than twice its limit, and
// everything is returned.
func TestConcurrentAccountsStayWithinBounds(t *testing.T) {
	b := New(16 * mib)
	const calls = 64
	accounts := make([]*Account, calls)
	for i := range accounts {
		accounts[i] = b.Open()
	}
	finished := make([]chan struct{}, calls)
	for i := range finished {
		finished[i] = make(chan struct{})
	}
	var wg sync.WaitGroup
	for i, a := range accounts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(finished[i])
			if err := a.Reserve(context.Background(), int64(1+i%7)*mib); err != nil {
				t.Error(err)
			}
		}()
	}
	// Close in opening order, each once its reservation is done: the bridge's commits.
	for i, a := range accounts {
		select {
		case <-finished[i]:
		case <-time.After(10 * time.Second):
			t.Fatalf("account %d never granted: deadlock", i)
		}
		a.Close()
	}
	wg.Wait()
	now, peak := b.Held()
	if now != 0 || peak > 2*b.Limit() {
		t.Fatalf("held %d, peak %d; want 0 and at most %d", now, peak, 2*b.Limit())
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1: "1 byte", 512: "512 bytes", 64 << 10: "64 KiB", 16 * mib: "16 MiB", 24 * mib / 10: "2.4 MiB", 3 << 30: "3 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// BenchmarkSmallCall is what the budget costs a sub-call that reserves nothing large: its
// account opened, carried in its context, a small reservation, and the account closed.
func BenchmarkSmallCall(b *testing.B) {
	budget := New(128 * mib)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		a := budget.Open()
		callCtx := NewContext(ctx, a)
		if err := Reserve(callCtx, 4<<10); err != nil {
			b.Fatal(err)
		}
		a.Close()
	}
}

// BenchmarkLargeCall is the same with a reservation that is counted.
func BenchmarkLargeCall(b *testing.B) {
	budget := New(128 * mib)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		a := budget.Open()
		if err := Reserve(NewContext(ctx, a), 16*mib); err != nil {
			b.Fatal(err)
		}
		a.Close()
	}
}
