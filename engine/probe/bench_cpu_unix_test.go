//go:build unix

package probe

import (
	"syscall"
	"time"
)

// cpuTime is the CPU this process and its waited-for children (the probe's
// Nodes) used so far: on a shared machine it moves far less with the load
// than wall time does.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
