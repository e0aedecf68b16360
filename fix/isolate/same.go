package isolate

import (
	"context"
	"fmt"
	"path"
	"strings"
)

// SameFiles says whether a clone New makes of the checkout holds every
// file the checkout does: "" when it does, else what the clone would lack.
// The clone has the tracked files of HEAD and the node_modules of each
// directory with a tracked package.json, so the checkout matches it when
// it is clean (Dirty), has no submodule (the clone does not check them
// out), no file git is told not to look at, and ignores nothing but those
// node_modules (no build output, no generated sources a compiler could
// read). What reads the checkout then
// reads what the clone had before anything ran in it.
func SameFiles(ctx context.Context, checkout string) (string, error) {
	env, done, err := quietGitEnv(nil)
	if err != nil {
		return "", err
	}
	defer done()
	staged, err := git(ctx, env, checkout, "ls-files", "-z", "--stage")
	if err != nil {
		return "", err
	}
	for _, e := range strings.Split(staged, "\x00") {
		if strings.HasPrefix(e, "160000 ") {
			_, p, _ := strings.Cut(e, "\t")
			return fmt.Sprintf("the submodule %s is not checked out in a clone", p), nil
		}
	}
	// A file git is told not to look at (assume-unchanged, skip-worktree,
	// a sparse checkout) may differ from HEAD, which the clone has whole.
	tagged, err := git(ctx, env, checkout, "ls-files", "-z", "-v", "-t")
	if err != nil {
		return "", err
	}
	for _, e := range strings.Split(tagged, "\x00") {
		if tag, p, ok := strings.Cut(e, " "); ok && (tag == "S" || strings.ToUpper(tag) != tag) {
			return fmt.Sprintf("git does not look at %s in the checkout (skip-worktree or assume-unchanged)", p), nil
		}
	}
	dirs, err := installedDirs(ctx, env, checkout)
	if err != nil {
		return "", err
	}
	installed := map[string]bool{}
	for _, d := range dirs {
		installed[path.Join(d, "node_modules")] = true
	}
	ignored, err := git(ctx, env, checkout, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil {
		return "", err
	}
	for _, p := range strings.Split(ignored, "\x00") {
		if p != "" && !installed[strings.TrimSuffix(p, "/")] {
			return fmt.Sprintf("the ignored %s is not in a clone", p), nil
		}
	}
	return "", nil
}
