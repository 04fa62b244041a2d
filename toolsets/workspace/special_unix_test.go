//go:build unix

package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// callWithin runs a tool call and fails the test if it has not returned within a few seconds;
// unblock is then called so that the blocked call (and the test) can end.
func (f *fixture) callWithin(t *testing.T, name, args string, unblock func()) registry.Result {
	t.Helper()
	done := make(chan registry.Result, 1)
	go func() { done <- f.call(t, name, args) }()
	select {
	case res := <-done:
		return res
	case <-time.After(3 * time.Second):
		unblock()
		<-done
		t.Fatalf("%s %s blocked for 3s", name, args)
		return registry.Result{}
	}
}

// releaseFIFO opens the other end of the named pipe at p, which lets a blocked open(2) of it
// return.
func releaseFIFO(t *testing.T, p string) func() {
	return func() {
		if f, err := os.OpenFile(p, os.O_RDWR, 0); err == nil {
			time.Sleep(50 * time.Millisecond)
			f.Close()
		} else {
			t.Errorf("releasing the pipe: %v", err)
		}
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// No tool blocks opening a named pipe, and each refuses it (or, for a walk, skips it) with an
// error naming the path. Before the fix list_dir and write_file blocked in open(2) forever.
func TestNamedPipeNeverBlocks(t *testing.T) {
	f := newFixture(t)
	pipe := filepath.Join(f.dir, "pipe")
	mkfifo(t, pipe)
	for _, tc := range []struct{ tool, args, wantErr string }{
		{"list_dir", `{"path":"pipe"}`, `cannot list "pipe": it is not a directory`},
		{"write_file", `{"path":"pipe","content":"x"}`, `cannot write "pipe": it is a named pipe, not a regular file`},
		{"read_file", `{"path":"pipe"}`, `cannot read "pipe": it is not a regular file`},
		{"grep", `{"pattern":"x","path":"pipe"}`, `cannot search "pipe": it is neither a directory nor a regular file`},
		{"glob", `{"pattern":"*","path":"pipe"}`, `cannot search "pipe": it is neither a directory nor a regular file`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			res := f.callWithin(t, tc.tool, tc.args, releaseFIFO(t, pipe))
			if !res.IsError || !strings.Contains(res.Err.Message, tc.wantErr) {
				t.Fatalf("got %+v %s, want an error containing %q", res.Err, res.Value, tc.wantErr)
			}
		})
	}
	if info, err := os.Lstat(pipe); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", info, err)
	}
}

// A regular file replaced by a named pipe between the tool's check and its open is refused,
// not opened for blocking I/O: the tool decides on the descriptor it opened (fstat), never on
// an earlier stat.
func TestFileSwappedForNamedPipe(t *testing.T) {
	f := newFixture(t)
	target := filepath.Join(f.dir, "a.txt")
	swap := func(string) {
		if err := os.Remove(target); err != nil {
			t.Error(err)
		}
		if err := syscall.Mkfifo(target, 0o644); err != nil {
			t.Error(err)
		}
	}
	for _, tc := range []struct{ tool, args, wantErr string }{
		{"read_file", `{"path":"a.txt"}`, `cannot read "a.txt": it is not a regular file`},
		{"grep", `{"pattern":"x","path":"a.txt"}`, `cannot search "a.txt": it is not a regular file`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			os.Remove(target)
			writeFiles(t, f.dir, map[string]string{"a.txt": "one\n"})
			f.ws.beforeOpen = swap
			defer func() { f.ws.beforeOpen = nil }()
			res := f.callWithin(t, tc.tool, tc.args, releaseFIFO(t, target))
			if !res.IsError || !strings.Contains(res.Err.Message, tc.wantErr) {
				t.Fatalf("got %+v %s, want an error containing %q", res.Err, res.Value, tc.wantErr)
			}
		})
	}
}

