package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// fixture is a temporary workspace with a registry holding its tools, plus a directory outside
// the root that symbolic links point into.
type fixture struct {
	ws      *Workspace
	reg     *registry.Registry
	dir     string
	outside string
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil { // independent of the umask
			t.Fatal(err)
		}
	}
}

// openRegistry opens a workspace at dir (closed when tb ends) and registers its tools in a new
// registry.
func openRegistry(tb testing.TB, dir string, opts Options) (*Workspace, *registry.Registry) {
	tb.Helper()
	ws, err := OpenWith(dir, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ws.Close() })
	reg := registry.New()
	if _, err := reg.Register(ws.Tools()...); err != nil {
		tb.Fatal(err)
	}
	return ws, reg
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWith(t, Options{})
}

func newFixtureWith(t *testing.T, opts Options) *fixture {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fixture uses Unix symbolic links")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.txt":                   "one\ntwo\nthree\n",
		"empty.txt":               "",
		"crlf.txt":                "x\r\ny\r\n",
		"noeol.txt":               "first\nlast",
		"bin.dat":                 "ab\x00cd\nab\n",
		"src/main.go":             "package main\n\nfunc main() {\n\tprintln(\"Hello\")\n}\n",
		"src/util/util.go":        "package util\n\n// TODO: hello\n",
		"src/README.md":           "hello world\nHELLO again\n",
		"node_modules/x/index.js": "hello from node_modules\n",
		".git/config":             "hello from git\n",
	})
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.txt": "secret\n"})
	for link, target := range map[string]string{
		"out":     filepath.Join(outside, "secret.txt"), // absolute, outside
		"outdir":  outside,                              // absolute, outside
		"up":      "../" + filepath.Base(outside),       // relative, climbs out (t.TempDir siblings share a parent)
		"inlink":  "a.txt",                              // relative, inside
		"srclink": "src",                                // relative, inside
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	ws, reg := openRegistry(t, dir, opts)
	return &fixture{ws: ws, reg: reg, dir: dir, outside: outside}
}

func (f *fixture) call(t *testing.T, name, args string) registry.Result {
	t.Helper()
	return f.callIn(context.Background(), name, args)
}

// callIn runs one call with ctx, which may carry a membudget account.
func (f *fixture) callIn(ctx context.Context, name, args string) registry.Result {
	return f.reg.Execute(ctx, registry.Call{CallID: "c1", Name: name, Arguments: jsonv.MustParse(args)})
}

// toolCase is one table row: a call and either its expected value (JSON text) or a substring
// of its error message (and optionally its code).
type toolCase struct {
	name    string
	tool    string
	args    string
	want    string
	wantErr string
	code    registry.Code
}

