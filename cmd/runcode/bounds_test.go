package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Files the user names are read up to a bound: /dev/zero (or a FIFO, a runaway file) as a
// program, manifest, config, replay or trace is an error naming the bound, not gigabytes read
// into memory.
func TestEndlessInputFilesAreRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	prog := fixture(t, map[string]string{"p.ts": "return 1"})
	p := filepath.Join(prog, "p.ts")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--isolation", "inprocess", "/dev/zero"}, "runcode: cannot read program: /dev/zero is larger than 16 MiB"},
		{[]string{"run", "--isolation", "inprocess", "--tools", "/dev/zero", p}, "/dev/zero is larger than 16 MiB"},
		{[]string{"run", "--isolation", "inprocess", "--config", "/dev/zero", p}, "larger than 16777216 bytes"},
		{[]string{"run", "--isolation", "inprocess", "--replay", "/dev/zero", p}, "line 1: longer than 64 MiB: not a trace file"},
		{[]string{"trace", "view", "/dev/zero", "-o", "-"}, "line 1: longer than 64 MiB: not a trace file"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := invoke(t, "", c.args...)
			if code == exitOK || !strings.Contains(errOut, c.want) {
				t.Fatalf("exit %d, stdout %.100q, stderr %.300q; want a failure containing %q", code, out, errOut, c.want)
			}
		})
	}
	t.Run("program on standard input", func(t *testing.T) {
		code, _, errOut := invoke(t, strings.Repeat(" ", 16<<20+1), "run", "--isolation", "inprocess", "-")
		if code == exitOK || !strings.Contains(errOut, "standard input is larger than 16 MiB") {
			t.Fatalf("exit %d, stderr %.300q", code, errOut)
		}
	})
}

// `run --trace prog.ts prog.ts` used to replace the program with its own trace.
func TestTraceFileThatIsTheProgramIsRefused(t *testing.T) {
	dir := fixture(t, map[string]string{"p.ts": "return 1"})
	p := filepath.Join(dir, "p.ts")
	link := filepath.Join(dir, "link.ts")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	for _, trace := range []string{p, link} {
		code, _, errOut := invoke(t, "", "run", "--isolation", "inprocess", "--trace", trace, p)
		if code != exitUsage || !strings.Contains(errOut, "is the program itself") {
			t.Errorf("--trace %s: exit %d, stderr %q", trace, code, errOut)
		}
		if data, err := os.ReadFile(p); err != nil || string(data) != "return 1" {
			t.Fatalf("the program was changed: %q, %v", data, err)
		}
	}
}

// `trace view -o` through a symbolic link to the trace used to overwrite the trace.
func TestTraceViewRefusesAPageThatIsTheTrace(t *testing.T) {
	dir := fixture(t, map[string]string{"t.jsonl": "\n"})
	in := filepath.Join(dir, "t.jsonl")
	page := filepath.Join(dir, "page.html")
	if err := os.Symlink(in, page); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := invoke(t, "", "trace", "view", in, "-o", page)
	if code == exitOK || !strings.Contains(errOut, "would overwrite the trace") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if data, _ := os.ReadFile(in); string(data) != "\n" {
		t.Fatalf("the trace was overwritten: %q", data)
	}
}

// A world-readable --auth-token-file gets a warning naming the fix; a private one none.
func TestServeWarnsOfAWorldReadableTokenFile(t *testing.T) {
	for _, c := range []struct {
		mode os.FileMode
		warn bool
	}{{0o644, true}, {0o600, false}} {
		t.Run(c.mode.String(), func(t *testing.T) {
			tokenFile := filepath.Join(t.TempDir(), "token")
			if err := os.WriteFile(tokenFile, []byte("a-token\n"), c.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(tokenFile, c.mode); err != nil { // past the umask
				t.Fatal(err)
			}
			_, _, _, stderr := startServeHTTPControlled(t, "--auth-token-file", tokenFile, "--workspace", t.TempDir())
			warned := strings.Contains(stderr.String(), "is readable by every user of this machine; chmod 600 it")
			if warned != c.warn {
				t.Fatalf("mode %v: warned %v, want %v; stderr %q", c.mode, warned, c.warn, stderr.String())
			}
		})
	}
}

// /metrics of a loopback server answers only a loopback Host: a rebound name (DNS rebinding)
// gets 403 instead of the tool names and counts.
func TestMetricsRefuseANonLoopbackHost(t *testing.T) {
	endpoint := startServeHTTP(t, "--workspace", t.TempDir())
	base := strings.TrimSuffix(endpoint, "/mcp")
	for host, want := range map[string]int{"": http.StatusOK, "localhost": http.StatusOK, "attacker.example:80": http.StatusForbidden, "attacker.example": http.StatusForbidden} {
		req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

// A request without the token whose body trickles in is answered 401 at once and its
// connection closed: net/http used to read up to 256 KiB of an unread body before answering,
// as slowly as the client sent it, so an unauthenticated client could hold connections open.
func TestUnauthenticatedSlowBodyIsAnsweredAtOnce(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("the-token-0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	endpoint := startServeHTTP(t, "--auth-token-file", tokenFile, "--workspace", t.TempDir())
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{", u.Path, u.Host)
	stop := make(chan struct{})
	defer close(stop)
	go func() { // one byte every 100 ms
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer while the body trickled: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
		t.Fatalf("status %d, close %v: want 401 and the connection closed", resp.StatusCode, resp.Close)
	}
}
