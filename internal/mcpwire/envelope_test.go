package mcpwire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// topLevel is what encoding/json makes of a message's members, for comparison with envelope.
func topLevel(t *testing.T, msg []byte) (id json.RawMessage, hasMethod, ok bool) {
	t.Helper()
	var members map[string]json.RawMessage
	if json.Unmarshal(msg, &members) != nil {
		return nil, false, false
	}
	_, hasMethod = members["method"]
	if raw, found := members["id"]; found && usableID(raw) && len(raw) <= maxIDBytes {
		id = raw
	}
	return id, hasMethod, true
}

// envelopeOf feeds msg to an envelope in pieces of n bytes.
func envelopeOf(msg []byte, n int) *Envelope {
	var e Envelope
	for len(msg) > 0 {
		k := min(n, len(msg))
		e.Feed(msg[:k])
		msg = msg[k:]
	}
	return &e
}

func TestEnvelopeFindsTheTopLevelID(t *testing.T) {
	for _, c := range []struct {
		msg, id string
		request bool
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"id":8}}`, "7", false},
		{`{"result":{"id":8,"text":"a\"b,}"},"jsonrpc":"2.0","id":"x\"y"}`, `"x\"y"`, false},
		{` {"method":"notifications/progress","params":{"id":1,"method":2}}`, "", true},
		{`{"method":"roots/list","id":-3}`, "-3", true},
		{`{"id":{"a":1},"result":1}`, "", false},
		{`{"id":null,"error":{}}`, "", false},
		{`{"id":"` + strings.Repeat("z", maxIDBytes) + `"}`, "", false},
		{`{"idx":5,"methods":1}`, "", false},
		{`{"\u0069d":5,"\u006dethod":"x"}`, "5", true},
		{`[{"id":5}]`, "", false},
		{`{"id":5`, "", false}, // cut before the value ended
	} {
		for _, n := range []int{1, 3, 1 << 20} {
			e := envelopeOf([]byte(c.msg), n)
			if string(e.ID()) != c.id || e.IsRequest() != c.request {
				t.Errorf("%s in pieces of %d: id %s, request %v", c.msg, n, e.ID(), e.IsRequest())
			}
		}
	}
}

// FuzzEnvelope: on any complete JSON object, envelope agrees with encoding/json about the
// top-level id and method, however the text is split.
func FuzzEnvelope(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), uint8(1))
	f.Add([]byte(`{"result":{"a":[1,{"id":2}]},"id":"q\\\"","jsonrpc":"2.0"}`), uint8(4))
	f.Fuzz(func(t *testing.T, msg []byte, piece uint8) {
		id, hasMethod, ok := topLevel(t, msg)
		if !ok || bytes.Count(msg, []byte(`"id"`)) > 1 {
			return // not an object, or duplicate members, on which decoders differ
		}
		e := envelopeOf(msg, 1+int(piece))
		if !bytes.Equal(trimJSONSpace(id), e.ID()) || hasMethod != e.IsRequest() {
			t.Fatalf("%s: envelope id %s request %v; encoding/json id %s method %v", msg, e.ID(), e.IsRequest(), id, hasMethod)
		}
	})
}