func runCases(t *testing.T, f *fixture, cases []toolCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.call(t, tc.tool, tc.args)
			if tc.wantErr != "" {
				if !res.IsError {
					t.Fatalf("got success %s, want error containing %q", res.Value, tc.wantErr)
				}
				if !strings.Contains(res.Err.Message, tc.wantErr) {
					t.Fatalf("error %q does not contain %q", res.Err.Message, tc.wantErr)
				}
				if res.Err.Code != tc.code {
					t.Fatalf("error code %q, want %q (message %q)", res.Err.Code, tc.code, res.Err.Message)
				}
				return
			}
			if res.IsError {
				t.Fatalf("unexpected error [%s] %s", res.Err.Code, res.Err.Message)
			}
			if got, want := res.Value.String(), jsonv.MustParse(tc.want).String(); got != want {
				t.Fatalf("value\n got: %s\nwant: %s", got, want)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	f := newFixture(t)
	runCases(t, f, []toolCase{
		{name: "whole file", tool: "read_file", args: `{"path":"a.txt"}`,
			want: `{"path":"a.txt","content":"one\ntwo\nthree\n","startLine":1,"endLine":3,"totalLines":3}`},
		{name: "line range", tool: "read_file", args: `{"path":"a.txt","startLine":2,"endLine":3}`,
			want: `{"path":"a.txt","content":"two\nthree\n","startLine":2,"endLine":3,"totalLines":3}`},
		{name: "single line", tool: "read_file", args: `{"path":"a.txt","startLine":2,"endLine":2}`,
			want: `{"path":"a.txt","content":"two\n","startLine":2,"endLine":2,"totalLines":3}`},
		{name: "start only", tool: "read_file", args: `{"path":"a.txt","startLine":3}`,
			want: `{"path":"a.txt","content":"three\n","startLine":3,"endLine":3,"totalLines":3}`},
		{name: "end only", tool: "read_file", args: `{"path":"a.txt","endLine":1}`,
			want: `{"path":"a.txt","content":"one\n","startLine":1,"endLine":1,"totalLines":3}`},
		{name: "end clamped", tool: "read_file", args: `{"path":"a.txt","startLine":2,"endLine":99}`,
			want: `{"path":"a.txt","content":"two\nthree\n","startLine":2,"endLine":3,"totalLines":3}`},
		{name: "no final newline", tool: "read_file", args: `{"path":"noeol.txt","startLine":2}`,
			want: `{"path":"noeol.txt","content":"last","startLine":2,"endLine":2,"totalLines":2}`},
		{name: "crlf kept", tool: "read_file", args: `{"path":"crlf.txt","startLine":2}`,
			want: `{"path":"crlf.txt","content":"y\r\n","startLine":2,"endLine":2,"totalLines":2}`},
		{name: "empty file", tool: "read_file", args: `{"path":"empty.txt"}`,
			want: `{"path":"empty.txt","content":"","startLine":1,"endLine":0,"totalLines":0}`},
		{name: "cleaned path", tool: "read_file", args: `{"path":"src/../a.txt","endLine":1}`,
			want: `{"path":"a.txt","content":"one\n","startLine":1,"endLine":1,"totalLines":3}`},
		{name: "symlink inside the root", tool: "read_file", args: `{"path":"inlink","endLine":1}`,
			want: `{"path":"inlink","content":"one\n","startLine":1,"endLine":1,"totalLines":3}`},
		{name: "start past end", tool: "read_file", args: `{"path":"a.txt","startLine":4}`,
			wantErr: `cannot read "a.txt": startLine 4 is past the end of the file (3 lines)`},
		{name: "end before start", tool: "read_file", args: `{"path":"a.txt","startLine":3,"endLine":2}`,
			wantErr: `cannot read "a.txt": endLine 2 is before startLine 3`},
		{name: "missing file", tool: "read_file", args: `{"path":"nope.txt"}`,
			wantErr: `cannot read "nope.txt": no such file`},
		{name: "missing dir", tool: "read_file", args: `{"path":"nope/a.txt"}`,
			wantErr: `cannot read "nope/a.txt": no such file`},
		{name: "directory", tool: "read_file", args: `{"path":"src"}`,
			wantErr: `cannot read "src": it is a directory`},
		{name: "binary", tool: "read_file", args: `{"path":"bin.dat"}`,
			wantErr: `cannot read "bin.dat": it is a binary file`},
		{name: "dotdot escape", tool: "read_file", args: `{"path":"../x"}`,
			wantErr: `path "../x" escapes the workspace root`},
		{name: "nested dotdot escape", tool: "read_file", args: `{"path":"src/../../x"}`,
			wantErr: `path "src/../../x" escapes the workspace root`},
		{name: "absolute path", tool: "read_file", args: `{"path":"/etc/passwd"}`,
			wantErr: `path "/etc/passwd" must be relative to the workspace root`},
		{name: "symlink to a file outside", tool: "read_file", args: `{"path":"out"}`,
			wantErr: `path "out" escapes the workspace root through a symbolic link`},
		{name: "through a symlinked dir outside", tool: "read_file", args: `{"path":"outdir/secret.txt"}`,
			wantErr: `path "outdir/secret.txt" escapes the workspace root through a symbolic link`},
		{name: "relative symlink climbing out", tool: "read_file", args: `{"path":"up/secret.txt"}`,
			wantErr: `path "up/secret.txt" escapes the workspace root through a symbolic link`},
		{name: "missing path argument", tool: "read_file", args: `{}`,
			wantErr: `missing required property "path"`, code: registry.CodeInvalidArgs},
		{name: "unknown argument", tool: "read_file", args: `{"path":"a.txt","offset":1}`,
			wantErr: `"offset" is not a declared property`, code: registry.CodeInvalidArgs},
		{name: "zero startLine", tool: "read_file", args: `{"path":"a.txt","startLine":0}`,
			wantErr: `startLine`, code: registry.CodeInvalidArgs},
		{name: "fractional line", tool: "read_file", args: `{"path":"a.txt","startLine":1.5}`,
			wantErr: `startLine`, code: registry.CodeInvalidArgs},
	})
}

func TestReadFileTooLarge(t *testing.T) {
	f := newFixture(t)
	big, err := os.Create(filepath.Join(f.dir, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(maxFileSize + 1); err != nil { // sparse: cheap
		t.Fatal(err)
	}
	big.Close()
	runCases(t, f, []toolCase{
		{name: "over 16 MiB", tool: "read_file", args: `{"path":"big.txt"}`,
			wantErr: `cannot read "big.txt": the file is 16777217 bytes, over the 16 MiB limit`},
	})
}

func TestWriteFile(t *testing.T) {
	f := newFixture(t)
	runCases(t, f, []toolCase{
		{name: "new file", tool: "write_file", args: `{"path":"new.txt","content":"héllo\n"}`,
			want: `{"path":"new.txt","bytesWritten":7}`},
		{name: "read it back", tool: "read_file", args: `{"path":"new.txt"}`,
			want: `{"path":"new.txt","content":"héllo\n","startLine":1,"endLine":1,"totalLines":1}`},
		{name: "overwrite", tool: "write_file", args: `{"path":"new.txt","content":"x"}`,
			want: `{"path":"new.txt","bytesWritten":1}`},
		{name: "read overwritten", tool: "read_file", args: `{"path":"./new.txt"}`,
			want: `{"path":"new.txt","content":"x","startLine":1,"endLine":1,"totalLines":1}`},
		{name: "empty content", tool: "write_file", args: `{"path":"src/empty","content":""}`,
			want: `{"path":"src/empty","bytesWritten":0}`},
		{name: "missing dir without createDirs", tool: "write_file", args: `{"path":"d1/d2/f.txt","content":"x"}`,
			wantErr: `cannot write "d1/d2/f.txt": directory "d1/d2" does not exist (set createDirs to true to create it)`},
		{name: "missing dir with createDirs false", tool: "write_file", args: `{"path":"d1/d2/f.txt","content":"x","createDirs":false}`,
			wantErr: `directory "d1/d2" does not exist`},
		{name: "missing dir with createDirs", tool: "write_file", args: `{"path":"d1/d2/f.txt","content":"x","createDirs":true}`,
			want: `{"path":"d1/d2/f.txt","bytesWritten":1}`},
		{name: "read created", tool: "read_file", args: `{"path":"d1/d2/f.txt"}`,
			want: `{"path":"d1/d2/f.txt","content":"x","startLine":1,"endLine":1,"totalLines":1}`},
		{name: "createDirs with existing dir", tool: "write_file", args: `{"path":"src/b.txt","content":"b","createDirs":true}`,
			want: `{"path":"src/b.txt","bytesWritten":1}`},
		{name: "onto a directory", tool: "write_file", args: `{"path":"src","content":"x"}`,
			wantErr: `cannot write "src": it is a directory`},
		{name: "the root", tool: "write_file", args: `{"path":".","content":"x"}`,
			wantErr: `cannot write ".": it is the workspace root directory`},
		{name: "dotdot escape", tool: "write_file", args: `{"path":"../evil.txt","content":"x"}`,
			wantErr: `path "../evil.txt" escapes the workspace root`},
		{name: "dotdot escape with createDirs", tool: "write_file", args: `{"path":"a/../../evil/x.txt","content":"x","createDirs":true}`,
			wantErr: `path "a/../../evil/x.txt" escapes the workspace root`},
		{name: "absolute path", tool: "write_file", args: `{"path":"/tmp/evil.txt","content":"x"}`,
			wantErr: `path "/tmp/evil.txt" must be relative to the workspace root`},
		{name: "through a symlink outside", tool: "write_file", args: `{"path":"out","content":"pwned"}`,
			wantErr: `path "out" escapes the workspace root through a symbolic link`},
		{name: "into a symlinked dir outside", tool: "write_file", args: `{"path":"outdir/new.txt","content":"pwned"}`,
			wantErr: `escapes the workspace root through a symbolic link`},
		{name: "createDirs through a symlinked dir outside", tool: "write_file", args: `{"path":"outdir/sub/new.txt","content":"pwned","createDirs":true}`,
			wantErr: `escapes the workspace root through a symbolic link`},
		{name: "missing content", tool: "write_file", args: `{"path":"x.txt"}`,
			wantErr: `missing required property "content"`, code: registry.CodeInvalidArgs},
	})
	if data, _ := os.ReadFile(filepath.Join(f.outside, "secret.txt")); string(data) != "secret\n" {
		t.Fatalf("file outside the root was changed: %q", data)
	}
	for _, p := range []string{"new.txt", "sub"} {
		if _, err := os.Lstat(filepath.Join(f.outside, p)); err == nil {
			t.Fatalf("%s was created outside the root", p)
		}
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(f.dir), "evil.txt")); err == nil {
		t.Fatal("evil.txt was created outside the root")
	}
}

func TestListDir(t *testing.T) {
	f := newFixture(t)
	runCases(t, f, []toolCase{
		{name: "subdirectory", tool: "list_dir", args: `{"path":"src"}`,
			want: `{"path":"src","entries":[
				{"name":"README.md","type":"file","size":24},
				{"name":"main.go","type":"file","size":48},
				{"name":"util","type":"dir","size":0}]}`},
		{name: "via symlink inside", tool: "list_dir", args: `{"path":"srclink/util"}`,
			want: `{"path":"srclink/util","entries":[{"name":"util.go","type":"file","size":29}]}`},
		{name: "not a directory", tool: "list_dir", args: `{"path":"a.txt"}`,
			wantErr: `cannot list "a.txt": it is not a directory`},
		{name: "missing", tool: "list_dir", args: `{"path":"nope"}`,
			wantErr: `cannot list "nope": no such directory`},
		{name: "escape", tool: "list_dir", args: `{"path":".."}`,
			wantErr: `path ".." escapes the workspace root`},
		{name: "absolute", tool: "list_dir", args: `{"path":"/"}`,
			wantErr: `path "/" must be relative to the workspace root`},
		{name: "symlinked dir outside", tool: "list_dir", args: `{"path":"outdir"}`,
			wantErr: `path "outdir" escapes the workspace root through a symbolic link`},
	})

	// The root, by default and by ".": every entry, sorted, symlinks reported as such.
	for _, args := range []string{`{}`, `{"path":""}`, `{"path":"."}`} {
		res := f.call(t, "list_dir", args)
		if res.IsError {
			t.Fatalf("%s: %s", args, res.Err.Message)
		}
		if p := res.Value.Lookup("path").AsString(); p != "." {
			t.Fatalf("%s: path %q, want \".\"", args, p)
		}
		var got []string
		for _, e := range res.Value.Lookup("entries").Items() {
			got = append(got, e.Lookup("name").AsString()+":"+e.Lookup("type").AsString())
		}
		want := ".git:dir a.txt:file bin.dat:file crlf.txt:file empty.txt:file inlink:symlink node_modules:dir noeol.txt:file out:symlink outdir:symlink src:dir srclink:symlink up:symlink"
		if strings.Join(got, " ") != want {
			t.Fatalf("%s: entries\n got: %s\nwant: %s", args, strings.Join(got, " "), want)
		}
	}
}

func TestGlob(t *testing.T) {
	f := newFixture(t)
	runCases(t, f, []toolCase{
		{name: "doublestar", tool: "glob", args: `{"pattern":"**/*.go"}`,
			want: `{"matches":["src/main.go","src/util/util.go"],"truncated":false}`},
		{name: "top level", tool: "glob", args: `{"pattern":"*.txt"}`,
			want: `{"matches":["a.txt","crlf.txt","empty.txt","noeol.txt"],"truncated":false}`},
		{name: "character class", tool: "glob", args: `{"pattern":"[ae]*.txt"}`,
			want: `{"matches":["a.txt","empty.txt"],"truncated":false}`},
		{name: "question mark", tool: "glob", args: `{"pattern":"?.txt"}`,
			want: `{"matches":["a.txt"],"truncated":false}`},
		{name: "files and directories", tool: "glob", args: `{"pattern":"src/*"}`,
			want: `{"matches":["src/README.md","src/main.go","src/util"],"truncated":false}`},
		{name: "doublestar in the middle", tool: "glob", args: `{"pattern":"src/**/util.go"}`,
			want: `{"matches":["src/util/util.go"],"truncated":false}`},
		{name: "trailing doublestar", tool: "glob", args: `{"pattern":"src/**"}`,
			want: `{"matches":["src","src/README.md","src/main.go","src/util","src/util/util.go"],"truncated":false}`},
		{name: "under a path", tool: "glob", args: `{"pattern":"*.go","path":"src"}`,
			want: `{"matches":["src/main.go"],"truncated":false}`},
		{name: "under a path with doublestar", tool: "glob", args: `{"pattern":"**/*.go","path":"src/util"}`,
			want: `{"matches":["src/util/util.go"],"truncated":false}`},
		{name: "leading ./ and empty segments", tool: "glob", args: `{"pattern":"./src//*.md"}`,
			want: `{"matches":["src/README.md"],"truncated":false}`},
		{name: "node_modules skipped", tool: "glob", args: `{"pattern":"**/*.js"}`,
			want: `{"matches":[],"truncated":false}`},
		{name: "node_modules named", tool: "glob", args: `{"pattern":"node_modules/**/*.js"}`,
			want: `{"matches":["node_modules/x/index.js"],"truncated":false}`},
		{name: ".git skipped", tool: "glob", args: `{"pattern":"**/config"}`,
			want: `{"matches":[],"truncated":false}`},
		{name: ".git named", tool: "glob", args: `{"pattern":".git/*"}`,
			want: `{"matches":[".git/config"],"truncated":false}`},
		{name: "symlinks match but are not followed", tool: "glob", args: `{"pattern":"*link/*"}`,
			want: `{"matches":[],"truncated":false}`},
		{name: "symlinks listed", tool: "glob", args: `{"pattern":"*link"}`,
			want: `{"matches":["inlink","srclink"],"truncated":false}`},
		{name: "no matches", tool: "glob", args: `{"pattern":"**/*.rs"}`,
			want: `{"matches":[],"truncated":false}`},
		{name: "bad pattern", tool: "glob", args: `{"pattern":"src/[a"}`,
			wantErr: `invalid glob pattern "src/[a": malformed segment "[a"`},
		{name: "dotdot pattern", tool: "glob", args: `{"pattern":"../*"}`,
			wantErr: `glob pattern "../*" escapes the search directory`},
		{name: "absolute pattern", tool: "glob", args: `{"pattern":"/etc/*"}`,
			wantErr: `glob pattern "/etc/*" must be relative`},
		{name: "empty pattern", tool: "glob", args: `{"pattern":""}`,
			wantErr: `glob pattern must not be empty`},
		{name: "path escape", tool: "glob", args: `{"pattern":"*","path":"../"}`,
			wantErr: `path "../" escapes the workspace root`},
		{name: "path through symlink outside", tool: "glob", args: `{"pattern":"*","path":"outdir"}`,
			wantErr: `path "outdir" escapes the workspace root through a symbolic link`},
		{name: "path is a file", tool: "glob", args: `{"pattern":"*","path":"a.txt"}`,
			wantErr: `cannot search "a.txt": it is not a directory`},
		{name: "path missing", tool: "glob", args: `{"pattern":"*","path":"nope"}`,
			wantErr: `cannot search "nope": no such file or directory`},
	})
}

func TestGlobTruncated(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 10,001 files")
	}
	dir := t.TempDir()
	for i := range maxGlobMatches + 1 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, reg := openRegistry(t, dir, Options{})
	res := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "glob", Arguments: jsonv.MustParse(`{"pattern":"*.txt"}`)})
	if res.IsError {
		t.Fatal(res.Err.Message)
	}
	if n := res.Value.Lookup("matches").Len(); n != maxGlobMatches {
		t.Fatalf("%d matches, want %d", n, maxGlobMatches)
	}
	if !res.Value.Lookup("truncated").AsBool() {
		t.Fatal("truncated is false")
	}
}

