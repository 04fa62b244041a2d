// Package progform tells the two forms of a program apart and turns the module form into the
// body form, keeping every line where it was.
//
// A program is normally the body of an async function: top-level await and return work. The
// module form is what editors and tsc accept as a file: top-level await, no imports, and the
// result as `export default <expr>` (or only `export {}`: the result is nothing). The module form
// runs as a body in which `export default` becomes an assignment to a hidden variable that the
// body returns after its last statement, so statements after the export still run, and
// `export {}` becomes blanks. Both changes stay on their lines, so stack traces and diagnostics
// of the converted text name the file's own lines.
//
// The scanner is a single linear pass over the text (no recursion): it skips comments, strings,
// template literals and regular-expression literals (told from division by the token before
// them, as JavaScript tokenizers do) and only looks at `import` and `export` outside every
// bracket, brace and parenthesis.
package progform

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Form is the form of a program.
type Form int

// The forms.
const (
	// Body is the body of an async function (what run_code receives).
	Body Form = iota
	// Module is a module with top-level await and `export default <expr>` or `export {}`
	// (and type-only exports, `export type X = …` and `export interface X {…}`).
	Module
)

// String returns "body" or "module".
func (f Form) String() string {
	if f == Module {
		return "module"
	}
	return "body"
}

// ResultVar is the variable that holds a module-form program's default export in its body form.
// It is as long as "export default" minus the " =" that follows it, so the line keeps its length.
const ResultVar = "__rc_default"

// Error is a program that is in neither form: an import, or an export other than
// `export default <expr>` and `export {}`. Line and Column are 1-based; Column counts UTF-16 code
// units, as JavaScript and tsc do.
type Error struct {
	Line, Column int
	Message      string
}

// Error returns "<line>:<column>: <message>".
func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Message) }

// Program is a program's form and the positions that decide it.
type Program struct {
	Form Form
	// HasDefault is set when a module-form program has `export default`.
	HasDefault bool
	// edits are the byte ranges that ToBody rewrites.
	defaultStart, defaultEnd int      // `export default` (with what lies between the words)
	empties                  [][2]int // each `export {}`
}

// Parse finds the form of src. It fails for an import declaration (in either form) and for any
// export but `export default <expr>` (once), `export {}`, and the type-only `export type X` and
// `export interface X` (which the body form keeps without the word export).
func Parse(src string) (Program, error) {
	s := scanner{src: src}
	var p Program
	for {
		tok := s.next()
		if tok.kind == tokEOF {
			return p, nil
		}
		if tok.kind != tokWord || s.depth() != 0 || tok.afterDot {
			continue
		}
		switch tok.text {
		case "import":
			after := s.peekByte()
			if after == '(' || after == '.' { // import(...) and import.meta are expressions
				continue
			}
			return Program{}, s.errorAt(tok.start, "import declarations are not supported: a program reaches its tools through the global `tools`, declared by the SDK")
		case "export":
			p.Form = Module
			nt := s.next()
			switch {
			case nt.kind == tokWord && nt.text == "default":
				if p.HasDefault {
					return Program{}, s.errorAt(tok.start, "a program may have only one `export default`")
				}
				p.HasDefault = true
				p.defaultStart, p.defaultEnd = tok.start, nt.start+len(nt.text)
			case nt.kind == tokWord && (nt.text == "type" || nt.text == "interface") && s.peekIdent():
				// A type-only export (a saved program's `export type Input`): the body keeps
				// the declaration and loses the word export.
				p.Form = Module
				p.empties = append(p.empties, [2]int{tok.start, tok.start + len("export")})
			case nt.kind == tokPunct && nt.text == "{":
				close := s.next()
				if close.kind != tokPunct || close.text != "}" {
					return Program{}, s.errorAt(tok.start, "only `export default <expr>` and `export {}` are supported in a program: it has no other exports")
				}
				p.empties = append(p.empties, [2]int{tok.start, close.start + 1})
			default:
				return Program{}, s.errorAt(tok.start, "only `export default <expr>` and `export {}` are supported in a program: it has no other exports")
			}
		}
	}
}

