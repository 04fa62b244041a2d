//go:build !linux

package jsruntime

import "errors"

// limitData is only implemented on Linux; elsewhere workers rely on the heap watchdog and
// debug.SetMemoryLimit.
func limitData(int64) error {
	return errors.New("jsruntime: RLIMIT_DATA is not supported on this platform")
}
