package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// typeError is the refusal of a path that is not of the type a tool works on: a tool opens
// only regular files, and directories where it lists them.
type typeError struct{ mode fs.FileMode }

// Error says what kind of file it is instead of the kind wanted.
func (e *typeError) Error() string { return "it is " + kindOf(e.mode) }

// kindOf names the type of a file mode for messages: "a named pipe", "a directory", …
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

// open opens name (clean, root-relative) read-only: a directory when wantDir, a regular file
// otherwise; anything else is refused with a *typeError. It never blocks in open(2) and decides
// on the descriptor it opened, never on an earlier stat: a cheap stat first keeps it from
// opening what is plainly not wanted (opening a device can have side effects), the open itself
// is non-blocking (a named pipe swapped in after the stat opens at once), and fstat of the
// opened descriptor is the check that counts.
func (w *Workspace) open(name string, wantDir bool) (*os.File, fs.FileInfo, error) {
	info, err := w.root.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if !wanted(info.Mode(), wantDir) {
		return nil, info, &typeError{info.Mode()}
	}
	if w.beforeOpen != nil {
		w.beforeOpen(name)
	}
	f, err := w.root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	if info, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !wanted(info.Mode(), wantDir) {
		f.Close()
		return nil, info, &typeError{info.Mode()}
	}
	return f, info, nil
}

func wanted(m fs.FileMode, dir bool) bool {
	if dir {
		return m.IsDir()
	}
	return m.IsRegular()
}

// walkFS is the file system the walks (glob, grep) go through: the root's, with every
// directory opened by Workspace.open, so that a walk never blocks on a directory swapped for a
// named pipe while it walks.
type walkFS struct{ w *Workspace }

// Open opens a regular file or a directory.
func (s walkFS) Open(name string) (fs.File, error) {
	info, err := s.w.root.Lstat(name)
	if err != nil {
		return nil, err
	}
	f, _, err := s.w.open(name, info.IsDir())
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return f, nil
}

// Stat stats name, following symbolic links inside the root.
func (s walkFS) Stat(name string) (fs.FileInfo, error) { return s.w.root.Stat(name) }

// ReadDir lists a directory, sorted by name, leaving out the entries whose names are not valid
// UTF-8 (see nameable).
func (s walkFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, _, err := s.w.open(name, true)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	entries = slices.DeleteFunc(entries, func(e fs.DirEntry) bool { return !nameable(e.Name()) })
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// nameable reports whether a directory entry's name can appear in a tool result: only valid
// UTF-8 can. Any other name would reach the model altered (its invalid bytes as U+FFFD), and a
// path built from it would name a different file; since no tool call can name such an entry,
// the tools leave it out rather than report a name that does not exist.
func nameable(name string) bool { return utf8.ValidString(name) }

// asTypeError reports whether err is a *typeError, and returns it.
func asTypeError(err error) (*typeError, bool) {
	var te *typeError
	ok := errors.As(err, &te)
	return te, ok
}

// notRegular is the message of a refusal to read or write what is not a regular file.
func notRegular(verb, shown string, te *typeError) error {
	return fmt.Errorf("cannot %s %q: it is not a regular file (%s)", verb, shown, kindOf(te.mode))
}
