//go:build !linux

package proc

import "os/exec"

// DieWithParent is Linux's parent-death signal; elsewhere a child outlives
// a killed uptide until it reads its closed stdin.
func DieWithParent(cmd *exec.Cmd) {}
