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

// What npm rewrites on any install of the untouched checkout is npm's, not
// the upgrade's: the run commits it on its own, before the upgrade, says
// so, and verifies. Two real shapes: npm 11 records the optional peer a
// nested dedent wants (babel-plugin-macros 3, with its cosmiconfig) as
// extraneous when it first resolves, and prunes it on the next install;
// and a manifest range edited without an install (is-number ^6 → ^7).
func TestFixCommitsTheManagersOwnRewrite(t *testing.T) {
	fe := newFixEnv(t)
	for _, c := range []struct {
		name      string
		installed func(map[string]any) // before the install
		committed func(map[string]any) // after it, before the commit
		own       []string
		absent    []string // in the lockfile the upgrade commits
	}{
		{"npm's extraneous optional peers", func(m map[string]any) {
			m["dependencies"].(map[string]any)["jest-circus"] = "29.7.0"
			m["devDependencies"].(map[string]any)["babel-plugin-macros"] = "^2.8.0"
		}, nil, []string{"babel-plugin-macros 3.1.0 removed", "cosmiconfig 7.1.0 removed"},
			[]string{"node_modules/jest-circus/node_modules/babel-plugin-macros"}},
		{"a range edited without an install", func(m map[string]any) {
			m["dependencies"].(map[string]any)["is-number"] = "^6.0.0"
		}, func(m map[string]any) {
			m["dependencies"].(map[string]any)["is-number"] = "^7.0.0"
		}, []string{"importer .: is-number dependencies ^6.0.0 → dependencies ^7.0.0", "is-number 6.0.0 → 7.0.0"},
			[]string{"is-number-6.0.0.tgz"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyDir(t, filepath.Join("../../fixtures/fix", "npm-app"))
			editManifest(t, dir, c.installed)
			npmManager().install(t, fe.env, dir)
			if c.committed != nil {
				editManifest(t, dir, c.committed)
			}
			commitAll(t, dir)
			before := checkoutDigest(t, dir)
			patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
			var rep struct {
				fixReport
				Install struct {
					Manager    string   `json:"manager"`
					Version    string   `json:"version"`
					Normalized []string `json:"normalized"`
				} `json:"install"`
			}
			r := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches, "--json")
			decode(t, r, &rep)
			if r.code != 0 || rep.Status != "verified" {
				t.Fatalf("exit %d status %s (%s), want 0 verified\n%s", r.code, rep.Status, rep.Reason, r.stderr)
			}
			if strings.Join(rep.Install.Normalized, "; ") != strings.Join(c.own, "; ") {
				t.Errorf("normalized %q, want %q", rep.Install.Normalized, c.own)
			}
			want := []string{"npm " + rep.Install.Version + " rewrites package-lock.json on its own: " + strings.Join(c.own, "; "),
				"upgrade slugkit 1.0.0 → 2.0.0", "fix src/title.ts:4 (slugify's options gain a required locale)", "fix src/short.ts:1 (truncate removed)"}
			if got := subjects(rep.fixReport); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("commits %q, want %q", got, want)
			}
			// The manager's commit holds only the lockfile; the upgrade's
			// lockfile diff holds none of the manager's own rewrite.
			own, upgrade := rep.Commits[0].Sha, rep.Commits[1].Sha
			if files := git(t, dir, "show", "--format=", "--name-only", own); files != "package-lock.json" {
				t.Errorf("the manager's own commit changes %q, want package-lock.json alone", files)
			}
			diff := git(t, dir, "show", "--format=", upgrade, "--", "package-lock.json")
			for _, a := range c.absent {
				if strings.Contains(diff, a) {
					t.Errorf("the upgrade commit's lockfile diff names %s:\n%s", a, diff)
				}
			}
			if after := checkoutDigest(t, dir); after != before {
				t.Errorf("the checkout changed:\n%s", diffLines(before, after))
			}
			assertNoTrap(t, fe, dir)
			// The text report says it beside the install.
			text := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches)
			if line := "npm rewrites package-lock.json on its own, without the upgrade (committed before it): " + strings.Join(c.own, "; "); !strings.Contains(text.stdout, line) {
				t.Errorf("text report lacks %q:\n%s", line, text.stdout)
			}
		})
	}
}