func TestGrep(t *testing.T) {
	f := newFixture(t)
	writeFiles(t, f.dir, map[string]string{
		"long/line.txt": "x" + strings.Repeat("é", 600) + "\n",
	})
	runCases(t, f, []toolCase{
		{name: "case-sensitive", tool: "grep", args: `{"pattern":"hello"}`,
			want: `{"matches":[
				{"path":"src/README.md","line":1,"text":"hello world"},
				{"path":"src/util/util.go","line":3,"text":"// TODO: hello"}],"truncated":false}`},
		{name: "ignoreCase", tool: "grep", args: `{"pattern":"hello","ignoreCase":true}`,
			want: `{"matches":[
				{"path":"src/README.md","line":1,"text":"hello world"},
				{"path":"src/README.md","line":2,"text":"HELLO again"},
				{"path":"src/main.go","line":4,"text":"\tprintln(\"Hello\")"},
				{"path":"src/util/util.go","line":3,"text":"// TODO: hello"}],"truncated":false}`},
		{name: "glob filter", tool: "grep", args: `{"pattern":"hello","ignoreCase":true,"glob":"**/*.go"}`,
			want: `{"matches":[
				{"path":"src/main.go","line":4,"text":"\tprintln(\"Hello\")"},
				{"path":"src/util/util.go","line":3,"text":"// TODO: hello"}],"truncated":false}`},
		{name: "glob filter relative to path", tool: "grep", args: `{"pattern":"^package","path":"src","glob":"*.go"}`,
			want: `{"matches":[{"path":"src/main.go","line":1,"text":"package main"}],"truncated":false}`},
		{name: "glob naming node_modules", tool: "grep", args: `{"pattern":"hello","glob":"node_modules/**"}`,
			want: `{"matches":[{"path":"node_modules/x/index.js","line":1,"text":"hello from node_modules"}],"truncated":false}`},
		{name: "maxMatches truncation", tool: "grep", args: `{"pattern":"hello","ignoreCase":true,"maxMatches":2}`,
			want: `{"matches":[
				{"path":"src/README.md","line":1,"text":"hello world"},
				{"path":"src/README.md","line":2,"text":"HELLO again"}],"truncated":true}`},
		{name: "maxMatches exactly reached", tool: "grep", args: `{"pattern":"hello","maxMatches":2}`,
			want: `{"matches":[
				{"path":"src/README.md","line":1,"text":"hello world"},
				{"path":"src/util/util.go","line":3,"text":"// TODO: hello"}],"truncated":false}`},
		{name: "single file", tool: "grep", args: `{"pattern":"t","path":"a.txt"}`,
			want: `{"matches":[{"path":"a.txt","line":2,"text":"two"},{"path":"a.txt","line":3,"text":"three"}],"truncated":false}`},
		{name: "line anchors with CRLF", tool: "grep", args: `{"pattern":"^y$","path":"crlf.txt"}`,
			want: `{"matches":[{"path":"crlf.txt","line":2,"text":"y"}],"truncated":false}`},
		{name: "binary skipped", tool: "grep", args: `{"pattern":"ab"}`,
			want: `{"matches":[],"truncated":false}`},
		{name: "long line cut to 500 characters", tool: "grep", args: `{"pattern":"^x","path":"long"}`,
			want: `{"matches":[{"path":"long/line.txt","line":1,"text":"x` + strings.Repeat("é", 499) + `"}],"truncated":false}`},
		{name: "invalid regex", tool: "grep", args: `{"pattern":"(unclosed"}`,
			wantErr: "invalid regular expression \"(unclosed\": missing closing ): `(unclosed`"},
		{name: "invalid glob", tool: "grep", args: `{"pattern":"x","glob":"[z"}`,
			wantErr: `invalid glob pattern "[z"`},
		{name: "path escape", tool: "grep", args: `{"pattern":"x","path":"../.."}`,
			wantErr: `path "../.." escapes the workspace root`},
		{name: "absolute path", tool: "grep", args: `{"pattern":"root","path":"/etc/passwd"}`,
			wantErr: `path "/etc/passwd" must be relative to the workspace root`},
		{name: "symlink outside", tool: "grep", args: `{"pattern":"secret","path":"out"}`,
			wantErr: `path "out" escapes the workspace root through a symbolic link`},
		{name: "missing path", tool: "grep", args: `{"pattern":"x","path":"nope"}`,
			wantErr: `cannot search "nope": no such file or directory`},
		{name: "zero maxMatches", tool: "grep", args: `{"pattern":"x","maxMatches":0}`,
			wantErr: `maxMatches`, code: registry.CodeInvalidArgs},
	})
}

