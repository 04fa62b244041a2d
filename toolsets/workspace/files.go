package workspace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// maxFileSize is the largest file grep searches and read_file returns for a call outside a
// budgeted run: 16 MiB. Within a run, their limit is the run's memory budget (readLimit).
const maxFileSize = 16 << 20

// readLimit is the largest file read_file reads for a call in ctx: within a run's memory budget
// (a Code Mode run's sub-calls carry one; the CLI's is a quarter of --memory), what the budget
// could ever hold, its limit over the copies a read holds; outside one, maxFileSize. It is no
// fixed size below the budget: a 50 MB log is read whole once the budget holds two copies.
func readLimit(ctx context.Context, copies int64) (limit int64, budgeted bool) {
	if b, ok := membudget.LimitOf(ctx); ok {
		return b / max(copies, 1), true
	}
	return maxFileSize, false
}

// overReadLimit is read_file's refusal of a file of size bytes (0: unknown) over limit.
func overReadLimit(shown string, size, limit int64, budgeted bool, copies int64) error {
	what := "the file is over"
	if size > 0 {
		what = fmt.Sprintf("the file is %d bytes, over", size)
	}
	if budgeted {
		return fmt.Errorf("cannot read %q: %s the %s this run's memory budget of %s can hold (reading holds %d copies of a file)",
			shown, what, membudget.Size(limit), membudget.Size(limit*copies), copies)
	}
	return fmt.Errorf("cannot read %q: %s the %s limit", shown, what, membudget.Size(limit))
}

func alwaysSafe(jsonv.Value) bool { return true }

func member(key string, v jsonv.Value) jsonv.Member { return jsonv.Member{Key: key, Value: v} }

// intArg returns an optional integer argument (already validated as an integer by the schema).
func intArg(args jsonv.Value, key string) (int, bool) {
	v, ok := args.Get(key)
	if !ok {
		return 0, false
	}
	return int(v.AsNumber()), true
}

