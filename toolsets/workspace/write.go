package workspace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/registry"
)

// writeBudget is what one run (call tree) has written through one Workspace.
type writeBudget struct {
	mu      sync.Mutex
	written int64
}

// budgetKey keys a Workspace's writeBudget among a call tree's values.
type budgetKey struct{ w *Workspace }

// createCost is what each file or directory write_file creates counts against the run's write
// budget, besides its content: about what an inode and a block cost the file system. Without
// it empty files and directories cost nothing, and a program could create millions of them;
// with it, the default budget allows 65,536.
const createCost = 4 << 10

// charge counts n more bytes of content and created new files or directories (createCost each)
// against the budget of inv's run, or refuses them, without counting them, when they would
// exceed it.
func (w *Workspace) charge(inv *registry.Invocation, shown string, n int64, created int) error {
	b := inv.RootValue(budgetKey{w}, func() any { return new(writeBudget) }).(*writeBudget)
	b.mu.Lock()
	defer b.mu.Unlock()
	cost := n + int64(created)*createCost
	if limit := w.opts.MaxWriteBytes; cost > limit-b.written {
		what := "writing " + sizeText(n)
		switch {
		case created == 1:
			what += fmt.Sprintf(" and creating 1 file or directory (%s)", sizeText(createCost))
		case created > 1:
			what += fmt.Sprintf(" and creating %d files or directories (%s each)", created, sizeText(createCost))
		}
		return fmt.Errorf("cannot write %q: %s would exceed the write budget of %s per run (%s used so far in this run)",
			shown, what, sizeText(limit), sizeText(b.written))
	}
	b.written += cost
	return nil
}

// missingDirs returns how many of dir (clean, root-relative) and its ancestors do not exist:
// the directories that creating dir would create.
func (w *Workspace) missingDirs(dir string) int {
	n := 0
	for ; dir != "."; dir = path.Dir(dir) {
		if _, err := w.root.Lstat(dir); !errors.Is(err, fs.ErrNotExist) || isEscape(err) {
			break
		}
		n++
	}
	return n
}

// sizeText renders a byte count for messages: "16 MiB", "12 KiB" or "1234 bytes".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	case n == 1:
		return "1 byte"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// checkContent refuses content write_file must not write: text that is not valid UTF-8 (which
// could only be written altered or as something the model did not read) and content over the
// per-file cap.
func (w *Workspace) checkContent(shown, content string) error {
	if !utf8.ValidString(content) {
		off := invalidUTF8(content)
		return fmt.Errorf("cannot write %q: content is not valid UTF-8 text (invalid byte 0x%02x at byte offset %d)", shown, content[off], off)
	}
	if n := int64(len(content)); n > w.opts.MaxFileBytes {
		return fmt.Errorf("cannot write %q: the content is %s, over the %s limit per file", shown, sizeText(n), sizeText(w.opts.MaxFileBytes))
	}
	return nil
}

// checkTarget refuses a target write_file must not replace, and returns the existing file's
// information (nil when there is no file yet).
func (w *Workspace) checkTarget(name, shown string) (fs.FileInfo, error) {
	info, err := w.root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !isEscape(err):
		return nil, nil // a new file (or a missing directory, which creating the temporary file reports)
	case err != nil:
		return nil, fsError("write", shown, "no such file", err)
	case info.IsDir():
		return nil, fmt.Errorf("cannot write %q: it is a directory", shown)
	case info.Mode()&fs.ModeSymlink != 0:
		// Replacing the file would replace the link, not what it points to: refuse, and say where
		// it points (or that it leaves the root).
		if _, err := w.root.Stat(name); isEscape(err) {
			return nil, fsError("write", shown, "no such file", err)
		}
		target, _ := w.root.Readlink(name)
		return nil, fmt.Errorf("cannot write %q: it is a symbolic link (to %q); write the file it points to", shown, target)
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("cannot write %q: it is %s, not a regular file", shown, kindOf(info.Mode()))
	case linkCount(info) > 1:
		return nil, fmt.Errorf("cannot write %q: it has %d hard links, and replacing it would change or detach a file that may live outside the workspace", shown, linkCount(info))
	}
	return info, nil
}

// replaceFile writes content to name (clean, root-relative) atomically: into a new temporary
// file in the same directory, synced, then renamed over name, and the directory synced. old is
// the file being replaced, if any: the new file takes its permission bits and, where the
// process may, its owner. On any failure, and when ctx is cancelled before the rename, the
// temporary file is removed and name keeps its old content.
func (w *Workspace) replaceFile(ctx context.Context, name, shown, content string, old fs.FileInfo) (err error) {
	dir := path.Dir(name)
	tmp, f, err := w.createTemp(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !isEscape(err) {
			return fmt.Errorf("cannot write %q: directory %q does not exist (set createDirs to true to create it)", shown, dir)
		}
		return fsError("write", shown, "no such file", err)
	}
	defer func() {
		if f != nil {
			f.Close()
		}
		if err != nil {
			_ = w.root.Remove(tmp)
		}
	}()
	var out io.Writer = f
	if w.wrapTemp != nil {
		out = w.wrapTemp(f)
	}
	if _, err := io.WriteString(out, content); err != nil {
		return fmt.Errorf("cannot write %q: %v (the file is unchanged)", shown, unwrapPathError(err))
	}
	if old != nil {
		if err := f.Chmod(old.Mode().Perm()); err != nil {
			return fmt.Errorf("cannot write %q: %v (the file is unchanged)", shown, unwrapPathError(err))
		}
		keepOwner(f, old)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("cannot write %q: %v (the file is unchanged)", shown, unwrapPathError(err))
	}
	err, f = f.Close(), nil
	if err != nil {
		return fmt.Errorf("cannot write %q: %v (the file is unchanged)", shown, unwrapPathError(err))
	}
	if ctx.Err() != nil {
		return fmt.Errorf("cannot write %q: %w (the file is unchanged)", shown, context.Cause(ctx))
	}
	if err := w.root.Rename(tmp, name); err != nil {
		if info, serr := w.root.Lstat(name); serr == nil && info.IsDir() {
			return fmt.Errorf("cannot write %q: it is a directory", shown)
		}
		return fsError("write", shown, "no such file", err)
	}
	// Make the rename itself durable. Some file systems cannot sync a directory; the content is
	// in place either way, so that is not a failure of the write.
	if d, _, derr := w.open(dir, true); derr == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// tempAttempts bounds createTemp's retries on a name collision.
const tempAttempts = 100

// createTemp creates a new, empty temporary file in dir (clean, root-relative). Its name starts
// with ".runcode-write-", so that a file left by a crash is recognizable.
func (w *Workspace) createTemp(dir string) (string, *os.File, error) {
	for range tempAttempts {
		name := path.Join(dir, ".runcode-write-"+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := w.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, f, err
	}
	return "", nil, fmt.Errorf("no unused temporary file name after %d attempts", tempAttempts)
}
