// Package srcscan measures, in one linear pass and before any parser sees it, how deep the
// parsers will recurse on a JavaScript or TypeScript source text (Nesting, Scan), so that
// jsruntime can refuse absurdly deep text with an ordinary error. It knows nothing of goja.
package srcscan

import (
	"unicode"
	"unicode/utf8"
)

// The parsers and compilers that read source text (goja's, esbuild's) and goja's JSON.parse
// recurse once per level of nesting, and a Go stack overflow ends the whole process: recover
// cannot catch it. The scanners here measure, in one linear pass and before any parser sees the
// text, an upper bound of how deep the parsers will recurse, so that absurdly deep text is
// refused with an ordinary error instead.
//
// Measured on goja v0.0.0-20260917113740 and esbuild v0.28.2 (Go stack per level): goja parses
// a bracket or parenthesis level in about 3.3 KiB and compiles a link of a left-deep chain
// (a.b.c…, f()()…, 1+1+…) in about 0.8 KiB; esbuild visits a link of a member or unary chain in
// 2–7 KiB (binary chains it walks without recursion). The goroutine stack limit is 1 GB, so
// about 300,000 brackets or 200,000 chain links end the process. esbuild also takes cubic time
// in directly nested arrow functions (a=>a=>…: 1,000 take 2 s, 2,000 take 20 s), which is why
// arrows have their own, lower, bound.

// Limits of the source scanner; see Nesting.
const (
	// MaxNesting bounds the nesting that a program, eval or Function source text may
	// reach (Nesting's measure): about 35 MB of Go stack at the measured worst cost per
	// unit, a thousand times what real programs use.
	MaxNesting = 5000
	// MaxArrows bounds how many arrow functions may be nested directly inside one another
	// (esbuild takes about 50 ms for 256).
	MaxArrows = 256
)

// nestingLevel is one open bracket, brace, parenthesis or template substitution.
type nestingLevel struct {
	open byte // '(', '[', '{' or '$' for a template substitution
	// chain counts the operator tokens of the current expression or statement at this level:
	// each can add a level to the parse tree (a.b.c, !!!x, 1+2+3, f()(), if (a) if (b) …)
	// without a bracket. It restarts at ',' and ';' and where a new statement starts on a new
	// line.
	chain int
	// sticky counts 'else' and 'do', which nest statements across ';': it restarts only when
	// the level closes.
	sticky int
	// arrows counts the '=>' of the current expression at this level.
	arrows int
	// inner is the deepest measure of the levels closed inside the current expression: the
	// chain tokens after them still wrap them ((((x))) + 1 + 1 nests x five deep).
	inner int
	// base is the measure just before this level opened; peak the highest since.
	base, peak int
	// controlHead marks the parenthesis after if, while, for or with (a '/' after it starts a
	// regular expression); block marks a brace that opens a block or body rather than an
	// object literal (the same after its '}').
	controlHead, block bool
}

// token classes the scanner remembers of the previous significant token.
const (
	tokNone         = iota // start of text
	tokPunct               // an operator or opening punctuator: an expression may follow
	tokKeywordOp           // a keyword after which an expression follows (return, typeof, …)
	tokKeyword             // another keyword (if, while, …): a statement or expression follows
	tokValue               // an identifier, literal, or keyword value: an expression ended here
	tokCloseParen          // ')' (controlHead of the closed level in prevControl)
	tokCloseBracket        // ']'
	tokCloseBrace          // '}' (block of the closed level in prevBlock)
)

// sourceScanner holds the state of one Nesting pass.
type sourceScanner struct {
	src    string
	i      int
	levels []nestingLevel
	// top is the outermost level (the text itself), which no bracket opened.
	top nestingLevel
	// total is the nesting measure at the current point: the open levels plus the chain and
	// sticky counts of each; arrows is the sum of their arrow counts.
	total, arrows       int
	maxTotal, maxArrows int
	prev                int
	prevWord            string // the keyword, when prev is tokKeyword or tokKeywordOp
	prevControl         bool
	prevBlock           bool
	prevArrow           bool // the previous token is '=>': a '{' after it opens a body
	newline             bool // a line terminator since the previous token
	// exprBody is 1 + the number of open levels where a function or class expression began
	// (0: none), whose body brace is an expression's: a '/' after its '}' divides.
	exprBody int
	// rechecks counts the re-readings (see recheck) this scanner is nested in.
	rechecks int
	// typeArgs is set by a '>' (not part of '=>' or '>=') followed by '(' or '`': where
	// TypeScript type arguments end (f<T>(x), new Set<string>(xs), tag<T>`…`), text that plain
	// JavaScript also accepts, as comparisons.
	typeArgs bool
}

