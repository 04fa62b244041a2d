package codemode

import (
	"context"
	"encoding/base32"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// keyEncoding names a key's file: base32 with the "extended hex" alphabet in lower case and
// no padding, so that every key is a safe file name on every file system (case-insensitive
// ones included), the names sort as the keys do, and the longest key (MaxStateKeyBytes) makes a
// name of 210 bytes.
var keyEncoding = base32.HexEncoding.WithPadding(base32.NoPadding)

const (
	keyFilePrefix = "k-"
	keyFileSuffix = ".json"
	lockFile      = ".lock"
	scopeDirPref  = "scope-"
)

// DirStore is a StateStore in a directory: one file per key, named from the key (see
// docs/state.md), holding the value's JSON text. A write goes to a temporary file in the same
// directory, is synced, and is renamed over the key's file, so a reader sees the old value or
// the new one, never part of one. Writes (Set, Delete) hold an exclusive lock on the
// directory's .lock file (flock on Unix) while they measure the scope and write, so processes
// sharing the directory keep the cap and do not lose each other's keys. The scope "" is the
// directory itself; another scope is a subdirectory.
type DirStore struct {
	dir string
	max int64
}

// NewDirStore returns the DirStore of dir, creating it (mode 0700) when missing; each scope
// holds at most maxBytes (zero: DefaultMaxState).
func NewDirStore(dir string, maxBytes int64) (*DirStore, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxState
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("state directory %s is not a directory", dir)
	}
	return &DirStore{dir: dir, max: maxBytes}, nil
}

// Dir returns the store's directory.
func (d *DirStore) Dir() string { return d.dir }

func (d *DirStore) scopeDir(scope string) string {
	if scope == "" {
		return d.dir
	}
	return filepath.Join(d.dir, scopeDirPref+strings.ToLower(keyEncoding.EncodeToString([]byte(scope))))
}

func keyFile(key string) string {
	return keyFilePrefix + strings.ToLower(keyEncoding.EncodeToString([]byte(key))) + keyFileSuffix
}

// fileKey is the key of a file name, and false for a file that is not a key's.
func fileKey(name string) (string, bool) {
	enc, ok := strings.CutPrefix(name, keyFilePrefix)
	if !ok {
		return "", false
	}
	if enc, ok = strings.CutSuffix(enc, keyFileSuffix); !ok {
		return "", false
	}
	b, err := keyEncoding.DecodeString(strings.ToUpper(enc))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// Get implements StateStore.
func (d *DirStore) Get(_ context.Context, scope, key string) ([]byte, bool, error) {
	data, err := os.ReadFile(filepath.Join(d.scopeDir(scope), keyFile(key)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("state: %w", err)
	}
	return data, true, nil
}

// Keys implements StateStore.
func (d *DirStore) Keys(_ context.Context, scope string) ([]string, error) {
	entries, err := d.entries(scope)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(entries))
	for _, e := range entries {
		keys = append(keys, e.key)
	}
	slices.Sort(keys)
	return keys, nil
}

type dirEntry struct {
	key  string
	size int64
}

// entries lists the keys of scope with their sizes.
func (d *DirStore) entries(scope string) ([]dirEntry, error) {
	list, err := os.ReadDir(d.scopeDir(scope))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	var out []dirEntry
	for _, e := range list {
		key, ok := fileKey(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("state: %w", err)
		}
		out = append(out, dirEntry{key, int64(len(key)) + info.Size()})
	}
	return out, nil
}

// Set implements StateStore.
func (d *DirStore) Set(ctx context.Context, scope, key string, value []byte) error {
	return d.locked(ctx, func() error {
		dir := d.scopeDir(scope)
		entries, err := d.entries(scope)
		if err != nil {
			return err
		}
		size := entrySize(key, value)
		for _, e := range entries {
			if e.key != key {
				size += e.size
			}
		}
		if size > d.max {
			return &StateFullError{Key: key, Size: size, Max: d.max}
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("state: %w", err)
		}
		return writeAtomic(dir, keyFile(key), value)
	})
}

// Delete implements StateStore.
func (d *DirStore) Delete(ctx context.Context, scope, key string) error {
	return d.locked(ctx, func() error {
		err := os.Remove(filepath.Join(d.scopeDir(scope), keyFile(key)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state: %w", err)
		}
		return nil
	})
}

// locked runs fn holding the directory's write lock.
func (d *DirStore) locked(ctx context.Context, fn func() error) error {
	f, err := os.OpenFile(filepath.Join(d.dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	defer f.Close()
	if err := lockFileExclusive(ctx, f); err != nil {
		return fmt.Errorf("state: locking %s: %w", f.Name(), err)
	}
	defer unlockFile(f)
	return fn()
}

// writeAtomic writes data to dir/name through a synced temporary file renamed over it.
func writeAtomic(dir, name string, data []byte) (err error) {
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	if err = os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	return nil
}
