//go:build !race

package jsruntime

// raceEnabled reports a race-detector build: its shadow memory cannot live under RLIMIT_DATA,
// so workers of such a build rely on the heap watchdog and debug.SetMemoryLimit alone.
const raceEnabled = false
