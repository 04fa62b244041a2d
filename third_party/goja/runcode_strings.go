package goja

// runcode: String.prototype methods that work through a whole string in one native step
// (normalize, toLowerCase, toUpperCase, trim, split, replaceAll) read it in chunks and poll the
// runtime's interrupt flag between them, so Interrupt ends them as it ends a loop of JavaScript
// and no size below the heap needs refusing. RUNCODE.md, change 7.

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/transform"

	"github.com/dop251/goja/unistring"
)

const (
	// stringChunk is how many code units the chunked string methods handle between polls.
	stringChunk = 1 << 16
	// stringPollEvery is how many pieces (split) or matches (replaceAll) are made between polls.
	stringPollEvery = 1 << 12
)

// utf16UTF8Reader reads a UTF-16 string as UTF-8 (a lone surrogate as U+FFFD, as utf16.Decode),
// polling the runtime's interrupt flag once per Read.
type utf16UTF8Reader struct {
	r *Runtime
	s []uint16
}

func (u *utf16UTF8Reader) Read(p []byte) (int, error) {
	u.r.pollInterrupt()
	if len(u.s) == 0 {
		return 0, io.EOF
	}
	n := 0
	for len(u.s) > 0 && n+utf8.UTFMax <= len(p) {
		c := rune(u.s[0])
		size := 1
		switch {
		case c < utf8.RuneSelf:
			p[n] = byte(c)
			n++
			u.s = u.s[1:]
			continue
		case utf16.IsSurrogate(c):
			if c < 0xDC00 && len(u.s) > 1 && u.s[1] >= 0xDC00 && u.s[1] <= 0xDFFF {
				c = utf16.DecodeRune(c, rune(u.s[1]))
				size = 2
			} else {
				c = utf8.RuneError
			}
		}
		n += utf8.EncodeRune(p[n:], c)
		u.s = u.s[size:]
	}
	return n, nil
}

// pollingReader is a strings.Reader that polls the runtime's interrupt flag once per Read.
type pollingReader struct {
	r *Runtime
	s string
}

func (p *pollingReader) Read(b []byte) (int, error) {
	p.r.pollInterrupt()
	if len(p.s) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.s)
	p.s = p.s[n:]
	return n, nil
}

// utf8Source returns a reader of s as UTF-8 that polls r's interrupt flag.
func (r *Runtime) utf8Source(s String) io.Reader {
	a, u := devirtualizeString(s)
	if u != nil {
		return &utf16UTF8Reader{r: r, s: u[1:]}
	}
	return &pollingReader{r: r, s: string(a)}
}

// TransformString applies t (a cases.Caser, a norm.Form, ...) to s, stepping through s in
// chunks and polling the interrupt flag between them: linear in s, and ended by Interrupt.
func (r *Runtime) TransformString(s String, t transform.Transformer) String {
	t.Reset()
	src := transform.NewReader(r.utf8Source(s), t)
	out := make([]byte, 0, s.Length()+s.Length()/8+16)
	for {
		if len(out) == cap(out) {
			out = append(out, 0)[:len(out)]
		}
		n, err := src.Read(out[len(out):min(cap(out), len(out)+stringChunk*4)])
		out = out[:len(out)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(r.NewTypeError(err.Error()))
		}
	}
	r.pollInterrupt()
	return newStringValue(unsafe.String(unsafe.SliceData(out), len(out)))
}

// lowerString is toLowerCase (and toLocaleLowerCase without a locale of its own).
func (r *Runtime) lowerString(s String) String {
	a, u := devirtualizeString(s)
	if u == nil {
		return asciiString(r.chunkedASCII(string(a), strings.ToLower))
	}
	return r.lowerUTF16(u[1:])
}

