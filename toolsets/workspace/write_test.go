package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// failAfter is a writer that accepts n bytes, then fails like a full disk.
type failAfter struct {
	w io.Writer
	n int
}

var errDiskFull = errors.New("no space left on device (injected)")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return f.w.Write(p)
	}
	k, _ := f.w.Write(p[:f.n])
	f.n = 0
	return k, errDiskFull
}

// A write that fails part-way leaves the old content and no temporary file. Before the fix the
// file was truncated first, so the failure left neither the old content nor the new.
func TestWriteFileFailurePartWayKeepsOldContent(t *testing.T) {
	f := newFixture(t)
	f.ws.wrapTemp = func(w io.Writer) io.Writer { return &failAfter{w: w, n: 3} }
	res := f.call(t, "write_file", `{"path":"a.txt","content":"replaced content\n"}`)
	if !res.IsError || !strings.Contains(res.Err.Message, `cannot write "a.txt": no space left on device (injected) (the file is unchanged)`) {
		t.Fatalf("got %+v %s, want the injected failure", res.Err, res.Value)
	}
	if data, err := os.ReadFile(filepath.Join(f.dir, "a.txt")); err != nil || string(data) != "one\ntwo\nthree\n" {
		t.Fatalf("a.txt is now %q (%v), want its old content", data, err)
	}
	assertNoTempFiles(t, f.dir)
}

// A write whose run is cancelled before the rename leaves the old content.
func TestWriteFileCancelledKeepsOldContent(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	f.ws.wrapTemp = func(w io.Writer) io.Writer { cancel(); return w }
	res := f.reg.Execute(ctx, registry.Call{CallID: "c1", Name: "write_file", Arguments: jsonv.MustParse(`{"path":"a.txt","content":"new\n"}`)})
	if !res.IsError {
		t.Fatalf("got success %s after cancellation", res.Value)
	}
	if data, _ := os.ReadFile(filepath.Join(f.dir, "a.txt")); string(data) != "one\ntwo\nthree\n" {
		t.Fatalf("a.txt is now %q, want its old content", data)
	}
	assertNoTempFiles(t, f.dir)
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".runcode-write-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Readers running alongside write_file only ever see a whole old or a whole new content.
// Before the fix they saw empty and truncated files.
func TestWriteFileConcurrentReadersSeeOldOrNew(t *testing.T) {
	f := newFixture(t)
	const size = 256 << 10
	contents := [2]string{strings.Repeat("a", size), strings.Repeat("b", size)}
	target := filepath.Join(f.dir, "big.txt")
	writeFiles(t, f.dir, map[string]string{"big.txt": contents[0]})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var bad []string
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				data, err := os.ReadFile(target)
				if err != nil || (!bytes.Equal(data, []byte(contents[0])) && !bytes.Equal(data, []byte(contents[1]))) {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("%d bytes starting %q (%v)", len(data), data[:min(len(data), 8)], err))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range 40 {
		args := jsonv.ObjectValue(member("path", jsonv.StringValue("big.txt")), member("content", jsonv.StringValue(contents[(i+1)%2])))
		res := f.reg.Execute(context.Background(), registry.Call{CallID: "w", Name: "write_file", Arguments: args})
		if res.IsError {
			t.Fatal(res.Err.Message)
		}
	}
	close(stop)
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("%d reads saw neither the old nor the new content, e.g. %s", len(bad), bad[0])
	}
}

// A file's permission bits survive its replacement.
func TestWriteFileKeepsPermissions(t *testing.T) {
	f := newFixture(t)
	p := filepath.Join(f.dir, "run.sh")
	writeFiles(t, f.dir, map[string]string{"run.sh": "#!/bin/sh\n"})
	if err := os.Chmod(p, 0o750); err != nil {
		t.Fatal(err)
	}
	if res := f.call(t, "write_file", `{"path":"run.sh","content":"#!/bin/sh\necho hi\n"}`); res.IsError {
		t.Fatal(res.Err.Message)
	}
	info, err := os.Stat(p)
	if err != nil || info.Mode().Perm() != 0o750 {
		t.Fatalf("mode after write: %v %v, want 0750", info.Mode(), err)
	}
}

