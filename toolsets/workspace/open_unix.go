//go:build unix

package workspace

import (
	"io/fs"
	"os"
	"syscall"
)

// openFlags are added to every open of an existing path: O_NONBLOCK so that opening a named
// pipe (or a device) returns at once instead of waiting for a peer, O_NOCTTY so that opening a
// terminal never makes it the process's controlling terminal. Regular files and directories
// ignore both.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

// linkCount returns the number of hard links of the file info describes.
func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// keepOwner gives f the owner and group of the file info describes, as far as the process may
// (a replaced file keeps its owner when runcode runs with the privilege to give it).
func keepOwner(f *os.File, info fs.FileInfo) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(st.Uid), int(st.Gid)) // best effort: without privilege the writer owns it
	}
}