// countLines returns the number of lines of text: a final line need not end in "\n".
func countLines(text string) int {
	n := strings.Count(text, "\n")
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

// lineOffset returns the byte offset at which 1-based line n starts (len(text) past the end).
func lineOffset(text string, n int) int {
	off := 0
	for line := 1; line < n; line++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return off
}

// readCopies is how many copies of a file's text read_file holds until its result has been
// handed to the program: the text itself (the result's content shares it) and the rendering
// for the model (a header, then the text). The runtime's own copy, such as the frame that
// carries the result to a worker process, is counted by the runtime.
const readCopies = 2

// readText opens name (clean, root-relative) and reads it whole as a string, refusing anything
// but a regular file and files larger than readLimit. Before reading, it reserves copies
// times the file's size from the run's memory budget (see membudget.Reserve), so that a
// file is read only when the run can afford it: the reservation waits while other calls hold
// the budget, and fails when it could never fit. It reads into one buffer of the file's size
// (a file that grew since its size was read is read on, after reserving for the largest it may
// be), and the string is that buffer, not a copy. shown is the path as the caller wrote it,
// for messages.
func (w *Workspace) readText(ctx context.Context, name, shown string, copies int64) (string, error) {
	f, info, err := w.open(name, false)
	if te, ok := asTypeError(err); ok {
		if te.mode.IsDir() {
			return "", fmt.Errorf("cannot read %q: it is a directory (use list_dir)", shown)
		}
		return "", notRegular("read", shown, te)
	}
	if err != nil {
		return "", fsError("read", shown, "no such file", err)
	}
	defer f.Close()
	size := info.Size()
	limit, budgeted := readLimit(ctx, copies)
	if size > limit && !budgeted { // within a budget, the reservation refuses it, naming the sizes
		return "", overReadLimit(shown, size, limit, budgeted, copies)
	}
	if err := reserveFor(ctx, "read", shown, "it is "+membudget.Size(size), copies*size); err != nil {
		return "", err
	}
	if w.beforeRead != nil {
		w.beforeRead(name)
	}
	var b strings.Builder
	b.Grow(int(size) + 1) // one byte more: a file that grew since the fstat is noticed
	if _, err := io.Copy(&b, io.LimitReader(f, size+1)); err != nil {
		return "", fsError("read", shown, "no such file", err)
	}
	if int64(b.Len()) > size {
		if err := reserveFor(ctx, "read", shown, "it grew while being read", copies*(limit-size)); err != nil {
			return "", err
		}
		if _, err := io.Copy(&b, io.LimitReader(f, limit+1-int64(b.Len()))); err != nil {
			return "", fsError("read", shown, "no such file", err)
		}
		if int64(b.Len()) > limit {
			return "", overReadLimit(shown, 0, limit, budgeted, copies)
		}
	}
	return b.String(), nil
}

// reserveFor reserves n bytes of the run's memory budget for a tool that is about to verb
// (read, list, search) shown, whose data what describes ("it is 16 MiB"); a refusal names both.
func reserveFor(ctx context.Context, verb, shown, what string, n int64) error {
	err := membudget.Reserve(ctx, n)
	var over *membudget.OverBudgetError
	if errors.As(err, &over) {
		return fmt.Errorf("cannot %s %q: %s, and to %s it this call needs %s, over this run's memory budget of %s",
			verb, shown, what, verb, membudget.Size(over.Size+over.Held), membudget.Size(over.Limit))
	}
	if err != nil {
		return fmt.Errorf("cannot %s %q: %w", verb, shown, err)
	}
	return nil
}

// invalidUTF8 returns the byte offset of the first byte of text that does not begin a valid
// UTF-8 sequence, or -1 when text is valid UTF-8.
func invalidUTF8(text string) int {
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// notUTF8 is read_file's refusal of a file that is not valid UTF-8 text: returned as a string,
// its invalid bytes would become U+FFFD, and writing the text back would silently change them.
func notUTF8(shown, text string, off int) error {
	return fmt.Errorf("cannot read %q: it is not valid UTF-8 text (invalid byte 0x%02x at byte offset %d, line %d); read_file returns only UTF-8 text, so that writing what it returned never alters a file",
		shown, text[off], off, strings.Count(text[:off], "\n")+1)
}

func (w *Workspace) readFileTool() registry.Tool {
	return registry.Tool{
		Name: "read_file",
		Description: "Read a UTF-8 text file in the workspace, optionally only a range of lines. " +
			"Returns the content with the line range actually returned and the file's total line count. " +
			"Files larger than the run's memory budget can hold (16 MiB outside a run), binary files (containing NUL bytes) and files that are not valid UTF-8 are refused (the error names the offset of the first invalid byte), as is anything but a regular file.",
		Parameters: jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "File path relative to the workspace root, slash-separated."},
				"startLine": {"type": "integer", "minimum": 1, "description": "First line to return (1-based). Defaults to 1."},
				"endLine": {"type": "integer", "minimum": 1, "description": "Last line to return (1-based, inclusive). Defaults to the last line; a value past the end of the file means the last line."}
			},
			"required": ["path"],
			"additionalProperties": false
		}`),
		Output: registry.OutputOf(jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "The file path, cleaned, relative to the workspace root."},
				"content": {"type": "string", "description": "The text of the returned lines, with their line endings exactly as in the file."},
				"startLine": {"type": "integer", "minimum": 1, "description": "First line returned (1-based)."},
				"endLine": {"type": "integer", "minimum": 0, "description": "Last line returned (1-based, inclusive); less than startLine when no line was returned (an empty file)."},
				"totalLines": {"type": "integer", "minimum": 0, "description": "Number of lines in the whole file."}
			},
			"required": ["path", "content", "startLine", "endLine", "totalLines"],
			"additionalProperties": false
		}`)),
		ConcurrencySafe: alwaysSafe,
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			shown := inv.Arguments.Lookup("path").AsString()
			name, err := cleanPath(shown)
			if err != nil {
				return jsonv.Value{}, err
			}
			data, err := w.readText(ctx, name, shown, readCopies)
			if err != nil {
				return jsonv.Value{}, err
			}
			if strings.IndexByte(data, 0) >= 0 {
				return jsonv.Value{}, fmt.Errorf("cannot read %q: it is a binary file (it contains NUL bytes)", shown)
			}
			if off := invalidUTF8(data); off >= 0 {
				return jsonv.Value{}, notUTF8(shown, data, off)
			}
			total := countLines(data)
			start, hasStart := intArg(inv.Arguments, "startLine")
			if !hasStart {
				start = 1
			}
			end, hasEnd := intArg(inv.Arguments, "endLine")
			if hasEnd && end < start {
				return jsonv.Value{}, fmt.Errorf("cannot read %q: endLine %d is before startLine %d", shown, end, start)
			}
			if start > total && !(total == 0 && start == 1) {
				return jsonv.Value{}, fmt.Errorf("cannot read %q: startLine %d is past the end of the file (%d lines)", shown, start, total)
			}
			if !hasEnd || end > total {
				end = total
			}
			content := data
			if start > 1 || end < total {
				content = data[lineOffset(data, start):lineOffset(data, end+1)]
				// Only the returned lines are rendered: what was reserved for the rest is not needed.
				membudget.Release(ctx, int64(len(data)-len(content)))
			}
			return jsonv.ObjectValue(
				member("path", jsonv.StringValue(name)),
				member("content", jsonv.StringValue(content)),
				member("startLine", jsonv.Int(int64(start))),
				member("endLine", jsonv.Int(int64(end))),
				member("totalLines", jsonv.Int(int64(total))),
			), nil
		},
	}
}