func TestStat(t *testing.T) {
	f := newFixture(t)
	mtime := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(f.dir, "a.txt"), mtime, mtime); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(f.dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	runCases(t, f, []toolCase{
		{name: "file", tool: "stat", args: `{"path":"a.txt"}`,
			want: `{"path":"a.txt","type":"file","size":14,"modTime":"2024-05-01T12:00:00Z","mode":"-rw-r--r--"}`},
		{name: "missing", tool: "stat", args: `{"path":"nope"}`,
			wantErr: `cannot stat "nope": no such file or directory`},
		{name: "escape", tool: "stat", args: `{"path":"../x"}`,
			wantErr: `path "../x" escapes the workspace root`},
		{name: "absolute", tool: "stat", args: `{"path":"/etc"}`,
			wantErr: `path "/etc" must be relative to the workspace root`},
		{name: "through a symlinked dir outside", tool: "stat", args: `{"path":"outdir/secret.txt"}`,
			wantErr: `path "outdir/secret.txt" escapes the workspace root through a symbolic link`},
	})
	for _, tc := range []struct{ path, typ, modePrefix string }{
		{"src", "dir", "drwxr-xr-x"},
		{".", "dir", "d"},
		{"out", "symlink", "l"}, // the link itself, not its (outside) target
		{"inlink", "symlink", "l"},
	} {
		res := f.call(t, "stat", `{"path":"`+tc.path+`"}`)
		if res.IsError {
			t.Fatalf("stat %s: %s", tc.path, res.Err.Message)
		}
		v := res.Value
		if got := v.Lookup("type").AsString(); got != tc.typ {
			t.Errorf("stat %s: type %q, want %q", tc.path, got, tc.typ)
		}
		if got := v.Lookup("mode").AsString(); !strings.HasPrefix(got, tc.modePrefix) || len(got) != 10 {
			t.Errorf("stat %s: mode %q, want prefix %q", tc.path, got, tc.modePrefix)
		}
		if _, err := time.Parse(time.RFC3339, v.Lookup("modTime").AsString()); err != nil || !strings.HasSuffix(v.Lookup("modTime").AsString(), "Z") {
			t.Errorf("stat %s: modTime %q is not RFC 3339 UTC", tc.path, v.Lookup("modTime").AsString())
		}
	}
}

