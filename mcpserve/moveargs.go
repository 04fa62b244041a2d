package mcpserve

// Moving a run_code call's arguments past the SDK: the SDK decodes a message several times
// over (the message, its params' _meta, its params), each time through a decoder that buffers
// and copies the whole value, so a 20 MiB call cost the server over 20 times its size before
// run_code's handler saw it. The transports (LineTransport, HTTPHandler) hand the SDK the
// message with run_code's arguments replaced by {}, and the arguments themselves beside it, in
// the request's RequestExtra, where the handler takes them (movedArguments).

import (
	"bytes"
	"encoding/json"
	"net/http"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/internal/mcpwire"
	"github.com/runcode-dev/runcode/registry"
)

// movedArgumentsHeader is the RequestExtra.Header entry holding a call's moved arguments. A
// space cannot be in an HTTP field name, so no client can send it: net/http refuses such a
// request before any handler sees it (and HTTPHandler deletes it anyway).
const movedArgumentsHeader = "Runcode Moved-Arguments"

// splitArguments splits one JSON-RPC message that calls run_code (method "tools/call", params
// naming run_code with an "arguments" object) into the message with its arguments replaced by
// {} (a new slice) and the arguments (a slice of msg). ok is false, and msg is to be used as it
// is, for any other message: another method or tool, a member given twice where it decides
// (method, params, name, arguments), arguments that are not a valid JSON object, or a message
// that is not a JSON object. The rest of the message is not validated here: the SDK decodes it
// as it would have decoded msg, and the answer to a bad message is the same.
func splitArguments(msg []byte) (rest, args []byte, ok bool) {
	var method, params [2]int // value spans in msg
	var nMethod, nParams int
	if !mcpwire.ScanMembers(msg, 0, func(key string, start, end int) {
		switch key {
		case "method":
			method, nMethod = [2]int{start, end}, nMethod+1
		case "params":
			params, nParams = [2]int{start, end}, nParams+1
		}
	}) || nMethod != 1 || nParams != 1 || !stringIs(msg[method[0]:method[1]], "tools/call") {
		return nil, nil, false
	}
	var name, arguments [2]int
	var nName, nArguments int
	if !mcpwire.ScanMembers(msg[:params[1]], params[0], func(key string, start, end int) {
		switch key {
		case "name":
			name, nName = [2]int{start, end}, nName+1
		case "arguments":
			arguments, nArguments = [2]int{start, end}, nArguments+1
		}
	}) || nName != 1 || nArguments != 1 || !stringIs(msg[name[0]:name[1]], registry.ReservedName) {
		return nil, nil, false
	}
	args = msg[arguments[0]:arguments[1]:arguments[1]]
	if args[0] != '{' || !json.Valid(args) {
		return nil, nil, false
	}
	rest = make([]byte, 0, len(msg)-len(args)+2)
	rest = append(append(append(rest, msg[:arguments[0]]...), "{}"...), msg[arguments[1]:]...)
	return rest, args, true
}

// withMovedArguments returns extra (a new one when nil) carrying args for the handler. The
// header value shares args' memory, which must not change afterwards.
func withMovedArguments(extra *mcp.RequestExtra, args []byte) *mcp.RequestExtra {
	if extra == nil {
		extra = &mcp.RequestExtra{}
	}
	if extra.Header == nil {
		extra.Header = http.Header{}
	}
	extra.Header[movedArgumentsHeader] = movedValue(args)
	return extra
}

// movedValue is the movedArgumentsHeader entry carrying args, sharing their memory.
func movedValue(args []byte) []string {
	return []string{unsafe.String(unsafe.SliceData(args), len(args))}
}

// movedArguments returns the arguments a transport moved out of the call (read-only: they share
// the message's memory), or nil when none were.
func movedArguments(extra *mcp.RequestExtra) []byte {
	if extra == nil {
		return nil
	}
	v := extra.Header[movedArgumentsHeader]
	if len(v) != 1 || v[0] == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(v[0]), len(v[0]))
}

// stringIs reports whether value is a JSON string whose text is want.
func stringIs(value []byte, want string) bool {
	if len(value) < 2 || value[0] != '"' {
		return false
	}
	if bytes.IndexByte(value, '\\') < 0 {
		return string(value[1:len(value)-1]) == want
	}
	if len(value) > mcpwire.MaxKeyBytes {
		return false
	}
	var s string
	return json.Unmarshal(value, &s) == nil && s == want
}