// ToBody returns the body form of p's source src (src itself for the body form).
func (p Program) ToBody(src string) string {
	if p.Form != Module {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 64)
	last := 0
	blank := func(start, end int, with string) {
		b.WriteString(src[last:start])
		span := src[start:end]
		b.WriteString(with)
		n := len(with)
		for _, r := range span {
			if r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' {
				b.WriteRune(r) // keep the lines
				n = 0
				continue
			}
			if n > 0 {
				n -= min(n, utf8.RuneLen(r))
				continue
			}
			b.WriteByte(' ')
		}
		last = end
	}
	edits := append([][2]int(nil), p.empties...)
	if p.HasDefault {
		edits = append(edits, [2]int{p.defaultStart, p.defaultEnd})
	}
	// The edits come from one forward scan except the default; sort by start.
	slices.SortFunc(edits, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	for _, e := range edits {
		if p.HasDefault && e[0] == p.defaultStart {
			blank(e[0], e[1], ResultVar+" =")
		} else {
			blank(e[0], e[1], "")
		}
	}
	b.WriteString(src[last:])
	if p.HasDefault {
		// After the last line, so no line moves; var is hoisted, so the assignment above is to
		// this variable wherever it stands.
		b.WriteString("\n;var " + ResultVar + "; return " + ResultVar + ";")
	}
	return b.String()
}

// ToBody returns the body form of src: src itself when it is a body, the converted text when it
// is a module.
func ToBody(src string) (string, error) {
	p, err := Parse(src)
	if err != nil {
		return "", err
	}
	return p.ToBody(src), nil
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokWord
	tokNumber
	tokString   // a string literal, or a template literal with no substitution before the next token
	tokTemplate // the end of a template literal or of its substitution
	tokRegexp
	tokPunct
)

type token struct {
	kind     tokKind
	text     string // words and punctuators
	start    int
	afterDot bool // the token follows `.` or `?.` (a property name)
	// controlHead marks the ')' that closes the head of if, while, for or with.
	controlHead bool
}

type scanner struct {
	src string
	pos int
	// stack holds the open brackets: '(', '[', '{', and '`' for a template substitution `${`.
	stack []byte
	// prev is the last significant token, which decides whether '/' starts a regular
	// expression.
	prev    token
	hasPrev bool
	// directives collects the offsets of triple-slash directive comments skipped, when not
	// nil (References).
	directives []int
}

func (s *scanner) depth() int { return len(s.stack) }

func (s *scanner) peekByte() byte {
	s.skipSpace()
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

// peekIdent reports whether the next token starts an identifier (without consuming it).
func (s *scanner) peekIdent() bool {
	c := s.peekByte()
	if c >= utf8.RuneSelf {
		r, _ := utf8.DecodeRuneInString(s.src[s.pos:])
		return isIdentStart(r)
	}
	return c != 0 && c != '#' && isIdentStart(rune(c))
}

// errorAt reports an error at byte offset off with its line and UTF-16 column.
func (s *scanner) errorAt(off int, msg string) *Error {
	line, lineStart := 1, 0
	for i := 0; i < off; i++ {
		switch s.src[i] {
		case '\n':
			line, lineStart = line+1, i+1
		case '\r':
			if i+1 < len(s.src) && s.src[i+1] == '\n' {
				continue
			}
			line, lineStart = line+1, i+1
		}
	}
	col := 1
	for _, r := range s.src[lineStart:off] {
		col++
		if r >= 0x10000 {
			col++
		}
	}
	return &Error{Line: line, Column: col, Message: msg}
}

// skipSpace skips whitespace and comments.
func (s *scanner) skipSpace() {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			s.pos++
		case c == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '/':
			if s.directives != nil && isDirective(s.src[s.pos:]) {
				s.directives = append(s.directives, s.pos)
			}
			end := strings.IndexAny(s.src[s.pos:], "\n\r")
			if end < 0 {
				s.pos = len(s.src)
			} else {
				s.pos += end
			}
		case c == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '*':
			end := strings.Index(s.src[s.pos+2:], "*/")
			if end < 0 {
				s.pos = len(s.src)
			} else {
				s.pos += 2 + end + 2
			}
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s.src[s.pos:])
			if !unicode.IsSpace(r) && r != '\ufeff' {
				return
			}
			s.pos += n
		default:
			return
		}
	}
}

// regexpAllowed tells whether a '/' now starts a regular expression: at the start, after a
// punctuator other than a closing bracket (but after the ')' of an if, while, for or with head),
// and after a keyword that precedes an expression. After '}' it takes division (an object
// literal's end), which misreads a regular expression that opens a statement after a block; a
// misread quote ends at its line, and the parsers still see the real program.
func (s *scanner) regexpAllowed() bool {
	if !s.hasPrev {
		return true
	}
	switch s.prev.kind {
	case tokNumber, tokString, tokTemplate, tokRegexp:
		return false
	case tokWord:
		if s.prev.afterDot {
			return false
		}
		switch s.prev.text {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
			"case", "do", "else", "yield", "await", "extends":
			return true
		}
		return false
	case tokPunct:
		switch s.prev.text {
		case ")":
			return s.prev.controlHead
		case "]", "}":
			return false
		}
		return true
	}
	return true
}