func (w *Workspace) writeFileTool() registry.Tool {
	return registry.Tool{
		Name: "write_file",
		Description: "Write a UTF-8 text file in the workspace, creating it or replacing its whole content atomically (a failed write leaves the old content). " +
			"The parent directory must exist unless createDirs is true. " +
			fmt.Sprintf("Refuses anything but a regular file, symbolic links, files with more than one hard link, content that is not valid UTF-8, content over %s, and writes past the run's write budget (%s in all; each file or directory created counts 4 KiB besides its content).",
				sizeText(w.opts.MaxFileBytes), sizeText(w.opts.MaxWriteBytes)),
		Parameters: jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "File path relative to the workspace root, slash-separated."},
				"content": {"type": "string", "description": "The complete new content of the file."},
				"createDirs": {"type": "boolean", "description": "Create missing parent directories. Defaults to false."}
			},
			"required": ["path", "content"],
			"additionalProperties": false
		}`),
		Output: registry.OutputOf(jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "The file path, cleaned, relative to the workspace root."},
				"bytesWritten": {"type": "integer", "minimum": 0, "description": "Number of bytes written (UTF-8)."}
			},
			"required": ["path", "bytesWritten"],
			"additionalProperties": false
		}`)),
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			shown := inv.Arguments.Lookup("path").AsString()
			name, err := cleanPath(shown)
			if err != nil {
				return jsonv.Value{}, err
			}
			if name == "." {
				return jsonv.Value{}, fmt.Errorf("cannot write %q: it is the workspace root directory", shown)
			}
			content := inv.Arguments.Lookup("content").AsString()
			if err := w.checkContent(shown, content); err != nil {
				return jsonv.Value{}, err
			}
			old, err := w.checkTarget(name, shown)
			if err != nil {
				return jsonv.Value{}, err
			}
			// A new file, and each directory createDirs makes, counts createCost too.
			created := 0
			if old == nil {
				created++
			}
			dir := path.Dir(name)
			createDirs := inv.Arguments.Lookup("createDirs").AsBool() && dir != "."
			if createDirs {
				created += w.missingDirs(dir)
			}
			if err := w.charge(inv, shown, int64(len(content)), created); err != nil {
				return jsonv.Value{}, err
			}
			if createDirs {
				if err := w.root.MkdirAll(dir, 0o755); err != nil {
					return jsonv.Value{}, fsError("create directory", dir, "no such directory", err)
				}
			}
			if err := w.replaceFile(ctx, name, shown, content, old); err != nil {
				return jsonv.Value{}, err
			}
			return jsonv.ObjectValue(
				member("path", jsonv.StringValue(name)),
				member("bytesWritten", jsonv.Int(int64(len(content)))),
			), nil
		},
	}
}

func (w *Workspace) listDirTool() registry.Tool {
	return registry.Tool{
		Name: "list_dir",
		Description: "List the entries of a directory in the workspace, sorted by name. " +
			"Each entry has its name, its type (file, dir, symlink or other) and, for files, its size in bytes. " +
			"Entries whose names are not valid UTF-8 are left out.",
		Parameters: jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "Directory path relative to the workspace root, slash-separated. Defaults to the root."}
			},
			"additionalProperties": false
		}`),
		Output: registry.OutputOf(jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "The directory path, cleaned, relative to the workspace root (\".\" is the root)."},
				"entries": {
					"type": "array",
					"description": "The directory's entries, sorted by name.",
					"items": {
						"type": "object",
						"properties": {
							"name": {"type": "string", "description": "Entry name (not a path)."},
							"type": {"type": "string", "enum": ["file", "dir", "symlink", "other"], "description": "Entry type; a symbolic link is reported as symlink, not followed."},
							"size": {"type": "integer", "minimum": 0, "description": "Size in bytes for a file; 0 for other types."}
						},
						"required": ["name", "type", "size"],
						"additionalProperties": false
					}
				}
			},
			"required": ["path", "entries"],
			"additionalProperties": false
		}`)),
		ConcurrencySafe: alwaysSafe,
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			shown := inv.Arguments.Lookup("path").AsString()
			name, err := cleanPath(shown)
			if err != nil {
				return jsonv.Value{}, err
			}
			f, _, err := w.open(name, true)
			if te, ok := asTypeError(err); ok {
				return jsonv.Value{}, fmt.Errorf("cannot list %q: it is not a directory (%s)", shown, kindOf(te.mode))
			}
			if err != nil {
				return jsonv.Value{}, fsError("list", shown, "no such directory", err)
			}
			defer f.Close()
			names, err := readNames(ctx, f, shown)
			if err != nil {
				return jsonv.Value{}, err
			}
			sort.Strings(names)
			entries := make([]jsonv.Value, 0, len(names))
			for i, n := range names {
				if i%256 == 0 && ctx.Err() != nil {
					return jsonv.Value{}, context.Cause(ctx)
				}
				if !nameable(n) {
					continue
				}
				typ, size := "other", int64(0)
				if fi, err := w.root.Lstat(path.Join(name, n)); err == nil {
					typ = typeName(fi.Mode())
					if typ == "file" {
						size = fi.Size()
					}
				} else if errors.Is(err, fs.ErrNotExist) {
					continue // removed since it was listed
				}
				entries = append(entries, jsonv.ObjectValue(
					member("name", jsonv.StringValue(n)),
					member("type", jsonv.StringValue(typ)),
					member("size", jsonv.Int(size)),
				))
			}
			return jsonv.ObjectValue(
				member("path", jsonv.StringValue(name)),
				member("entries", jsonv.ArrayValue(entries...)),
			), nil
		},
	}
}

