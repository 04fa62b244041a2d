package goja

// runcode: regular expressions at scale (RUNCODE.md, change 9). Literals share their compiled
// regexp2 form across evaluations; a match that times out throws; the String and Symbol methods'
// fast paths find one match at a time (memory proportional to their output, time linear in the
// subject) and check the runtime's interrupt flag before each search, so that a budget ends them.

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// regexp2Lazy is the regexp2 form of an RE2 pattern, compiled once on first use and shared by
// every clone of the pattern (and every runtime running the Program that holds it).
type regexp2Lazy struct {
	once sync.Once
	rx   *regexp2Wrapper
	err  error

	// derived are the patterns compiled from the same source with other flags (see derive).
	mu      sync.Mutex
	derived map[string]*regexpPattern
	// source is the pattern as compileRegexp got it.
	source string
}

// maxDerived bounds the flag combinations derive keeps per pattern.
const maxDerived = 16

// derive returns p's source compiled with flags, compiled once per flags and
// shared (clone it before use), or nil when flags do not compile (the caller compiles again
// for the error). new RegExp(re, flags) copies a regexp this way: split's species copy (flags
// plus y) and matchAll's copy did it on each call.
func (p *regexpPattern) derive(flags string) *regexpPattern {
	if flags == p.flags() {
		return p
	}
	if p.lazy2 == nil {
		return nil
	}
	l := p.lazy2
	l.mu.Lock()
	defer l.mu.Unlock()
	if d, ok := l.derived[flags]; ok {
		return d
	}
	d, err := compileRegexp(l.source, flags)
	if err != nil {
		return nil
	}
	if l.derived == nil {
		l.derived = map[string]*regexpPattern{}
	}
	if len(l.derived) < maxDerived {
		l.derived[flags] = d
	}
	return d
}

// re2SuffixSafe reports whether an RE2 pattern does not look behind the position where its match
// starts: no ^ (begin of line or text), \b or \B. Such a pattern's first match at or after a
// position is its first match in the rest of the subject.
func re2SuffixSafe(re2Str string) bool {
	re, err := syntax.Parse(re2Str, syntax.Perl)
	if err != nil {
		return false
	}
	return !looksBehind(re)
}

func looksBehind(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, sub := range re.Sub {
		if looksBehind(sub) {
			return true
		}
	}
	return false
}

// findSubmatchIndexSuffix is the first match at or after start of s, an ASCII subject, for a
// pattern that does not look behind its start (re2SuffixSafe).
func (r *regexpWrapper) findSubmatchIndexSuffix(s string, start int) regexpResult {
	wrapped := (*regexp.Regexp)(r)
	indexes := wrapped.FindStringSubmatchIndex(s[start:])
	for i, v := range indexes {
		if v >= 0 {
			indexes[i] = v + start
		}
	}
	return regexpResult{indexes: indexes, groups: wrapped.SubexpNames()}
}

// stickySource is the pattern regexp2 compiles for src: anchored with \G (the position the
// search starts from) when sticky. Unanchored, a sticky attempt that fails searched on to the next
// match (which goja then refused), so a tokenizer trying a sticky regexp position by position
// over a long text was quadratic; anchored, regexp2 stops at the first position.
func stickySource(src string, sticky bool) string {
	if !sticky {
		return src
	}
	return `\G(?:` + src + `)`
}

// findRunes is regexp2's FindRunesMatchStartingAt, but a timeout is reported only when the
// MatchTimeout really passed. regexp2 measures it against a coarse clock that a goroutine advances
// every 100ms; on a loaded machine that goroutine runs late and the clock jumps, so a match that
// took microseconds could pass its deadline (upstream goja reported that as "no match"). Such a
// match is tried again.
func (r *regexp2Wrapper) findRunes(runes []rune, start int) (*regexp2.Match, error) {
	begin := time.Now()
	for {
		match, err := r.rx.FindRunesMatchStartingAt(runes, start)
		if err == nil || !isMatchTimeout(err) || time.Since(begin) >= r.rx.MatchTimeout {
			return match, err
		}
	}
}

// utf8Subject is a non-ASCII subject without surrogates converted to UTF-8 once, for RE2 searches
// from a position: each UTF-16 code unit is one code point there, so RE2's answers on the UTF-8
// text are the answers on the code units (as goja's RE2 search from 0 reads them).
type utf8Subject struct {
	target  unicodeString
	text    string
	toUTF8  []int32 // UTF-16 index -> byte offset (len n+1, increasing)
	invalid bool    // the subject holds a surrogate: not converted
}

