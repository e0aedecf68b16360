package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A branch of the run's name that already exists at a commit the run does
// not contain is left where it is: the report says where it is and why it
// was not moved, and prints the git command that takes the run's commits
// from the kept clone into a new branch of the checkout; that command,
// pasted into a shell in the checkout, does exactly that.
func TestFixBranchExistsElsewhere(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	const branch = "uptide/slugkit-2.0.0"
	git(t, dir, "checkout", "-q", "-b", branch)
	git(t, dir, "commit", "-q", "--no-verify", "--allow-empty", "-m", "the user's own work on a branch of that name")
	git(t, dir, "checkout", "-q", "main")
	mine := git(t, dir, "rev-parse", branch)
	// A branch already named like the new one the command would take.
	git(t, dir, "branch", branch+"-2", "main")

	patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
	r := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (verified):\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	why := "Branch  " + branch + " already exists at " + mine[:10] + ", which is not an ancestor of this run's commits, so it was not moved: the commits stay in the clone"
	if !strings.Contains(r.stdout, why+"\n        to take them as a new branch, run in your checkout:\n") {
		t.Fatalf("the report does not say why the branch was not moved and what to do:\n%s", r.stdout)
	}
	m := regexp.MustCompile(`(?m)^        (git fetch \S+ ` + regexp.QuoteMeta(branch) + `:(\S+))$`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no git fetch command in the report:\n%s", r.stdout)
	}
	if m[2] != branch+"-3" {
		t.Errorf("the command fetches into %s, want %s-3, the first name the checkout lacks", m[2], branch)
	}
	if git(t, dir, "rev-parse", branch) != mine {
		t.Errorf("the user's %s moved", branch)
	}
	// The JSON record of the run carries the same reason and command.
	runFile := regexp.MustCompile(`(?m)^Run     (\S+)$`).FindStringSubmatch(r.stdout)
	if runFile == nil {
		t.Fatalf("no run record named:\n%s", r.stdout)
	}
	data, err := os.ReadFile(runFile[1])
	if err != nil {
		t.Fatal(err)
	}
	var stored struct {
		Run struct {
			Commits []struct {
				Sha string `json:"sha"`
			} `json:"commits"`
			Checkout struct {
				BranchWhy string `json:"branchWhy"`
				Fetch     string `json:"fetch"`
			} `json:"checkout"`
		} `json:"run"`
	}
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatalf("%s: %v", runFile[1], err)
	}
	rec := stored.Run
	if "Branch  "+rec.Checkout.BranchWhy != why || rec.Checkout.Fetch != m[1] {
		t.Errorf("the run record says %q / %q", rec.Checkout.BranchWhy, rec.Checkout.Fetch)
	}
	// The command, as printed, brings the run's commits in.
	sh := exec.Command("sh", "-c", m[1])
	sh.Dir = dir
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", m[1], err, out)
	}
	if len(rec.Commits) == 0 || git(t, dir, "rev-parse", m[2]) != rec.Commits[len(rec.Commits)-1].Sha {
		t.Errorf("after %s, %s is not at the run's last commit", m[1], m[2])
	}
	assertNoTrap(t, fe, dir)
}
