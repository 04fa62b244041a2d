package goja

// runcode: the v flag (unicodeSets). Upstream goja refused it ("Invalid flags supplied to
// RegExp constructor 'v'"). translateUnicodeSets rewrites a v-mode pattern as a u-mode one: each
// character class (nested classes, set difference --, intersection &&, \q{…} strings) and each
// property escape is computed at compile time into explicit code point ranges, or an
// alternation when it holds strings. See RUNCODE.md.

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxUnicodeSetsWork bounds the range steps a pattern's class set operations may take (each
// operation costs the ranges of its operands, each case folding the cased characters it
// visits): a pattern that would take more is refused rather than computed, so that compiling
// stays one short native step whatever the pattern.
const maxUnicodeSetsWork = 1 << 20

// maxUnicodeSetsNesting bounds the nesting of classes (the translation recurses per level), as
// runcode's guard bounds the nesting of groups.
const maxUnicodeSetsNesting = 1000

// regexpPropertiesOfStrings are the properties of strings V8 accepts with the v flag; this
// runtime has no data for them and refuses them by name.
var regexpPropertiesOfStrings = []string{"Basic_Emoji", "Emoji_Keycap_Sequence", "RGI_Emoji", "RGI_Emoji_Flag_Sequence",
	"RGI_Emoji_Modifier_Sequence", "RGI_Emoji_Tag_Sequence", "RGI_Emoji_ZWJ_Sequence"}

// vClassSet is a v-mode class's value: code points (sorted, merged [lo, hi] pairs) and the
// strings of \q{…} that are not one code point long.
type vClassSet struct {
	ranges  []uint32
	strings map[string]struct{}
	// mayContainStrings is ECMAScript's static MayContainStrings, which decides whether a
	// class may be negated.
	mayContainStrings bool
}

type unicodeSetsTranslator struct {
	src        []rune
	pos        int
	ignoreCase bool
	work       int
	depth      int // of nested classes
	// cased are the code points with a case folding (i flag only), universe the code points
	// that are their own canonical form: the set a complement is taken in (ECMAScript's
	// AllCharacters with the v and i flags).
	cased, casedCanon []rune
	universe          []uint32
}

// unicodeSetsError is a v-mode pattern's error: its reason, in V8's words where V8 has them.
type unicodeSetsError struct{ reason string }

// translateUnicodeSets returns pattern, a pattern of the v flag, as a pattern of the u flag, or
// the SyntaxError's reason.
func translateUnicodeSets(pattern string, ignoreCase bool) (out string, reason string) {
	t := &unicodeSetsTranslator{src: []rune(pattern), ignoreCase: ignoreCase}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(unicodeSetsError)
			if !ok {
				panic(r)
			}
			out, reason = "", e.reason
		}
	}()
	if ignoreCase {
		t.initFolding()
	}
	var sb strings.Builder
	for t.pos < len(t.src) {
		c := t.src[t.pos]
		switch {
		case c == '\\' && t.pos+1 < len(t.src) && (t.src[t.pos+1] == 'p' || t.src[t.pos+1] == 'P'):
			// A property escape outside a class is a class of its own: with the i flag, \P{…}
			// is the complement of the folded property, as in a class.
			t.pos++
			t.writeSet(&sb, t.classEscape(false), false)
		case c == '\\':
			sb.WriteRune(c)
			t.pos++
			if t.pos < len(t.src) {
				// As with the u flag, an identity escape is of a syntax character or '/' only
				// (upstream's u-mode translation lets \q and \- through).
				if e := t.src[t.pos]; !strings.ContainsRune("dDsSwWbBfnrtvckpPxu0123456789^$\\.*+?()[]{}|/", e) {
					t.fail("Invalid escape")
				}
				sb.WriteRune(t.src[t.pos])
				t.pos++
			}
		case c == '[':
			t.pos++
			negated := t.peekIs('^')
			if negated {
				t.pos++
			}
			s := t.classContents()
			t.pos++ // ']'
			if negated && s.mayContainStrings {
				t.fail("Negated character class may contain strings")
			}
			t.writeSet(&sb, s, negated)
		default:
			sb.WriteRune(c)
			t.pos++
		}
	}
	return sb.String(), ""
}