func isIdentStart(r rune) bool {
	return r == '_' || r == '$' || r == '\\' || unicode.IsLetter(r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) || r == '\u200c' || r == '\u200d'
}

// next returns the next significant token.
func (s *scanner) next() token {
	tok := s.scan()
	if tok.kind != tokEOF {
		s.prev, s.hasPrev = tok, true
	}
	return tok
}

func (s *scanner) scan() token {
	s.skipSpace()
	if s.pos >= len(s.src) {
		return token{kind: tokEOF, start: s.pos}
	}
	start := s.pos
	afterDot := s.hasPrev && s.prev.kind == tokPunct && (s.prev.text == "." || s.prev.text == "?.")
	c := s.src[s.pos]
	switch {
	case c == '"' || c == '\'':
		s.skipQuoted(c)
		return token{kind: tokString, start: start}
	case c == '`':
		s.pos++
		return s.templateRest(start)
	case c == '}' && len(s.stack) > 0 && s.stack[len(s.stack)-1] == '`':
		s.stack = s.stack[:len(s.stack)-1]
		s.pos++
		return s.templateRest(start)
	case c == '/' && s.regexpAllowed():
		s.skipRegexp()
		return token{kind: tokRegexp, start: start}
	case c >= '0' && c <= '9' || c == '.' && s.pos+1 < len(s.src) && s.src[s.pos+1] >= '0' && s.src[s.pos+1] <= '9':
		for s.pos < len(s.src) {
			c := s.src[s.pos]
			if c == '.' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				s.pos++
				continue
			}
			if (c == '+' || c == '-') && (s.src[s.pos-1] == 'e' || s.src[s.pos-1] == 'E') && !strings.HasPrefix(strings.ToLower(s.src[start:s.pos]), "0x") {
				s.pos++
				continue
			}
			break
		}
		return token{kind: tokNumber, start: start}
	case c == '#' || c < utf8.RuneSelf && isIdentStart(rune(c)) || c >= utf8.RuneSelf && func() bool { r, _ := utf8.DecodeRuneInString(s.src[s.pos:]); return isIdentStart(r) }():
		s.pos++
		for s.pos < len(s.src) {
			r, n := utf8.DecodeRuneInString(s.src[s.pos:])
			if !isIdentPart(r) {
				break
			}
			s.pos += n
		}
		return token{kind: tokWord, text: s.src[start:s.pos], start: start, afterDot: afterDot}
	}
	// Punctuators: brackets are tracked; "?." and "." matter for property names; the rest are
	// single characters (their exact extent does not matter here).
	s.pos++
	switch c {
	case '(':
		// The head of if/while/for/with: a '/' after its ')' starts a regular expression.
		if s.hasPrev && s.prev.kind == tokWord && !s.prev.afterDot {
			switch s.prev.text {
			case "if", "while", "for", "with":
				c = 'C'
			}
		}
		s.stack = append(s.stack, c)
	case '[', '{':
		s.stack = append(s.stack, c)
	case ')', ']', '}':
		if len(s.stack) > 0 {
			closed := s.stack[len(s.stack)-1]
			s.stack = s.stack[:len(s.stack)-1]
			if closed == 'C' {
				return token{kind: tokPunct, text: ")", start: start, controlHead: true}
			}
		}
	case '?':
		if s.pos < len(s.src) && s.src[s.pos] == '.' && !(s.pos+1 < len(s.src) && s.src[s.pos+1] >= '0' && s.src[s.pos+1] <= '9') {
			s.pos++
			return token{kind: tokPunct, text: "?.", start: start}
		}
	default:
		if c >= utf8.RuneSelf {
			_, n := utf8.DecodeRuneInString(s.src[start:])
			s.pos = start + n
		}
	}
	return token{kind: tokPunct, text: s.src[start:s.pos], start: start}
}

// skipQuoted skips a string literal that opens with quote at s.pos.
func (s *scanner) skipQuoted(quote byte) {
	s.pos++
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case '\\':
			s.pos += 2
			continue
		case quote, '\n':
			s.pos++
			return
		}
		s.pos++
	}
	s.pos = min(s.pos, len(s.src))
}

