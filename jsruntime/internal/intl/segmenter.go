package intl

import (
	"fmt"
	"unicode"
	"unicode/utf16"

	"github.com/rivo/uniseg"
	"golang.org/x/text/unicode/norm"
)

// MaxSegmentLength caps the UTF-16 length of a string Intl.Segmenter segments: converting it
// and finding one boundary far into it is a native step goja cannot interrupt, and at this
// length each stays under about a quarter of a second on a loaded 2-core machine (measured:
// 1<<20 characters took 50-340 ms per step), as GUARDS.md's slow string methods do.
const MaxSegmentLength = 1 << 19

// ErrSegmentTooLong refuses a string longer than MaxSegmentLength.
var ErrSegmentTooLong error = &RangeError{Msg: fmt.Sprintf("Intl.Segmenter: a string of more than %d characters is not supported by this runtime", MaxSegmentLength)}

// Segmenter is a resolved Intl.Segmenter. Boundaries come from github.com/rivo/uniseg, which
// implements UAX #29 on Unicode 15.0 tables; V8 uses ICU's rules on Unicode 17. Where the two
// are known to differ the segmenter refuses the text with a *RangeError (see Segment).
type Segmenter struct {
	loc         Locale
	granularity string
}

// NewSegmenter resolves options as the Intl.Segmenter constructor does.
func NewSegmenter(loc Locale, o Options) (*Segmenter, error) {
	const ctor = "Intl.Segmenter"
	if _, err := getString(o, ctor, "localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	g, err := getString(o, ctor, "granularity", []string{"grapheme", "word", "sentence"}, "grapheme")
	if err != nil {
		return nil, err
	}
	return &Segmenter{loc: loc, granularity: g}, nil
}

// ResolvedOptions returns resolvedOptions() in V8's order.
func (s *Segmenter) ResolvedOptions() []Field {
	return []Field{{"locale", s.loc.Tag}, {"granularity", s.granularity}}
}

// Granularity is the resolved granularity option.
func (s *Segmenter) Granularity() string { return s.granularity }

// Segments is the segmentation of one string. Boundaries are found as they are asked for, so
// iterating costs one segment's work per step; those found are kept for containing().
type Segments struct {
	word bool
	// rest is the part of the text (as UTF-8, lone surrogates as U+0001) not yet segmented;
	// state is uniseg's state at its start.
	rest  string
	state int
	next  func(string, int) (string, string, int)
	// ends are the UTF-16 end offsets of the segments found so far; wordLike says for each
	// whether it is word-like (word granularity only).
	ends     []int32
	wordLike []bool
}

// Segment segments units (a JavaScript string's UTF-16 code units). Text this runtime cannot
// segment as V8 does is a *RangeError naming why: a string longer than MaxSegmentLength, a
// code point unassigned in Unicode 15.0 (assigned later, ICU knows its properties and uniseg
// does not), a virama before a letter at grapheme granularity (the Indic conjunct rule GB9c
// of Unicode 15.1, which uniseg lacks), and at word granularity text in the scripts ICU
// breaks with dictionaries (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar and other
// South East Asian scripts) instead of UAX #29.
func (s *Segmenter) Segment(units []uint16) (*Segments, error) {
	if len(units) > MaxSegmentLength {
		return nil, ErrSegmentTooLong
	}
	runes := make([]rune, 0, len(units))
	for i := 0; i < len(units); i++ {
		c := rune(units[i])
		switch {
		case utf16.IsSurrogate(c) && c < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF:
			c = utf16.DecodeRune(c, rune(units[i+1]))
			i++
		case utf16.IsSurrogate(c):
			// A lone surrogate is Control for graphemes and Other for words and sentences in
			// ICU, as U+0001 is; it stays one UTF-16 unit long.
			c = 0x0001
		}
		runes = append(runes, c)
	}
	for i, r := range runes {
		if r < 0x80 {
			// ASCII is assigned, has no virama and no dictionary script.
			if s.granularity == "sentence" && r == ';' {
				// Unicode 16 made the semicolon SContinue (it no longer ends a sentence after
				// "?" or "!"); the comma is SContinue in uniseg's 15.0 tables and as long.
				runes[i] = ','
			}
			continue
		}
		if !assigned(r) {
			return nil, rangeErrorf("Intl.Segmenter: U+%04X is not assigned in Unicode 15.0, which this runtime's segmentation rules know (V8's ICU knows Unicode 17)", r)
		}
		if s.granularity == "grapheme" && unicode.Is(unicode.Mn, r) && norm.NFD.PropertiesString(string(r)).CCC() == 9 && letterAfterMarks(runes[i+1:]) {
			return nil, rangeErrorf("Intl.Segmenter: grapheme clusters of Indic conjuncts (a virama before a consonant, Unicode 15.1 rule GB9c) are not supported by this runtime")
		}
		if s.granularity == "word" && unicode.In(r, dictionaryScripts...) {
			return nil, rangeErrorf("Intl.Segmenter: word segmentation of %s text is not supported by this runtime (V8's ICU breaks it with dictionaries)", scriptName(r))
		}
		if s.granularity == "word" && unicode.Is(hangulJamo, r) {
			return nil, rangeErrorf("Intl.Segmenter: word segmentation of conjoining Hangul jamo (U+%04X) is not supported by this runtime (ICU's rules split them by syllable)", r)
		}
	}
	seg := &Segments{rest: string(runes), state: -1, word: s.granularity == "word"}
	switch s.granularity {
	case "grapheme":
		seg.next = func(str string, st int) (string, string, int) {
			c, rest, _, st := uniseg.FirstGraphemeClusterInString(str, st)
			return c, rest, st
		}
	case "word":
		seg.next = uniseg.FirstWordInString
	default:
		seg.next = uniseg.FirstSentenceInString
	}
	return seg, nil
}

// dictionaryScripts are the scripts ICU's word break rules hand to a dictionary: its
// dictionaryCJK set and the South East Asian line-break class (Line_Break=SA).
var dictionaryScripts = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai,
	unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tai_Le, unicode.New_Tai_Lue, unicode.Tai_Tham, unicode.Tai_Viet}