func (t *unicodeSetsTranslator) fail(reason string) { panic(unicodeSetsError{reason}) }

func (t *unicodeSetsTranslator) peekIs(c rune) bool {
	return t.pos < len(t.src) && t.src[t.pos] == c
}

func (t *unicodeSetsTranslator) peek2Is(c rune) bool {
	return t.pos+1 < len(t.src) && t.src[t.pos] == c && t.src[t.pos+1] == c
}

func (t *unicodeSetsTranslator) spend(n int) {
	t.work += n
	if t.work > maxUnicodeSetsWork {
		t.fail("its character class set operations are too large for this runtime")
	}
}

// classContents parses a ClassSetExpression up to (not past) its closing ']'.
func (t *unicodeSetsTranslator) classContents() vClassSet {
	if t.pos >= len(t.src) {
		t.fail("Unterminated character class")
	}
	if t.peekIs(']') {
		return vClassSet{}
	}
	first, isChar, ch := t.operand()
	switch {
	case t.peek2Is('&'):
		acc := first
		for t.peek2Is('&') {
			t.pos += 2
			if t.peekIs('&') {
				t.fail("Invalid character in character class")
			}
			op, _, _ := t.operand()
			acc = t.intersect(acc, op)
		}
		t.expectClose()
		return acc
	case t.peek2Is('-'):
		// A -- B -- C is A minus the union of B and C: one subtraction, however long the chain.
		var subtrahends vClassSet
		for t.peek2Is('-') {
			t.pos += 2
			op, _, _ := t.operand()
			subtrahends = t.union(subtrahends, op)
		}
		t.expectClose()
		return t.subtract(first, subtrahends)
	}
	// A union is gathered and merged once: linear in its operands, however many.
	acc := &vClassSet{}
	for {
		if t.peek2Is('-') {
			t.fail("Invalid set operation in character class")
		}
		if t.peekIs('-') {
			// A range: both ends single characters.
			if !isChar {
				t.fail("Invalid character class")
			}
			t.pos++
			_, isChar2, hi := t.operand()
			if !isChar2 {
				t.fail("Invalid character class")
			}
			if hi < ch {
				t.fail("Range out of order in character class")
			}
			first = t.leaf([]uint32{uint32(ch), uint32(hi)})
		}
		t.gather(acc, first)
		if t.pos >= len(t.src) {
			t.fail("Unterminated character class")
		}
		if t.peekIs(']') {
			acc.ranges = normalizeRanges(acc.ranges)
			return *acc
		}
		if t.peek2Is('&') || t.peek2Is('-') || t.doublePunctuator() {
			t.fail("Invalid set operation in character class")
		}
		first, isChar, ch = t.operand()
	}
}

func (t *unicodeSetsTranslator) expectClose() {
	if t.pos >= len(t.src) {
		t.fail("Unterminated character class")
	}
	if !t.peekIs(']') {
		t.fail("Invalid set operation in character class")
	}
}

// doublePunctuator reports whether a ClassSetReservedDoublePunctuator starts at pos.
func (t *unicodeSetsTranslator) doublePunctuator() bool {
	if t.pos+1 >= len(t.src) {
		return false
	}
	c := t.src[t.pos]
	return c == t.src[t.pos+1] && strings.ContainsRune("&!#$%*+,.:;<=>?@^`~", c)
}

