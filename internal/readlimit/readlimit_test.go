package readlimit_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/internal/readlimit"
)

func TestFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := readlimit.File(small, 5); err != nil || string(data) != "12345" {
		t.Fatalf("File at the limit = %q, %v", data, err)
	}
	_, err := readlimit.File(small, 4)
	var tooLarge *readlimit.TooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Limit != 4 || tooLarge.Name != small {
		t.Fatalf("File over the limit: %v, want a *TooLargeError", err)
	}
	if _, err := readlimit.File(filepath.Join(dir, "missing"), 4); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("File of a missing file: %v", err)
	}
}

// A device that never ends is cut at the limit, not read to exhaustion.
func TestFileOfAnEndlessDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := readlimit.File("/dev/zero", 1<<20)
	if err == nil || !strings.Contains(err.Error(), "/dev/zero is larger than 1 MiB") {
		t.Fatalf("File(/dev/zero) = %v", err)
	}
}

func TestAll(t *testing.T) {
	if _, err := readlimit.All(strings.NewReader("abc"), "standard input", 2); err == nil || err.Error() != "standard input is larger than 2 bytes" {
		t.Fatalf("All = %v", err)
	}
	if data, err := readlimit.All(strings.NewReader("abc"), "standard input", 3); err != nil || string(data) != "abc" {
		t.Fatalf("All = %q, %v", data, err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{16 << 20: "16 MiB", 64 << 10: "64 KiB", 1 << 30: "1 GiB", 1000: "1000 bytes", 1536: "1536 bytes"} {
		if got := readlimit.Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

func ExampleFile() {
	_, err := readlimit.File("/dev/zero", 64<<10)
	fmt.Println(err)
	// Output: /dev/zero is larger than 64 KiB
}
