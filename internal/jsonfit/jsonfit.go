// Package jsonfit shrinks a JSON value until its compact JSON fits a byte budget, keeping it
// valid JSON of the same shape: strings stay strings, arrays arrays, objects objects.
//
// What is cut is what is longest: a single level T is chosen, the largest that lets the whole
// value fit, and every string longer than T is cut in its middle to at most T bytes, with a
// marker saying how many characters were cut ("…[12,345 characters cut]…"), and every array
// longer than T keeps its first items up to T bytes, followed by one more item, a marker string
// ("… 19,950 more items"). Values shorter than T are left whole. Only when that cannot fit (an
// object with very many keys, say) are objects below the root shortened too, then the root
// itself, with a marker member ("…": "1,234 more keys"). Arrays named in Options.Middle (the
// logs of a run) are cut in their middle instead: their first and their last items are kept.
//
// Sizes are the bytes of the compact JSON text as jsonv writes it. The work is about
// O(budget × log budget) plus the nodes visited: measuring stops as soon as a part is known not
// to fit, so a value of many megabytes is never walked whole to fit a small budget.
package jsonfit

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/jsonv"
)

// MinBudget is the smallest budget Fit honours for every value: room for the markers alone.
// Below it, Fit may return more than the budget.
const MinBudget = 64

// Options adjust Fit.
type Options struct {
	// Middle names members of a root object whose arrays are cut in their middle (their first
	// and last items kept, with a marker between) rather than at their end: logs, where the
	// last lines say how a run ended.
	Middle []string
	// MiddleUnit is the word the marker of a Middle array counts its items in ("lines");
	// "items" when empty.
	MiddleUnit string
}

// Report says what Fit cut.
type Report struct {
	// Strings is the number of strings cut, Chars the characters (code points) cut from them.
	Strings, Chars int
	// Arrays is the number of arrays shortened, Items the items left out of them.
	Arrays, Items int
	// MiddleItems is the number of items left out of the Options.Middle arrays (also counted
	// in Arrays and Items).
	MiddleItems int
	// Objects is the number of objects shortened, Keys the members left out of them.
	Objects, Keys int
}

// Cut reports whether anything was cut.
func (r Report) Cut() bool { return r.Strings+r.Arrays+r.Objects > 0 }

// Fits reports whether v's compact JSON is at most budget bytes, looking at no more of v than
// it takes to know.
func Fits(v jsonv.Value, budget int) bool { return sizeUpTo(v, budget) <= budget }

// Fit returns v shrunk so that its compact JSON is at most budget bytes (v itself when it
// fits), and what was cut. The result has v's kind; a root object keeps every key unless even
// its keys alone do not fit. For budget < MinBudget the result may be larger than budget.
func Fit(v jsonv.Value, budget int, opts Options) (jsonv.Value, Report) {
	if !v.IsDefined() {
		return v, Report{}
	}
	if sizeUpTo(v, budget) <= budget {
		return v, Report{}
	}
	f := &fitter{opts: opts}
	for _, p := range []phase{phaseArrays, phaseObjects, phaseRoot} {
		f.phase = p
		f.level = 0
		if f.measure(v, true, budget) > budget {
			continue
		}
		// The largest level whose fit is within budget: the fitted size grows with the level.
		lo, hi := 0, budget+1 // fits at lo, not known at hi
		for lo+1 < hi {
			mid := lo + (hi-lo)/2
			f.level = mid
			if f.measure(v, true, budget) <= budget {
				lo = mid
			} else {
				hi = mid
			}
		}
		f.level = lo
		f.build = true
		out, _ := f.fit(v, true, budget)
		return out, f.report
	}
	// Not even the smallest form fits (budget < MinBudget): return the smallest form.
	f.phase, f.level, f.build = phaseRoot, 0, true
	out, _ := f.fit(v, true, budget)
	return out, f.report
}

// phase says which containers the level applies to.
type phase int

const (
	phaseArrays  phase = iota // strings and arrays; every array keeps its first item
	phaseObjects              // also objects below the root, which keep their first member
	phaseRoot                 // everything, the root too, and nothing is kept for sure
)

