package jsruntime

import (
	"fmt"
	"sync"
)

// flightLedger counts the sub-call data of one run that the parent of a process-isolated run
// holds: each call's argument from the moment its frame is read until the call settles, and
// each result from the moment it settles until its reply is written to the worker, both
// measured as their encoded size on the pipe. What would take it past its limit is refused, so
// the parent's memory for a run's sub-calls is bounded whatever their number or parallelism.
// It is safe for concurrent use.
type flightLedger struct {
	limit int64

	mu       sync.Mutex
	bytes    int64 // held now
	peak     int64 // the most ever held
	admitted int   // how many admits succeeded
	refused  int   // how many admits failed
}

func newFlightLedger(limit int64) *flightLedger { return &flightLedger{limit: limit} }

// admit charges n bytes and reports true, or reports false and charges nothing when they do
// not fit under the limit.
func (l *flightLedger) admit(n int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n > l.limit-l.bytes {
		l.refused++
		return false
	}
	l.admitted++
	l.bytes += n
	l.peak = max(l.peak, l.bytes)
	return true
}

// release returns n bytes admitted before.
func (l *flightLedger) release(n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bytes -= n
}

// held returns the bytes held now and the peak.
func (l *flightLedger) held() (now, peak int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bytes, l.peak
}

// decisions returns how many admits succeeded and how many failed.
func (l *flightLedger) decisions() (admitted, refused int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.admitted, l.refused
}

// refusal is the error a refused sub-call rejects with: what is the program's doing (how many
// calls it has in flight, how large), so it says what to change.
func (l *flightLedger) refusal(what string, n int64) error {
	now, _ := l.held()
	return fmt.Errorf("sub-call data in flight limited to %d bytes: %s of %d bytes refused while %d bytes are in flight (make fewer or smaller calls at once)", l.limit, what, n, now)
}
