package mcpwire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// LineReader splits a stream into lines of at most limit bytes.
type LineReader struct {
	R     *bufio.Reader
	Limit int
	atEOF bool
	Env   Envelope // of the last line that was too long, all of it
}

// Next returns the next line without its newline. A line longer than limit comes back as its
// first limit bytes with tooLong set, the rest having been read and dropped (Env has followed
// all of it). A last line without a newline is a line; then next returns io.EOF.
func (l *LineReader) Next() (line []byte, tooLong bool, err error) {
	if l.atEOF {
		return nil, false, io.EOF
	}
	// A line is kept in chunks joined once at its end: appending to one slice would allocate
	// about five times a long line's size as it grows.
	var j Joiner
	for {
		chunk, err := l.R.ReadSlice('\n')
		content := bytes.TrimSuffix(chunk, []byte{'\n'})
		switch {
		case tooLong:
			l.Env.Feed(content)
		case len(content) > l.Limit-j.n:
			room := l.Limit - j.n
			j.Add(content[:room])
			tooLong = true
			l.Env = Envelope{}
			for _, c := range j.chunks {
				l.Env.Feed(c)
			}
			l.Env.Feed(content[room:])
		default:
			j.Add(content)
		}
		switch {
		case err == nil:
			return j.Join(), tooLong, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			l.atEOF = true
			if j.n == 0 && !tooLong {
				return nil, false, io.EOF
			}
			return j.Join(), tooLong, nil
		default:
			return nil, false, err
		}
	}
}

// Joiner holds a message read in chunks and joins them once: reading a message of n bytes
// allocates about 2n in all.
type Joiner struct {
	chunks [][]byte
	n      int // bytes held
}

// Add keeps a copy of p.
func (j *Joiner) Add(p []byte) {
	if len(p) == 0 {
		return
	}
	j.chunks = append(j.chunks, append([]byte(nil), p...))
	j.n += len(p)
}

// Take keeps p itself, which the caller no longer writes.
func (j *Joiner) Take(p []byte) {
	j.chunks, j.n = append(j.chunks, p), j.n+len(p)
}

// Join returns the bytes held, as one slice (nil when none).
func (j *Joiner) Join() []byte {
	switch len(j.chunks) {
	case 0:
		return nil
	case 1:
		return j.chunks[0]
	}
	out := make([]byte, 0, j.n)
	for _, c := range j.chunks {
		out = append(out, c...)
	}
	return out
}

// BadLine is why a line is not a JSON-RPC message the SDK accepts.
type BadLine struct {
	id      json.RawMessage // the line's id when it has a usable one, else nil
	code    int
	Message string
}

// reply is the JSON-RPC error response that answers the line.
func (b *BadLine) Reply() []byte { return ErrorReply(b.id, b.code, b.Message) }

// CheckMessage decodes one line as a JSON-RPC message the SDK accepts, or says why it is not
// one.
func CheckMessage(line []byte) (jsonrpc.Message, *BadLine) {
	// The common case first, with one pass over the line: a result can be tens of MiB.
	msg, err := jsonrpc.DecodeMessage(line)
	if err == nil && line[0] == '{' {
		if id, problem := inexactID(msg, line); problem != "" {
			return nil, &BadLine{id, jsonrpc.CodeInvalidRequest, "invalid request: " + problem}
		}
		return msg, nil
	}
	if !json.Valid(line) {
		return nil, &BadLine{nil, jsonrpc.CodeParseError, "parse error: the line is not valid JSON"}
	}
	if line[0] != '{' {
		what := "a JSON " + jsonKind(line[0])
		if line[0] == '[' {
			what = "a batch (a JSON array); batches are not supported"
		}
		return nil, &BadLine{nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON-RPC object, got " + what}
	}
	if err == nil { // not reached: DecodeMessage takes only objects
		err = errors.New("not a JSON-RPC object")
	}
	return nil, &BadLine{idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()}
}

// InexactIDReply returns the -32600 error response for msg, decoded from data, when its id is a
// number the SDK would not answer under exactly as sent (checkNumberID); else nil. The SDK holds
// a number id as an int64 converted from a float64: -1.5 became -1 and 9007199254740993 became
// …992, so the answer went out under another id.
func InexactIDReply(msg jsonrpc.Message, data []byte) []byte {
	if id, problem := inexactID(msg, data); problem != "" {
		return ErrorReply(id, jsonrpc.CodeInvalidRequest, "invalid request: "+problem)
	}
	return nil
}

// inexactID returns the id of msg as written in data, and what is wrong with it, when it is a
// number the SDK would not answer under exactly as sent (checkNumberID); else "".
func inexactID(msg jsonrpc.Message, data []byte) (json.RawMessage, string) {
	if _, isNumber := messageID(msg).Raw().(int64); !isNumber {
		return nil, ""
	}
	return checkNumberID(data)
}

// messageID is the id of a request or response.
func messageID(msg jsonrpc.Message) jsonrpc.ID {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return m.ID
	case *jsonrpc.Response:
		return m.ID
	}
	return jsonrpc.ID{}
}

// maxExactID is the largest number id answered: up to it (JavaScript's Number.MAX_SAFE_INTEGER)
// every integer survives the SDK's float64 and comes back as sent.
const maxExactID = 1<<53 - 1

// checkNumberID reads the "id" members of a message object whose id the SDK decoded as a
// number, and says what is wrong when the answer could not carry the id exactly as sent: a
// fraction or exponent, a magnitude over maxExactID, "-0", or an id given twice. It returns
// the id to answer under (the one given, as written) with the problem.
func checkNumberID(object []byte) (json.RawMessage, string) {
	// The members are only followed, not copied: a message can be tens of MiB.
	var id json.RawMessage
	n := 0
	if !ScanMembers(object, 0, func(key string, start, end int) {
		if key == "id" {
			id, n = object[start:end:end], n+1
		}
	}) {
		return nil, "" // cannot happen: the line decoded as a message
	}
	switch {
	case n == 0:
		return nil, ""
	case n > 1:
		return nil, "the id is given twice"
	}
	digits := bytes.TrimPrefix(id, []byte{'-'})
	v, err := strconv.ParseUint(string(digits), 10, 64)
	if err != nil || v > maxExactID || string(id) == "-0" {
		return id, fmt.Sprintf("id %s cannot be answered exactly as sent: a number id must be an integer without fraction or exponent, from -%d to %d (or use a string id)", id, uint64(maxExactID), uint64(maxExactID))
	}
	return nil, ""
}

func jsonKind(first byte) string {
	switch first {
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	case '"':
		return "string"
	default:
		return "number"
	}
}

// idOf returns the raw "id" member of a JSON object when it is a string or a number; else nil.
// The object may be cut short (an oversized line's prefix): members are read until the id or
// the first value that cannot be read.
func idOf(object []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(object))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if key != "id" {
			continue
		}
		if len(value) > 0 && (value[0] == '"' || value[0] == '-' || (value[0] >= '0' && value[0] <= '9')) {
			return value
		}
		return nil
	}
	return nil
}

// OversizeReply answers a line longer than limit whose id (nil: none usable) is id.
func OversizeReply(id json.RawMessage, limit int) []byte {
	return ErrorReply(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the message is longer than the maximum of %d bytes; it was discarded", limit))
}

// ErrorReply encodes a JSON-RPC error response; a nil id is null, as JSON-RPC requires when the
// request's id cannot be known.
func ErrorReply(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	text, _ := json.Marshal(message) // a string always marshals
	out := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	out = fmt.Appendf(out, `,"error":{"code":%d,"message":`, code)
	out = append(out, text...)
	return append(out, "}}"...)
}
