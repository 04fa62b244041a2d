package jsruntime

import (
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/runcode-dev/runcode/internal/procstatus"
)

// DefaultMaxWorkers is ProcessConfig.MaxWorkers when neither it nor Size is set: 8 workers per
// CPU (a run that awaits a tool holds a worker but no CPU, so runs waiting on tools, not CPUs,
// are what workers are for), at most as many as the machine's memory (or the memory limit of
// this process's cgroup, when lower) holds at memoryLimit each (every worker could grow to its
// limit at once), and at least 2. On 2 CPUs, 24 GiB and 512 MiB per worker: min(16, 48) = 16.
func DefaultMaxWorkers(memoryLimit int64) int {
	n := 8 * runtime.NumCPU()
	if mem := machineMemory(); mem > 0 && memoryLimit > 0 {
		n = min(n, int(mem/memoryLimit))
	}
	return max(n, 2)
}

// machineMemory returns the memory this process may use: the machine's (/proc/meminfo) or its
// cgroup v2 limit (memory.max) when lower; 0 when neither is known.
func machineMemory() int64 {
	mem := procstatus.Bytes("/proc/meminfo", "MemTotal:")
	if data, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if limit, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && limit > 0 && (mem == 0 || limit < mem) {
			mem = limit
		}
	}
	return mem
}
