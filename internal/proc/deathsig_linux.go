package proc

import (
	"os/exec"
	"syscall"
)

// DieWithParent has the kernel kill cmd when uptide dies, whatever kills
// it: a SIGKILL leaves no handler to end the children, and a child
// blocked in a read (a TypeScript driver on a named pipe) would never
// notice its closed stdin. Call it after OwnGroup.
func DieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
