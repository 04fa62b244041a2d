//go:build !race

package main

// raceBuild reports a race-detector build, whose shadow memory inflates every process's
// resident size.
const raceBuild = false
