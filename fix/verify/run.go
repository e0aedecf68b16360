package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/proc"
)

// TestResult is one planned run as it ended.
type TestResult struct {
	Run    TestRun          `json:"run"`
	Status model.TestStatus `json:"status"`
	// Passed, Failed and Skipped are as the runner printed them; -1 unknown.
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Skipped int    `json:"skipped"`
	Rerun   bool   `json:"rerun"`  // failed once in tests unrelated to the affected files, re-run once (Status is the second run's)
	Output  string `json:"output"` // tail for the report

	// FailingFiles are the test files the (last) failing run named, slash
	// relative to root; FirstFailing those of the first attempt when it was
	// re-run.
	FailingFiles []string `json:"failingFiles,omitempty"`
	FirstFailing []string `json:"firstFailing,omitempty"`
	// UnrelatedFailing are the FailingFiles that reach none of the
	// affected files through their imports: nothing the upgrade moved is
	// theirs, so they may fail before it as well (a test needing a service
	// no signal showed).
	UnrelatedFailing []string `json:"unrelatedFailing,omitempty"`
}

// The statuses of a TestResult.
const (
	StatusPassed   = model.TestPassed
	StatusFailed   = model.TestFailed
	StatusTimedOut = model.TestTimedOut
	StatusNoTests  = model.TestNoTests
	StatusError    = model.TestError
)

// outputTail is how much of a run's output a result keeps.
const outputTail = 8 << 10

// RunTests runs each planned run with env (quiet; never through the manager's lifecycle: run the
// script text with sh -c and node_modules/.bin of the workspace and its ancestors on PATH, as
// npm run does; a pretest script runs as its own command first), timeout per run.
func RunTests(ctx context.Context, root string, env []string, plan *TestPlan, affected []string, timeout time.Duration, progress func(string)) []TestResult {
	if progress == nil {
		progress = func(string) {}
	}
	aff := map[string]bool{}
	for _, a := range uniqSorted(affected) {
		aff[a] = true
	}
	var out []TestResult
	if plan == nil {
		return nil
	}
	for _, run := range plan.Runs {
		progress("tests: " + run.Scope)
		res := runOnce(ctx, root, env, run, timeout)
		if res.Status == StatusFailed && ctx.Err() == nil {
			if files, ok := failingFiles(root, run.Dir, res.Output); ok && len(files) > 0 && allUnrelated(root, files, aff) {
				progress(fmt.Sprintf("tests: %s failed in %s, unrelated to the affected files: running once more", run.Scope, strings.Join(files, ", ")))
				first := files
				res = runOnce(ctx, root, env, run, timeout)
				res.Rerun = true
				res.FirstFailing = first
			}
		}
		if res.Status == StatusFailed {
			res.FailingFiles, _ = failingFiles(root, run.Dir, res.Output)
			for _, f := range res.FailingFiles {
				if !relatedTo(root, f, aff) {
					res.UnrelatedFailing = append(res.UnrelatedFailing, f)
				}
			}
		}
		out = append(out, res)
	}
	return out
}

func allUnrelated(root string, files []string, affected map[string]bool) bool {
	for _, f := range files {
		if relatedTo(root, f, affected) {
			return false
		}
	}
	return true
}

