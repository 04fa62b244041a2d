package main

import (
	"runtime/debug"
)

// The garbage collector's settings for the runcode process (every command, serve, and the
// process-isolation workers it starts). A run allocates heavily for a short time and leaves
// little live data behind, so collecting when the heap has grown by 100 % of what is live (Go's
// default) spends a large part of a run's CPU in the collector; defaultGCPercent lets the heap
// grow four times past the live data between collections instead (measured: 25-30 % less CPU
// per trivial run than GOGC=100). defaultMemoryLimit is a soft ceiling that makes the collector
// work harder as the heap nears it, so the larger growth cannot turn into gigabytes when much
// is live; a process whose live heap is above it (in-process runs with --memory over 1GiB)
// collects often and should set GOMEMLIMIT. The jsruntime library itself leaves a process's
// collector settings alone; its heap watchdog reads whatever they are.
const (
	defaultGCPercent   = 400
	defaultMemoryLimit = 1 << 30 // 1 GiB
)

// gcSettings is what applyGCDefaults sets: the GC percent unless GOGC is set in the
// environment, the soft memory limit unless GOMEMLIMIT is. An empty variable counts as unset,
// as the Go runtime treats it.
type gcSettings struct {
	setPercent  bool
	percent     int
	setLimit    bool
	memoryLimit int64
}

func gcDefaults(getenv func(string) string) gcSettings {
	return gcSettings{
		setPercent:  getenv("GOGC") == "",
		percent:     defaultGCPercent,
		setLimit:    getenv("GOMEMLIMIT") == "",
		memoryLimit: defaultMemoryLimit,
	}
}

// applyGCDefaults applies gcDefaults: the environment's GOGC and GOMEMLIMIT, which the Go
// runtime has already applied at start, win over the defaults.
func applyGCDefaults(getenv func(string) string) {
	s := gcDefaults(getenv)
	if s.setPercent {
		debug.SetGCPercent(s.percent)
	}
	if s.setLimit {
		debug.SetMemoryLimit(s.memoryLimit)
	}
}
