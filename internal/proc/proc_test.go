package proc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestQuietReplacesAndSets(t *testing.T) {
	env := Quiet([]string{"PATH=/bin", "HUSKY=1", "npm_config_ignore_scripts=false", "GIT_CONFIG_KEY_3=core.hooksPath"}, "/empty")
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := got[k]; dup {
			t.Errorf("%s set twice in %v", k, env)
		}
		got[k] = v
	}
	want := map[string]string{"PATH": "/bin", "HUSKY": "0", "npm_config_ignore_scripts": "true", "SKIP_SIMPLE_GIT_HOOKS": "1",
		"LEFTHOOK": "0", "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath", "GIT_CONFIG_VALUE_0": "/empty"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if _, ok := got["GIT_CONFIG_KEY_3"]; ok {
		t.Error("a stale GIT_CONFIG_KEY_3 survived")
	}
}

// git run under Quiet sees the empty hooks directory, whatever the
// repository's own configuration says.
func TestQuietPointsGitAtEmptyHooks(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git is needed on PATH")
	}
	dir := t.TempDir()
	if out, err := exec.Command(git, "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatal(string(out))
	}
	if out, err := exec.Command(git, "-C", dir, "config", "core.hooksPath", ".husky").CombinedOutput(); err != nil {
		t.Fatal(string(out))
	}
	res, err := Run(context.Background(), Cmd{Argv: []string{git, "config", "core.hooksPath"}, Dir: dir, Env: Quiet(os.Environ(), "/nowhere/hooks")})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%v %+v", err, res)
	}
	if strings.TrimSpace(res.Output) != "/nowhere/hooks" {
		t.Fatalf("core.hooksPath = %q", res.Output)
	}
}

func TestRunExitTimeoutAndGroup(t *testing.T) {
	res, err := Run(context.Background(), Cmd{Argv: []string{"sh", "-c", "echo one; echo two >&2; exit 3"}})
	if err != nil || res.ExitCode != 3 || !strings.Contains(res.Output, "one") || !strings.Contains(res.Output, "two") {
		t.Fatalf("%v %+v", err, res)
	}
	// A child of the command must not outlive the timeout.
	pidFile := filepath.Join(t.TempDir(), "pid")
	res, err = Run(context.Background(), Cmd{Argv: []string{"sh", "-c", "sleep 30 & echo $! > " + pidFile + "; wait"}, Timeout: 300 * time.Millisecond})
	if err == nil || !res.TimedOut {
		t.Fatalf("want a timeout, got %v %+v", err, res)
	}
	data, _ := os.ReadFile(pidFile)
	pid := strings.TrimSpace(string(data))
	if pid == "" {
		t.Fatal("the child never started")
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat("/proc/" + pid); err == nil {
		if stat, _ := os.ReadFile("/proc/" + pid + "/stat"); !strings.Contains(string(stat), ") Z") {
			t.Fatalf("child %s outlived the timeout", pid)
		}
	}
	var lines []string
	if _, err := Run(context.Background(), Cmd{Argv: []string{"sh", "-c", "printf 'a\\nb\\r c\\n'"}, Progress: func(l string) { lines = append(lines, l) }}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(lines, "|") != "a|b|c" {
		t.Fatalf("progress lines %q", lines)
	}
}

// With Stdout set, the standard output arrives whole there, beyond the
// tail Output keeps, and Output holds the standard error alone.
func TestRunStdoutApart(t *testing.T) {
	var stdout strings.Builder
	script := `i=0; while [ $i -lt 20000 ]; do echo "line $i"; i=$((i+1)); done; echo oops >&2`
	res, err := Run(context.Background(), Cmd{Argv: []string{"sh", "-c", script}, Stdout: &stdout})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 20000 || lines[0] != "line 0" || lines[19999] != "line 19999" {
		t.Errorf("stdout: %d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	if strings.TrimSpace(res.Output) != "oops" {
		t.Errorf("Output = %q, want the standard error alone", res.Output)
	}
}