// operand parses a ClassSetOperand; isChar reports a single character (a possible range end).
func (t *unicodeSetsTranslator) operand() (s vClassSet, isChar bool, ch rune) {
	if t.pos >= len(t.src) {
		t.fail("Unterminated character class")
	}
	switch c := t.src[t.pos]; c {
	case '[':
		t.pos++
		if t.depth++; t.depth > maxUnicodeSetsNesting {
			t.fail("its character classes nest more than 1000 levels deep, more than this runtime compiles")
		}
		defer func() { t.depth-- }()
		negated := t.peekIs('^')
		if negated {
			t.pos++
		}
		s = t.classContents()
		t.pos++ // ']'
		if negated {
			if s.mayContainStrings {
				t.fail("Negated character class may contain strings")
			}
			s = t.complement(s)
		}
		return s, false, 0
	case '\\':
		t.pos++
		if t.pos >= len(t.src) {
			t.fail("\\ at end of pattern")
		}
		switch e := t.src[t.pos]; e {
		case 'd', 'D', 's', 'S', 'w', 'W', 'p', 'P':
			return t.classEscape(true), false, 0
		case 'q':
			t.pos++
			if !t.peekIs('{') {
				t.fail("Invalid escape")
			}
			t.pos++
			return t.stringDisjunction(), false, 0
		}
		t.pos-- // characterEscape reads from the backslash
	}
	ch = t.classSetCharacter()
	return t.leaf([]uint32{uint32(ch), uint32(ch)}), true, ch
}

// classSetCharacter reads a ClassSetCharacter: a character that is not a class syntax
// character nor the start of a reserved double punctuator, or an escape of one.
func (t *unicodeSetsTranslator) classSetCharacter() rune {
	if t.pos >= len(t.src) {
		t.fail("Unterminated character class")
	}
	c := t.src[t.pos]
	if c == '\\' {
		return t.characterEscape()
	}
	if t.doublePunctuator() {
		t.fail("Invalid set operation in character class")
	}
	if strings.ContainsRune("()[]{}/-|", c) {
		t.fail("Invalid character in character class")
	}
	t.pos++
	return c
}

// characterEscape reads an escape of a ClassSetCharacter, starting at its backslash.
func (t *unicodeSetsTranslator) characterEscape() rune {
	t.pos++
	if t.pos >= len(t.src) {
		t.fail("\\ at end of pattern")
	}
	c := t.src[t.pos]
	t.pos++
	switch c {
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	case 'b':
		return '\b'
	case 'c':
		if t.pos < len(t.src) && (t.src[t.pos]|0x20 >= 'a' && t.src[t.pos]|0x20 <= 'z') {
			t.pos++
			return t.src[t.pos-1] % 32
		}
		t.fail("Invalid Unicode escape")
	case '0':
		if t.pos < len(t.src) && t.src[t.pos] >= '0' && t.src[t.pos] <= '9' {
			t.fail("Invalid class escape")
		}
		return 0
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		t.fail("Invalid class escape")
	case 'x':
		if v, ok := t.hex(2); ok {
			return v
		}
		t.fail("Invalid escape")
	case 'u':
		return t.unicodeEscape()
	}
	if strings.ContainsRune("^$\\.*+?()[]{}|/&-!#%,:;<=>@`~", c) {
		return c
	}
	t.fail("Invalid escape")
	return 0
}

// hex reads n hexadecimal digits.
func (t *unicodeSetsTranslator) hex(n int) (rune, bool) {
	if t.pos+n > len(t.src) {
		return 0, false
	}
	var v rune
	for _, d := range t.src[t.pos : t.pos+n] {
		x, ok := hexDigit(d)
		if !ok {
			return 0, false
		}
		v = v*16 + x
	}
	t.pos += n
	return v, true
}

func hexDigit(d rune) (rune, bool) {
	switch {
	case d >= '0' && d <= '9':
		return d - '0', true
	case d >= 'a' && d <= 'f':
		return d - 'a' + 10, true
	case d >= 'A' && d <= 'F':
		return d - 'A' + 10, true
	}
	return 0, false
}

// unicodeEscape reads what follows \u: XXXX (a surrogate pair \uXXXX\uXXXX is one code point)
// or {X…}.
func (t *unicodeSetsTranslator) unicodeEscape() rune {
	if t.peekIs('{') {
		t.pos++
		var v rune
		digits := 0
		for t.pos < len(t.src) && t.src[t.pos] != '}' {
			x, ok := hexDigit(t.src[t.pos])
			if !ok {
				t.fail("Invalid Unicode escape")
			}
			v = v*16 + x
			digits++
			if v > unicode.MaxRune {
				t.fail("Invalid Unicode escape")
			}
			t.pos++
		}
		if digits == 0 || !t.peekIs('}') {
			t.fail("Invalid Unicode escape")
		}
		t.pos++
		return v
	}
	v, ok := t.hex(4)
	if !ok {
		t.fail("Invalid Unicode escape")
	}
	if v >= 0xd800 && v <= 0xdbff && t.pos+1 < len(t.src) && t.src[t.pos] == '\\' && t.src[t.pos+1] == 'u' {
		save := t.pos
		t.pos += 2
		if lo, ok := t.hex(4); ok && lo >= 0xdc00 && lo <= 0xdfff {
			return (v-0xd800)<<10 + (lo - 0xdc00) + 0x10000
		}
		t.pos = save
	}
	return v
}

