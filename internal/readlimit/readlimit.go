// Package readlimit reads files and streams the user names (programs, manifests, configs,
// token files) up to a size, so that /dev/zero, a FIFO that never ends or a runaway file is an
// error naming the limit instead of gigabytes of memory.
//
//	data, err := readlimit.File("tools.json", 16<<20)
//	var tooLarge *readlimit.TooLargeError
//	if errors.As(err, &tooLarge) { … }
package readlimit

import (
	"fmt"
	"io"
	"os"
)

// TooLargeError reports input longer than the limit it was read with.
type TooLargeError struct {
	// Name is the file's path, or what the stream was ("standard input").
	Name string
	// Limit is the most bytes the caller accepted.
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s", e.Name, Size(e.Limit))
}

// File reads the file at path, failing with a *TooLargeError when it holds more than limit
// bytes. It reads at most limit+1 bytes whatever the file is (a device, a pipe).
func File(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return All(f, path, limit)
}

// All reads r to its end, failing with a *TooLargeError naming name when it holds more than
// limit bytes; it reads at most limit+1 bytes.
func All(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Name: name, Limit: limit}
	}
	return data, nil
}

// Size formats n bytes the way runcode's flags take sizes: in GiB, MiB or KiB when it is a
// whole number of them, else in bytes.
func Size(n int64) string {
	for _, u := range []struct {
		unit string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.unit)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