// Bounds of recheck.
const (
	recheckOpeners = 64        // brackets a skipped token may hold before it is re-read as code
	recheckBytes   = 256 << 10 // bytes a skipped token may hold before it is re-read as code
	maxRechecks    = 4         // re-readings nested in one another before every bracket just counts
)

// Nesting returns an upper bound of the nesting of JavaScript or TypeScript text src, the
// measure MaxNesting bounds, and the deepest nesting of arrow functions. The measure is,
// at the deepest point, the number of open brackets, braces, parentheses and template
// substitutions plus, for each of them (and the text itself), the operator tokens of the
// expression or statement under way there: everything that can deepen goja's or esbuild's parse
// tree. Strings, comments, template text and regular expressions are skipped (a regular
// expression's brackets count as levels: groups nest in the regexp parser); whether a '/'
// starts a regular expression is decided from the previous token, as a tokenizer without a
// parser does, and since that guess can be wrong, skipped text that is bracket-heavy or long is
// measured as code as well (recheck). It over-counts (each operator character counts, so "==="
// is three) and never panics; on text that is not valid JavaScript the figure is still an upper
// bound of what a parser reads before it fails. It is linear in the text (rechecks read a
// character at most maxRechecks more times) and stops early, returning a figure above the
// limits, once either is exceeded.
func Nesting(src string) (nesting, arrows int) {
	nesting, arrows, _ = Scan(src)
	return nesting, arrows
}

// Scan is Nesting that also reports whether src may hold TypeScript type arguments
// that plain JavaScript would read as comparisons (see sourceScanner.typeArgs): such a program
// must not skip the TypeScript transform.
func Scan(src string) (nesting, arrows int, typeArgs bool) {
	s := sourceScanner{src: src}
	s.scan()
	return s.maxTotal, s.maxArrows, s.typeArgs
}

func (s *sourceScanner) cur() *nestingLevel {
	if n := len(s.levels); n > 0 {
		return &s.levels[n-1]
	}
	return &s.top
}

// add changes the measure by n (which the caller has added to the current level's counts).
func (s *sourceScanner) add(n int) {
	s.total += n
	s.maxTotal = max(s.maxTotal, s.total)
	l := s.cur()
	l.peak = max(l.peak, s.total)
}

// bump adds one operator token to the current level's chain.
func (s *sourceScanner) bump() {
	s.cur().chain++
	s.add(1)
}

// restart ends the expression under way at the current level.
func (s *sourceScanner) restart() {
	l := s.cur()
	s.total -= l.chain + l.inner
	s.arrows -= l.arrows
	l.chain, l.arrows, l.inner = 0, 0, 0
}

func (s *sourceScanner) push(open byte, controlHead, block bool) {
	if open != '$' {
		s.bump() // a bracket extends the enclosing expression too: f()(), a[0][1]
	}
	s.levels = append(s.levels, nestingLevel{open: open, controlHead: controlHead, block: block, base: s.total})
	s.add(1)
}

// pop closes the innermost level, reporting what it was; ok is false when none is open. The
// enclosing level's expression now contains everything the closed one did.
func (s *sourceScanner) pop() (l nestingLevel, ok bool) {
	n := len(s.levels)
	if n == 0 {
		return l, false
	}
	l = s.levels[n-1]
	s.levels = s.levels[:n-1]
	s.total -= 1 + l.chain + l.sticky + l.inner
	s.arrows -= l.arrows
	p := s.cur()
	p.peak = max(p.peak, l.peak)
	if d := l.peak - l.base; d > p.inner {
		s.add(d - p.inner)
		p.inner = d
	}
	return l, true
}

// over reports whether the scan has seen enough to refuse the text.
func (s *sourceScanner) over() bool {
	return s.maxTotal > MaxNesting || s.maxArrows > MaxArrows
}

// endsExpression reports whether the previous token can end an expression statement, so that a
// line break before an identifier or literal ends the statement (automatic semicolon insertion).
func (s *sourceScanner) endsExpression() bool {
	switch s.prev {
	case tokValue, tokCloseBracket:
		return true
	case tokCloseParen:
		return !s.prevControl
	case tokCloseBrace:
		return true
	}
	return false
}

