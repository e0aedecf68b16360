//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGTERM (CI cancelling a job, `timeout`, `docker stop`) and SIGHUP stop
// uptide as Ctrl-C does. The tests start the binary as the leader of a
// session of its own: whatever it started and left running is still in
// that session after it exits, whatever process group it was given.

// started is uptide running in a session of its own, its stderr read line
// by line into log.
type started struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	log    strings.Builder
	lines  chan string
	done   chan struct{}
}

func startUptide(t *testing.T, e env, dir string, args ...string) *started {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	s := &started{lines: make(chan string, 1024), done: make(chan struct{})}
	s.cmd = exec.CommandContext(ctx, uptideBinary(t), append([]string{"--cwd", dir}, args...)...)
	s.cmd.Env = e.vars()
	s.cmd.Stdout = &s.stdout
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killSession(s.cmd.Process.Pid) })
	go func() {
		defer close(s.done)
		defer close(s.lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.log.WriteString(sc.Text() + "\n")
			select {
			case s.lines <- sc.Text():
			default:
			}
		}
	}()
	return s
}

// wait is the exit code once stderr is closed.
func (s *started) wait(t *testing.T) int {
	t.Helper()
	<-s.done
	err := s.cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Fatalf("uptide died of %s instead of handling it\n%s\n%s", ws.Signal(), s.stdout.String(), s.log.String())
		}
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// inSession lists the live processes of the session sid: pid and command.
func inSession(sid int) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session ...: comm may hold spaces.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 4 || f[0] == "Z" {
			continue
		}
		if s, _ := strconv.Atoi(f[3]); s == sid {
			cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			out = append(out, strconv.Itoa(pid)+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	return out
}

// killSession ends what a failed test left behind.
func killSession(sid int) {
	for _, p := range inSession(sid) {
		if pid, err := strconv.Atoi(strings.Fields(p)[0]); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// orphansOf waits a moment for the session sid to empty and returns what
// is still in it.
func orphansOf(sid int) []string {
	var left []string
	for range 20 {
		if left = inSession(sid); len(left) == 0 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return left
}

// A SIGTERM while the repository's tests run: the test process is killed
// with its group (the marker it would write later never appears), uptide
// says it was interrupted, keeps the clone with its run record, exits 2.
func TestFixTerminatedKillsTheTestsAndKeepsTheRun(t *testing.T) {
	fe := newFixEnv(t)
	marker := filepath.Join(t.TempDir(), "tests-finished")
	const delay = 4 * time.Second
	dir := copyDir(t, filepath.Join("../../fixtures/fix", "npm-app"))
	slow := "import { test } from \"node:test\";\nimport { writeFileSync } from \"node:fs\";\n\n" +
		"test(\"a slow one\", async () => {\n  await new Promise((done) => setTimeout(done, " + strconv.Itoa(int(delay.Milliseconds())) + "));\n" +
		"  writeFileSync(" + strconv.Quote(marker) + ", \"\");\n});\n"
	if err := os.WriteFile(filepath.Join(dir, "test", "slow.test.mjs"), []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	npmManager().install(t, fe.env, dir)
	commitAll(t, dir)
	before := checkoutDigest(t, dir)

	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			s := startUptide(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--ci")
			signalled := false
			for line := range s.lines {
				if strings.HasPrefix(line, "fix: tests:") && !signalled {
					// Long enough for node --test to start its file.
					time.Sleep(1500 * time.Millisecond)
					if err := s.cmd.Process.Signal(sig); err != nil {
						t.Fatal(err)
					}
					signalled = true
					break
				}
			}
			if !signalled {
				s.wait(t)
				t.Fatalf("the tests never started\n%s\n%s", s.stdout.String(), s.log.String())
			}
			code := s.wait(t)
			out, log := s.stdout.String(), s.log.String()
			if code != 2 || !strings.Contains(log, "interrupted") {
				t.Fatalf("exit %d, want 2 and \"interrupted\" on stderr\n%s\n%s", code, out, log)
			}
			if !strings.Contains(out, "interrupted during") || !strings.Contains(out, "(the run was interrupted)") {
				t.Errorf("the report does not say the run was interrupted:\n%s", out)
			}
			if left := orphansOf(s.cmd.Process.Pid); len(left) > 0 {
				t.Errorf("still running after uptide exited: %q", left)
			}
			i := strings.Index(out, "Run     ")
			if i < 0 {
				t.Fatalf("the report names no run record:\n%s", out)
			}
			record := strings.Fields(out[i+len("Run     "):])[0]
			if data, err := os.ReadFile(record); err != nil || !strings.Contains(string(data), "interrupted") {
				t.Errorf("run record %s: %v\n%s", record, err, data)
			}
			i = strings.Index(out, "Clone   kept at ")
			if i < 0 {
				t.Fatalf("no kept clone:\n%s", out)
			}
			if kept := strings.Fields(out[i+len("Clone   kept at "):])[0]; !hasMarkerAbove(kept, fe.runs) {
				t.Errorf("the kept clone %s is in no marked run directory", kept)
			}
			time.Sleep(delay + 2*time.Second)
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("the repository's tests kept running after uptide exited: %s appeared", marker)
			}
			if after := checkoutDigest(t, dir); after != before {
				t.Errorf("the checkout changed:\n%s", diffLines(before, after))
			}
		})
	}
}

// A SIGTERM while check's TypeScript driver runs: the driver goes with
// uptide, which says it was interrupted and exits 2.
func TestCheckTerminatedLeavesNoDriver(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-app")
	npmInstall(t, e, dir)
	s := startUptide(t, e, dir, "check", "zod", "slugkit", "express", "--ci")
	sid := s.cmd.Process.Pid
	driverSeen := false
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline) && !driverSeen; time.Sleep(20 * time.Millisecond) {
		for _, p := range inSession(sid) {
			if strings.Contains(p, "node ") && strings.Contains(p, "main.js") {
				driverSeen = true
			}
		}
		select {
		case <-s.done:
			deadline = time.Now()
		default:
		}
	}
	if !driverSeen {
		s.wait(t)
		t.Fatalf("no TypeScript driver was seen running\n%s\n%s", s.stdout.String(), s.log.String())
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code := s.wait(t)
	if code != 2 || !strings.Contains(s.log.String(), "interrupted") {
		t.Fatalf("exit %d, want 2 and \"interrupted\" on stderr\n%s\n%s", code, s.stdout.String(), s.log.String())
	}
	if left := orphansOf(sid); len(left) > 0 {
		t.Errorf("still running after uptide exited: %q", left)
	}
}

// A tsconfig extending a named pipe: reading it would block until
// something writes to it, in uptide's own reading of the extends chain and
// in the driver's. check opens only regular files and says which one it
// could not read: not compiled, exit 2, nothing left running.
func TestCheckTsconfigExtendingAFIFO(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-app")
	npmInstall(t, e, dir)
	fifo := filepath.Join(dir, "base.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	config := `{"extends": "./base.json", "compilerOptions": {"strict": true, "module": "commonjs", "noEmit": true}, "include": ["src"]}`
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startUptide(t, e, dir, "check", "zod", "--ci")
	code := s.wait(t)
	out := s.stdout.String() + s.log.String()
	// The message names the file from the repository's root.
	if code != 2 || !strings.Contains(out, "Cannot read file 'base.json'") {
		t.Fatalf("exit %d, want 2 with an error naming base.json\n%s", code, out)
	}
	if left := orphansOf(s.cmd.Process.Pid); len(left) > 0 {
		t.Errorf("still running after uptide exited: %q", left)
	}
}