func runOnce(ctx context.Context, root string, env []string, run TestRun, timeout time.Duration) TestResult {
	res := TestResult{Run: run, Passed: -1, Failed: -1, Skipped: -1}
	fail := func(status model.TestStatus, msg string) TestResult {
		res.Status = status
		res.Output = tailOf(strings.TrimSpace(res.Output + "\n" + msg))
		return res
	}
	if len(run.Command) == 0 {
		return fail(StatusError, "no command planned")
	}
	dir := filepath.Join(root, filepath.FromSlash(run.Dir))
	runEnv := withBinPath(env, root, run.Dir)
	if run.Generated != "" {
		remove, err := writeGenerated(root, run)
		if err != nil {
			return fail(StatusError, err.Error())
		}
		defer remove()
	}
	if len(run.Pretest) > 0 {
		argv, err := resolveArgv(run.Pretest, runEnv)
		if err != nil {
			return fail(StatusError, err.Error())
		}
		r, err := proc.Run(ctx, proc.Cmd{Argv: argv, Dir: dir, Env: runEnv, Timeout: timeout})
		res.Output = r.Output
		switch {
		case r.TimedOut:
			return fail(StatusTimedOut, fmt.Sprintf("pretest %q still running after %s", strings.Join(run.Pretest, " "), timeout))
		case err != nil:
			return fail(StatusError, fmt.Sprintf("pretest: %v", err))
		case r.ExitCode != 0:
			return fail(StatusError, fmt.Sprintf("pretest %q exited %d: the tests did not run", strings.Join(run.Pretest, " "), r.ExitCode))
		}
	}
	argv, err := resolveArgv(run.Command, runEnv)
	if err != nil {
		return fail(StatusError, err.Error())
	}
	r, err := proc.Run(ctx, proc.Cmd{Argv: argv, Dir: dir, Env: runEnv, Timeout: timeout})
	res.Output = r.Output
	c := parseCounts(r.Output)
	res.Passed, res.Failed, res.Skipped = c.passed, c.failed, c.skipped
	switch {
	case r.TimedOut:
		return fail(StatusTimedOut, fmt.Sprintf("%s: still running after %s", run.Scope, timeout))
	case err != nil:
		return fail(StatusError, err.Error())
	case r.ExitCode == 0 && c.failed <= 0:
		if foundNoTests(r.Output, c) {
			res.Status = StatusNoTests
		} else {
			res.Status = StatusPassed
		}
	case c.failed <= 0 && noTestsRE.MatchString(stripANSI(r.Output)):
		res.Status = StatusNoTests // vitest and jest exit 1 when nothing matched
	default:
		res.Status = StatusFailed
	}
	res.Output = tailOf(res.Output)
	return res
}

func tailOf(s string) string {
	if len(s) <= outputTail {
		return s
	}
	return s[len(s)-outputTail:]
}

// withBinPath is env with node_modules/.bin of dir and each ancestor up to
// the root in front of PATH, nearest first, as npm run does.
func withBinPath(env []string, root, dir string) []string {
	var bins []string
	for d := dir; ; d = path.Dir(d) {
		bins = append(bins, filepath.Join(root, filepath.FromSlash(d), "node_modules", ".bin"))
		if d == "." {
			break
		}
	}
	out := make([]string, 0, len(env)+1)
	oldPath := ""
	for _, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			oldPath = strings.TrimPrefix(kv, "PATH=")
			continue
		}
		out = append(out, kv)
	}
	p := strings.Join(bins, string(os.PathListSeparator))
	if oldPath != "" {
		p += string(os.PathListSeparator) + oldPath
	}
	return append(out, "PATH="+p)
}

// resolveArgv finds argv[0] on env's PATH (exec would use Uptide's own).
func resolveArgv(argv []string, env []string) ([]string, error) {
	if strings.ContainsRune(argv[0], '/') {
		return argv, nil
	}
	pathVar := ""
	for _, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			pathVar = strings.TrimPrefix(kv, "PATH=")
		}
	}
	for _, d := range filepath.SplitList(pathVar) {
		if d == "" {
			continue
		}
		p := filepath.Join(d, argv[0])
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return append([]string{p}, argv[1:]...), nil
		}
	}
	return nil, fmt.Errorf("%s is not installed here or in any node_modules/.bin above: install the repository's dependencies first", argv[0])
}

// writeGenerated writes the run's generated vitest configuration and
// returns what removes it.
func writeGenerated(root string, run TestRun) (func(), error) {
	file := filepath.Join(root, filepath.FromSlash(run.Generated))
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("%s already exists (left by an earlier run?): remove it and run again", file)
	}
	if err != nil {
		return nil, fmt.Errorf("write the vitest configuration for the run: %w", err)
	}
	_, werr := f.WriteString(generatedConfig(run))
	cerr := f.Close()
	remove := func() { _ = os.Remove(file) }
	if werr != nil || cerr != nil {
		remove()
		return nil, fmt.Errorf("write %s: %v", file, errors.Join(werr, cerr))
	}
	return remove, nil
}