func TestToolDefinitions(t *testing.T) {
	f := newFixture(t)
	want := []string{"read_file", "write_file", "list_dir", "glob", "grep", "stat"}
	tools := f.ws.Tools()
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for i, tool := range tools {
		if tool.Name != want[i] {
			t.Fatalf("tool %d is %q, want %q", i, tool.Name, want[i])
		}
		if tool.Description == "" {
			t.Errorf("%s: no description", tool.Name)
		}
		if !tool.Output.Schema.IsDefined() {
			t.Errorf("%s: no output schema", tool.Name)
		}
		// No result is ever null, nor any part of one, and the schema says so: the SDK types
		// have no "| null" (the registry refuses a value that breaks the schema).
		if path := nullablePath(tool.Output.Schema, "output"); path != "" {
			t.Errorf("%s: %s admits null", tool.Name, path)
		}
		p := tool.Parameters
		if ap, ok := p.Get("additionalProperties"); !ok || ap.Kind() != jsonv.Bool || ap.AsBool() {
			t.Errorf("%s: parameters lack additionalProperties: false", tool.Name)
		}
		for _, m := range p.Lookup("properties").Members() {
			if m.Value.Lookup("description").AsString() == "" {
				t.Errorf("%s: property %q has no description", tool.Name, m.Key)
			}
		}
		// Read-only tools may overlap; the writer may not.
		args := map[string]string{
			"read_file": `{"path":"a.txt"}`, "write_file": `{"path":"a.txt","content":""}`,
			"list_dir": `{}`, "glob": `{"pattern":"*"}`, "grep": `{"pattern":"x"}`, "stat": `{"path":"a.txt"}`,
		}[tool.Name]
		wantMode := registry.Parallel
		if tool.Name == "write_file" {
			wantMode = registry.Exclusive
		}
		if got := f.reg.ExecutionMode(registry.Call{Name: tool.Name, Arguments: jsonv.MustParse(args)}); got != wantMode {
			t.Errorf("%s: execution mode %s, want %s", tool.Name, got, wantMode)
		}
	}
}

