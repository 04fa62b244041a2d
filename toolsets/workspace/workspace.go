// Package workspace provides runcode's built-in workspace file tools: read_file, write_file,
// list_dir, glob, grep and stat, each a registry.Tool with a JSON Schema for its arguments and
// for its result.
//
//	ws, err := workspace.Open(".")
//	defer ws.Close()
//	_, err = reg.Register(ws.Tools()...)
//
// [Open] (or [OpenWith], with write limits in [Options]) roots a [Workspace] at a directory, and
// [Workspace.Tools] returns its tools for a registry.
//
// Confinement: a Workspace is rooted at one directory, and every file operation goes through an
// os.Root opened on it. Every path argument is relative to the root and slash-separated ("" or
// "." is the root itself). A path that is absolute, that climbs out with "..", or that reaches
// outside the root through a symbolic link is refused with an error naming the path; directory
// walks (glob, grep) go through the root and never follow symbolic links. A path longer than
// 4096 bytes, or with a name longer than 255 bytes (Linux's PATH_MAX and NAME_MAX), is refused
// before it is used (ErrPathTooLong).
//
// File types: the tools read, write and list only regular files and directories. Every open is
// non-blocking and decided on the opened descriptor (fstat), so a named pipe, device or socket
// (even one swapped in for a file while a tool runs) is refused, never waited on or written to.
//
// Writes: write_file replaces a file atomically. It writes the new content to a temporary file
// in the same directory, syncs it, gives it the old file's permission bits (and owner, where
// the process may), renames it over the target and syncs the directory; a write that fails or
// is cancelled part-way removes the temporary file and leaves the old content, and a
// concurrent reader sees the old content or the new, never a mix. It refuses a target that is
// not a regular file, a symbolic link, and a file with more than one hard link (writing it
// would change, or silently detach, a file that may live outside the workspace). Reading a
// hard-linked file is allowed: the tools cannot create hard links, and package managers (pnpm,
// for one) fill node_modules with them.
//
// Text: the tools handle UTF-8 text only and never alter it. read_file refuses a file that is
// not valid UTF-8, naming the byte offset and line of the first invalid byte; grep skips such
// files as it skips binary ones; write_file refuses content that is not valid UTF-8; list_dir,
// glob and grep leave out entries whose names are not valid UTF-8 (no tool call could name
// them). So a read followed by a write of what was read reproduces the file byte for byte, in
// every isolation, and every path a tool reports names a file that exists.
//
// Limits: read_file reads a file as large as the run's memory budget can hold twice (see
// Memory; outside a budgeted run, 16 MiB), grep searches files of at most 16 MiB, and
// write_file writes at most Options.MaxFileBytes per file (default 16 MiB) and at most Options.MaxWriteBytes per run (default 256 MiB): one top-level
// call and every sub-call made on its behalf, such as all the calls of one Code Mode program,
// share the budget (see registry.Invocation.RootValue); a direct call has its own. Each file
// or directory a write creates counts 4 KiB of the budget besides its content (the default
// allows 65,536), so that empty files and directories are not free.
//
// Memory: under a run's memory budget (a Code Mode run's sub-calls each carry an account of it
// in their context; see codemode.Options.SubCallMemory), read_file reserves twice the file's
// size (the text, and its rendering for the model) after fstat and before reading, grep the
// size of each file while it searches it and, before holding each match, an estimate of the
// match's memory (320 bytes, twice its path and three times its text, which is cut to 500
// characters) until the result is handed over, glob each path it returns (64 bytes and three
// times the path) before holding it, and list_dir its entries batch by batch as it reads them.
// grep's maxMatches is at most 10,000 (its schema's maximum), as are glob's paths. A reservation waits while earlier calls hold the budget and fails, naming the sizes,
// when it could never fit. read_file reads into one buffer of the file's size and returns that
// buffer as the text, without copying it.
package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/registry"
)

// Workspace is a set of file tools confined to one root directory. It is safe for concurrent
// use; its tools may run concurrently.
type Workspace struct {
	root *os.Root
	dir  string
	opts Options

	// Test seams: beforeOpen runs between a tool's stat of a path and its open (to swap the
	// file); beforeRead between a reader's fstat of a file and its read (to grow the file);
	// wrapTemp wraps the writer of write_file's temporary file (to fail a write part-way).
	beforeOpen func(name string)
	beforeRead func(name string)
	wrapTemp   func(io.Writer) io.Writer
}

// Defaults of Options.
const (
	DefaultMaxWriteBytes = 256 << 20
	DefaultMaxFileBytes  = maxFileSize
)

// Options configure a Workspace. The zero value means the defaults.
type Options struct {
	// MaxWriteBytes is how many bytes of content write_file may write in one run: one top-level
	// call and every call made on its behalf (see the package documentation). Every write
	// attempted counts, whether it succeeds or not, and each file or directory it creates
	// counts 4 KiB besides its content. Zero means DefaultMaxWriteBytes (256 MiB).
	MaxWriteBytes int64
	// MaxFileBytes is the largest content write_file writes in one call. Zero means
	// DefaultMaxFileBytes (16 MiB).
	MaxFileBytes int64
}

