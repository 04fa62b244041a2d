package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/traceview"
)

// traceCmd is `runcode trace view FILE [-o OUT.html]`: the waterfall page of a --trace file.
func (c *cli) traceCmd(args []string) error {
	if len(args) == 0 || args[0] != "view" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Fprintln(c.stdout, "Usage: runcode trace view FILE [-o FILE.html]")
			return nil
		}
		return &usageError{"trace needs a subcommand: runcode trace view FILE [-o FILE.html]"}
	}
	fs := newFlagSet(c, "trace view", "FILE [-o FILE.html]")
	out := fs.String("o", "", "write the page to `FILE` (- for stdout; default: the trace's path with .html in place of its extension)")
	positional, err := c.parseInterleaved(fs, args[1:])
	if err != nil {
		return flagError(err)
	}
	if len(positional) != 1 {
		return &usageError{"trace view takes exactly one FILE, a --trace file"}
	}
	in := positional[0]
	dest := *out
	if dest == "" {
		dest = strings.TrimSuffix(in, filepath.Ext(in)) + ".html"
	}
	if dest != "-" && (mustAbs(dest) == mustAbs(in) || sameFile(dest, in)) {
		return &usageError{fmt.Sprintf("trace view would overwrite the trace %s; name another page with -o", in)}
	}
	f, err := os.Open(in)
	if err != nil {
		return fmt.Errorf("cannot read trace: %w", err)
	}
	events, err := bridge.ReadEvents(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	var page bytes.Buffer
	if err := traceview.Write(&page, events, traceview.Options{Title: "runcode trace: " + filepath.Base(in)}); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if dest == "-" {
		_, err := c.stdout.Write(page.Bytes())
		return err
	}
	return os.WriteFile(dest, page.Bytes(), 0o644)
}

// sameFile reports whether a and b name one existing file, through links or other paths.
func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

func mustAbs(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	return abs
}
