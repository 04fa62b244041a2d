package jsruntime

// RaceEnabled reports a race-detector build, for timing slack in tests.
const RaceEnabled = raceEnabled

// WaitPrewarmed waits until the background preparation of realms has stopped (the spare pool
// is full), so that the next run takes a prepared realm.
func WaitPrewarmed(g *Goja) { g.refills.Wait() }

// RegexpMatchTimeout is regexpMatchTimeout, for the fuzz target's bound on a run's time.
const RegexpMatchTimeout = regexpMatchTimeout

// MaxTimers is maxTimers, for the test of the timer bound.
const MaxTimers = maxTimers