// A directory a walk is about to list, replaced by a named pipe, is skipped without blocking.
func TestWalkedDirSwappedForNamedPipe(t *testing.T) {
	f := newFixture(t)
	util := filepath.Join(f.dir, "src", "util")
	f.ws.beforeOpen = func(name string) {
		if name != "src/util" {
			return
		}
		if err := os.RemoveAll(util); err != nil {
			t.Error(err)
		}
		if err := syscall.Mkfifo(util, 0o644); err != nil {
			t.Error(err)
		}
	}
	res := f.callWithin(t, "grep", `{"pattern":"^package","path":"src"}`, releaseFIFO(t, util))
	if res.IsError {
		t.Fatal(res.Err.Message)
	}
	if got, want := res.Value.String(), jsonv.MustParse(`{"matches":[{"path":"src/main.go","line":1,"text":"package main"}],"truncated":false}`).String(); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// Reading a named pipe that a concurrent goroutine keeps swapping with a regular file never
// blocks: each call returns the file's content or a refusal.
func TestReadRacingSwaps(t *testing.T) {
	f := newFixture(t)
	target := filepath.Join(f.dir, "swap.txt")
	ctx, cancel := context.WithCancel(context.Background())
	swapped := make(chan struct{})
	go func() {
		defer close(swapped)
		for i := 0; ctx.Err() == nil; i++ {
			tmp := filepath.Join(f.dir, "swap.tmp")
			if i%2 == 0 {
				os.WriteFile(tmp, []byte("text\n"), 0o644)
			} else {
				syscall.Mkfifo(tmp, 0o644)
			}
			os.Rename(tmp, target)
		}
	}()
	defer func() { cancel(); <-swapped }()
	deadline := time.Now().Add(500 * time.Millisecond)
	for time.Now().Before(deadline) {
		res := f.callWithin(t, "read_file", `{"path":"swap.txt"}`, func() { cancel(); releaseFIFO(t, target)() })
		if res.IsError && !strings.Contains(res.Err.Message, "not a regular file") && !strings.Contains(res.Err.Message, "no such file") {
			t.Fatalf("unexpected error: %s", res.Err.Message)
		}
	}
}

// A file with a second hard link (here to a file outside the workspace) is not written: before
// the fix write_file overwrote the file outside through the link.
func TestWriteFileRefusesHardLinks(t *testing.T) {
	f := newFixture(t)
	outside := filepath.Join(f.outside, "secret.txt")
	if err := os.Link(outside, filepath.Join(f.dir, "hard.txt")); err != nil {
		t.Skipf("link: %v", err)
	}
	runCases(t, f, []toolCase{
		{name: "write refused", tool: "write_file", args: `{"path":"hard.txt","content":"pwned"}`,
			wantErr: `cannot write "hard.txt": it has 2 hard links`},
		{name: "read allowed", tool: "read_file", args: `{"path":"hard.txt"}`,
			want: `{"path":"hard.txt","content":"secret\n","startLine":1,"endLine":1,"totalLines":1}`},
	})
	if data, _ := os.ReadFile(outside); string(data) != "secret\n" {
		t.Fatalf("the file outside the workspace was changed: %q", data)
	}
}

// A device node in the workspace is neither written to nor opened for reading. Before the fix
// write_file wrote into it.
func TestDeviceNodesRefused(t *testing.T) {
	f := newFixture(t)
	dev := filepath.Join(f.dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(mkdev(1, 3))); err != nil {
		t.Skipf("mknod (needs privilege): %v", err)
	}
	runCases(t, f, []toolCase{
		{name: "write", tool: "write_file", args: `{"path":"null","content":"x"}`,
			wantErr: `cannot write "null": it is a character device, not a regular file`},
		{name: "read", tool: "read_file", args: `{"path":"null"}`,
			wantErr: `cannot read "null": it is not a regular file (a character device)`},
		{name: "list", tool: "list_dir", args: `{"path":"null"}`,
			wantErr: `cannot list "null": it is not a directory (a character device)`},
	})
	if info, err := os.Lstat(dev); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("the device node was replaced: %v %v", info, err)
	}
}

// mkdev encodes a Linux device number.
func mkdev(major, minor uint64) uint64 {
	return (major&0xfff)<<8 | (major&^0xfff)<<32 | minor&0xff | (minor&^0xff)<<12
}

// Names that are not valid UTF-8 are left out of list_dir, glob and grep: reported, they would
// reach the model altered (U+FFFD) and name a file that does not exist.
func TestNonUTF8NamesLeftOut(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"names/caf\xe9.txt": "hello\n", "names/d\xff/x.txt": "hello\n", "names/ok.txt": "hello\n"})
	runCases(t, f, []toolCase{
		{name: "list_dir", tool: "list_dir", args: `{"path":"names"}`,
			want: `{"path":"names","entries":[{"name":"ok.txt","type":"file","size":6}]}`},
		{name: "glob", tool: "glob", args: `{"pattern":"**","path":"names"}`,
			want: `{"matches":["names/ok.txt"],"truncated":false}`},
		{name: "grep", tool: "grep", args: `{"pattern":"hello","path":"names"}`,
			want: `{"matches":[{"path":"names/ok.txt","line":1,"text":"hello"}],"truncated":false}`},
	})
}