type fitter struct {
	opts   Options
	phase  phase
	level  int
	build  bool
	report Report
}

// measure returns the size of v fitted at the current level, or some number above limit once
// it is known to exceed limit.
func (f *fitter) measure(v jsonv.Value, root bool, limit int) int {
	build := f.build
	f.build = false
	_, n := f.fit(v, root, limit)
	f.build = build
	return n
}

// fit returns v fitted at f.level (when f.build; else only its size) and its size, or a size
// above limit as soon as it is known to exceed limit (then the value is not usable).
func (f *fitter) fit(v jsonv.Value, root bool, limit int) (jsonv.Value, int) {
	switch v.Kind() {
	case jsonv.String:
		return f.fitString(v, limit)
	case jsonv.Array:
		return f.fitArray(v, false, "items", limit)
	case jsonv.Object:
		return f.fitObject(v, root, limit)
	}
	return v, v.ByteLen()
}

// fitString cuts a string longer than the level in its middle. The size it returns for a cut
// string is an upper bound (its marker counted with as many digits as the string has bytes), the
// same whether or not it builds, so that measuring and building decide alike.
func (f *fitter) fitString(v jsonv.Value, limit int) (jsonv.Value, int) {
	s := v.AsString()
	// Only the first max(level, limit)+1 bytes need a look to know whether it is too long.
	n := stringLenUpTo(s, max(f.level, limit)+1)
	if n <= f.level {
		return v, n
	}
	markerLen := len(charsMarker(len(s)))
	room := max(f.level-2-markerLen, 0)
	if 2+markerLen+room >= n {
		return v, n // cutting would not make it shorter
	}
	head, headLen := prefixWithin(s, room-room/2)
	tail, tailLen := suffixWithin(s[len(head):], room/2)
	size := 2 + headLen + markerLen + tailLen
	if !f.build {
		return jsonv.Value{}, size
	}
	cut := utf8.RuneCountInString(s[len(head) : len(s)-len(tail)])
	f.report.Strings++
	f.report.Chars += cut
	return jsonv.StringValue(head + charsMarker(cut) + tail), size
}

// charsMarker is the marker in place of n characters cut from a string.
func charsMarker(n int) string { return "…[" + Counted(n, "characters") + " cut]…" }

// itemsMarker is the marker item in place of n items left out at the end of an array.
func itemsMarker(n int, unit string) string {
	return "… " + group(n) + " more " + noun(n, unit)
}

// Counted is n followed by unit, a plural noun, in the singular when n is 1, with commas between
// groups of digits as the markers write them: "1 item", "19,950 items".
func Counted(n int, unit string) string { return group(n) + " " + noun(n, unit) }

// noun is unit, a plural noun, in the singular when n is 1.
func noun(n int, unit string) string {
	if n == 1 {
		return strings.TrimSuffix(unit, "s")
	}
	return unit
}

// fitArray keeps the first items of an array longer than the level (or, for a middle array,
// its first and last items), followed (or separated) by a marker item counting the rest in
// unit. In every phase but phaseRoot the first item is kept whatever its size.
func (f *fitter) fitArray(v jsonv.Value, middle bool, unit string, limit int) (jsonv.Value, int) {
	n := v.Len()
	if n == 0 {
		return v, 2
	}
	// The size the array may take before it is cut; beyond limit, the answer is only "too big".
	capSize := min(f.level, limit)
	keepFirst := f.phase != phaseRoot
	if middle {
		return f.fitMiddle(v, unit, capSize, keepFirst, limit)
	}
	var items []jsonv.Value
	size := 1 // "["
	for i := 0; i < n; i++ {
		sep := 0
		if i > 0 {
			sep = 1
		}
		rest := 0 // the marker for the items after this one, if any
		if i+1 < n {
			rest = 1 + jsonv.StringByteLen(itemsMarker(n-i-1, unit))
		}
		room := capSize - size - sep - rest - 1
		if i == 0 && keepFirst {
			room = limit - size - rest - 1
		}
		item, isz := f.fit(v.Index(i), false, max(room, 0))
		if isz > room {
			if i == 0 && keepFirst {
				return jsonv.Value{}, limit + 1
			}
			// Item i and the rest are left out, for a marker.
			marker := itemsMarker(n-i, unit)
			size += sep + jsonv.StringByteLen(marker) + 1
			if !f.build {
				return jsonv.Value{}, size
			}
			f.report.Arrays++
			f.report.Items += n - i
			return jsonv.ArrayOf(append(items, jsonv.StringValue(marker))), size
		}
		size += sep + isz
		if f.build {
			items = append(items, item)
		}
	}
	if !f.build {
		return jsonv.Value{}, size + 1
	}
	return jsonv.ArrayOf(items), size + 1
}

