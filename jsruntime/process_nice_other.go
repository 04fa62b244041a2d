//go:build !unix

package jsruntime

// lowerPriority does nothing where processes have no niceness to set.
func lowerPriority(int) {}
