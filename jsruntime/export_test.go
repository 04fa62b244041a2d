package jsruntime

// RaceEnabled reports a race-detector build, for timing slack in tests.
const RaceEnabled = raceEnabled