// gather adds op's code points and strings to acc; acc.ranges is left unmerged.
func (t *unicodeSetsTranslator) gather(acc *vClassSet, op vClassSet) {
	t.spend(len(op.ranges) + len(op.strings))
	acc.ranges = append(acc.ranges, op.ranges...)
	if len(op.strings) > 0 && acc.strings == nil {
		acc.strings = map[string]struct{}{}
	}
	for k := range op.strings {
		acc.strings[k] = struct{}{}
	}
	acc.mayContainStrings = acc.mayContainStrings || op.mayContainStrings
}

// stringDisjunction reads the alternatives of \q{…} after its '{'.
func (t *unicodeSetsTranslator) stringDisjunction() vClassSet {
	s := vClassSet{}
	var cur []rune
	for {
		if t.pos >= len(t.src) {
			t.fail("Unterminated character class")
		}
		switch t.src[t.pos] {
		case '}':
			t.pos++
			t.addString(&s, cur)
			s.ranges = normalizeRanges(s.ranges)
			return s
		case '|':
			t.pos++
			t.addString(&s, cur)
			cur = cur[:0]
			continue
		}
		cur = append(cur, t.classSetCharacter())
	}
}

// addString adds str to s (a single code point to its unmerged ranges).
func (t *unicodeSetsTranslator) addString(s *vClassSet, str []rune) {
	t.spend(len(str) + 1)
	if len(str) == 1 {
		t.gather(s, t.leaf([]uint32{uint32(str[0]), uint32(str[0])}))
		return
	}
	folded := make([]rune, len(str))
	for i, c := range str {
		folded[i] = t.canon(c)
	}
	if s.strings == nil {
		s.strings = map[string]struct{}{}
	}
	s.strings[string(folded)] = struct{}{}
	s.mayContainStrings = true
}

