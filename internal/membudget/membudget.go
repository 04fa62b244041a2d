// Package membudget admits the memory that the calls of one run hold, before they allocate it.
//
// A Budget is one run's limit. Each call of the run gets an Account, opened when the call
// starts and closed when its result has been handed over; the call's code reserves from its
// Account what it is about to allocate (a file it is about to read, say) and the Account
// returns it all on Close. A reservation that does not fit waits until earlier ones are
// returned, or until its context ends; one larger than the whole limit fails at once with an
// *OverBudgetError. The Account travels to the code that reserves in a context.Context
// (NewContext, Reserve), so that the layers in between need not know about it.
//
// # Order
//
// Callers that close accounts in the order they opened them (the Code Mode bridge commits
// sub-calls in submission order, and a finished call keeps its result, and its reservation,
// until every earlier call has committed) could deadlock with waiting alone: an early call that
// reserves late would wait for memory that later, finished calls hold, and they wait for it to
// commit. So the oldest open account that has reserved anything is never kept waiting: its
// reservations are granted even past the limit. Every other reservation is granted only within
// the limit, so the bytes held never exceed twice the limit, and exceed the limit only while
// the oldest call catches up with later ones that started reserving before it.
//
// Reservations smaller than MinReserve are not counted (they cost nothing): the budget is for
// the data that can be large.
package membudget

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// MinReserve is the smallest reservation a Budget counts: smaller ones are granted at once and
// not recorded, so calls with small data pay nothing. A call holds at most this much uncounted
// per reservation it makes.
const MinReserve = 64 << 10

// ErrOverBudget is matched (errors.Is) by every *OverBudgetError.
var ErrOverBudget = errors.New("over the run's memory budget")

// OverBudgetError is the refusal of a reservation that could never fit: the account would hold
// more than the whole limit.
type OverBudgetError struct {
	Size  int64 // the reservation refused
	Held  int64 // what the account held already
	Limit int64 // the budget's limit
}

// Error describes the refusal with its numbers.
func (e *OverBudgetError) Error() string {
	if e.Held > 0 {
		return fmt.Sprintf("%s more (on top of %s held by this call) is over this run's memory budget of %s", Size(e.Size), Size(e.Held), Size(e.Limit))
	}
	return fmt.Sprintf("%s is over this run's memory budget of %s", Size(e.Size), Size(e.Limit))
}

// Is reports whether target is ErrOverBudget.
func (e *OverBudgetError) Is(target error) bool { return target == ErrOverBudget }

// Size renders a byte count for messages: "16 MiB", "1.5 GiB", "12 KiB", "1234 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<30:
		return trim(float64(n)/(1<<30)) + " GiB"
	case n >= 1<<20:
		return trim(float64(n)/(1<<20)) + " MiB"
	case n >= 1<<10:
		return trim(float64(n)/(1<<10)) + " KiB"
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// trim formats f with at most one decimal, without a trailing ".0".
func trim(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	return s
}

// Budget bounds the bytes that the accounts of one run hold at once. It is safe for
// concurrent use.
type Budget struct {
	limit int64
	seq   atomic.Uint64 // numbers accounts in opening order

	mu      sync.Mutex
	held    int64
	peak    int64
	active  []*Account    // open accounts holding something (so possibly the oldest), any order
	waiting []*waiter     // reservations waiting, oldest first
	changed chan struct{} // closed (and replaced) when what was held or who is oldest changes
}

// waiter is one reservation waiting.
type waiter struct {
	a *Account
	n int64
}

// New returns a budget of limit bytes, which must be positive.
func New(limit int64) *Budget {
	if limit <= 0 {
		panic(fmt.Sprintf("membudget: the limit must be positive, got %d", limit))
	}
	return &Budget{limit: limit, changed: make(chan struct{})}
}

// Limit returns the budget's limit in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Held returns the bytes held now and the most ever held.
func (b *Budget) Held() (now, peak int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held, b.peak
}

// Open opens an account. Accounts are ordered by when they were opened (see the package
// documentation); opening one costs no lock.
func (b *Budget) Open() *Account { return &Account{b: b, seq: b.seq.Add(1)} }

// Account is what one call holds of its run's budget. Its methods are safe for concurrent use.
type Account struct {
	b      *Budget
	seq    uint64
	held   int64 // guarded by b.mu
	closed bool  // guarded by b.mu
}

