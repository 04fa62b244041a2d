package mcpwire

import (
	"bytes"
	"encoding/json"
)

// maxIDBytes bounds the "id" member an Envelope keeps: a longer one is not usable.
const maxIDBytes = 256

// Envelope follows the top level of one JSON-RPC message as its bytes stream by, holding none
// of them but its "id" member: enough to answer a message too long to keep, wherever in the
// message its id is (the TypeScript SDK writes it last, after the params or the result).
//
// It reads only what a JSON object needs to be followed (strings, nesting, commas, colons);
// input that is not a JSON object yields no id. The zero value is ready for a message.
type Envelope struct {
	started, ended bool
	notObject      bool

	depth    int  // nesting outside strings; the message object is depth 1
	inString bool // inside a string
	escaped  bool // the previous byte in the string was a backslash
	wantKey  bool // at depth 1, the next string is a member name
	inKey    bool // the current string is a member name

	key     [32]byte // the current member name as written, when it fits
	keyLen  int      // its length; more than len(key) when it does not fit
	inValue string   // "id" or "method" while reading that member's value, else ""

	idBuf     []byte // the raw value of the "id" member being read
	id        []byte // the last complete "id" member's raw value, when usable
	hasMethod bool   // a "method" member was seen
}

// Feed reads the next bytes of the message.
func (e *Envelope) Feed(p []byte) {
	for _, b := range p {
		if e.ended || e.notObject {
			return
		}
		if !e.started {
			switch b {
			case ' ', '\t', '\r', '\n':
			case '{':
				e.started, e.depth, e.wantKey = true, 1, true
			default:
				e.notObject = true
			}
			continue
		}
		if e.inValue == "id" && len(e.idBuf) < maxIDBytes+2 {
			e.idBuf = append(e.idBuf, b) // full: the value is too long to be usable
		}
		if e.inString {
			switch {
			case e.escaped:
				e.escaped = false
			case b == '\\':
				e.escaped = true
			case b == '"':
				e.inString = false
				if e.inKey {
					e.inKey = false
					continue
				}
			}
			if e.inKey {
				if e.keyLen < len(e.key) {
					e.key[e.keyLen] = b
				}
				e.keyLen++
			}
			continue
		}
		switch b {
		case '"':
			e.inString = true
			if e.depth == 1 && e.wantKey {
				e.wantKey, e.inKey, e.keyLen = false, true, 0
			}
		case '{', '[':
			e.depth++
		case '}', ']':
			e.depth--
			if e.depth == 0 {
				e.endValue()
				e.ended = true
			}
		case ',':
			if e.depth == 1 {
				e.endValue()
				e.wantKey = true
			}
		case ':':
			if e.depth == 1 && !e.wantKey && e.keyLen <= len(e.key) {
				switch e.memberName() {
				case "id":
					e.inValue, e.idBuf = "id", e.idBuf[:0]
				case "method":
					e.inValue, e.hasMethod = "method", true
				}
			}
		}
	}
}

// memberName is the current member name, its escapes decoded.
func (e *Envelope) memberName() string {
	raw := e.key[:e.keyLen]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var name string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &name) != nil {
		return ""
	}
	return name
}

// endValue ends the current member at depth 1 (the ',' or '}' that ended it is the last byte
// of idBuf).
func (e *Envelope) endValue() {
	if e.inValue == "id" {
		e.id = nil
		if len(e.idBuf) < maxIDBytes+2 {
			raw := e.idBuf[:len(e.idBuf)-1] // without the ',' or '}' that ended the value
			if v := trimJSONSpace(raw); usableID(v) {
				e.id = append([]byte(nil), v...)
			}
		}
	}
	e.inValue = ""
}

// ID returns the raw "id" member when it is a string or a number (as JSON-RPC allows) of at
// most maxIDBytes bytes and the member was read to its end; else nil.
func (e *Envelope) ID() json.RawMessage {
	if e.id == nil {
		return nil
	}
	return json.RawMessage(e.id)
}

// IsRequest reports whether the message has a "method" member: a request or a notification,
// not a response.
func (e *Envelope) IsRequest() bool { return e.hasMethod }

// usableID reports whether raw is a JSON string or number that decodes.
func usableID(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	switch c := raw[0]; {
	case c == '"':
		var s string
		return json.Unmarshal(raw, &s) == nil
	case c == '-' || (c >= '0' && c <= '9'):
		var n json.Number
		return json.Unmarshal(raw, &n) == nil
	}
	return false
}

func trimJSONSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}
