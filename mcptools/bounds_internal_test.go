package mcptools

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func id(n int) jsonrpc.ID {
	id, err := jsonrpc.MakeID(float64(n))
	if err != nil {
		panic(err)
	}
	return id
}

// scanFromServer runs scanServerMessages on input, one byte per read.
func scanFromServer(t *testing.T, input string, limit int) (delivered []jsonrpc.Message, replies []string) {
	t.Helper()
	err := scanServerMessages(iotest.OneByteReader(strings.NewReader(input)), limit, "test", func(m jsonrpc.Message) bool {
		delivered = append(delivered, m)
		return true
	}, func(r []byte) error {
		replies = append(replies, string(r))
		return nil
	})
	if !errors.Is(err, io.EOF) {
		t.Fatalf("scan ended with %v", err)
	}
	return delivered, replies
}

// What a server writes that cannot be passed on is dropped; a response's call fails, a
// server's request is answered, the connection goes on.
func TestScanServerMessages(t *testing.T) {
	const limit = 200
	big := strings.Repeat("x", 1000)
	input := strings.Join([]string{
		`{"result":{"content":[{"type":"text","text":"` + big + `"}]},"jsonrpc":"2.0","id":4}`, // too long, id last
		`{"jsonrpc":"2.0","method":"sampling/createMessage","params":{"p":"` + big + `"},"id":"s1"}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + big + `"}}`,
		`npm WARN something`,
		`{"jsonrpc":"2.0","id":5,"result":[1,2`, // not JSON
		`{"jsonrpc":"2.0","id":6,"result":{}}`,
	}, "\n") + "\n"
	delivered, replies := scanFromServer(t, input, limit)
	if len(delivered) != 3 || len(replies) != 1 {
		t.Fatalf("delivered %d %+v, replies %q", len(delivered), delivered, replies)
	}
	failed, ok := delivered[0].(*jsonrpc.Response)
	var tooLarge *MessageTooLargeError
	if !ok || failed.ID != id(4) || !errors.As(failed.Error, &tooLarge) || tooLarge.Limit != limit {
		t.Fatalf("first delivered %+v, want a MessageTooLargeError response for id 4", delivered[0])
	}
	if r, ok := delivered[1].(*jsonrpc.Response); !ok || r.ID != id(5) || r.Error == nil || !strings.Contains(r.Error.Error(), "not a JSON-RPC message") {
		t.Fatalf("second delivered %+v, want an error response for 5", delivered[1])
	}
	if r, ok := delivered[2].(*jsonrpc.Response); !ok || r.ID != id(6) || r.Error != nil {
		t.Fatalf("third delivered %+v, want the response to 6", delivered[2])
	}
	if !strings.Contains(replies[0], `"id":"s1"`) || !strings.Contains(replies[0], "longer than the maximum of 200 bytes") {
		t.Fatalf("reply to the server's request: %s", replies[0])
	}
}

// readSSE reads an sseBody over input, through a reader that returns one byte at a time.
func readSSE(t *testing.T, input string, limit int, call json.RawMessage) string {
	t.Helper()
	body := io.NopCloser(iotest.OneByteReader(strings.NewReader(input)))
	b := &sseBody{body: body, r: bufio.NewReaderSize(body, 16), limit: limit, callID: call, server: "test", lineStart: true}
	out, err := io.ReadAll(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestSSEBodyBoundsEvents(t *testing.T) {
	small := "event: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\r\n\r\n"
	note := "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\n" + "data: \"params\":{\"data\":\"" + strings.Repeat("y", 500) + "\"}}\n\n"
	answer := "data: {\"result\":{\"text\":\"" + strings.Repeat("z", 500) + "\"},\"jsonrpc\":\"2.0\",\"id\":3}\n\n"
	// Events within the cap pass as they are; a notification over it is dropped.
	if got := readSSE(t, small+note+small+": comment\n\n"+small, 200, json.RawMessage("3")); got != small+small+": comment\n\n"+small {
		t.Fatalf("passed %q", got)
	}
	// On the standalone stream, any event over the cap is dropped.
	if got := readSSE(t, answer+small, 200, nil); got != small {
		t.Fatalf("standalone: passed %q", got)
	}
	// On a call's stream, an answer over the cap ends the stream with an error for the call.
	got := readSSE(t, small+answer+small, 200, json.RawMessage("3"))
	rest, ok := strings.CutPrefix(got, small+"event: message\ndata: ")
	if !ok {
		t.Fatalf("call: passed %q", got)
	}
	msg, err := jsonrpc.DecodeMessage([]byte(strings.TrimSuffix(rest, "\n\n")))
	resp, isResp := msg.(*jsonrpc.Response)
	if err != nil || !isResp || resp.ID != id(3) || asTooLarge(resp.Error, 200) == nil {
		t.Fatalf("call: passed %q (%v)", got, err)
	}
	// An unfinished last event is passed on as it is.
	if got := readSSE(t, small+"data: {}", 200, nil); got != small+"data: {}" {
		t.Fatalf("unfinished: passed %q", got)
	}
}
