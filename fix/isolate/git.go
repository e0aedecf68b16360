package isolate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/uptide/uptide/internal/proc"
)

// locatorVars point git at a repository other than the one in the working
// directory. A run started from inside a git hook inherits them, and with
// GIT_DIR set every git the clone's tools run would act on the user's
// checkout, so they never reach a command here.
var locatorVars = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_PREFIX", "GIT_QUARANTINE_PATH",
	"GIT_CONFIG", "GIT_CONFIG_PARAMETERS",
}

// quietEnv is proc.Quiet without the variables that would send git
// elsewhere, plus GIT_OPTIONAL_LOCKS=0 so that reading the checkout (git
// status refreshes the index when it may) writes nothing into it.
func quietEnv(base []string, hooksDir string) []string {
	drop := map[string]bool{"GIT_OPTIONAL_LOCKS": true}
	for _, v := range locatorVars {
		drop[v] = true
	}
	var kept []string
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !drop[strings.ToUpper(name)] {
			kept = append(kept, kv)
		}
	}
	return append(proc.Quiet(kept, hooksDir), "GIT_OPTIONAL_LOCKS=0")
}

// withoutHooksOverride is env without the core.hooksPath proc.Quiet puts
// there, for the one question that must see the checkout's own setting.
func withoutHooksOverride(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		n := strings.ToUpper(name)
		if n == "GIT_CONFIG_COUNT" || strings.HasPrefix(n, "GIT_CONFIG_KEY_") || strings.HasPrefix(n, "GIT_CONFIG_VALUE_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// gitBin is git from PATH.
func gitBin() (string, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return "", errors.New("git not found on PATH: uptide fix needs git installed to work in a private clone")
	}
	return bin, nil
}

// gitResult is one finished git: its stdout whole and apart (so that a
// warning on stderr never ends up parsed), the tail of its stderr for
// messages, and the exit code.
type gitResult struct {
	Stdout string
	Output string
	Code   int
}

// maxGitStdout bounds what one git may print: far above the longest
// `git status -z` or diff of a real repository, and still a bounded cost
// when a repository is hostile.
var maxGitStdout = 256 << 20

// runGit runs git in dir through proc.Run, its stdout kept whole: a long
// `git status -z` must arrive whole. Past maxGitStdout the git is stopped
// and the run fails rather than parse a truncated answer.
func runGit(ctx context.Context, env []string, dir string, args ...string) (gitResult, error) {
	bin, err := gitBin()
	if err != nil {
		return gitResult{}, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stdout := &proc.Capped{Max: maxGitStdout, OnExceed: cancel}
	res, err := proc.Run(runCtx, proc.Cmd{Argv: append([]string{bin}, args...), Dir: dir, Env: env, Stdout: stdout})
	if stdout.Exceeded() && ctx.Err() == nil {
		return gitResult{}, fmt.Errorf("git %s in %s printed more than %d MB, the limit of one git command", strings.Join(args, " "), dir, maxGitStdout>>20)
	}
	if err != nil {
		return gitResult{}, fmt.Errorf("git %s in %s: %w", strings.Join(args, " "), dir, err)
	}
	return gitResult{Stdout: stdout.String(), Output: res.Output, Code: res.ExitCode}, nil
}

// git runs git and fails on a non-zero exit with git's own words.
func git(ctx context.Context, env []string, dir string, args ...string) (string, error) {
	res, err := runGit(ctx, env, dir, args...)
	if err != nil {
		return "", err
	}
	if res.Code != 0 {
		return "", gitError(dir, args, res)
	}
	return strings.TrimSpace(res.Stdout), nil
}

// gitError is a failed git in its own words: its stderr, else its stdout
// (where git says "nothing to commit").
func gitError(dir string, args []string, res gitResult) error {
	msg := strings.TrimSpace(res.Output)
	if msg == "" {
		msg = clipLines(strings.TrimSpace(res.Stdout), 20)
	}
	if msg == "" {
		msg = "no output"
	}
	return fmt.Errorf("git %s in %s failed (exit %d): %s", strings.Join(args, " "), dir, res.Code, msg)
}

// emptyDir makes a fresh empty directory for git to take as its hooks
// directory; the caller removes it.
func emptyDir() (string, func(), error) {
	dir, err := os.MkdirTemp("", "uptide-nohooks-*")
	if err != nil {
		return "", nil, fmt.Errorf("an empty hooks directory: %w", err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// quietGitEnv is quietEnv of base (the process's environment when nil)
// with a fresh empty hooks directory; the caller calls done to remove it.
func quietGitEnv(base []string) (env []string, done func(), err error) {
	hooks, done, err := emptyDir()
	if err != nil {
		return nil, nil, err
	}
	if base == nil {
		base = os.Environ()
	}
	return quietEnv(base, hooks), done, nil
}

// clipLines is s cut to its first n lines.
func clipLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		return strings.Join(lines[:n], "\n") + "\n…"
	}
	return s
}
