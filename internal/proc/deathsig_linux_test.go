package proc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The helper process of TestDieWithParent: it starts a child that would
// run for a minute, says its pid, and waits to be killed.
func init() {
	if os.Getenv("UPTIDE_DEATHSIG_HELPER") != "1" {
		return
	}
	cmd := exec.Command("sleep", "60")
	OwnGroup(cmd)
	DieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println(cmd.Process.Pid)
	time.Sleep(time.Minute)
	os.Exit(0)
}

// A child started with DieWithParent ends when its parent is killed with
// SIGKILL, which no handler of the parent can see.
func TestDieWithParent(t *testing.T) {
	helper := exec.Command(os.Args[0], "-test.run=^$")
	helper.Env = append(os.Environ(), "UPTIDE_DEATHSIG_HELPER=1")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("helper said %q", line)
	}
	t.Cleanup(func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
	_ = helper.Process.Kill()
	_ = helper.Wait()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return
		}
	}
	t.Fatalf("the child %d still runs after its parent was killed", pid)
}

// alive says whether pid is a process that has not exited (a zombie
// waiting for its new parent to reap it has).
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
