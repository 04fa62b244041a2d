//go:build race

package jsonfit

// raceFactor scales time limits under the race detector.
const raceFactor = 10
