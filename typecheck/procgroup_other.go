//go:build !linux

package typecheck

import "os/exec"

// runLocked runs cmd (set up by inOwnGroup). Without Linux's parent-death signal, a compiler
// whose runcode dies without killing it runs until it ends by itself.
func runLocked(cmd *exec.Cmd) error { return cmd.Run() }
