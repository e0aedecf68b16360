//go:build unix

package isolate

import (
	"os/exec"
	"syscall"
)

// deleteDetached starts the deletion of dir in a session of its own and
// returns once it started: sh backgrounds rm and exits, so the rm outlives
// this process without being its child, and holds none of its files (a
// test reading this process's output to its end does not wait for it). A
// read-only directory (copied from a package) is made writable when the
// first pass cannot empty it.
func deleteDetached(dir string) error {
	cmd := exec.Command("/bin/sh", "-c",
		`(rm -rf -- "$1" || { chmod -R u+w -- "$1"; rm -rf -- "$1"; }) </dev/null >/dev/null 2>&1 &`, "sh", dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd.Run()
}
