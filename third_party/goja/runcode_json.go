package goja

// runcode: V8's (Node 22's) SyntaxError messages for JSON.parse. goja parses with
// encoding/json, whose errors read differently ("invalid character 'x' looking for beginning of
// value"); when it fails, jsonParseErrorMessage scans the text as V8's JsonParser does and
// returns the message V8 gives for the same text. See RUNCODE.md.

import (
	"fmt"
	"unicode/utf16"
)

// V8's message templates (src/common/message-template.h).
const (
	jsonUnexpectedEOS            = "Unexpected end of JSON input"
	jsonExpectedPropNameOrRBrace = "Expected property name or '}'"
	jsonExpectedCommaOrRBrack    = "Expected ',' or ']' after array element"
	jsonExpectedCommaOrRBrace    = "Expected ',' or '}' after property value"
	jsonExpectedColon            = "Expected ':' after property name"
	jsonExpectedDoubleQuotedName = "Expected double-quoted property name"
	jsonUnterminatedString       = "Unterminated string"
	jsonBadControlCharacter      = "Bad control character in string literal"
	jsonBadEscapedCharacter      = "Bad escaped character"
	jsonBadUnicodeEscape         = "Bad Unicode escape"
	jsonNoNumberAfterMinus       = "No number after minus sign"
	jsonUnterminatedFraction     = "Unterminated fractional number"
	jsonExponentMissingNumber    = "Exponent part is missing a number"
	jsonNonWhitespaceAfter       = "Unexpected non-whitespace character after JSON"
	jsonUnexpectedNumber         = "Unexpected number"
)

// jsonSyntaxError is where and why V8 would stop parsing: a template of the list above (or ""
// for an unexpected token) at pos, in UTF-16 code units.
type jsonSyntaxError struct {
	template string
	pos      int
}

type jsonScanner struct {
	s   []uint16
	pos int
}

func (j *jsonScanner) eos() bool { return j.pos >= len(j.s) }

func (j *jsonScanner) skipSpace() {
	for !j.eos() {
		switch j.s[j.pos] {
		case ' ', '\t', '\n', '\r':
			j.pos++
		default:
			return
		}
	}
}

func (j *jsonScanner) fail(template string) *jsonSyntaxError {
	return &jsonSyntaxError{template: template, pos: j.pos}
}

// unexpected is V8's error for the token at pos when no specific message applies.
func (j *jsonScanner) unexpected() *jsonSyntaxError {
	if j.eos() {
		return j.fail(jsonUnexpectedEOS)
	}
	return j.fail("")
}

func (j *jsonScanner) isDigit() bool { return !j.eos() && j.s[j.pos] >= '0' && j.s[j.pos] <= '9' }

func (j *jsonScanner) value() *jsonSyntaxError {
	j.skipSpace()
	if j.eos() {
		return j.fail(jsonUnexpectedEOS)
	}
	switch c := j.s[j.pos]; {
	case c == '"':
		return j.str()
	case c == '{':
		return j.object()
	case c == '[':
		return j.array()
	case c == '-' || c >= '0' && c <= '9':
		return j.number()
	case c == 't':
		return j.literal("true")
	case c == 'f':
		return j.literal("false")
	case c == 'n':
		return j.literal("null")
	}
	return j.fail("")
}

func (j *jsonScanner) literal(word string) *jsonSyntaxError {
	for i := 0; i < len(word); i++ {
		if j.eos() || j.s[j.pos] != uint16(word[i]) {
			return j.unexpected()
		}
		j.pos++
	}
	return nil
}

func (j *jsonScanner) number() *jsonSyntaxError {
	if j.s[j.pos] == '-' {
		j.pos++
		if !j.isDigit() {
			return j.fail(jsonNoNumberAfterMinus)
		}
	}
	if j.s[j.pos] == '0' {
		j.pos++
		if j.isDigit() {
			return j.fail(jsonUnexpectedNumber)
		}
	} else {
		for j.isDigit() {
			j.pos++
		}
	}
	if !j.eos() && j.s[j.pos] == '.' {
		j.pos++
		if !j.isDigit() {
			return j.fail(jsonUnterminatedFraction)
		}
		for j.isDigit() {
			j.pos++
		}
	}
	if !j.eos() && (j.s[j.pos] == 'e' || j.s[j.pos] == 'E') {
		j.pos++
		if !j.eos() && (j.s[j.pos] == '+' || j.s[j.pos] == '-') {
			j.pos++
		}
		if !j.isDigit() {
			return j.fail(jsonExponentMissingNumber)
		}
		for j.isDigit() {
			j.pos++
		}
	}
	return nil
}