// regexAllowed reports whether a '/' here starts a regular expression rather than a division.
func (s *sourceScanner) regexAllowed() bool {
	switch s.prev {
	case tokNone, tokPunct, tokKeywordOp, tokKeyword:
		return true
	case tokCloseParen:
		return s.prevControl
	case tokCloseBrace:
		return s.prevBlock
	}
	return false
}

// braceIsBlock guesses whether a '{' here opens a block or body (true) or an object literal.
func (s *sourceScanner) braceIsBlock() bool {
	switch s.prev {
	case tokPunct, tokKeywordOp:
		return s.prevArrow
	}
	return true
}

func (s *sourceScanner) scan() {
	src := s.src
	if len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		s.skipLine()
	}
	for s.i < len(src) && !s.over() {
		c := src[s.i]
		switch {
		case c == '\n' || c == '\r':
			s.newline = true
			s.i++
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			s.i++
		case c == '/' && s.i+1 < len(src) && src[s.i+1] == '/':
			s.skipLine()
		case c == '/' && s.i+1 < len(src) && src[s.i+1] == '*':
			s.skipBlockComment()
		case c == '/' && s.regexAllowed():
			s.beforeToken(false)
			s.regex()
			s.after(tokValue)
		case c == '\'' || c == '"':
			s.beforeToken(true)
			s.quoted(c)
			s.after(tokValue)
		case c == '`':
			s.beforeToken(false)
			s.bump() // a template can be tagged: tag`a``b`…
			s.i++
			s.template()
		case c >= '0' && c <= '9' || c == '.' && s.i+1 < len(src) && src[s.i+1] >= '0' && src[s.i+1] <= '9':
			s.beforeToken(true)
			s.number()
			s.after(tokValue)
		case c == '(' || c == '[' || c == '{':
			s.beforeToken(false)
			controlHead := c == '(' && (s.prev == tokKeyword && isControlKeyword(s.prevWord) || s.prev == tokKeywordOp && s.prevWord == "for await")
			block := c == '{' && s.braceIsBlock()
			if c == '{' && s.exprBody == len(s.levels)+1 {
				block, s.exprBody = false, 0
			}
			s.i++
			s.push(c, controlHead, block)
			s.after(tokPunct)
		case c == ')' || c == ']' || c == '}':
			s.i++
			l, ok := s.pop()
			if c == '}' && ok && l.open == '$' {
				s.template() // the substitution ended: the template goes on
				continue
			}
			s.newline = false
			switch c {
			case ')':
				s.prev, s.prevControl = tokCloseParen, l.controlHead
			case ']':
				s.prev = tokCloseBracket
			default:
				s.prev, s.prevBlock = tokCloseBrace, !ok || l.block
			}
		case (c == '+' || c == '-') && s.i+1 < len(src) && src[s.i+1] == c && !s.newline && s.endsExpression():
			// A postfix ++ or --: the operand's expression may go on (a++ / 2).
			s.i += 2
			s.bump()
			s.bump()
		case c == ';' || c == ',':
			s.i++
			s.restart()
			s.after(tokPunct)
		case c == '=' && s.i+1 < len(src) && src[s.i+1] == '>':
			s.beforeToken(false)
			s.i += 2
			s.bump()
			s.bump()
			s.cur().arrows++
			s.arrows++
			s.maxArrows = max(s.maxArrows, s.arrows)
			s.after(tokPunct)
			s.prevArrow = true
		case c >= utf8.RuneSelf && s.space():
			// Non-ASCII white space (U+00A0, U+FEFF, U+2028, …) separates tokens as ' ' does:
			// read as part of a word it would turn "return\u00a0/re/" into a division.
		case isIdentStart(c):
			s.word()
		default:
			// Any other character is an operator or punctuator, one token per character; an
			// unexpected one is the parser's to refuse.
			if c == '>' {
				s.noteTypeArgs()
			}
			s.beforeToken(false)
			s.i++
			s.bump()
			s.after(tokPunct)
		}
	}
}

// noteTypeArgs sets typeArgs when the '>' at s.i is followed, after white space, by '(' or '`'.
func (s *sourceScanner) noteTypeArgs() {
	j := s.i + 1
	if j < len(s.src) && s.src[j] == '=' {
		return // >=
	}
	for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t' || s.src[j] == '\n' || s.src[j] == '\r') {
		j++
	}
	if j < len(s.src) && (s.src[j] == '(' || s.src[j] == '`') {
		s.typeArgs = true
	}
}

