package main

import (
	"os"
	"runtime/debug"
)

// The garbage collector's settings for the runcode process (every command, serve, and the
// process-isolation workers it starts). A run allocates heavily for a short time and leaves
// little live data behind, so collecting when the heap has grown by 100 % of what is live (Go's
// default) spends a large part of a run's CPU in the collector; defaultGCPercent lets the heap
// grow four times past the live data between collections instead (measured: 25-30 % less CPU
// per trivial run than GOGC=100). The soft memory limit keeps that growth within what the CLI
// promises, that the process stays within --memory: it is three quarters of --memory (of its
// default until the flags are read), as a worker's is of its limit, leaving a quarter for
// what the collector cannot hold back at once; the collector works harder as the heap nears it.
// While a command runs, a gcpace.Pacer (unless GOGC is set) lowers the percent as the live heap
// grows past 16 MiB, down to 100 from 64 MiB live, so a run holding a large export does not grow
// the heap to five times its live data; process-isolation workers pace themselves the same way.
// The jsruntime library leaves the host process's collector settings alone; its heap watchdog
// reads whatever they are.
const (
	defaultGCPercent   = 400
	defaultMemoryLimit = defaultMemory / 4 * 3 // softMemoryLimit of --memory's default, 384 MiB
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

func gcDefaults(getenv func(string) string, memoryLimit int64) gcSettings {
	return gcSettings{
		setPercent:  getenv("GOGC") == "",
		percent:     defaultGCPercent,
		setLimit:    getenv("GOMEMLIMIT") == "",
		memoryLimit: memoryLimit,
	}
}

// applyGCDefaults applies gcDefaults with the default memory limit: the environment's GOGC and
// GOMEMLIMIT, which the Go runtime has already applied at start, win over the defaults.
func applyGCDefaults(getenv func(string) string) {
	s := gcDefaults(getenv, defaultMemoryLimit)
	if s.setPercent {
		debug.SetGCPercent(s.percent)
	}
	if s.setLimit {
		debug.SetMemoryLimit(s.memoryLimit)
	}
}

// softMemoryLimit is the soft memory limit for a --memory of memory bytes.
func softMemoryLimit(memory int64) int64 { return memory / 4 * 3 }

// followMemoryFlag sets the soft memory limit for --memory, unless GOMEMLIMIT is set: cliMain's
// commands call it once the flags are read, before the runtime opens.
func followMemoryFlag(memory int64) {
	if s := gcDefaults(os.Getenv, softMemoryLimit(memory)); s.setLimit {
		debug.SetMemoryLimit(s.memoryLimit)
	}
}