// classEscape reads \d \D \s \S \w \W \p{…} \P{…} (pos at the letter) as a set. inClass only
// changes the message of an unknown property.
func (t *unicodeSetsTranslator) classEscape(inClass bool) vClassSet {
	e := t.src[t.pos]
	t.pos++
	switch e {
	case 'd', 'D':
		return t.maybeComplement(t.leaf([]uint32{'0', '9'}), e == 'D')
	case 's', 'S':
		return t.maybeComplement(t.leaf(slices.Clone(regexpWhiteSpace)), e == 'S')
	case 'w', 'W':
		w := t.leaf([]uint32{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'})
		return t.maybeComplement(w, e == 'W')
	}
	// \p{…} or \P{…}.
	if !t.peekIs('{') {
		t.fail(regexpInvalidPropertyName)
	}
	end := t.pos
	for end < len(t.src) && t.src[end] != '}' {
		end++
	}
	if end >= len(t.src) {
		t.fail(regexpInvalidPropertyName)
	}
	body := string(t.src[t.pos+1 : end])
	t.pos = end + 1
	if slices.Contains(regexpPropertiesOfStrings, body) {
		if e == 'P' {
			t.fail("Invalid property name")
		}
		t.fail(`\p{` + body + `} is a property of strings, which this runtime does not support`)
	}
	ranges, reason := lookupProperty(body)
	if reason != "" {
		if inClass && reason == regexpInvalidPropertyName {
			reason += " in character class"
		}
		t.fail(reason)
	}
	return t.maybeComplement(t.leaf(slices.Clone(ranges)), e == 'P')
}

// regexpWhiteSpace are the code points of \s: WhiteSpace and LineTerminator.
var regexpWhiteSpace = []uint32{0x9, 0xd, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a,
	0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff}

func (t *unicodeSetsTranslator) maybeComplement(s vClassSet, negate bool) vClassSet {
	if negate {
		return t.complement(s)
	}
	return s
}

// leaf is a set of code points from the pattern (sorted, merged ranges), case-folded with the
// i flag (ECMAScript's MaybeSimpleCaseFolding).
func (t *unicodeSetsTranslator) leaf(ranges []uint32) vClassSet {
	t.spend(len(ranges))
	if !t.ignoreCase {
		return vClassSet{ranges: ranges}
	}
	// Cased code points in the ranges are replaced by their canonical forms.
	var remove, add []uint32
	for i := 0; i < len(ranges); i += 2 {
		lo := sort.Search(len(t.cased), func(k int) bool { return uint32(t.cased[k]) >= ranges[i] })
		for k := lo; k < len(t.cased) && uint32(t.cased[k]) <= ranges[i+1]; k++ {
			c := t.cased[k]
			if f := t.casedCanon[k]; f != c {
				remove = append(remove, uint32(c), uint32(c))
				add = append(add, uint32(f), uint32(f))
			}
			t.spend(1)
		}
	}
	if len(remove) == 0 {
		return vClassSet{ranges: ranges}
	}
	kept := t.subtractRanges(ranges, normalizeRanges(remove))
	return vClassSet{ranges: t.unionRanges(kept, normalizeRanges(add))}
}

// initFolding lists the cased code points (those with a simple case folding) and the code
// points that are their own canonical form.
func (t *unicodeSetsTranslator) initFolding() {
	var nonCanonical []uint32
	for _, cr := range unicode.CaseRanges {
		for c := rune(cr.Lo); c <= rune(cr.Hi); c++ {
			if unicode.SimpleFold(c) != c {
				t.cased = append(t.cased, c)
				t.casedCanon = append(t.casedCanon, t.canon(c))
				if t.canon(c) != c {
					nonCanonical = append(nonCanonical, uint32(c), uint32(c))
				}
			}
		}
	}
	t.universe = complementRanges(normalizeRanges(nonCanonical))
}

// canon is a code point's canonical form under case folding with the i flag: the least code
// point of its simple case folding orbit (any fixed member would do: matching folds again).
func (t *unicodeSetsTranslator) canon(c rune) rune {
	if !t.ignoreCase {
		return c
	}
	least := c
	for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

func (t *unicodeSetsTranslator) complement(s vClassSet) vClassSet {
	t.spend(len(s.ranges) + len(t.universe))
	if t.ignoreCase {
		return vClassSet{ranges: t.subtractRanges(t.universe, s.ranges)}
	}
	return vClassSet{ranges: complementRanges(s.ranges)}
}

func (t *unicodeSetsTranslator) union(a, b vClassSet) vClassSet {
	out := vClassSet{ranges: t.unionRanges(a.ranges, b.ranges), mayContainStrings: a.mayContainStrings || b.mayContainStrings}
	if len(a.strings)+len(b.strings) > 0 {
		out.strings = make(map[string]struct{}, len(a.strings)+len(b.strings))
		for k := range a.strings {
			out.strings[k] = struct{}{}
		}
		for k := range b.strings {
			out.strings[k] = struct{}{}
		}
		t.spend(len(out.strings))
	}
	return out
}

func (t *unicodeSetsTranslator) intersect(a, b vClassSet) vClassSet {
	out := vClassSet{ranges: t.subtractRanges(a.ranges, complementRanges(b.ranges)), mayContainStrings: a.mayContainStrings && b.mayContainStrings}
	t.spend(len(b.ranges))
	for k := range a.strings {
		if _, ok := b.strings[k]; ok {
			if out.strings == nil {
				out.strings = map[string]struct{}{}
			}
			out.strings[k] = struct{}{}
		}
	}
	t.spend(len(a.strings))
	return out
}

func (t *unicodeSetsTranslator) subtract(a, b vClassSet) vClassSet {
	out := vClassSet{ranges: t.subtractRanges(a.ranges, b.ranges), mayContainStrings: a.mayContainStrings}
	for k := range a.strings {
		if _, ok := b.strings[k]; !ok {
			if out.strings == nil {
				out.strings = map[string]struct{}{}
			}
			out.strings[k] = struct{}{}
		}
	}
	t.spend(len(a.strings))
	return out
}

func (t *unicodeSetsTranslator) unionRanges(a, b []uint32) []uint32 {
	t.spend(len(a) + len(b))
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	return normalizeRanges(append(slices.Clone(a), b...))
}

// subtractRanges returns a minus b (both sorted and merged).
func (t *unicodeSetsTranslator) subtractRanges(a, b []uint32) []uint32 {
	t.spend(len(a) + len(b))
	out := make([]uint32, 0, len(a))
	j := 0
	for i := 0; i < len(a); i += 2 {
		lo, hi := a[i], a[i+1]
		for j < len(b) && b[j+1] < lo {
			j += 2
		}
		for k := j; k < len(b) && b[k] <= hi; k += 2 {
			if b[k] > lo {
				out = append(out, lo, b[k]-1)
			}
			if b[k+1] >= hi {
				lo = hi + 1
				break
			}
			lo = b[k+1] + 1
		}
		if lo <= hi {
			out = append(out, lo, hi)
		}
	}
	return out
}

// normalizeRanges sorts [lo, hi] pairs and merges those that overlap or touch.
func normalizeRanges(r []uint32) []uint32 {
	n := len(r) / 2
	pairs := make([][2]uint32, n)
	for i := range n {
		pairs[i] = [2]uint32{r[2*i], r[2*i+1]}
	}
	slices.SortFunc(pairs, func(x, y [2]uint32) int {
		if x[0] != y[0] {
			if x[0] < y[0] {
				return -1
			}
			return 1
		}
		return 0
	})
	out := make([]uint32, 0, len(r))
	for _, p := range pairs {
		if k := len(out); k > 0 && p[0] <= out[k-1]+1 {
			out[k-1] = max(out[k-1], p[1])
			continue
		}
		out = append(out, p[0], p[1])
	}
	return out
}

// writeSet writes s for the u flag: its strings, longest first, as alternatives before its code
// points, or its code points alone as a class. negated (a top-level [^…], which holds no
// strings) is written as a negated class, which matches with the i flag exactly the code points
// whose canonical form is not in s.
func (t *unicodeSetsTranslator) writeSet(sb *strings.Builder, s vClassSet, negated bool) {
	if negated {
		if len(s.ranges) == 0 {
			sb.WriteString(`[\u{0}-\u{10ffff}]`)
			return
		}
		sb.WriteString("[^")
		writePropertyRanges(sb, s.ranges, true)
		sb.WriteByte(']')
		return
	}
	if len(s.strings) == 0 {
		writePropertyRanges(sb, s.ranges, false)
		return
	}
	strs := make([]string, 0, len(s.strings))
	for k := range s.strings {
		strs = append(strs, k)
	}
	slices.SortFunc(strs, func(a, b string) int {
		if la, lb := utf8.RuneCountInString(a), utf8.RuneCountInString(b); la != lb {
			return lb - la
		}
		return strings.Compare(a, b)
	})
	// (?:abc|de|[xyz]|) : the empty string, if there, is the last alternative.
	var alts []string
	for _, str := range strs {
		if str == "" {
			continue
		}
		var alt strings.Builder
		for _, c := range str {
			writeCodePointEscape(&alt, uint32(c))
		}
		alts = append(alts, alt.String())
	}
	if len(s.ranges) > 0 {
		var class strings.Builder
		writePropertyRanges(&class, s.ranges, false)
		alts = append(alts, class.String())
	}
	if _, ok := s.strings[""]; ok {
		alts = append(alts, "")
	}
	sb.WriteString("(?:")
	sb.WriteString(strings.Join(alts, "|"))
	sb.WriteByte(')')
}

// regexpFlagsInV8Order returns flags in the order V8 prints them in messages ("dgimsuvy").
func regexpFlagsInV8Order(flags string) string {
	var sb strings.Builder
	for _, f := range "dgimsuvy" {
		if strings.ContainsRune(flags, f) {
			sb.WriteRune(f)
		}
	}
	return sb.String()
}
