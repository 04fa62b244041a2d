//go:build unix

package jsruntime_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestASourceMappingURLCommentReadsNoFile: goja reads the source map a script's last
// sourceMappingURL comment names, from the file system unless told otherwise, when compiling
// the program (its last line "})" is skipped when looking for the comment), eval or Function.
// The comment names a FIFO with no writer here: a read blocks forever (with /dev/zero it would
// exhaust the host's memory). Before, each of these runs blocked.
func TestASourceMappingURLCommentReadsNoFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "map")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, fifo) // goja resolves the URL against "main.ts": relative to the working directory
	if err != nil {
		t.Fatal(err)
	}
	comment := "//# sourceMappingURL=" + rel
	programs := map[string]string{
		"program":      "return 1\n" + comment,
		"typescript":   "const n: number = 1; return n\n" + comment,
		"eval":         "return eval(" + quoteJS("1\n"+comment) + ")",
		"new Function": "return new Function(" + quoteJS("return 1\n"+comment) + ")()",
	}
	for _, iso := range isolations {
		rt := iso.new(t, jsruntime.Config{})
		for name, program := range programs {
			done := make(chan jsruntime.Result, 1)
			go func() {
				res, _ := rt.Run(context.Background(), jsruntime.Request{Program: program})
				done <- res
			}()
			select {
			case res := <-done:
				if res.Error != nil || res.Value.String() != "1" {
					t.Errorf("%s, %s: %+v", iso.name, name, res.Error)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s, %s: the run blocked reading the file its sourceMappingURL comment names", iso.name, name)
			}
		}
	}
}

// quoteJS quotes s as a JavaScript string literal.
func quoteJS(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch r {
		case '\n':
			b = append(b, '\\', 'n')
		case '"', '\\':
			b = append(b, '\\', byte(r))
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}
