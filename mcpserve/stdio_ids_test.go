package mcpserve_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/mcpserve"
)

// Issue 24: over `serve --stdio`, the ids -1.5, 2.7 and 9007199254740993 were answered under
// the ids -1, 2 and 9007199254740992, which a client waits for in vain. An id is answered as
// sent, or refused with -32600 under the id as written.
func TestLineTransportAnswersIDsAsSent(t *testing.T) {
	srv, err := mcpserve.NewServer(newSrvFixture(t).reg, mcpserve.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcpserve.LineTransport{Reader: inR, Writer: outW}) }()
	defer func() {
		inW.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return")
		}
		outR.Close()
	}()
	lines := bufio.NewReader(outR)
	exchange := func(request, wantPrefix string) {
		t.Helper()
		go io.WriteString(inW, request+"\n")
		line, err := lines.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, wantPrefix) {
			t.Fatalf("%s\n got %q (%v)\nwant %s…", request, line, err, wantPrefix)
		}
	}
	exchange(strings.Replace(initializeBody, `"id":1`, `"id":9007199254740991`, 1), `{"jsonrpc":"2.0","id":9007199254740991,"result":{`)
	for _, id := range []string{"-1.5", "2.7", "9007199254740993", "9007199254740992", "1e3", "1.0", "-0", "18446744073709551616"} {
		exchange(`{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":`+id+`,"error":{"code":-32600,"message":"invalid request: id `+id+` cannot be answered exactly as sent`)
	}
	exchange(`{"jsonrpc":"2.0","id":1,"id":2.5,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id is given twice"`)
	for _, id := range []string{"-9007199254740991", "0", "-7", `"2.7"`, `"x"`} {
		exchange(`{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`, `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`)
	}
}

// Over HTTP the same: the SDK answered id -1.5 under -1. Such a POST gets 400 and the -32600
// error under the id as sent; an exact id is answered as before.
func TestHTTPAnswersIDsAsSent(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		_, url := serveHTTPHandler(t, mcpserve.HTTPOptions{Stateless: stateless})
		var header map[string]string
		if !stateless {
			header = sessionHeader(openSession(t, url, nil))
		}
		for _, id := range []string{"-1.5", "9007199254740993", "1e3"} {
			resp, body := post(t, url, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`, header)
			want := `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"invalid request: id ` + id + ` cannot be answered exactly as sent`
			if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(body, want) {
				t.Errorf("stateless %v, id %s: %s %q", stateless, id, resp.Status, body)
			}
		}
		resp, body := post(t, url, `{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping"}`, header)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `{"jsonrpc":"2.0","id":-9007199254740991,"result":{}}`) {
			t.Errorf("stateless %v, an exact id: %s %q", stateless, resp.Status, body)
		}
	}
}
