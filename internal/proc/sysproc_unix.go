//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// OwnGroup starts cmd in a process group of its own, so killing the
// group (KillGroup) also ends anything it started.
func OwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func KillGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