// templateRest skips template text up to its end or to a substitution, which it opens.
func (s *scanner) templateRest(start int) token {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case '\\':
			s.pos += 2
			continue
		case '`':
			s.pos++
			return token{kind: tokTemplate, start: start}
		case '$':
			if s.pos+1 < len(s.src) && s.src[s.pos+1] == '{' {
				s.pos += 2
				s.stack = append(s.stack, '`')
				return token{kind: tokPunct, text: "${", start: start}
			}
		}
		s.pos++
	}
	s.pos = len(s.src)
	return token{kind: tokTemplate, start: start}
}

// skipRegexp skips a regular-expression literal (with its class brackets and flags).
func (s *scanner) skipRegexp() {
	s.pos++
	inClass := false
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '\\':
			s.pos += 2
			continue
		case c == '\n' || c == '\r':
			return // unterminated: leave it to the parser
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			s.pos++
			for s.pos < len(s.src) && (s.src[s.pos] >= 'a' && s.src[s.pos] <= 'z') {
				s.pos++
			}
			return
		}
		s.pos++
	}
	s.pos = min(s.pos, len(s.src))
}

// Reference is a place where a program names a file or module outside itself: a triple-slash
// directive (`/// <reference path="…" />` and the like), an import of any kind (declaration,
// `import x = require(…)`, `import(…)` and the type `typeof import(…)`), an `… from "x"`
// clause (of an import or an export), or a `require("x")` call. The compiler reads the file
// such a reference names, and a type error that quotes it hands the file's text to the program's
// author; a program has nothing to import (its tools are the global `tools`), so a typecheck
// refuses every one.
type Reference struct {
	// Line and Column are 1-based; Column counts UTF-16 code units.
	Line, Column int
	// What is the construct as the program wrote it, shortened ("/// <reference", "import(",
	// `from "./x"`, `require("./x")`).
	What string
}

// maxReferenceText bounds the text of a Reference's What taken from the program.
const maxReferenceText = 60

// References returns the references of src to other files and modules, in the order they
// appear, at any depth (inside functions, namespaces and `declare module` blocks too). Comments,
// strings, template literals and regular-expression literals are skipped as Parse skips them,
// so a word in a string is not a reference; `import.meta` and a property named import (`o.import`,
// `{ import: 1 }`) are not either.
func References(src string) []Reference {
	s := scanner{src: src, directives: []int{}}
	var refs []Reference
	add := func(off int, what string) {
		e := s.errorAt(off, "")
		refs = append(refs, Reference{Line: e.Line, Column: e.Column, What: what})
	}
	// prev and prev2 are the two tokens before tok.
	var prev, prev2 token
	for {
		tok := s.next()
		// Directives are comments: report those skipped before tok, in order.
		for _, off := range s.directives {
			add(off, shorten(directiveText(src[off:])))
		}
		s.directives = s.directives[:0]
		if tok.kind == tokEOF {
			return refs
		}
		switch {
		case tok.kind == tokWord && tok.text == "import" && !tok.afterDot:
			switch s.peekByte() {
			case '.', ':', '?': // import.meta; a property named import
			case '(':
				add(tok.start, "import(")
			default:
				add(tok.start, "import")
			}
		case tok.kind == tokString || tok.kind == tokTemplate:
			lit := shorten(src[tok.start:s.pos])
			switch {
			case prev.kind == tokWord && prev.text == "from" && !prev.afterDot:
				add(prev.start, "from "+lit)
			case prev.kind == tokPunct && prev.text == "(" && prev2.kind == tokWord && prev2.text == "require" && !prev2.afterDot:
				add(prev2.start, "require("+lit+")")
			}
		}
		prev2, prev = prev, tok
	}
}

// directiveText returns a triple-slash directive's opening: "///", the tag's name and its
// first attribute name ("/// <reference path").
func directiveText(comment string) string {
	end := strings.IndexAny(comment, "\n\r")
	if end >= 0 {
		comment = comment[:end]
	}
	fields := strings.Fields(strings.TrimPrefix(comment, "///"))
	text := "///"
	for i, f := range fields {
		if i == 2 {
			break
		}
		name, _, _ := strings.Cut(f, "=")
		text += " " + name
	}
	return text
}

// shorten cuts s to maxReferenceText bytes (at a rune boundary), marking the cut.
func shorten(s string) string {
	if len(s) <= maxReferenceText {
		return s
	}
	cut := maxReferenceText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// isDirective reports whether the line comment at the start of c is a triple-slash directive:
// "///", then blanks, then '<'. The compiler reads directives only from the comments that open
// a file, but any such comment is reported, wherever it stands.
func isDirective(c string) bool {
	rest, ok := strings.CutPrefix(c, "///")
	return ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), "<")
}
