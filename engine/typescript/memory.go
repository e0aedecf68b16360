package typescript

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// MemoryInUse is the resident memory of the adapter's driver process, in
// bytes: what one more driver doing the same work would hold, for a
// caller sizing how many it runs at once. False when no driver runs or
// the system does not say (only Linux's /proc is read).
func (a *Adapter) MemoryInUse() (int64, bool) {
	a.mu.Lock()
	p := a.proc
	a.mu.Unlock()
	if p == nil || p.cmd == nil || p.cmd.Process == nil {
		return 0, false
	}
	return ProcFileKB(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid), "VmRSS:")
}

// ProcFileKB reads a "Key: N kB" line of a /proc file (status, meminfo)
// as bytes.
func ProcFileKB(file, key string) (int64, bool) {
	f, err := os.Open(file)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), key)
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb <= 0 {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}
