package mcpserve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/runcode-dev/runcode/internal/mcpwire"
)

// scanned is what scanMessages made of an input.
type scanned struct {
	delivered []jsonrpc.Message
	replies   []string
	err       error
}

func scan(input []byte, limit int) scanned {
	var s scanned
	s.err = scanMessages(bytes.NewReader(input), limit, func(m jsonrpc.Message) bool {
		s.delivered = append(s.delivered, m)
		return true
	}, func(reply []byte) error {
		s.replies = append(s.replies, string(reply))
		return nil
	})
	return s
}

// countLines counts the lines scanMessages must answer: every line longer than limit, and
// every other line that is not blank.
func countLines(input []byte, limit int) int {
	segments := bytes.Split(input, []byte{'\n'})
	if len(segments[len(segments)-1]) == 0 {
		segments = segments[:len(segments)-1] // the input ends with a newline
	}
	n := 0
	for _, seg := range segments {
		if len(seg) > limit || len(bytes.Trim(seg, mcpwire.JSONSpace)) > 0 {
			n++
		}
	}
	return n
}

// checkReply checks that reply is one JSON-RPC error response with a standard code and an id
// that is null, a string or a number.
func checkReply(t *testing.T, reply string) (code int, id string) {
	t.Helper()
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}
	dec := json.NewDecoder(strings.NewReader(reply))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || dec.More() {
		t.Fatalf("reply %q is not one JSON-RPC error response: %v", reply, err)
	}
	if strings.Contains(reply, "\n") {
		t.Fatalf("reply %q spans lines", reply)
	}
	if r.JSONRPC != "2.0" || r.Error == nil || r.ID == nil || r.Error.Message == "" {
		t.Fatalf("reply %q lacks a part", reply)
	}
	if r.Error.Code != jsonrpc.CodeParseError && r.Error.Code != jsonrpc.CodeInvalidRequest {
		t.Fatalf("reply %q: code %d", reply, r.Error.Code)
	}
	if c := r.ID[0]; c != 'n' && c != '"' && c != '-' && (c < '0' || c > '9') {
		t.Fatalf("reply %q: id %s", reply, r.ID)
	}
	return int(r.Error.Code), string(r.ID)
}

// The lines that ended `runcode serve --stdio` before, each answered now, one reply per line.
var badLines = []struct {
	line     string
	code     int
	id       string
	contains string
}{
	{`not json`, jsonrpc.CodeParseError, "null", "not valid JSON"},
	{`{"jsonrpc":"2.0","id":1,"method":"tools/list"`, jsonrpc.CodeParseError, "null", "not valid JSON"},
	{`[]`, jsonrpc.CodeInvalidRequest, "null", "batches are not supported"},
	{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, "null", "batches are not supported"},
	{`null`, jsonrpc.CodeInvalidRequest, "null", "got a JSON null"},
	{`42`, jsonrpc.CodeInvalidRequest, "null", "got a JSON number"},
	{`"ping"`, jsonrpc.CodeInvalidRequest, "null", "got a JSON string"},
	{`true`, jsonrpc.CodeInvalidRequest, "null", "got a JSON boolean"},
	{`{}`, jsonrpc.CodeInvalidRequest, "null", "version tag"},
	{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "7", "version tag"},
	{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "invalid ID"},
	{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "invalid ID"},
	{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "invalid ID"},
	{`{"jsonrpc":"2.0","id":"x","method":5}`, jsonrpc.CodeInvalidRequest, `"x"`, "unmarshaling"},
	{`{"jsonrpc":"2.0","result":{}}`, jsonrpc.CodeInvalidRequest, "null", "invalid request"},
	{strings.Repeat("[", 20000) + strings.Repeat("]", 20000), jsonrpc.CodeParseError, "null", "not valid JSON"},
	{`{"jsonrpc":"2.0","id":3,"method":"ping","params":` + strings.Repeat(`{"a":`, 2000) + "1" + strings.Repeat("}", 2000) + "}", jsonrpc.CodeInvalidRequest, "3", "depth"},
}

func TestScanAnswersEveryBadLineAndGoesOn(t *testing.T) {
	const ping = `{"jsonrpc":"2.0","id":99,"method":"ping"}`
	for _, bad := range badLines {
		s := scan([]byte(bad.line+"\n"+ping+"\n"), 1<<20)
		if !errors.Is(s.err, io.EOF) || len(s.replies) != 1 || len(s.delivered) != 1 {
			t.Fatalf("%.60s: err %v, %d replies %q, %d delivered", bad.line, s.err, len(s.replies), s.replies, len(s.delivered))
		}
		code, id := checkReply(t, s.replies[0])
		if code != bad.code || id != bad.id || !strings.Contains(s.replies[0], bad.contains) {
			t.Errorf("%.60s: reply %s; want code %d, id %s, mentioning %q", bad.line, s.replies[0], bad.code, bad.id, bad.contains)
		}
		if req, ok := s.delivered[0].(*jsonrpc.Request); !ok || req.Method != "ping" {
			t.Errorf("%.60s: delivered %+v", bad.line, s.delivered[0])
		}
	}
}