// beforeToken restarts the current expression when a line break ends the previous statement:
// the previous token can end one and the next (an identifier, literal or string: startsValue)
// cannot continue it.
func (s *sourceScanner) beforeToken(startsValue bool) {
	if s.newline && startsValue && s.endsExpression() {
		s.restart()
	}
}

func (s *sourceScanner) after(tok int) {
	s.prev, s.newline, s.prevArrow = tok, false, false
}

func (s *sourceScanner) skipLine() {
	start := s.i
	for s.i < len(s.src) && s.src[s.i] != '\n' && s.src[s.i] != '\r' {
		s.i++
	}
	s.recheck(start, s.i)
}

// recheck re-reads text the scanner skipped (a string, template text, a comment) as code, when
// it holds more than recheckOpeners brackets or recheckBytes bytes, and counts the nesting it
// would have. Deciding what is a string needs a parser in places (is this '/' a division or a
// regular expression?), and a wrong guess could make the scanner skip, as a string, code that
// nests deeply: with brackets, or in a chain of operators, which takes hundreds of KiB on one
// line to matter. Real strings that are bracket-heavy (JSON, code in a template) measure about
// what they nest as code, which is little. Past maxRechecks nested re-readings, every bracket
// and operator character counts as a level.
func (s *sourceScanner) recheck(start, end int) {
	text := s.src[start:min(end, len(s.src))]
	openers, operators := 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '(' || c == '[' || c == '{':
			openers++
		case c > ' ' && c < utf8.RuneSelf && !isIdentPart(c):
			operators++
		}
	}
	if openers <= recheckOpeners && len(text) <= recheckBytes {
		return
	}
	deeper, arrows := openers+operators, 0
	if s.rechecks < maxRechecks {
		sub := sourceScanner{src: text, rechecks: s.rechecks + 1}
		sub.scan()
		deeper, arrows = sub.maxTotal, sub.maxArrows
	}
	s.maxTotal = max(s.maxTotal, s.total+deeper)
	s.maxArrows = max(s.maxArrows, s.arrows+arrows)
	l := s.cur()
	l.peak = max(l.peak, s.total+deeper)
}

func (s *sourceScanner) skipBlockComment() {
	s.i += 2
	start := s.i
	for s.i < len(s.src) {
		if s.src[s.i] == '*' && s.i+1 < len(s.src) && s.src[s.i+1] == '/' {
			s.recheck(start, s.i)
			s.i += 2
			return
		}
		if s.src[s.i] == '\n' || s.src[s.i] == '\r' {
			s.newline = true
		}
		s.i++
	}
	s.recheck(start, s.i)
}

// quoted skips a string literal; an unescaped line break ends it (a syntax error).
func (s *sourceScanner) quoted(q byte) {
	s.i++
	start := s.i
	defer func() { s.recheck(start, s.i) }()
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case q:
			s.i++
			return
		case '\\':
			s.i += 2
			continue
		case '\n', '\r':
			return
		}
		s.i++
	}
}

// template skips template text up to the closing backquote or a substitution, which it opens.
func (s *sourceScanner) template() {
	start := s.i
	defer func() { s.recheck(start, s.i) }()
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case '`':
			s.i++
			s.after(tokValue)
			return
		case '\\':
			s.i += 2
			continue
		case '$':
			if s.i+1 < len(s.src) && s.src[s.i+1] == '{' {
				s.i += 2
				s.push('$', false, false)
				s.after(tokPunct)
				return
			}
		}
		s.i++
	}
	s.after(tokValue)
}

// regex skips a regular-expression literal; a line break ends it (a syntax error). Every '(',
// '[' and '{' in it counts as a level while it is open, closed or not: groups nest in the
// regexp parser, and should the '/' have been a division after all (a tokenizer without a
// parser can be misled), the brackets it skipped as a regular expression still count; a long
// or bracket-heavy one is re-read as code too (recheck).
func (s *sourceScanner) regex() {
	s.i++
	start := s.i
	depth, inClass := 0, false
	defer func() {
		s.total -= depth
		s.recheck(start, s.i)
	}()
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case '\\':
			s.i += 2
			continue
		case '\n', '\r':
			return
		case '(', '[', '{':
			depth++
			s.add(1)
			if s.src[s.i] == '[' {
				inClass = true
			}
		case ']':
			inClass = false
		case '/':
			if !inClass {
				s.i++
				for s.i < len(s.src) && isIdentPart(s.src[s.i]) { // flags
					s.i++
				}
				return
			}
		}
		s.i++
	}
}

