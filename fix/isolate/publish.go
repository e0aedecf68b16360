package isolate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/uptide/uptide/internal/proc"
)

// Published is the branch ref the checkout gained. When Publish refuses,
// Existing is the commit the checkout's branch stays at (ErrDiverged) and
// CheckedOutIn the worktree that has it checked out (ErrCheckedOut).
type Published struct {
	Branch, Sha          string
	Created, FastForward bool
	Existing             string
	CheckedOutIn         string
}

var (
	// ErrCheckedOut: the branch is checked out in a worktree of the
	// checkout, so moving it would change files the user has open; the
	// commits stay in the clone.
	ErrCheckedOut = errors.New("the branch is checked out in the checkout")
	// ErrDiverged: the checkout's branch has commits the clone's does not.
	ErrDiverged = errors.New("the checkout's branch has diverged from the run's")
)

// Publish gives the checkout the clone's branch ref: a new branch, or a
// fast-forward of one that is not checked out in any worktree. It never
// touches the work tree, index, HEAD, config or hooks of the checkout: one
// git fetch into it with an empty hooks directory, no FETCH_HEAD, no tags,
// no pruning, no maintenance, and no '+' (git itself refuses anything but a
// fast-forward).
func Publish(ctx context.Context, c *Clone) (Published, error) {
	hooks, done, err := emptyDir()
	if err != nil {
		return Published{}, err
	}
	defer done()
	base := c.env
	if base == nil {
		base = os.Environ()
	}
	env := quietEnv(base, hooks)
	ref := "refs/heads/" + c.Branch
	sha, err := git(ctx, c.Env(env), c.Work, "rev-parse", "--verify", ref+"^{commit}")
	if err != nil {
		return Published{}, fmt.Errorf("the run's branch %s in the clone %s: %w", c.Branch, c.Work, err)
	}
	pub := Published{Branch: c.Branch, Sha: sha}
	if where, err := checkedOutAt(ctx, env, c.Checkout, ref); err != nil {
		return Published{}, err
	} else if where != "" {
		pub.CheckedOutIn = where
		return pub, fmt.Errorf("%s is checked out in %s: %w; the commits stay in the clone %s", c.Branch, where, ErrCheckedOut, c.Work)
	}
	res, err := runGit(ctx, env, c.Checkout, "rev-parse", "-q", "--verify", ref+"^{commit}")
	if err != nil {
		return Published{}, err
	}
	old := strings.TrimSpace(res.Stdout)
	if res.Code != 0 {
		old = ""
	}
	switch {
	case old == sha:
		return pub, nil
	case old == "":
		pub.Created = true
	default:
		// Ancestry is answered in the clone, which has the run's commits;
		// a commit the clone never saw cannot be an ancestor of its tip.
		anc, err := runGit(ctx, c.Env(env), c.Work, "merge-base", "--is-ancestor", old, sha)
		if err != nil {
			return Published{}, err
		}
		if anc.Code != 0 {
			pub.Existing = old
			return pub, fmt.Errorf("%s in %s is at %s, which %s does not contain: %w; the run's commits stay in the clone %s",
				c.Branch, c.Checkout, short(old), short(sha), ErrDiverged, c.Work)
		}
		pub.FastForward = true
	}
	fetch := []string{"-c", "core.hooksPath=" + hooks, "-c", "gc.auto=0", "-c", "maintenance.auto=false",
		"-c", "fetch.writeCommitGraph=false", "-c", "core.fsmonitor=false",
		"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules", "--no-prune", "--no-auto-gc",
		"--", c.Work, ref + ":" + ref}
	res, err = runGit(ctx, env, c.Checkout, fetch...)
	if err != nil {
		return Published{}, err
	}
	if res.Code != 0 {
		out := res.Output
		switch {
		case strings.Contains(out, "refusing to fetch into") || strings.Contains(out, "checked out"):
			return pub, fmt.Errorf("%s: %w (%s)", c.Branch, ErrCheckedOut, strings.TrimSpace(out))
		case strings.Contains(out, "non-fast-forward") || strings.Contains(out, "rejected"):
			pub.Existing = old
			return pub, fmt.Errorf("%s: %w (%s)", c.Branch, ErrDiverged, strings.TrimSpace(out))
		}
		return Published{}, gitError(c.Checkout, fetch, res)
	}
	got, err := git(ctx, env, c.Checkout, "rev-parse", "--verify", ref+"^{commit}")
	if err != nil {
		return Published{}, err
	}
	if got != sha {
		return Published{}, fmt.Errorf("after publishing, %s in %s is at %s, not %s", c.Branch, c.Checkout, short(got), short(sha))
	}
	return pub, nil
}

