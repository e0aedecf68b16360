package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fix runner's install end to end, on what real repositories brought:
// a target that does not exist, a lockfile the manager normalises on its
// own, a manager binary that is missing or of another version.

// An unknown --target stops fix before anything is cloned: exit 2, the
// package, the version asked and the newest releases named, no clone, no
// run filed under another version, no branch.
func TestFixUnknownTargetStopsBeforeTheClone(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	before := checkoutDigest(t, dir)
	rep, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@99")
	if r.code != 2 || rep.Status != "not-run" {
		t.Fatalf("exit %d status %s (%s), want 2 not-run\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	for _, want := range []string{"slugkit@99", "2.0.0, 1.0.0", "nothing was cloned"} {
		if !strings.Contains(rep.Reason, want) {
			t.Errorf("reason %q does not name %q", rep.Reason, want)
		}
	}
	if rep.Clone.Dir != "" || rep.Branch != "" || rep.Checkout.RunFile != "" {
		t.Errorf("clone %q, branch %q, run file %q: want none", rep.Clone.Dir, rep.Branch, rep.Checkout.RunFile)
	}
	if strings.Contains(r.stderr, "fix: clone:") || strings.Contains(r.stderr, "fix: install:") {
		t.Errorf("the run cloned or installed:\n%s", r.stderr)
	}
	if runs, _ := filepath.Glob(filepath.Join(fe.runs, "uptide-runs", "*")); len(runs) > 0 {
		t.Errorf("run directories %q, want none", runs)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "uptide")); !os.IsNotExist(err) {
		t.Errorf("a run was stored in .git/uptide (%v)", err)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	// The text report says the same, on one line.
	text := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@99")
	if text.code != 2 || !strings.Contains(text.stdout, "✗ not run  slugkit\n") || !strings.Contains(text.stdout, "the newest releases are 2.0.0, 1.0.0 (latest 2.0.0)") {
		t.Errorf("text report, exit %d:\n%s", text.code, text.stdout)
	}
}