// hangulJamo are the conjoining jamo blocks.
var hangulJamo = &unicode.RangeTable{R16: []unicode.Range16{{Lo: 0x1100, Hi: 0x11FF, Stride: 1},
	{Lo: 0xA960, Hi: 0xA97F, Stride: 1}, {Lo: 0xD7B0, Hi: 0xD7FF, Stride: 1}}}

func scriptName(r rune) string {
	for name, t := range unicode.Scripts {
		if unicode.Is(t, r) {
			return name
		}
	}
	return "this"
}

// assigned reports whether r is assigned in Go's Unicode tables (15.0, as uniseg's).
func assigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Cf, unicode.Co)
}

// letterAfterMarks reports whether the first rune of rs that is not a combining mark or a
// joiner is a letter: a consonant the virama before rs may join in Unicode 15.1's GB9c.
func letterAfterMarks(rs []rune) bool {
	for _, r := range rs {
		if unicode.Is(unicode.M, r) || r == 0x200D || r == 0x200C {
			continue
		}
		return unicode.IsLetter(r)
	}
	return false
}

// advance finds the next segment; false when the text is done.
func (s *Segments) advance() bool {
	if s.rest == "" {
		return false
	}
	seg, rest, st := s.next(s.rest, s.state)
	s.rest, s.state = rest, st
	n := 0
	like := false
	for _, r := range seg {
		n++
		if r >= 0x10000 {
			n++
		}
		// ICU's rule status: letters and numbers (and ideographs and kana, refused above) make
		// a word; spaces, punctuation, symbols and emoji do not.
		// (Word_Break Numeric is Nd; No such as ½ and ² is Other.)
		if s.word && (unicode.IsLetter(r) || unicode.In(r, unicode.Nd, unicode.Nl)) {
			like = true
		}
	}
	start := int32(0)
	if len(s.ends) > 0 {
		start = s.ends[len(s.ends)-1]
	}
	s.ends = append(s.ends, start+int32(n))
	s.wordLike = append(s.wordLike, like)
	return true
}

// At returns the k-th segment's UTF-16 offsets and whether it is word-like; ok is false past
// the last one.
func (s *Segments) At(k int) (start, end int, wordLike, ok bool) {
	for len(s.ends) <= k {
		if !s.advance() {
			return 0, 0, false, false
		}
	}
	if k > 0 {
		start = int(s.ends[k-1])
	}
	return start, int(s.ends[k]), s.wordLike[k], true
}

// Containing returns the segment that holds the UTF-16 offset i, as At; ok is false when i is
// outside the text.
func (s *Segments) Containing(i int) (start, end int, wordLike, ok bool) {
	if i < 0 {
		return 0, 0, false, false
	}
	for len(s.ends) == 0 || int(s.ends[len(s.ends)-1]) <= i {
		if !s.advance() {
			return 0, 0, false, false
		}
	}
	// Binary search for the first end past i.
	lo, hi := 0, len(s.ends)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if int(s.ends[mid]) > i {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return s.At(lo)
}