// nullablePath returns the path of the first place in schema that admits null ("" for none).
func nullablePath(schema jsonv.Value, path string) string {
	switch schema.Kind() {
	case jsonv.Array:
		for i, item := range schema.Items() {
			if p := nullablePath(item, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case jsonv.Object:
		typ := schema.Lookup("type")
		if typ.AsString() == "null" {
			return path
		}
		for _, ty := range typ.Items() {
			if ty.AsString() == "null" {
				return path
			}
		}
		for _, m := range schema.Members() {
			if p := nullablePath(m.Value, path+"."+m.Key); p != "" {
				return p
			}
		}
	}
	return ""
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"f": "x"})
	if _, err := Open(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Open(missing) = %v, want a does-not-exist error", err)
	}
	if _, err := Open(filepath.Join(dir, "f")); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("Open(file) = %v, want a not-a-directory error", err)
	}
	ws, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ws.Root() != dir || !filepath.IsAbs(ws.Root()) {
		t.Errorf("Root() = %q, want %q", ws.Root(), dir)
	}
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	if _, err := reg.Register(ws.Tools()...); err != nil {
		t.Fatal(err)
	}
	res := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "read_file", Arguments: jsonv.MustParse(`{"path":"f"}`)})
	if !res.IsError || !strings.Contains(res.Err.Message, "the workspace is closed") {
		t.Errorf("read after Close: %+v", res)
	}
}

func TestCancelledWalks(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct{ tool, args string }{
		{"glob", `{"pattern":"**"}`},
		{"grep", `{"pattern":"x"}`},
		{"list_dir", `{}`},
	} {
		tool, _ := f.reg.Get(tc.tool, nil)
		_, err := tool.Execute(ctx, &registry.Invocation{Execution: registry.Execution{Name: tc.tool, Arguments: jsonv.MustParse(tc.args)}})
		if err == nil || err != context.Canceled {
			t.Errorf("%s with a cancelled context: err = %v, want context.Canceled", tc.tool, err)
		}
	}
}

// TestConcurrentReads runs the read-only tools in parallel, for the race detector.
func TestConcurrentReads(t *testing.T) {
	f := newFixture(t)
	calls := []struct{ tool, args string }{
		{"read_file", `{"path":"a.txt"}`}, {"list_dir", `{"path":"src"}`}, {"glob", `{"pattern":"**/*.go"}`},
		{"grep", `{"pattern":"hello"}`}, {"stat", `{"path":"a.txt"}`},
	}
	done := make(chan string)
	for i := range 20 {
		c := calls[i%len(calls)]
		go func() {
			res := f.reg.Execute(context.Background(), registry.Call{CallID: fmt.Sprint(i), Name: c.tool, Arguments: jsonv.MustParse(c.args)})
			if res.IsError {
				done <- c.tool + ": " + res.Err.Message
				return
			}
			done <- ""
		}()
	}
	for range 20 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
