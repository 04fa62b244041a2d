package typecheck

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// inOwnGroup makes cmd the leader of a process group of its own, whose every process is killed
// by killGroup, and, when cmd was made by exec.CommandContext, when its context ends: a
// compiler may run others (the npm wrapper of TypeScript 7 runs the native compiler as its
// child; a tsserver may start helpers), and killing only the first would leave the rest
// running, each with its share of the program, after the check, and after runcode itself has
// exited.
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if cmd.Cancel != nil { // made by exec.CommandContext
		cmd.Cancel = func() error { return killGroup(cmd) }
	}
}

// killGroup kills the process group that cmd leads (inOwnGroup), cmd included.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}
