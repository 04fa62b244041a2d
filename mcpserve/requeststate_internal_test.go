package mcpserve

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A request state opens only with the key that signed it, for the program it was issued for,
// within RequestStateTTL; each refusal says why and is ErrRequestState.
func TestRequestStateOpens(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	now := time.Now()
	program := programDigest("return 1", "one")
	st := requestState{Version: requestStateVersion, Program: program, Issued: now.Unix(),
		Calls:   []recordedCall{{Name: "a", Args: []byte(`{}`), Value: []byte(`1`)}},
		Pending: pendingCall{Name: "b", Args: []byte(`{"x":1}`)}}
	token := signState(key, st)
	got, err := openState(key, token, program, now)
	if err != nil || len(got.Calls) != 1 || got.Pending.Name != "b" || string(got.Calls[0].Value) != "1" {
		t.Fatalf("openState = %+v, %v", got, err)
	}
	for _, c := range []struct {
		name, token, program string
		now                  time.Time
		want                 string
	}{
		{"other key", signState([]byte("another key of sixteen bytes or more"), st), program, now, "signature does not match"},
		{"changed", token[:len(token)-3] + "AAA", program, now, "signature does not match"},
		{"not a state", "hello", program, now, "not two base64url parts"},
		{"other program", token, programDigest("return 2", "one"), now, "issued for another program"},
		{"expired", token, program, now.Add(RequestStateTTL + time.Minute), "expired"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := openState(key, c.token, c.program, c.now)
			if !errors.Is(err, ErrRequestState) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("openState: %v, want ErrRequestState saying %q", err, c.want)
			}
		})
	}
}
