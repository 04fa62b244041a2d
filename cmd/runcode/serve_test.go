package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedBuffer is a bytes.Buffer safe for a writer and a concurrent reader.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// checkServedTools lists the tools of cs (exactly run_code, describing read_file) and runs a
// program that reads notes.txt through read_file.
func checkServedTools(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "run_code" || !strings.Contains(list.Tools[0].Description, "read_file") {
		t.Fatalf("tools = %+v", list.Tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
		"description": "Read the notes",
		"code":        `const { content } = await tools.read_file({ path: "notes.txt" }); console.log("read"); return content.trim();`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("content = %+v", res.Content)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); res.IsError || !ok || tc.Text != "read\nalpha\nbeta" {
		t.Fatalf("result = %+v (isError %v)", res.Content[0], res.IsError)
	}
}

func TestServeStdio(t *testing.T) {
	t.Run("inprocess", func(t *testing.T) { testServeStdio(t, "--isolation", "inprocess") })
	// The default isolation of serve is process: this test binary is the worker (TestMain).
	t.Run("process", func(t *testing.T) { testServeStdio(t) })
}

func testServeStdio(t *testing.T, flags ...string) {
	dir := fixture(t, map[string]string{"notes.txt": "alpha\nbeta\n"})
	inR, inW := io.Pipe()   // client → serve's stdin
	outR, outW := io.Pipe() // serve's stdout → client
	var stderr lockedBuffer
	exit := make(chan int, 1)
	go func() {
		code := run(context.Background(), append([]string{"serve", "--stdio", "--workspace", dir}, flags...), inR, outW, &stderr)
		outW.Close()
		exit <- code
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkServedTools(t, cs)
	// Closing the client closes its writer: serve sees the end of stdin and exits cleanly.
	cs.Close()
	select {
	case code := <-exit:
		if code != exitOK {
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after stdin closed")
	}
	if !strings.Contains(stderr.String(), "serving run_code") {
		t.Fatalf("stderr = %q", stderr.String())
	}
}

func TestServeStdioStopsOnCancel(t *testing.T) {
	dir := fixture(t, map[string]string{"notes.txt": "alpha\n"})
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr lockedBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"serve", "--stdio", "--isolation", "inprocess", "--workspace", dir}, inR, io.Discard, &stderr)
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case code := <-exit:
		if code != exitOK {
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after cancellation")
	}
}

func TestServeHTTP(t *testing.T) {
	dir := fixture(t, map[string]string{"notes.txt": "alpha\nbeta\n"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"serve", "--http", "127.0.0.1:0", "--isolation", "inprocess", "--workspace", dir}, strings.NewReader(""), &stdout, &stderr)
	}()
	addr := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/mcp)`)
	var endpoint string
	for deadline := time.Now().Add(10 * time.Second); endpoint == ""; {
		if m := addr.FindStringSubmatch(stderr.String()); m != nil {
			endpoint = m[1]
			break
		}
		select {
		case code := <-exit:
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not report its address; stderr:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkServedTools(t, cs)
	cs.Close()
	cancel()
	select {
	case code := <-exit:
		if code != exitOK {
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after cancellation")
	}
	if stdout.String() != "" {
		t.Fatalf("stdout = %q, want nothing", stdout.String())
	}
}

func TestServeNeedsExactlyOneTransport(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"serve", "--workspace", dir},
		{"serve", "--stdio", "--http", "127.0.0.1:0", "--workspace", dir},
		{"serve", "--stdio", "--workspace", dir, "extra"},
		{"serve", "--stdio", "--isolation", "thread", "--workspace", dir},
	} {
		code, stdout, stderr := invoke(t, "", args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "runcode: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}