// toUTF16 is the UTF-16 index of byte offset b, the start of a code point (a binary search, so
// that the copy holds 5-7 bytes per character, near regexp2's 4).
func (sub *utf8Subject) toUTF16(b int) int {
	lo, hi := 0, len(sub.toUTF8)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if int(sub.toUTF8[mid]) < b {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// maxUTF8Subject bounds the subjects converted (int32 offsets).
const maxUTF8Subject = 1 << 30

func newUTF8Subject(u unicodeString) *utf8Subject {
	n := u.Length()
	sub := &utf8Subject{target: u}
	size := 0
	for _, c := range u[1:] {
		if c >= 0xD800 && c <= 0xDFFF {
			sub.invalid = true
			return sub
		}
		size += utf8.RuneLen(rune(c))
	}
	if size >= maxUTF8Subject {
		sub.invalid = true
		return sub
	}
	buf := make([]byte, 0, size)
	sub.toUTF8 = make([]int32, n+1)
	for i, c := range u[1:] {
		sub.toUTF8[i] = int32(len(buf))
		buf = utf8.AppendRune(buf, rune(c))
	}
	sub.toUTF8[n] = int32(len(buf))
	sub.text = string(buf)
	return sub
}

// findSubmatchIndexUTF8 is the first match at or after start of s, a non-ASCII subject without
// surrogates, for an RE2 pattern that does not look behind its start (and is not sticky): RE2 on
// the rest of the subject converted to UTF-8 once (about 200ns a match, where regexp2 took 1µs).
// ok is false when that does not apply.
func (p *regexpPattern) findSubmatchIndexUTF8(s String, start int) (regexpResult, bool) {
	if p.regexpWrapper == nil || !p.re2Suffix || p.sticky {
		return regexpResult{}, false
	}
	_, u := devirtualizeString(s)
	if u == nil || start > u.Length() {
		return regexpResult{}, false
	}
	if p.utf8 == nil || !p.utf8.target.equals(u) {
		p.utf8 = newUTF8Subject(u)
	}
	sub := p.utf8
	if sub.invalid {
		return regexpResult{}, false
	}
	wrapped := (*regexp.Regexp)(p.regexpWrapper)
	b := int(sub.toUTF8[start])
	indexes := wrapped.FindStringSubmatchIndex(sub.text[b:])
	if indexes == nil {
		p.utf8 = nil // the search is over (as regexp2's cache is dropped): keep no copy
	}
	for i, v := range indexes {
		if v >= 0 {
			indexes[i] = sub.toUTF16(v + b)
		}
	}
	return regexpResult{indexes: indexes, groups: wrapped.SubexpNames()}, true
}

// isMatchTimeout reports whether err is regexp2's "match timeout after …".
func isMatchTimeout(err error) bool {
	return strings.HasPrefix(err.Error(), "match timeout")
}

// maxTimeoutSource bounds the pattern quoted in a timeout's message.
const maxTimeoutSource = 200

// checkTimeout throws a RangeError when regexp2 gave up a match (its MatchTimeout passed):
// upstream goja reported that as "no match".
func (r *regexp2Wrapper) checkTimeout(err error) {
	if err == nil {
		return
	}
	src := r.rx.String()
	if s, ok := strings.CutPrefix(src, `\G(?:`); ok {
		src = strings.TrimSuffix(s, ")")
	}
	if len(src) > maxTimeoutSource {
		src = src[:maxTimeoutSource] + "…"
	}
	if isMatchTimeout(err) {
		panic(rangeError(fmt.Sprintf("regular expression match exceeded the %dms match timeout: /%s/", r.rx.MatchTimeout.Milliseconds(), src)))
	}
	panic(rangeError(fmt.Sprintf("regular expression /%s/ failed: %v", src, err)))
}

// checkInterrupt throws the runtime's interrupt (as the run loop does before each instruction)
// when it has been interrupted, so that a native loop ends at its next step.
func (r *Runtime) checkInterrupt() {
	vm := r.vm
	if atomic.LoadUint32(&vm.interrupted) == 0 {
		return
	}
	vm.interruptLock.Lock()
	v := &InterruptedError{iface: vm.interruptVal}
	v.stack = vm.captureStack(nil, 0)
	vm.interruptLock.Unlock()
	panic(v)
}

// findSubmatchIndexAt is the first match of p at or after start, keeping the converted subject for
// the next search (see findUTF16Cached).
func (p *regexpPattern) findSubmatchIndexAt(s String, start int) regexpResult {
	if p.regexpWrapper != nil {
		if start == 0 {
			return p.regexpWrapper.findSubmatchIndex(s, p.unicode)
		}
		if a, ok := s.(asciiString); ok && p.re2Suffix && !p.sticky && start <= len(a) {
			return p.regexpWrapper.findSubmatchIndexSuffix(string(a), start)
		}
		if res, ok := p.findSubmatchIndexUTF8(s, start); ok {
			return res
		}
	}
	p.createRegexp2()
	p.regexp2Wrapper.keepOnFail = p.sticky
	return p.regexp2Wrapper.findSubmatchIndex(s, start, p.unicode, true)
}

// forEachMatch calls fn with each match of p in s as a global exec loop finds them from start (an
// empty match advances by one character; sticky: each match must start where the last ended),
// until fn returns false or no match is left. It checks r's interrupt flag before each search.
func (p *regexpPattern) forEachMatch(r *Runtime, s String, start int, sticky bool, fn func(regexpResult) bool) {
	length := s.Length()
	for pos := start; pos <= length; {
		r.checkInterrupt()
		res := p.findSubmatchIndexAt(s, pos)
		if len(res.indexes) < 2 || sticky && res.indexes[0] != pos {
			return
		}
		if !fn(res) {
			return
		}
		if end := res.indexes[1]; end > res.indexes[0] {
			pos = end
		} else {
			pos = advanceStringIndex(s, end, p.unicode)
		}
	}
}

// regexpMatchAll is the fast path of RegExp.prototype[Symbol.match] for a global regexp: the
// matched strings, or null.
func (r *Runtime) regexpMatchAll(rx *regexpObject, s String) Value {
	rx.setOwnStr("lastIndex", intToValue(0), true)
	var a []Value
	rx.pattern.forEachMatch(r, s, 0, rx.pattern.sticky, func(res regexpResult) bool {
		a = append(a, s.Substring(res.indexes[0], res.indexes[1]))
		return true
	})
	if len(a) == 0 {
		return _null
	}
	return r.newArrayValues(a)
}

// regexpReplace is the fast path of RegExp.prototype[Symbol.replace]: the replacement is written
// as each match is found.
func (r *Runtime) regexpReplace(rx *regexpObject, s, replaceStr String, rcall func(FunctionCall) Value) Value {
	pattern := rx.pattern // a replacer function may recompile rx
	global := pattern.global
	if !global {
		// One match: found (and lastIndex set) before the replacer runs, as the specification
		// finds every match before calling it.
		var index int64
		if pattern.sticky {
			index = rx.getLastIndex()
		}
		var found *regexpResult
		if index <= int64(s.Length()) {
			pattern.forEachMatch(r, s, int(index), pattern.sticky, func(res regexpResult) bool {
				found = &res
				return false
			})
		}
		if pattern.sticky {
			var newLastIndex int64
			if found != nil {
				newLastIndex = int64(found.indexes[1])
			}
			rx.setOwnStr("lastIndex", intToValue(newLastIndex), true)
		}
		if found == nil {
			return s
		}
		var buf StringBuilder
		lastIndex := 0
		r.replaceMatch(&buf, s, &lastIndex, *found, replaceStr, rcall)
		buf.WriteSubstring(s, lastIndex, s.Length())
		return buf.String()
	}
	rx.setOwnStr("lastIndex", intToValue(0), true)
	var buf StringBuilder
	lastIndex, matched := 0, false
	pattern.forEachMatch(r, s, 0, pattern.sticky, func(res regexpResult) bool {
		matched = true
		r.replaceMatch(&buf, s, &lastIndex, res, replaceStr, rcall)
		return true
	})
	if !matched {
		return s
	}
	if lastIndex < s.Length() {
		buf.WriteSubstring(s, lastIndex, s.Length())
	}
	return buf.String()
}

// replaceMatch writes the text of s from *lastIndex to the match, then the match's replacement
// (rcall's result, or replaceStr expanded), and moves *lastIndex past the match (as stringReplace
// does for each match it is given).
func (r *Runtime) replaceMatch(buf *StringBuilder, s String, lastIndex *int, item regexpResult, replaceStr String, rcall func(FunctionCall) Value) {
	if item.indexes[0] > *lastIndex {
		buf.WriteSubstring(s, *lastIndex, item.indexes[0])
	}
	matchCount := len(item.indexes) / 2
	capture := func(idx int) String {
		if item.indexes[idx*2] != -1 {
			return s.Substring(item.indexes[idx*2], item.indexes[idx*2+1])
		}
		return nil
	}
	if rcall != nil {
		argumentList := make([]Value, matchCount+2, matchCount+3)
		for index := 0; index < matchCount; index++ {
			if c := capture(index); c != nil {
				argumentList[index] = c
			} else {
				argumentList[index] = _undefined
			}
		}
		argumentList[matchCount] = intToValue(int64(item.indexes[0]))
		argumentList[matchCount+1] = s
		if groups := r.createRegexpGroupsObj(argumentList[:matchCount], item.groups); groups != nil {
			argumentList = append(argumentList, groups)
		}
		buf.WriteString(rcall(FunctionCall{This: _undefined, Arguments: argumentList}).toString())
	} else {
		var namedGroups map[string]int
		writeSubstitution(s, item.indexes[0], matchCount, func(idx int) String {
			if c := capture(idx); c != nil {
				return c
			}
			return stringEmpty
		}, func(ref String) String {
			if namedGroups == nil {
				namedGroups = map[string]int{}
				for i := 1; i < len(item.groups) && i < matchCount; i++ {
					if name := item.groups[i]; name != "" {
						namedGroups[name] = i
					}
				}
			}
			if len(namedGroups) == 0 {
				return nil
			}
			if idx, exists := namedGroups[ref.String()]; exists {
				if c := capture(idx); c != nil {
					return c
				}
			}
			return stringEmpty
		}, replaceStr, buf)
	}
	*lastIndex = item.indexes[1]
}

// regexpSplit is the fast path of RegExp.prototype[Symbol.split] for a regexp whose species is
// RegExp: the specification's loop (a sticky attempt at each position q), where for a pattern
// that is not sticky a search from q stands for the attempts up to the first position where one
// succeeds; so one search per match rather than per position. (A sticky pattern's attempts are
// anchored, see stickySource.)
func (r *Runtime) regexpSplit(pattern *regexpPattern, s String, limitValue Value) Value {
	lim := int64(1<<32 - 1)
	if limitValue != _undefined {
		lim = int64(toUint32(limitValue))
	}
	if lim == 0 {
		return r.newArrayValues(nil)
	}
	size := s.Length()
	if size == 0 {
		if res := pattern.findSubmatchIndexAt(s, 0); len(res.indexes) >= 2 && res.indexes[0] == 0 {
			return r.newArrayValues(nil)
		}
		return r.newArrayValues([]Value{s})
	}
	if pattern.sticky {
		// The splitter a species copy made (flags plus y): the same pattern without y searches.
		if unsticky := pattern.derive(strings.ReplaceAll(pattern.flags(), "y", "")); unsticky != nil {
			pattern = unsticky.clone()
		}
	}
	var a []Value
	p, q := 0, 0
	for q < size {
		r.checkInterrupt()
		res := pattern.findSubmatchIndexAt(s, q)
		if len(res.indexes) < 2 {
			if !pattern.sticky {
				break // no match at or after q
			}
			q = advanceStringIndex(s, q, pattern.unicode)
			continue
		}
		start := res.indexes[0]
		if pattern.sticky && start != q {
			q = advanceStringIndex(s, q, pattern.unicode)
			continue
		}
		if start >= size {
			break // only an empty match at the end, where the sticky loop stops
		}
		e := min(res.indexes[1], size)
		if e == p { // an empty match where the last piece ended
			q = advanceStringIndex(s, start, pattern.unicode)
			continue
		}
		a = append(a, s.Substring(p, start))
		if int64(len(a)) == lim {
			return r.newArrayValues(a)
		}
		p = e
		for i := 2; i+1 < len(res.indexes); i += 2 {
			var v Value = _undefined
			if res.indexes[i] >= 0 {
				v = s.Substring(res.indexes[i], res.indexes[i+1])
			}
			a = append(a, v)
			if int64(len(a)) == lim {
				return r.newArrayValues(a)
			}
		}
		q = p
	}
	a = append(a, s.Substring(p, size))
	return r.newArrayValues(a)
}

// flags are the pattern's flags as RegExp.prototype.flags spells them.
func (p *regexpPattern) flags() string {
	var b [6]byte
	f := b[:0]
	for _, flag := range []struct {
		on bool
		c  byte
	}{{p.global, 'g'}, {p.ignoreCase, 'i'}, {p.multiline, 'm'}, {p.dotAll, 's'}, {p.unicode, 'u'}, {p.sticky, 'y'}} {
		if flag.on {
			f = append(f, flag.c)
		}
	}
	return string(f)
}
