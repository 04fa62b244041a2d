// Package workspace provides runcode's built-in workspace file tools: read_file, write_file,
// list_dir, glob, grep and stat, each a registry.Tool with a JSON Schema for its arguments and
// for its result.
//
// Confinement: a Workspace is rooted at one directory, and every file operation goes through an
// os.Root opened on it. Every path argument is relative to the root and slash-separated ("" or
// "." is the root itself). A path that is absolute, that climbs out with "..", or that reaches
// outside the root through a symbolic link is refused with an error naming the path; directory
// walks (glob, grep) go through the root's fs.FS and never follow symbolic links.
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/runcode-dev/runcode/registry"
)

// Workspace is a set of file tools confined to one root directory. It is safe for concurrent
// use; its tools may run concurrently.
type Workspace struct {
	root *os.Root
	dir  string
}

// Open returns the workspace rooted at dir, which must exist and be a directory. Close it when
// done.
func Open(dir string) (*Workspace, error) {
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
	return &Workspace{root: root, dir: abs}, nil
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

// cleanPath turns a tool's path argument into a clean root-relative name for os.Root, or
// refuses it. "" and "." are the root.
func cleanPath(p string) (string, error) {
	if p == "" || p == "." {
		return ".", nil
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