func TestScanDropsAnOversizedLineWithoutHoldingIt(t *testing.T) {
	const limit = 1000
	for _, c := range []struct {
		name, line, id string
	}{
		{"id first", `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"code":"` + strings.Repeat("x", 5000) + `"}}`, "12"},
		{"string id", `{"id":"abc","jsonrpc":"2.0","method":"tools/call","params":{"code":"` + strings.Repeat("x", 5000) + `"}}`, `"abc"`},
		{"id after the cut", `{"jsonrpc":"2.0","method":"tools/call","params":{"code":"` + strings.Repeat("x", 5000) + `"},"id":12}`, "12"},
		{"string id after the cut", `{"method":"tools/call","params":{"code":"` + strings.Repeat("x\\\"", 5000) + `","id":1},"id" : "a,}" ,"jsonrpc":"2.0"}`, `"a,}"`},
		{"nested id only", `{"method":"tools/call","params":{"code":"` + strings.Repeat("x", 5000) + `","id":1},"jsonrpc":"2.0"}`, "null"},
		{"object id", `{"method":"tools/call","params":{"code":"` + strings.Repeat("x", 5000) + `"},"id":{"a":1}}`, "null"},
		{"not json", strings.Repeat("x", 5000), "null"},
		{"blank", strings.Repeat(" ", 5000), "null"},
	} {
		// One byte at a time: the line is assembled from many reads.
		var replies []string
		var delivered int
		input := c.line + "\n" + `{"jsonrpc":"2.0","id":99,"method":"ping"}` + "\n"
		err := scanMessages(iotest.OneByteReader(strings.NewReader(input)), limit, func(jsonrpc.Message) bool {
			delivered++
			return true
		}, func(r []byte) error {
			replies = append(replies, string(r))
			return nil
		})
		if !errors.Is(err, io.EOF) || len(replies) != 1 || delivered != 1 {
			t.Fatalf("%s: err %v, replies %q, delivered %d", c.name, err, replies, delivered)
		}
		code, id := checkReply(t, replies[0])
		if code != jsonrpc.CodeInvalidRequest || id != c.id || !strings.Contains(replies[0], "longer than the maximum of 1000 bytes") {
			t.Errorf("%s: reply %s, want id %s", c.name, replies[0], c.id)
		}
	}
	// The kept prefix is bounded by the limit, whatever the line's length.
	lines := mcpwire.LineReader{R: bufioReader(strings.NewReader(strings.Repeat("y", 1<<20) + "\nok")), Limit: limit}
	line, tooLong, err := lines.Next()
	if err != nil || !tooLong || len(line) != limit || cap(line) > 4*limit {
		t.Fatalf("oversized line: len %d cap %d tooLong %v err %v", len(line), cap(line), tooLong, err)
	}
	if line, tooLong, err := lines.Next(); err != nil || tooLong || string(line) != "ok" {
		t.Fatalf("next line: %q %v %v", line, tooLong, err)
	}
	if _, _, err := lines.Next(); err != io.EOF {
		t.Fatalf("after the last line: %v", err)
	}
}

func TestScanStopsOnlyAtTheEndOrOnFailure(t *testing.T) {
	// A last line without a newline is still a line.
	if s := scan([]byte("\n \r\n\t\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`), 100); len(s.delivered) != 1 || len(s.replies) != 0 || s.err != io.EOF {
		t.Fatalf("last line without newline: %+v", s)
	}
	// A failing reply ends the scan with the writer's error.
	boom := errors.New("stdout closed")
	err := scanMessages(strings.NewReader("x\ny\n"), 100, func(jsonrpc.Message) bool { return true }, func([]byte) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("failing reply: %v", err)
	}
	// A read failure is returned.
	err = scanMessages(iotest.ErrReader(boom), 100, func(jsonrpc.Message) bool { return true }, func([]byte) error { return nil })
	if !errors.Is(err, boom) {
		t.Fatalf("failing read: %v", err)
	}
	// A closed connection (deliver refuses) ends it without error.
	if err := scanMessages(strings.NewReader(`{"jsonrpc":"2.0","method":"x"}`+"\n"), 100, func(jsonrpc.Message) bool { return false }, nil); err != nil {
		t.Fatalf("refused delivery: %v", err)
	}
}

// FuzzScanMessages: for any input, scanMessages never panics, reads to the end, and answers
// every line that is not blank either with a delivered message or with exactly one JSON-RPC
// error response.
func FuzzScanMessages(f *testing.F) {
	for _, bad := range badLines {
		f.Add([]byte(bad.line+"\n"), uint16(1<<15))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`+"\r\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`), uint16(60))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"run_code","arguments":{"code":"return 1"}}}`+"\n\n"), uint16(40))
	f.Add([]byte("{\"id\":5,\"jsonrpc\":\"2.0\"  \n   \n\x00\xff\n"), uint16(8))
	f.Fuzz(func(t *testing.T, input []byte, limit uint16) {
		max := 1 + int(limit)
		s := scan(input, max)
		if s.err != io.EOF {
			t.Fatalf("scan ended with %v before the end of the input", s.err)
		}
		if got, want := len(s.delivered)+len(s.replies), countLines(input, max); got != want {
			t.Fatalf("%d delivered + %d replies for %d lines", len(s.delivered), len(s.replies), want)
		}
		for _, r := range s.replies {
			checkReply(t, r)
		}
		for _, m := range s.delivered {
			if _, err := jsonrpc.EncodeMessage(m); err != nil {
				t.Fatalf("delivered %+v does not encode: %v", m, err)
			}
		}
	})
}

func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, mcpwire.ReadChunkBytes) }