// Writing through a symbolic link is refused (a rename would replace the link, not its target).
func TestWriteFileRefusesSymlinks(t *testing.T) {
	f := newFixture(t)
	runCases(t, f, []toolCase{
		{name: "link inside", tool: "write_file", args: `{"path":"inlink","content":"x"}`,
			wantErr: `cannot write "inlink": it is a symbolic link (to "a.txt"); write the file it points to`},
		{name: "link outside", tool: "write_file", args: `{"path":"out","content":"x"}`,
			wantErr: `path "out" escapes the workspace root through a symbolic link`},
		{name: "through a link to a dir inside", tool: "write_file", args: `{"path":"srclink/new.txt","content":"x"}`,
			want: `{"path":"srclink/new.txt","bytesWritten":1}`},
	})
	if data, _ := os.ReadFile(filepath.Join(f.dir, "a.txt")); string(data) != "one\ntwo\nthree\n" {
		t.Fatalf("a.txt changed: %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(f.dir, "src", "new.txt")); string(data) != "x" {
		t.Fatalf("src/new.txt = %q", data)
	}
}

// The UTF-8 rule: read_file refuses a file that is not valid UTF-8, naming where; grep skips
// it; write_file refuses content that is not valid UTF-8. Before the fix read_file returned the
// invalid bytes as U+FFFD, and writing that text back changed the file.
func TestInvalidUTF8(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{"latin1.txt": "caf\xe9\nna\xefve hello\n", "ok.txt": "café hello\n"})
	runCases(t, f, []toolCase{
		{name: "read refuses", tool: "read_file", args: `{"path":"latin1.txt"}`,
			wantErr: `cannot read "latin1.txt": it is not valid UTF-8 text (invalid byte 0xe9 at byte offset 3, line 1)`},
		{name: "read of a range refuses too", tool: "read_file", args: `{"path":"latin1.txt","startLine":2}`,
			wantErr: `not valid UTF-8 text`},
		{name: "valid multi-byte text reads", tool: "read_file", args: `{"path":"ok.txt"}`,
			want: `{"path":"ok.txt","content":"café hello\n","startLine":1,"endLine":1,"totalLines":1}`},
		{name: "grep skips", tool: "grep", args: `{"pattern":"hello","glob":"*.txt"}`,
			want: `{"matches":[{"path":"ok.txt","line":1,"text":"café hello"}],"truncated":false}`},
	})
	// Arguments that come from Go (not JSON text) can hold any bytes.
	args := jsonv.ObjectValue(member("path", jsonv.StringValue("w.txt")), member("content", jsonv.StringValue("ab\xffcd")))
	res := f.reg.Execute(context.Background(), registry.Call{CallID: "c", Name: "write_file", Arguments: args})
	if !res.IsError || !strings.Contains(res.Err.Message, `cannot write "w.txt": content is not valid UTF-8 text (invalid byte 0xff at byte offset 2)`) {
		t.Fatalf("write of invalid UTF-8: %+v %s", res.Err, res.Value)
	}
	if _, err := os.Lstat(filepath.Join(f.dir, "w.txt")); err == nil {
		t.Fatal("w.txt was written")
	}
}

// A read followed by a write of exactly what was read leaves the file byte for byte the same.
func TestReadWriteRoundTripIsExact(t *testing.T) {
	f := newFixture(t)
	text := "a\r\nb\u2028c\U0001F600\ufeffd\x7f\n"
	writeFiles(t, f.dir, map[string]string{"t.txt": text})
	res := f.call(t, "read_file", `{"path":"t.txt"}`)
	if res.IsError {
		t.Fatal(res.Err.Message)
	}
	args := jsonv.ObjectValue(member("path", jsonv.StringValue("t.txt")), member("content", res.Value.Lookup("content")))
	if res := f.reg.Execute(context.Background(), registry.Call{CallID: "w", Name: "write_file", Arguments: args}); res.IsError {
		t.Fatal(res.Err.Message)
	}
	if data, _ := os.ReadFile(filepath.Join(f.dir, "t.txt")); string(data) != text {
		t.Fatalf("round trip changed the file: %q, want %q", data, text)
	}
}

// FuzzInvalidUTF8 checks the offset read_file and write_file report against the standard
// library's validation: -1 exactly for valid UTF-8, otherwise a valid prefix followed by a byte
// that does not start a valid sequence.
func FuzzInvalidUTF8(f *testing.F) {
	for _, s := range []string{"", "abc", "caf\xe9", "\xff", "é", "\xe2\x82", "a\xed\xa0\x80b", "\xf4\x90\x80\x80", "ok\U0001F600\xc0\xaf"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		off := invalidUTF8(string(data))
		if (off < 0) != utf8.Valid(data) {
			t.Fatalf("invalidUTF8(%q) = %d, utf8.Valid = %v", data, off, utf8.Valid(data))
		}
		if off >= 0 {
			if !utf8.Valid(data[:off]) {
				t.Fatalf("invalidUTF8(%q) = %d: the prefix is not valid", data, off)
			}
			if r, size := utf8.DecodeRune(data[off:]); r != utf8.RuneError || size != 1 {
				t.Fatalf("invalidUTF8(%q) = %d: a valid sequence starts there", data, off)
			}
		}
	})
}

// BenchmarkWriteFile measures one write_file call of 4 KiB through the registry: the cost of
// the atomic replacement (temporary file, fsync, rename, directory fsync).
func BenchmarkWriteFile(b *testing.B) {
	dir := b.TempDir()
	_, reg := openRegistry(b, dir, Options{})
	args := jsonv.ObjectValue(member("path", jsonv.StringValue("f.txt")), member("content", jsonv.StringValue(strings.Repeat("x", 4096))))
	for b.Loop() {
		if res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: "write_file", Arguments: args}); res.IsError {
			b.Fatal(res.Err.Message)
		}
	}
}