// FetchCommand is the git command that, run in the checkout, brings the
// clone's branch in as a new branch: the branch's own name when the
// checkout has none of it, else the first of <branch>-2, -3, … it lacks.
// It is what a run whose branch could not be moved tells the user.
func FetchCommand(ctx context.Context, c *Clone) (string, error) {
	env, done, err := quietGitEnv(c.env)
	if err != nil {
		return "", err
	}
	defer done()
	name := c.Branch
	for n := 2; ; n++ {
		res, err := runGit(ctx, env, c.Checkout, "rev-parse", "-q", "--verify", "refs/heads/"+name)
		if err != nil {
			return "", err
		}
		if res.Code != 0 {
			break
		}
		if n > 100 {
			return "", fmt.Errorf("no free branch name after %s-%d in %s", c.Branch, n-1, c.Checkout)
		}
		name = fmt.Sprintf("%s-%d", c.Branch, n)
	}
	return "git fetch " + proc.ShellQuote(c.Work) + " " + c.Branch + ":" + name, nil
}

// checkedOutAt is the worktree of the checkout's repository that has ref
// checked out, "" when none has.
func checkedOutAt(ctx context.Context, env []string, checkout, ref string) (string, error) {
	out, err := git(ctx, env, checkout, "worktree", "list", "--porcelain")
	if err != nil {
		return "", err
	}
	where := ""
	for _, field := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(field, "worktree "):
			where = strings.TrimPrefix(field, "worktree ")
		case field == "branch "+ref:
			return where, nil
		}
	}
	return "", nil
}

// StoreRun keeps the record of one run in <common git dir of
// checkout>/uptide/<branch>/ (branch slashes kept as directories), where
// git status never looks: every run as runs/<runID>.json, so a second run
// on the same branch never erases the first, and, when head is true (the
// branch ref in the checkout is this run's last commit), as run.json too:
// the run behind the branch as it stands. It returns the path of the record
// that describes this run (run.json when head).
func StoreRun(ctx context.Context, checkout, branch, runID string, data []byte, head bool) (string, error) {
	if runID == "" || strings.ContainsAny(runID, `/\`) || strings.HasPrefix(runID, ".") {
		return "", fmt.Errorf("storing the run: %q is not a run id", runID)
	}
	env, done, err := quietGitEnv(nil)
	if err != nil {
		return "", err
	}
	defer done()
	repo, err := locate(ctx, env, checkout)
	if err != nil {
		return "", fmt.Errorf("storing the run: %w", err)
	}
	if err := checkBranchName(ctx, env, repo.top, branch); err != nil {
		return "", err
	}
	dir := filepath.Join(repo.commonDir, "uptide", filepath.FromSlash(branch))
	file, err := writeAtomic(filepath.Join(dir, "runs"), runID+".json", data)
	if err != nil || !head {
		return file, err
	}
	return writeAtomic(dir, "run.json", data)
}

// WriteRecord writes a stored record again (file is a path StoreRun
// returned), as StoreRun writes it.
func WriteRecord(file string, data []byte) error {
	_, err := writeAtomic(filepath.Dir(file), filepath.Base(file), data)
	return err
}

// writeAtomic writes data to dir/name through a temporary file and a
// rename, so a reader never sees half a record.
func writeAtomic(dir, name string, data []byte) (string, error) {
	final := filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("storing the run in %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".run-*.json")
	if err != nil {
		return "", fmt.Errorf("storing the run in %s: %w", dir, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("storing the run in %s: %w", final, err)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("storing the run in %s: %w", final, err)
	}
	return final, nil
}
