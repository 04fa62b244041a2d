package jsruntime

import "syscall"

// limitData sets the worker's RLIMIT_DATA: the kernel then refuses private writable mappings
// (the Go heap) beyond bytes, and the Go runtime dies with "fatal error: out of memory".
// RLIMIT_AS is no use for Go: the runtime's address-space reservations exceed any sensible
// limit before the heap does (measured: a 256 MiB RLIMIT_AS fails the first 16 MiB allocation,
// a 256 MiB RLIMIT_DATA stops the heap at about 208 MiB).
func limitData(bytes int64) error {
	lim := uint64(bytes)
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: lim, Max: lim})
}