// number skips a numeric literal. Only a decimal literal has an exponent with a sign: in 0xe+1
// the '+' is an operator.
func (s *sourceScanner) number() {
	start := s.i
	radix := len(s.src) > s.i+1 && s.src[s.i] == '0' && (s.src[s.i+1]|0x20 == 'x' || s.src[s.i+1]|0x20 == 'b' || s.src[s.i+1]|0x20 == 'o')
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '.' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			s.i++
		case (c == '+' || c == '-') && !radix && s.i > start && s.src[s.i-1]|0x20 == 'e':
			s.i++
		default:
			return
		}
	}
}

// space skips one non-ASCII white-space or line-terminator character at s.i, if there is one.
func (s *sourceScanner) space() bool {
	r, n := utf8.DecodeRuneInString(s.src[s.i:])
	switch {
	case r == '\u2028' || r == '\u2029':
		s.newline = true
	case unicode.IsSpace(r) || r == '\ufeff':
	default:
		return false
	}
	s.i += n
	return true
}

// word scans an identifier or keyword.
func (s *sourceScanner) word() {
	start := s.i
	for s.i < len(s.src) && isIdentPart(s.src[s.i]) {
		if s.src[s.i] >= utf8.RuneSelf {
			if r, _ := utf8.DecodeRuneInString(s.src[s.i:]); unicode.IsSpace(r) || r == '\ufeff' || r == '\u2028' || r == '\u2029' {
				break
			}
		}
		if s.src[s.i] == '\\' { // a unicode escape: \u0061 or \u{61}
			s.i++
		}
		s.i++
	}
	s.i = min(s.i, len(s.src)) // a trailing backslash
	w := s.src[start:s.i]
	kind, ok := keywordKinds[w]
	if !ok {
		s.beforeToken(true)
		s.after(tokValue)
		return
	}
	s.beforeToken(kind != tokContinues && kind != tokSticky)
	if kind == tokValueWord {
		s.after(tokValue)
		return
	}
	if (w == "function" || w == "class") && (s.prev == tokPunct || s.prev == tokKeywordOp) {
		s.exprBody = len(s.levels) + 1
	}
	if w == "await" && s.prev == tokKeyword && s.prevWord == "for" {
		w = "for await"
	}
	s.bump()
	if kind == tokSticky {
		l := s.cur()
		l.chain--
		l.sticky++
	}
	s.prevWord = w
	if kind == tokOpWord || kind == tokSticky {
		s.after(tokKeywordOp)
	} else {
		s.after(tokKeyword)
	}
}

// Kinds of keyword for the scanner.
const (
	tokValueWord = iota + 100 // this, super, true, false, null: an operand
	tokOpWord                 // an expression follows: return, typeof, new, in, …
	tokStmtWord               // if, while, for, with, class, function, …
	tokContinues              // continues the statement across a line break: instanceof, as, …
	tokSticky                 // else, do: nests statements across ';'
)

var keywordKinds = map[string]int{
	"this": tokValueWord, "super": tokValueWord, "true": tokValueWord, "false": tokValueWord, "null": tokValueWord,
	"return": tokOpWord, "typeof": tokOpWord, "void": tokOpWord, "delete": tokOpWord, "new": tokOpWord,
	"throw": tokOpWord, "case": tokOpWord, "yield": tokOpWord, "await": tokOpWord, "keyof": tokOpWord,
	"in": tokContinues, "instanceof": tokContinues, "of": tokContinues, "as": tokContinues,
	"satisfies": tokContinues, "extends": tokContinues, "implements": tokContinues,
	"catch": tokContinues, "finally": tokContinues,
	"else": tokSticky, "do": tokSticky,
	"if": tokStmtWord, "while": tokStmtWord, "for": tokStmtWord, "with": tokStmtWord, "class": tokStmtWord,
	"function": tokStmtWord, "try": tokStmtWord, "switch": tokStmtWord,
}

func isControlKeyword(w string) bool {
	return w == "if" || w == "while" || w == "for" || w == "with"
}

// isIdentStart reports whether c can start an identifier: ASCII letters, '_', '$', '#' (private
// names), '\\' (escapes) and every non-ASCII byte (a non-ASCII character that is not an
// identifier character is a syntax error, so treating it as one never hides a bracket).
func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '#' || c == '\\' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }
