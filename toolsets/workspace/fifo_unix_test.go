//go:build unix

package workspace

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSpecialFiles checks that a named pipe is refused or skipped rather than opened (which
// would block until a writer appears).
func TestSpecialFiles(t *testing.T) {
	f := newFixture(t)
	if err := syscall.Mkfifo(filepath.Join(f.dir, "src", "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	runCases(t, f, []toolCase{
		{name: "read_file refuses", tool: "read_file", args: `{"path":"src/pipe"}`,
			wantErr: `cannot read "src/pipe": it is not a regular file`},
		{name: "grep path refuses", tool: "grep", args: `{"pattern":"x","path":"src/pipe"}`,
			wantErr: `cannot search "src/pipe": it is neither a directory nor a regular file`},
		{name: "grep walk skips", tool: "grep", args: `{"pattern":"^package","path":"src"}`,
			want: `{"matches":[{"path":"src/main.go","line":1,"text":"package main"},{"path":"src/util/util.go","line":1,"text":"package util"}],"truncated":false}`},
		{name: "list_dir reports other", tool: "list_dir", args: `{"path":"src/util/../pipe/.."}`,
			want: `{"path":"src","entries":[
				{"name":"README.md","type":"file","size":24},
				{"name":"main.go","type":"file","size":48},
				{"name":"pipe","type":"other","size":0},
				{"name":"util","type":"dir","size":0}]}`},
	})
	res := f.call(t, "stat", `{"path":"src/pipe"}`)
	if res.IsError || res.Value.Lookup("type").AsString() != "other" || !strings.HasPrefix(res.Value.Lookup("mode").AsString(), "p") {
		t.Fatalf("stat of a pipe: %+v %v", res.Err, res.Value)
	}
}
