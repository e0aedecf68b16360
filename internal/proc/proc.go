package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// quietVars are set in every environment Quiet returns: lifecycle scripts
// off for npm, pnpm and yarn (classic and berry), hook installers told to
// stay out, pnpm's implicit install before a run off, and no prompt ever.
var quietVars = []string{
	"npm_config_ignore_scripts=true",
	"YARN_IGNORE_SCRIPTS=true",
	"YARN_ENABLE_SCRIPTS=false",
	"npm_config_verify_deps_before_run=false",
	"npm_config_update_notifier=false",
	"npm_config_fund=false",
	"npm_config_audit=false",
	"YARN_ENABLE_TELEMETRY=0",
	"HUSKY=0",
	"SKIP_SIMPLE_GIT_HOOKS=1",
	"LEFTHOOK=0",
	"CI=1",
	"GIT_TERMINAL_PROMPT=0",
}

// Quiet is base with the quiet variables set and git pointed at hooksDir
// (an empty directory) through the environment, so every git a tool
// starts, hook installers included, sees no hooks and writes no hook
// configuration that could matter. Earlier values of the same variables
// are dropped.
func Quiet(base []string, hooksDir string) []string {
	set := append([]string{}, quietVars...)
	set = append(set,
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=core.hooksPath",
		"GIT_CONFIG_VALUE_0="+hooksDir,
	)
	drop := map[string]bool{}
	for _, kv := range set {
		drop[strings.ToLower(name(kv))] = true
	}
	out := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		n := strings.ToLower(name(kv))
		if drop[n] || strings.HasPrefix(n, "git_config_key_") || strings.HasPrefix(n, "git_config_value_") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, set...)
}

func name(kv string) string {
	if i := strings.IndexByte(kv, '='); i >= 0 {
		return kv[:i]
	}
	return kv
}

// Result is a finished command.
type Result struct {
	// Output is stdout and stderr interleaved, its last 64 KiB.
	Output   string
	ExitCode int
	TimedOut bool
}

// Cmd is one command to run.
type Cmd struct {
	Argv    []string
	Dir     string
	Env     []string
	Timeout time.Duration // 0: none beyond ctx
	// Progress, when set, receives each line of output as it arrives.
	Progress func(line string)
	// Stdout, when set, receives the standard output whole, and Output
	// holds the standard error alone.
	Stdout io.Writer
}

// Run runs c in its own process group. A non-zero exit is not an error
// (ExitCode says it); the error is for a command that could not start, was
// cancelled (ctx.Err()), or timed out (TimedOut set, and an error naming
// the limit). Either way everything it started is killed.
func Run(ctx context.Context, c Cmd) (Result, error) {
	if len(c.Argv) == 0 {
		return Result{}, errors.New("proc: empty command")
	}
	runCtx := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	out := &tail{max: 64 << 10, progress: c.Progress}
	cmd.Stdout, cmd.Stderr = out, out
	if c.Stdout != nil {
		cmd.Stdout = c.Stdout
	}
	OwnGroup(cmd)
	if err := cmd.Start(); err != nil {
		return Result{}, fmt.Errorf("start %s: %w", c.Argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-runCtx.Done():
		KillGroup(cmd)
		waitErr = <-done
	}
	KillGroup(cmd) // anything it left behind
	out.flush()
	res := Result{Output: out.String()}
	if err := runCtx.Err(); err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		res.TimedOut = true
		return res, fmt.Errorf("%s: still running after %s", strings.Join(c.Argv, " "), c.Timeout)
	}
	var exit *exec.ExitError
	switch {
	case errors.As(waitErr, &exit):
		res.ExitCode = exit.ExitCode()
	case waitErr != nil:
		return res, fmt.Errorf("run %s: %w", c.Argv[0], waitErr)
	}
	return res, nil
}

// tail keeps the last max bytes written and passes whole lines on.
type tail struct {
	max      int
	buf      []byte
	line     bytes.Buffer
	progress func(string)
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	if t.progress != nil {
		for _, b := range p {
			if b == '\n' || b == '\r' {
				t.emit()
				continue
			}
			t.line.WriteByte(b)
		}
	}
	return len(p), nil
}

func (t *tail) emit() {
	if s := strings.TrimSpace(t.line.String()); s != "" {
		t.progress(s)
	}
	t.line.Reset()
}

func (t *tail) flush() {
	if t.progress != nil {
		t.emit()
	}
}

func (t *tail) String() string { return string(t.buf) }
