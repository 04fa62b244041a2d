//go:build unix

package jsruntime

import "syscall"

// workerNice is the scheduling niceness of worker processes: programs compute at a lower
// priority than the host, so that its own work (health checks, tool calls, answering other
// runs' frames) is not kept waiting by a machine full of busy programs.
const workerNice = 5

// lowerPriority makes the worker process pid run at workerNice; failing is harmless (the worker
// then runs at the host's priority).
func lowerPriority(pid int) {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, workerNice)
}