// Open returns the workspace rooted at dir with the default Options; see OpenWith.
func Open(dir string) (*Workspace, error) { return OpenWith(dir, Options{}) }

// OpenWith returns the workspace rooted at dir, which must exist and be a directory. Close it
// when done. Negative limits in opts are an error.
func OpenWith(dir string, opts Options) (*Workspace, error) {
	switch {
	case opts.MaxWriteBytes < 0:
		return nil, fmt.Errorf("workspace: MaxWriteBytes must not be negative, got %d", opts.MaxWriteBytes)
	case opts.MaxFileBytes < 0:
		return nil, fmt.Errorf("workspace: MaxFileBytes must not be negative, got %d", opts.MaxFileBytes)
	}
	if opts.MaxWriteBytes == 0 {
		opts.MaxWriteBytes = DefaultMaxWriteBytes
	}
	if opts.MaxFileBytes == 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace root %q: %v", dir, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("workspace root %q does not exist", dir)
		}
		return nil, fmt.Errorf("workspace root %q: %v", dir, unwrapPathError(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("workspace root %q is not a directory", dir)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace root %q: %v", dir, unwrapPathError(err))
	}
	return &Workspace{root: root, dir: abs, opts: opts}, nil
}

// Tools returns the workspace tools in this order: read_file, write_file, list_dir, glob, grep,
// stat. The read-only ones are concurrency-safe; write_file is not.
func (w *Workspace) Tools() []registry.Tool {
	return []registry.Tool{
		presented(w.readFileTool()),
		w.writeFileTool(),
		presented(w.listDirTool()),
		presented(w.globTool()),
		presented(w.grepTool()),
		w.statTool(),
	}
}

// Close releases the root. Tool calls made after Close fail.
func (w *Workspace) Close() error { return w.root.Close() }

// Root returns the absolute root directory.
func (w *Workspace) Root() string { return w.dir }

// The longest path a tool accepts and the longest name in it, in bytes: Linux's PATH_MAX and
// NAME_MAX. os.Root resolves a path one name at a time, so the OS never sees the whole path
// and would not refuse it; a path of 20,000 names made write_file create directories, each
// resolved from the root again, for longer than a run's wall ceiling.
const (
	maxPathBytes = 4096
	maxNameBytes = 255
)

// ErrPathTooLong is matched (errors.Is) by the refusal of a path argument longer than 4096
// bytes, or holding a name longer than 255 bytes.
var ErrPathTooLong = errors.New("path too long")

// shortQuote quotes p for a message, cut to its first 64 bytes (a refused path may be long).
func shortQuote(p string) string {
	const keep = 64
	if len(p) <= keep {
		return strconv.Quote(p)
	}
	cut := keep
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return strconv.Quote(p[:cut]) + "…"
}

// checkPathLength refuses a path argument over maxPathBytes, or with a name over
// maxNameBytes, before anything else looks at it.
func checkPathLength(p string) error {
	if len(p) > maxPathBytes {
		return fmt.Errorf("%w: path %s is %d bytes, over the limit of %d bytes for a path", ErrPathTooLong, shortQuote(p), len(p), maxPathBytes)
	}
	for rest := p; rest != ""; {
		name, after, _ := strings.Cut(rest, "/")
		if len(name) > maxNameBytes {
			return fmt.Errorf("%w: path %s has a name of %d bytes, over the limit of %d bytes for one name", ErrPathTooLong, shortQuote(p), len(name), maxNameBytes)
		}
		rest = after
	}
	return nil
}

// cleanPath turns a tool's path argument into a clean root-relative name for os.Root, or
// refuses it. "" and "." are the root.
func cleanPath(p string) (string, error) {
	if p == "" || p == "." {
		return ".", nil
	}
	if err := checkPathLength(p); err != nil {
		return "", err
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	if strings.HasPrefix(p, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("path %q must be relative to the workspace root", p)
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q escapes the workspace root", p)
	}
	return c, nil
}

// isEscape reports whether err is os.Root's refusal of a name that leaves the root.
func isEscape(err error) bool {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return err != nil && err.Error() == "path escapes from parent"
}

// fsError turns an error from a root operation on name (the path as the caller wrote it) into a
// message for the model. verb is what was attempted ("read", "list", …); missing describes a
// missing target ("no such file", …).
func fsError(verb, name, missing string, err error) error {
	switch {
	case isEscape(err):
		return fmt.Errorf("path %q escapes the workspace root through a symbolic link", name)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot %s %q: %s", verb, name, missing)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot %s %q: permission denied", verb, name)
	case errors.Is(err, fs.ErrClosed):
		return fmt.Errorf("cannot %s %q: the workspace is closed", verb, name)
	}
	return fmt.Errorf("cannot %s %q: %v", verb, name, unwrapPathError(err))
}

// unwrapPathError drops the operation and path an *fs.PathError adds, which would repeat (or
// misstate) the name the caller gave.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// typeName names the type of a file mode as the tools report it.
func typeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "other"
}
