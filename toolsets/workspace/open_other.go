//go:build !unix

package workspace

import (
	"io/fs"
	"os"
)

// openFlags: no platform flags outside Unix (named pipes there do not live in the file tree).
const openFlags = 0

// linkCount returns 1: hard links are not detected outside Unix.
func linkCount(fs.FileInfo) uint64 { return 1 }

// keepOwner does nothing outside Unix.
func keepOwner(*os.File, fs.FileInfo) {}