func (j *jsonScanner) str() *jsonSyntaxError {
	j.pos++ // the opening quote
	for {
		if j.eos() {
			return j.fail(jsonUnterminatedString)
		}
		c := j.s[j.pos]
		switch {
		case c == '"':
			j.pos++
			return nil
		case c < 0x20:
			return j.fail(jsonBadControlCharacter)
		case c == '\\':
			j.pos++
			if j.eos() {
				return j.fail(jsonUnexpectedEOS)
			}
			switch j.s[j.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j.pos++
			case 'u':
				j.pos++
				for range 4 {
					if j.eos() {
						return j.fail(jsonBadUnicodeEscape)
					}
					if h := j.s[j.pos]; !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return j.fail(jsonBadUnicodeEscape)
					}
					j.pos++
				}
			default:
				return j.fail(jsonBadEscapedCharacter)
			}
		default:
			j.pos++
		}
	}
}

func (j *jsonScanner) array() *jsonSyntaxError {
	j.pos++
	j.skipSpace()
	if !j.eos() && j.s[j.pos] == ']' {
		j.pos++
		return nil
	}
	for {
		if err := j.value(); err != nil {
			return err
		}
		j.skipSpace()
		if j.eos() {
			return j.fail(jsonExpectedCommaOrRBrack)
		}
		switch j.s[j.pos] {
		case ',':
			j.pos++
		case ']':
			j.pos++
			return nil
		default:
			return j.fail(jsonExpectedCommaOrRBrack)
		}
	}
}

func (j *jsonScanner) object() *jsonSyntaxError {
	j.pos++
	j.skipSpace()
	if !j.eos() && j.s[j.pos] == '}' {
		j.pos++
		return nil
	}
	if j.eos() || j.s[j.pos] != '"' {
		return j.fail(jsonExpectedPropNameOrRBrace)
	}
	for {
		if err := j.str(); err != nil {
			return err
		}
		j.skipSpace()
		if j.eos() || j.s[j.pos] != ':' {
			return j.fail(jsonExpectedColon)
		}
		j.pos++
		if err := j.value(); err != nil {
			return err
		}
		j.skipSpace()
		if j.eos() {
			return j.fail(jsonExpectedCommaOrRBrace)
		}
		switch j.s[j.pos] {
		case ',':
			j.pos++
			j.skipSpace()
			if j.eos() || j.s[j.pos] != '"' {
				return j.fail(jsonExpectedDoubleQuotedName)
			}
		case '}':
			j.pos++
			return nil
		default:
			return j.fail(jsonExpectedCommaOrRBrace)
		}
	}
}

// jsonParseErrorMessage returns V8's message for JSON.parse of text, and false when V8 would
// parse it (the caller keeps its own message then).
func jsonParseErrorMessage(text string) (string, bool) {
	j := &jsonScanner{s: utf16.Encode([]rune(text))}
	err := j.value()
	if err == nil {
		j.skipSpace()
		if j.eos() {
			return "", false
		}
		err = j.fail(jsonNonWhitespaceAfter)
	}
	switch err.template {
	case jsonUnexpectedEOS:
		return jsonUnexpectedEOS, true
	case "":
		return jsonUnexpectedTokenMessage(j.s, text, err.pos), true
	}
	line, column := 1, err.pos+1
	for i := 0; i < err.pos; i++ {
		if j.s[i] == '\n' {
			line, column = line+1, err.pos-i
		}
	}
	where := "in JSON"
	if err.template == jsonNonWhitespaceAfter {
		where = "" // the template ends with "after JSON"
	}
	if where == "" {
		return fmt.Sprintf("%s at position %d (line %d column %d)", err.template, err.pos, line, column), true
	}
	return fmt.Sprintf("%s %s at position %d (line %d column %d)", err.template, where, err.pos, line, column), true
}

// jsonUnexpectedTokenMessage is V8's message for an unexpected character at pos: the whole
// text when it is short, otherwise up to ten characters on each side of pos.
func jsonUnexpectedTokenMessage(s []uint16, text string, pos int) string {
	switch text {
	case "undefined", "NaN", "Infinity", "[object Object]":
		return fmt.Sprintf("%q is not valid JSON", text)
	}
	const context = 10
	token := string(utf16.Decode(s[pos : pos+1])) // one code unit, as V8 (half a surrogate pair prints as U+FFFD)
	if len(s) < 2*context+1 {
		return fmt.Sprintf("Unexpected token '%s', \"%s\" is not valid JSON", token, text)
	}
	sub := func(from, to int) string { return string(utf16.Decode(s[from:to])) }
	switch {
	case pos < context:
		return fmt.Sprintf("Unexpected token '%s', \"%s\"... is not valid JSON", token, sub(0, pos+context))
	case pos < len(s)-context:
		return fmt.Sprintf("Unexpected token '%s', ...\"%s\"... is not valid JSON", token, sub(pos-context, pos+context))
	}
	return fmt.Sprintf("Unexpected token '%s', ...\"%s\" is not valid JSON", token, sub(pos-context, len(s)))
}