// Per-entry memory of a listing, for its reservation: list_dir holds each name three times
// (read, in the result, in the rendering) and, per entry, an object of three members and a
// line of rendering.
const (
	listNameCopies   = 3
	listEntryBytes   = 256
	listBatchEntries = 1024
)

// readNames reads the names of directory f in batches, reserving each batch's memory from the
// run's budget (see membudget.Reserve) as it goes: a directory's size on disk says too little
// about its entries to reserve for them up front.
func readNames(ctx context.Context, f *os.File, shown string) ([]string, error) {
	var names []string
	for {
		batch, err := f.Readdirnames(listBatchEntries)
		var n int64
		for _, name := range batch {
			n += listNameCopies*int64(len(name)) + listEntryBytes
		}
		if rerr := reserveFor(ctx, "list", shown, fmt.Sprintf("it has at least %d entries", len(names)+len(batch)), n); rerr != nil {
			return nil, rerr
		}
		names = append(names, batch...)
		if errors.Is(err, io.EOF) || (err == nil && len(batch) == 0) {
			return names, nil
		}
		if err != nil {
			return nil, fsError("list", shown, "no such directory", err)
		}
	}
}

func (w *Workspace) statTool() registry.Tool {
	return registry.Tool{
		Name: "stat",
		Description: "Describe one path in the workspace: its type, size, modification time and permission bits. " +
			"A symbolic link is described itself, not followed.",
		Parameters: jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "Path relative to the workspace root, slash-separated (\".\" is the root)."}
			},
			"required": ["path"],
			"additionalProperties": false
		}`),
		Output: registry.OutputOf(jsonv.MustParse(`{
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "The path, cleaned, relative to the workspace root."},
				"type": {"type": "string", "enum": ["file", "dir", "symlink", "other"], "description": "The type of the path."},
				"size": {"type": "integer", "minimum": 0, "description": "Size in bytes as reported by the file system (for a directory or link, not the size of its contents)."},
				"modTime": {"type": "string", "description": "Last modification time, RFC 3339 in UTC, e.g. 2024-05-01T12:00:00Z."},
				"mode": {"type": "string", "description": "Type and permission bits in ls style, e.g. -rw-r--r-- or drwxr-xr-x."}
			},
			"required": ["path", "type", "size", "modTime", "mode"],
			"additionalProperties": false
		}`)),
		ConcurrencySafe: alwaysSafe,
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			shown := inv.Arguments.Lookup("path").AsString()
			name, err := cleanPath(shown)
			if err != nil {
				return jsonv.Value{}, err
			}
			info, err := w.root.Lstat(name)
			if err != nil {
				return jsonv.Value{}, fsError("stat", shown, "no such file or directory", err)
			}
			return jsonv.ObjectValue(
				member("path", jsonv.StringValue(name)),
				member("type", jsonv.StringValue(typeName(info.Mode()))),
				member("size", jsonv.Int(max(info.Size(), 0))),
				member("modTime", jsonv.StringValue(info.ModTime().UTC().Format(time.RFC3339))),
				member("mode", jsonv.StringValue(modeString(info.Mode()))),
			), nil
		},
	}
}

// modeString renders a mode like ls: the type letter ('-' file, 'd' dir, 'l' symlink, …) and the
// nine permission bits.
func modeString(m fs.FileMode) string {
	s := m.String()
	// FileMode.String uses Go's letters (e.g. "L" for a symlink, "D" for a device); keep the
	// last nine characters (permissions) and put an ls-style type letter before them.
	perm := s[len(s)-9:]
	var t byte
	switch {
	case m.IsRegular():
		t = '-'
	case m.IsDir():
		t = 'd'
	case m&fs.ModeSymlink != 0:
		t = 'l'
	case m&fs.ModeNamedPipe != 0:
		t = 'p'
	case m&fs.ModeSocket != 0:
		t = 's'
	case m&fs.ModeCharDevice != 0:
		t = 'c'
	case m&fs.ModeDevice != 0:
		t = 'b'
	default:
		t = '?'
	}
	return string(t) + perm
}