// lowerUTF16 is toLowerCase of a UTF-16 string, as V8 (ICU) maps it: the full lower-case mapping
// of the root locale, which is the simple mapping (unicode.ToLower) but for U+0130 (i and a
// combining dot above) and the final sigma (Σ lowers to ς when a cased letter precedes it and none
// follows it, skipping case-ignorable characters both ways). Lone surrogates are kept. It polls
// the interrupt flag every stringChunk code units. goja lowered through x/text's caser, which
// loses the final-sigma context at the edge of its internal buffers (a long text of "ΣΑΣ " came
// out with some "σασ"), and patched U+0345 before ς (V8 skips U+0345, case-ignorable, when it
// looks for the cased letter).
func (r *Runtime) lowerUTF16(u []uint16) String {
	out := make([]uint16, 1, len(u)+1)
	out[0] = unistring.BOM
	ascii := true
	precededByCased := false // the last character that is not case-ignorable is cased
	for i, next := 0, stringChunk; i < len(u); {
		if i >= next {
			r.pollInterrupt()
			next = i + stringChunk
		}
		c, size := rune(u[i]), 1
		if utf16.IsSurrogate(c) && c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff {
			c, size = utf16.DecodeRune(c, rune(u[i+1])), 2
		}
		var l rune
		switch {
		case c < utf8.RuneSelf:
			l = c
			if c >= 'A' && c <= 'Z' {
				l = c + 'a' - 'A'
			}
		case c == 0x130:
			out = append(out, 'i')
			l = 0x307
		case c == 0x3a3:
			l = 0x3c3
			if precededByCased && !followedByCased(u[i+1:]) {
				l = 0x3c2
			}
		case utf16.IsSurrogate(c):
			l = c
		default:
			l = unicode.ToLower(c)
		}
		if l >= utf8.RuneSelf {
			ascii = false
		}
		if l >= 0x10000 {
			a, b := utf16.EncodeRune(l)
			out = append(out, uint16(a), uint16(b))
		} else {
			out = append(out, uint16(l))
		}
		if !isCaseIgnorable(c) {
			precededByCased = isCased(c)
		}
		i += size
	}
	if ascii {
		b := make([]byte, len(out)-1)
		for i, c := range out[1:] {
			b[i] = byte(c)
		}
		return asciiString(unsafe.String(unsafe.SliceData(b), len(b)))
	}
	return unicodeString(out)
}

// followedByCased reports whether the first character of u that is not case-ignorable is cased.
func followedByCased(u []uint16) bool {
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if utf16.IsSurrogate(c) && c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff {
			c = utf16.DecodeRune(c, rune(u[i+1]))
			i++
		}
		if !isCaseIgnorable(c) {
			return isCased(c)
		}
	}
	return false
}

// upperString is toUpperCase (and toLocaleUpperCase without a locale of its own).
func (r *Runtime) upperString(s String) String {
	a, u := devirtualizeString(s)
	if u == nil {
		return asciiString(r.chunkedASCII(string(a), strings.ToUpper))
	}
	if len(u) <= stringChunk {
		return s.toUpper()
	}
	return r.caseChunked(u[1:], cases.Upper(language.Und))
}

// CaseString maps s with c (a locale's cases.Upper or cases.Lower) chunk by chunk, polling the
// interrupt flag between chunks (see caseChunked).
func (r *Runtime) CaseString(s String, c cases.Caser) String {
	a, u := devirtualizeString(s)
	if u == nil {
		u = make(unicodeString, len(a)+1)
		for i := 0; i < len(a); i++ {
			u[i+1] = uint16(a[i])
		}
	}
	return r.caseChunked(u[1:], c)
}

// caseChunked maps u with c chunk by chunk, polling between chunks. x/text's casers lose the
// final-sigma context at the edge of a streaming buffer, so each chunk ends where no mapping
// depends on what follows: before a character that is neither cased nor case-ignorable, or
// between two cased letters neither of which is a sigma (Unicode's Final_Sigma condition looks
// across case-ignorable characters to the nearest cased one). A stretch without such a place
// (millions of sigmas or combining marks) is mapped in one step.
func (r *Runtime) caseChunked(u []uint16, c cases.Caser) String {
	out := make([]byte, 0, len(u)+len(u)/4)
	for len(u) > 0 {
		r.pollInterrupt()
		n := len(u)
		if n > stringChunk {
			n = caseBoundary(u, stringChunk)
		}
		out = append(out, c.String(string(utf16.Decode(u[:n])))...)
		u = u[n:]
	}
	r.pollInterrupt()
	return newStringValue(unsafe.String(unsafe.SliceData(out), len(out)))
}

// caseBoundary returns the first position from from on where u can be cut for casing (see
// caseChunked), or len(u).
func caseBoundary(u []uint16, from int) int {
	for p := from; p < len(u); p++ {
		prev, c := rune(u[p-1]), rune(u[p])
		if utf16.IsSurrogate(prev) || utf16.IsSurrogate(c) {
			continue
		}
		if !isCased(c) && !isCaseIgnorable(c) {
			return p
		}
		if isCased(prev) && isCased(c) && unicode.IsLetter(prev) && unicode.IsLetter(c) && !isSigma(prev) && !isSigma(c) {
			return p
		}
	}
	return len(u)
}

func isSigma(c rune) bool { return c == 0x3a3 || c == 0x3c3 || c == 0x3c2 }

// isCased is Unicode's Cased property.
func isCased(c rune) bool {
	return unicode.IsUpper(c) || unicode.IsLower(c) || unicode.IsTitle(c) ||
		unicode.Is(unicode.Other_Lowercase, c) || unicode.Is(unicode.Other_Uppercase, c)
}

// isCaseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk and the word-break
// MidLetter, MidNumLet and Single_Quote characters.
func isCaseIgnorable(c rune) bool {
	switch c {
	case '\'', '.', ':', '^', '`', 0xb7, 0x387, 0x55f, 0x5f4, 0x2018, 0x2019, 0x2024, 0x2027, 0xfe13, 0xfe52, 0xfe55, 0xff07, 0xff0e, 0xff1a:
		return true
	}
	return unicode.In(c, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// chunkedASCII maps an ASCII string chunk by chunk with f (which maps ASCII to ASCII of the
// same length), polling between chunks.
func (r *Runtime) chunkedASCII(s string, f func(string) string) string {
	if len(s) <= stringChunk {
		return f(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		r.pollInterrupt()
		n := min(len(s), stringChunk*4)
		b.WriteString(f(s[:n]))
		s = s[n:]
	}
	return b.String()
}

// isJSWhitespace reports whether the code unit c is WhiteSpace or LineTerminator
// (parser.WhitespaceChars; all are BMP code units that are not surrogates).
func isJSWhitespace(c uint16) bool {
	switch c {
	case ' ', '\f', '\n', '\r', '\t', '\v', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return c >= 0x2000 && c <= 0x200a
}

// trimString is trim, trimStart (end false) and trimEnd (start false): it reads only the
// whitespace it removes and copies what is left once.
func trimString(s String, start, end bool) String {
	i, j := 0, s.Length()
	if start {
		for i < j && isJSWhitespace(s.CharAt(i)) {
			i++
		}
	}
	if end {
		for j > i && isJSWhitespace(s.CharAt(j-1)) {
			j--
		}
	}
	if i == 0 && j == s.Length() {
		return s
	}
	return s.Substring(i, j)
}

// splitASCII is split of an ASCII string on a non-empty ASCII separator, polling every
// stringPollEvery pieces; the pieces share s's memory.
func (r *Runtime) splitASCII(s, sep string, limit int) []Value {
	var out []Value
	for limit < 0 || len(out) < limit {
		if len(out)%stringPollEvery == stringPollEvery-1 {
			r.pollInterrupt()
		}
		i := strings.Index(s, sep)
		if i < 0 {
			out = append(out, asciiString(s))
			break
		}
		out = append(out, asciiString(s[:i]))
		s = s[i+len(sep):]
	}
	return out
}

// utf16Piece makes the string of the code units u: ASCII when they all are.
func utf16Piece(u []uint16) String {
	for _, c := range u {
		if c >= utf8.RuneSelf {
			chunk := make(unicodeString, len(u)+1)
			chunk[0] = unistring.BOM
			copy(chunk[1:], u)
			return chunk
		}
	}
	b := make([]byte, len(u))
	for i, c := range u {
		b[i] = byte(c)
	}
	return asciiString(b)
}

// replaceAllString is replaceAll with a string search: the result is written as each match is
// found (a replacer function is called at each, in order, as after collecting them all: the
// search has no side effects), polling the interrupt flag every stringPollEvery matches.
func (r *Runtime) replaceAllString(s, search String, advanceBy int, replaceStr String, rcall func(FunctionCall) Value) Value {
	pos := s.index(search, 0)
	if pos == -1 {
		return s
	}
	var buf StringBuilder
	last, n := 0, 0
	for pos != -1 {
		if n++; n%stringPollEvery == 0 {
			r.pollInterrupt()
		}
		if pos != last {
			buf.WriteSubstring(s, last, pos)
		}
		end := pos + search.Length()
		if rcall != nil {
			buf.WriteString(rcall(FunctionCall{
				This:      _undefined,
				Arguments: []Value{s.Substring(pos, end), intToValue(int64(pos)), s},
			}).toString())
		} else {
			writeSubstitution(s, pos, 1, func(idx int) String {
				if idx == 0 {
					return s.Substring(pos, end)
				}
				return stringEmpty
			}, func(String) String { return nil }, replaceStr, &buf)
		}
		last = end
		pos = s.index(search, pos+advanceBy)
	}
	if last != s.Length() {
		buf.WriteSubstring(s, last, s.Length())
	}
	return buf.String()
}

// repeatUTF16 is u repeated n times (n >= 1), made by doubling copies as strings.Repeat does.
func repeatUTF16(u unicodeString, n int) unicodeString {
	unit := u[1:]
	out := make(unicodeString, 1+len(unit)*n)
	out[0] = unistring.BOM
	body := out[1:]
	k := copy(body, unit)
	for k < len(body) {
		k += copy(body[k:], body[:k])
	}
	return out
}