// Reserve reserves n bytes, waiting while they do not fit, until ctx ends (its cause is then
// returned, wrapped). A reservation that would take the account past the whole limit fails at
// once with an *OverBudgetError. Reserving after Close grants nothing and returns nil: the call
// is over. A nil Account reserves nothing.
func (a *Account) Reserve(ctx context.Context, n int64) error {
	if a == nil || n < MinReserve {
		return nil
	}
	b := a.b
	b.mu.Lock()
	if a.closed {
		b.mu.Unlock()
		return nil
	}
	if a.held+n > b.limit {
		held := a.held
		b.mu.Unlock()
		return &OverBudgetError{Size: n, Held: held, Limit: b.limit}
	}
	if len(b.waiting) == 0 && (b.held+n <= b.limit || b.isOldest(a)) {
		b.grant(a, n)
		b.mu.Unlock()
		return nil
	}
	w := &waiter{a: a, n: n}
	b.waiting = append(b.waiting, w)
	for {
		if b.mayGrant(w) {
			b.remove(w)
			b.grant(a, n)
			b.signal() // the next waiter may fit too, or be the oldest now
			b.mu.Unlock()
			return nil
		}
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-changed:
			b.mu.Lock()
		case <-ctx.Done():
			b.mu.Lock()
			b.remove(w)
			b.signal() // a waiter behind it may fit now
			held := b.held
			b.mu.Unlock()
			return fmt.Errorf("waiting for %s of this run's memory budget of %s (%s held by other calls): %w", Size(n), Size(b.limit), Size(held), context.Cause(ctx))
		}
	}
}

// Release returns n bytes of what the account reserved (a reservation smaller than MinReserve
// was not counted, and is not returned). Releasing more than the account holds returns what it
// holds.
func (a *Account) Release(n int64) {
	if a == nil || n < MinReserve {
		return
	}
	b := a.b
	b.mu.Lock()
	defer b.mu.Unlock()
	b.take(a, min(n, a.held))
}

// Close returns everything the account holds; later reservations grant nothing. Close is
// idempotent; a nil Account does nothing.
func (a *Account) Close() {
	if a == nil {
		return
	}
	b := a.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if a.closed {
		return
	}
	a.closed = true
	if a.held > 0 {
		b.take(a, a.held)
	}
}

// grant records n more bytes held by a. Callers hold mu.
func (b *Budget) grant(a *Account, n int64) {
	if a.held == 0 {
		b.active = append(b.active, a)
	}
	a.held += n
	b.held += n
	b.peak = max(b.peak, b.held)
}

// take records that a holds n bytes fewer, and wakes the waiters. Callers hold mu.
func (b *Budget) take(a *Account, n int64) {
	if n <= 0 {
		return
	}
	a.held -= n
	b.held -= n
	if a.held == 0 {
		for i, x := range b.active {
			if x == a {
				b.active[i] = b.active[len(b.active)-1]
				b.active[len(b.active)-1] = nil
				b.active = b.active[:len(b.active)-1]
				break
			}
		}
	}
	b.signal()
}

// signal wakes every waiter to look again. Callers hold mu.
func (b *Budget) signal() {
	if len(b.waiting) == 0 {
		return
	}
	close(b.changed)
	b.changed = make(chan struct{})
}

// isOldest reports whether a is older than every other account holding something, or waiting.
// Callers hold mu.
func (b *Budget) isOldest(a *Account) bool {
	for _, x := range b.active {
		if x.seq < a.seq {
			return false
		}
	}
	for _, w := range b.waiting {
		if w.a.seq < a.seq {
			return false
		}
	}
	return true
}

// mayGrant reports whether waiter w may be granted now: as the oldest account, or as the
// first waiter when it fits. Callers hold mu.
func (b *Budget) mayGrant(w *waiter) bool {
	if b.isOldest(w.a) {
		return true
	}
	return b.waiting[0] == w && b.held+w.n <= b.limit
}

// remove takes w out of the waiting list. Callers hold mu.
func (b *Budget) remove(w *waiter) {
	for i, x := range b.waiting {
		if x == w {
			b.waiting = append(b.waiting[:i], b.waiting[i+1:]...)
			return
		}
	}
}

// ctxKey keys the Account in a context.
type ctxKey struct{}

// NewContext returns ctx carrying a, for Reserve.
func NewContext(ctx context.Context, a *Account) context.Context {
	return context.WithValue(ctx, ctxKey{}, a)
}

// FromContext returns the Account ctx carries, or nil.
func FromContext(ctx context.Context) *Account {
	a, _ := ctx.Value(ctxKey{}).(*Account)
	return a
}

// Reserve reserves n bytes from the Account ctx carries (see Account.Reserve); without one it
// reserves nothing and returns nil: the caller is not part of a budgeted run.
func Reserve(ctx context.Context, n int64) error {
	if n < MinReserve {
		return nil
	}
	return FromContext(ctx).Reserve(ctx, n)
}

// LimitOf returns the limit of the budget whose Account ctx carries, and false when ctx carries
// none (the caller is not part of a budgeted run).
func LimitOf(ctx context.Context) (int64, bool) {
	a := FromContext(ctx)
	if a == nil {
		return 0, false
	}
	return a.b.limit, true
}

// Release returns n bytes to the Account ctx carries (see Account.Release).
func Release(ctx context.Context, n int64) {
	if n < MinReserve {
		return
	}
	FromContext(ctx).Release(n)
}
