//go:build !unix

package proc

import "os/exec"

func OwnGroup(cmd *exec.Cmd) {}

func KillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
