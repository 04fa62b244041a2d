package jsruntime

import (
	"fmt"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/jsonv"
)

// ledger charges a run's output against the cap: the JSON of the logs array, plus the JSON of
// the completion value or of the failure message. It starts at 2 bytes ("[]").
type ledger struct {
	cap        int
	total      int
	logs       []string
	overflowed bool
	onAdmit    func(line string) // Request.OnLog; nil: none
}

func newLedger(maxBytes int, onAdmit func(line string)) *ledger {
	return &ledger{cap: maxBytes, total: 2, onAdmit: onAdmit}
}

// admit appends a log line if it fits and reports whether it did. The first line that does not
// fit keeps its longest fitting prefix (if non-empty) and closes the ledger: every later line
// is dropped.
func (l *ledger) admit(line string) bool {
	if l.overflowed {
		return false
	}
	sep := 0
	if len(l.logs) > 0 {
		sep = 1
	}
	if cost := jsonv.StringByteLen(line); l.total+sep+cost <= l.cap {
		l.keep(line, sep+cost)
		return true
	}
	l.overflowed = true
	if p := fittingPrefix(line, l.cap-l.total-sep); p != "" {
		l.keep(p, sep+jsonv.StringByteLen(p))
	}
	return false
}

// keep appends line, which costs cost bytes, and hands it to onAdmit.
func (l *ledger) keep(line string, cost int) {
	l.logs = append(l.logs, line)
	l.total += cost
	if l.onAdmit != nil {
		l.onAdmit(line)
	}
}

// room is how many bytes of JSON a completion value may take with what the ledger holds now.
func (l *ledger) room() int { return max(l.cap-l.total, 0) }

// succeed builds the result of a run that completed with v (Undefined: no value), whose compact
// JSON takes size bytes (as counted by exportWithin).
func (l *ledger) succeed(v jsonv.Value, size int) Result {
	if l.overflowed || (v.IsDefined() && l.total+size > l.cap) {
		return l.outputLimit()
	}
	return Result{Value: v, Logs: l.logs}
}

// fail builds the result of a run that failed with f. An output-limit failure (a log line or
// the completion value did not fit) gets the output-limit result.
func (l *ledger) fail(f *Failure) Result {
	if l.overflowed || f.Kind == KindOutputLimit || l.total+jsonv.StringByteLen(f.Message) > l.cap {
		return l.outputLimit()
	}
	return Result{Logs: l.logs, Error: f}
}

// outputLimit builds the output-limit result: the logs are recounted against what the message
// leaves, whole entries while they fit and then the fitting prefix of the first that does not,
// and the message is truncated to what remains, so JSON(logs) + JSON(message) <= cap.
func (l *ledger) outputLimit() Result {
	msg := fmt.Sprintf("outer output exceeded %d bytes", l.cap)
	budget := l.cap - jsonv.StringByteLen(msg)
	total := 2
	var kept []string
	for _, line := range l.logs {
		sep := 0
		if len(kept) > 0 {
			sep = 1
		}
		if cost := jsonv.StringByteLen(line); total+sep+cost <= budget {
			kept = append(kept, line)
			total += sep + cost
			continue
		}
		if p := fittingPrefix(line, budget-total-sep); p != "" {
			kept = append(kept, p)
			total += sep + jsonv.StringByteLen(p)
		}
		break
	}
	return Result{Logs: kept, Error: &Failure{Kind: KindOutputLimit, Message: fittingPrefix(msg, l.cap-total)}}
}

// fittingPrefix returns the longest code-point-aligned prefix of s whose JSON string length
// (quotes included, as jsonv.StringByteLen counts it) is at most budget.
func fittingPrefix(s string, budget int) string {
	n := 2
	if budget <= n {
		return ""
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		cost := size
		switch {
		case r == utf8.RuneError && size == 1:
			cost = 3
		case r == '"' || r == '\\' || r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t':
			cost = 2
		case r < 0x20:
			cost = 6
		}
		if n+cost > budget {
			return s[:i]
		}
		n += cost
		i += size
	}
	return s
}
