package typecheck

import (
	"os/exec"
	"runtime"
	"syscall"
)

// runLocked runs cmd (set up by inOwnGroup) so that it is killed should runcode die without
// killing it (SIGKILL, the OOM killer): a compiler that reads no input would otherwise go on
// with a program no one waits for. Linux sends the parent-death signal when the thread that
// started the process ends, and the Go runtime ends a thread whose locked goroutine exits:
// this goroutine stays locked to its thread until the process has been reaped, so the thread
// lives as long as the process.
func runLocked(cmd *exec.Cmd) error {
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return cmd.Run()
}