// fitMiddle keeps the first and last items of an array, alternately, while they fit in capSize,
// with a marker between them for the rest.
func (f *fitter) fitMiddle(v jsonv.Value, unit string, capSize int, keepFirst bool, limit int) (jsonv.Value, int) {
	n := v.Len()
	size := 2 // "[]"
	var head, tail []jsonv.Value
	kept := 0
	h, t := 0, n-1 // next head and tail index
	for h <= t {
		i := h
		if kept%2 == 1 {
			i = t
		}
		left := n - kept - 1 // items not yet kept after this one
		extra := 0
		if kept > 0 {
			extra = 1
		}
		if left > 0 {
			extra += 1 + jsonv.StringByteLen(itemsMarker(left, unit))
		}
		room := capSize - size - extra
		if kept == 0 && keepFirst {
			room = limit - size - extra
		}
		item, isz := f.fit(v.Index(i), false, max(room, 0))
		if isz > room {
			if kept == 0 && keepFirst {
				return jsonv.Value{}, limit + 1
			}
			break
		}
		if kept > 0 {
			size++
		}
		size += isz
		if f.build {
			if i == h {
				head = append(head, item)
			} else {
				tail = append(tail, item)
			}
		}
		if i == h {
			h++
		} else {
			t--
		}
		kept++
	}
	left := n - kept
	if left > 0 {
		marker := itemsMarker(left, unit)
		if kept > 0 {
			size++
		}
		size += jsonv.StringByteLen(marker)
		if f.build {
			head = append(head, jsonv.StringValue(marker))
			f.report.Arrays++
			f.report.Items += left
			f.report.MiddleItems += left
		}
	}
	if !f.build {
		return jsonv.Value{}, size
	}
	for i := len(tail) - 1; i >= 0; i-- {
		head = append(head, tail[i])
	}
	return jsonv.ArrayOf(head), size
}

// fitObject fits each member's value; objects are shortened (their first members kept, then a
// marker member) only from phaseObjects on, the root only in phaseRoot.
func (f *fitter) fitObject(v jsonv.Value, root bool, limit int) (jsonv.Value, int) {
	n := v.Len()
	if n == 0 {
		return v, 2
	}
	capped := f.phase == phaseRoot || (f.phase == phaseObjects && !root)
	capSize := limit
	if capped {
		capSize = min(f.level, limit)
	}
	keepFirst := f.phase != phaseRoot
	markerKey := "…"
	for {
		if _, taken := v.Get(markerKey); !taken {
			break
		}
		markerKey += "…"
	}
	var members []jsonv.Member
	size := 1 // "{"
	for i := 0; i < n; i++ {
		m := v.Member(i)
		sep := 0
		if i > 0 {
			sep = 1
		}
		keyLen := jsonv.StringByteLen(m.Key) + 1
		rest := 0
		if capped && i+1 < n {
			rest = 1 + jsonv.StringByteLen(markerKey) + 1 + jsonv.StringByteLen(keysMarker(n-i-1))
		}
		room := capSize - size - sep - keyLen - rest - 1
		if !capped || (i == 0 && keepFirst) {
			room = limit - size - sep - keyLen - rest - 1
		}
		middle := root && contains(f.opts.Middle, m.Key) && m.Value.Kind() == jsonv.Array
		var val jsonv.Value
		var vsz int
		if middle {
			unit := f.opts.MiddleUnit
			if unit == "" {
				unit = "items"
			}
			val, vsz = f.fitArray(m.Value, true, unit, max(room, 0))
		} else {
			val, vsz = f.fit(m.Value, false, max(room, 0))
		}
		if vsz > room {
			if !capped || (i == 0 && keepFirst) {
				return jsonv.Value{}, limit + 1
			}
			marker := keysMarker(n - i)
			size += sep + jsonv.StringByteLen(markerKey) + 1 + jsonv.StringByteLen(marker) + 1
			if f.build {
				members = append(members, jsonv.Member{Key: markerKey, Value: jsonv.StringValue(marker)})
				f.report.Objects++
				f.report.Keys += n - i
			}
			if !f.build {
				return jsonv.Value{}, size
			}
			return jsonv.ObjectOf(members), size
		}
		size += sep + keyLen + vsz
		if f.build {
			members = append(members, jsonv.Member{Key: m.Key, Value: val})
		}
	}
	if !f.build {
		return jsonv.Value{}, size + 1
	}
	return jsonv.ObjectOf(members), size + 1
}

