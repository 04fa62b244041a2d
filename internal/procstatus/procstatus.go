// Package procstatus reads sizes from Linux /proc status files (/proc/<pid>/status), for the
// worker's memory limit and the load test's memory report.
package procstatus

import (
	"os"
	"strconv"
	"strings"
)

// Bytes returns the "kB" field (such as "VmRSS:") of the status file at path in bytes, or 0
// when the file or the field is unavailable (as on systems without /proc).
func Bytes(path, field string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
