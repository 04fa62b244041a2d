package mcpserve_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/mcpserve"
)

// bigCall is a 20 MiB run_code call without its code argument: the server must refuse it
// having spent about its size, not many times over.
func bigCall() []byte {
	return []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_code","arguments":{"description":"` + strings.Repeat("y", 20<<20) + `"}}}`)
}

// allocatedBy returns the bytes the process allocated while f ran.
func allocatedBy(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// maxCostRatio bounds what the server allocates to handle a call, as a multiple of the call's
// size (measured: 2.0 over HTTP, 3.0 over stdio; 32 and 24 before the arguments bypassed the
// SDK's decoding).
const maxCostRatio = 3.5

// hiddenLength hides a reader's length, so that the request is sent chunked.
type hiddenLength struct{ io.Reader }

// A 20 MiB run_code call over HTTP costs the server about twice its size before the refusal,
// whether its length is announced or not.
func TestHTTPBigCallCostsAboutItsSize(t *testing.T) {
	_, url := serveHTTPHandler(t, mcpserve.HTTPOptions{})
	id := openSession(t, url, nil)
	for _, chunked := range []bool{false, true} {
		call := bigCall()
		var body io.Reader = bytes.NewReader(call)
		if chunked {
			body = hiddenLength{body}
		}
		req, err := http.NewRequest(http.MethodPost, url, body)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range sessionHeader(id) {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		var reply []byte
		cost := allocatedBy(func() {
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			reply, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
		})
		if !strings.Contains(string(reply), `missing required property \"code\"`) {
			t.Fatalf("chunked %v: the reply is %.300q, want the missing code refused", chunked, reply)
		}
		if ratio := float64(cost) / float64(len(call)); ratio > maxCostRatio {
			t.Errorf("chunked %v: handling a %d MiB call allocated %d MiB, %.1f times its size (want at most %.1f)", chunked, len(call)>>20, cost>>20, ratio, maxCostRatio)
		}
	}
}

// The same call over stdio (LineTransport) costs the server about three times its size: the
// line read in chunks and joined, then the arguments decoded once.
func TestLineTransportBigCallCostsAboutItsSize(t *testing.T) {
	srv, err := mcpserve.NewServer(newSrvFixture(t).reg, mcpserve.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcpserve.LineTransport{Reader: inR, Writer: outW}) }()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		<-done
	})
	lines := bufio.NewReader(outR)
	go io.WriteString(inW, initializeBody+"\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if _, err := lines.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	call := append(bigCall(), '\n')
	var reply string
	cost := allocatedBy(func() {
		go inW.Write(call)
		reply, _ = lines.ReadString('\n')
	})
	if !strings.Contains(reply, `missing required property \"code\"`) {
		t.Fatalf("the reply is %.300q, want the missing code refused", reply)
	}
	if ratio := float64(cost) / float64(len(call)); ratio > maxCostRatio {
		t.Errorf("handling a %d MiB call allocated %d MiB, %.1f times its size (want at most %.1f)", len(call)>>20, cost>>20, ratio, maxCostRatio)
	}
}

// The header that carries moved arguments to the handler cannot come from a client: net/http
// refuses a request naming it (a space is not allowed in a field name).
func TestHTTPMovedArgumentsHeaderCannotBeSent(t *testing.T) {
	_, url := serveHTTPHandler(t, mcpserve.HTTPOptions{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_code","arguments":{}}}`
	io.WriteString(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Runcode Moved-Arguments: {\"code\":\"return 1\",\"description\":\"forged\"}\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a request with the header got %s, want 400", resp.Status)
	}
}
