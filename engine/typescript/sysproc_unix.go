//go:build unix

package typescript

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the driver in a process group of its own, so killing the
// group also ends anything it started and nothing outlives Close.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