// keysMarker is the marker value in place of n members left out of an object.
func keysMarker(n int) string {
	return group(n) + " more " + noun(n, "keys")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// group formats n with commas between groups of three digits: 19950 → "19,950".
func group(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// runeJSONLen is the bytes jsonv.AppendString writes for the code point at the start of s,
// and that code point's size in s.
func runeJSONLen(s string) (n, size int) {
	c := s[0]
	if c < utf8.RuneSelf {
		switch {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			return 2, 1
		case c < 0x20:
			return 6, 1
		}
		return 1, 1
	}
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return 3, 1
	}
	return size, size
}

// lastRuneJSONLen is runeJSONLen for the code point at the end of s.
func lastRuneJSONLen(s string) (n, size int) {
	_, size = utf8.DecodeLastRuneInString(s)
	n, _ = runeJSONLen(s[len(s)-size:])
	return n, size
}

// stringLenUpTo returns jsonv.StringByteLen(s), or some number above limit once it exceeds it.
func stringLenUpTo(s string, limit int) int {
	n := 2
	if len(s)+2 <= limit {
		// A cheap bound first: most strings are far below the limit.
		return jsonv.StringByteLen(s)
	}
	for i := 0; i < len(s); {
		w, size := runeJSONLen(s[i:])
		n += w
		if n > limit {
			return n
		}
		i += size
	}
	return n
}

// prefixWithin is the longest code-point-aligned prefix of s that takes at most budget bytes
// inside a JSON string, and the bytes it takes there.
func prefixWithin(s string, budget int) (string, int) {
	n := 0
	for i := 0; i < len(s); {
		w, size := runeJSONLen(s[i:])
		if n+w > budget {
			return s[:i], n
		}
		n += w
		i += size
	}
	return s, n
}

// suffixWithin is the longest code-point-aligned suffix of s that takes at most budget bytes
// inside a JSON string, and the bytes it takes there.
func suffixWithin(s string, budget int) (string, int) {
	n := 0
	for i := len(s); i > 0; {
		w, size := lastRuneJSONLen(s[:i])
		if n+w > budget {
			return s[i:], n
		}
		n += w
		i -= size
	}
	return s, n
}

// sizeUpTo returns v.ByteLen(), or some number above limit once it is known to exceed limit.
func sizeUpTo(v jsonv.Value, limit int) int {
	switch v.Kind() {
	case jsonv.String:
		return stringLenUpTo(v.AsString(), limit)
	case jsonv.Array:
		n := 1
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				n++
			}
			n += sizeUpTo(v.Index(i), limit-n)
			if n > limit {
				return n
			}
		}
		return n + 1
	case jsonv.Object:
		n := 1
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				n++
			}
			m := v.Member(i)
			n += stringLenUpTo(m.Key, limit-n) + 1
			if n > limit {
				return n
			}
			n += sizeUpTo(m.Value, limit-n)
			if n > limit {
				return n
			}
		}
		return n + 1
	}
	return v.ByteLen()
}
