package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// batchReport is a batch's part of fix's report.
type batchReport struct {
	fixReport
	Steps []struct {
		Package string `json:"package"`
		From    string `json:"from"`
		To      string `json:"to"`
		Commit  string `json:"commit"`
	} `json:"steps"`
	BrokeAt *struct {
		Step      int    `json:"step"`
		Package   string `json:"package"`
		Commit    string `json:"commit"`
		NewErrors []struct {
			File string `json:"file"`
			Code int    `json:"code"`
		} `json:"newErrors"`
		FailingTests []string `json:"failingTests"`
		Good         []string `json:"good"`
		Probes       []struct {
			Step   int  `json:"step"`
			Broken bool `json:"broken"`
		} `json:"probes"`
		Whole string `json:"whole"`
	} `json:"brokeAt"`
}

// fix a b c upgrades the three in one batch, one commit each, verifies
// once, and, the second step breaking the compile, bisects to it: the
// branch ends at the first step, the only one before the break.
func TestFixBatchBisectsToTheStepThatBroke(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-batch", "npm")
	before := checkoutDigest(t, dir)
	r := run(t, fe.env, dir, "fix", "chalk", "slugkit", "postcss", "--json")
	var rep batchReport
	decode(t, r, &rep)
	if r.code != 1 || rep.Status != "failed" {
		t.Fatalf("exit %d status %s, want 1 failed\n%s\n%s", r.code, rep.Status, r.stdout, r.stderr)
	}
	var steps []string
	for _, s := range rep.Steps {
		steps = append(steps, s.Package+" "+s.From+" → "+s.To)
	}
	if got := strings.Join(steps, "|"); got != "chalk 5.3.0 → 5.4.1|slugkit 1.0.0 → 2.0.0|postcss 8.4.31 → 8.4.38" {
		t.Fatalf("steps %q, want the three in the order named", got)
	}
	// Each step installs once from the step before's lockfile; the
	// frozen install (for npm, the same install again, which must leave
	// the lockfile as it is) proves the last step's, once.
	if rep.Install == nil || strings.Join(rep.Install.Commands, "|") != strings.Repeat("npm install --ignore-scripts --no-audit --no-fund|", 3)+"npm install --ignore-scripts --no-audit --no-fund" {
		t.Errorf("install commands %q, want the three steps' installs and one frozen install", rep.Install)
	}
	b := rep.BrokeAt
	if b == nil || b.Step != 2 || b.Package != "slugkit" || b.Commit != rep.Steps[1].Commit {
		t.Fatalf("brokeAt %+v, want step 2 (slugkit)\n%s", b, r.stderr)
	}
	if len(b.NewErrors) == 0 || b.NewErrors[0].File != "src/title.ts" {
		t.Errorf("new errors at the broken step %+v, want the required locale in src/title.ts", b.NewErrors)
	}
	if len(b.Good) != 1 || b.Good[0] != rep.Steps[0].Commit {
		t.Errorf("good commits %q, want step 1's", b.Good)
	}
	var probes []string
	for _, p := range b.Probes {
		probes = append(probes, strings.Repeat("✗", btoi(p.Broken))+string(rune('0'+p.Step)))
	}
	if got := strings.Join(probes, " "); got != "1 ✗2" {
		t.Errorf("probes %q, want step 1 verified then step 2 broken", got)
	}
	// The branch in the checkout ends at the last good step; every step
	// stays in the clone.
	if got := subjects(rep.fixReport); strings.Join(got, "|") != "upgrade chalk 5.3.0 → 5.4.1" {
		t.Errorf("commits %q, want step 1's alone", got)
	}
	if rep.Branch != "uptide/batch-3-packages" || rep.Checkout.Branch != rep.Branch {
		t.Fatalf("branch %q (checkout %q), want uptide/batch-3-packages published", rep.Branch, rep.Checkout.Branch)
	}
	if got := git(t, dir, "rev-parse", rep.Branch); got != rep.Steps[0].Commit {
		t.Errorf("the checkout's branch is at %s, want step 1's commit %s", got, rep.Steps[0].Commit)
	}
	if got := git(t, rep.Clone.Repo, "rev-parse", b.Whole); got != rep.Steps[2].Commit {
		t.Errorf("the clone's %s is at %s, want the last step's commit", b.Whole, got)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	assertNoTrap(t, fe, dir)
	if !strings.Contains(rep.Reason, "step 2 of 3 (slugkit 1.0.0 → 2.0.0) broke the batch") {
		t.Errorf("reason %q does not name the step that broke", rep.Reason)
	}
}

// The same batch shape, broken where only the tests see it: padkit 1.1.0
// keeps its declarations and pads with spaces by default, so the compile
// at the end passes, the repository's test script fails, and bisection,
// re-running the tests alone at each probe, finds step 2.
func TestFixBatchBisectsToTheStepThatFailsTheTests(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-batch-tests", "npm")
	before := checkoutDigest(t, dir)
	r := run(t, fe.env, dir, "fix", "chalk", "padkit", "postcss", "--json")
	var rep batchReport
	decode(t, r, &rep)
	if r.code != 1 || rep.Status != "failed" {
		t.Fatalf("exit %d status %s, want 1 failed\n%s\n%s", r.code, rep.Status, r.stdout, r.stderr)
	}
	var steps []string
	for _, s := range rep.Steps {
		steps = append(steps, s.Package+" "+s.From+" → "+s.To)
	}
	if got := strings.Join(steps, "|"); got != "chalk 5.3.0 → 5.4.1|padkit 1.0.0 → 1.1.0|postcss 8.4.31 → 8.4.38" {
		t.Fatalf("steps %q, want the three in the order named", got)
	}
	if rep.Types.Status != "analyzed" || len(rep.Types.New) != 0 {
		t.Errorf("types %+v, want the last step to compile clean: only the tests break", rep.Types)
	}
	b := rep.BrokeAt
	if b == nil || b.Step != 2 || b.Package != "padkit" || b.Commit != rep.Steps[1].Commit {
		t.Fatalf("brokeAt %+v, want step 2 (padkit)\n%s", b, r.stderr)
	}
	if len(b.NewErrors) != 0 || len(b.FailingTests) == 0 {
		t.Errorf("at the broken step: new errors %+v, failing tests %q; want the tests alone", b.NewErrors, b.FailingTests)
	}
	var probes []string
	for _, p := range b.Probes {
		probes = append(probes, strings.Repeat("✗", btoi(p.Broken))+string(rune('0'+p.Step)))
	}
	if got := strings.Join(probes, " "); got != "1 ✗2" {
		t.Errorf("probes %q, want step 1 verified then step 2 broken", got)
	}
	if len(b.Good) != 1 || b.Good[0] != rep.Steps[0].Commit {
		t.Errorf("good commits %q, want step 1's", b.Good)
	}
	if got := git(t, dir, "rev-parse", rep.Branch); got != rep.Steps[0].Commit {
		t.Errorf("the checkout's branch is at %s, want step 1's commit %s", got, rep.Steps[0].Commit)
	}
	if !strings.Contains(rep.Reason, "step 2 of 3 (padkit 1.0.0 → 1.1.0) broke the batch: tests failing (") {
		t.Errorf("reason %q does not name the step and the failing tests", rep.Reason)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}

// The breaking step last: bisection verifies steps 1 and 2, and the
// clone, kept at the branch's last good step, holds node_modules as that
// step's lockfile installs it (the last probe laid it out there).
func TestFixBatchBrokenAtTheLastStepKeepsTheCloneAtTheLastGoodStep(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-batch", "npm")
	r := run(t, fe.env, dir, "fix", "chalk", "postcss", "slugkit", "--json")
	var rep batchReport
	decode(t, r, &rep)
	if r.code != 1 || rep.Status != "failed" || len(rep.Steps) != 3 {
		t.Fatalf("exit %d status %s, %d steps; want 1 failed, 3 steps\n%s\n%s", r.code, rep.Status, len(rep.Steps), r.stdout, r.stderr)
	}
	b := rep.BrokeAt
	if b == nil || b.Step != 3 || b.Package != "slugkit" {
		t.Fatalf("brokeAt %+v, want step 3 (slugkit)\n%s", b, r.stderr)
	}
	var probes []string
	for _, p := range b.Probes {
		probes = append(probes, strings.Repeat("✗", btoi(p.Broken))+string(rune('0'+p.Step)))
	}
	if got := strings.Join(probes, " "); got != "1 2" {
		t.Errorf("probes %q, want steps 1 and 2 verified", got)
	}
	if got := git(t, rep.Clone.Repo, "rev-parse", "HEAD"); got != rep.Steps[1].Commit {
		t.Errorf("the clone is at %s, want step 2's commit %s", got, rep.Steps[1].Commit)
	}
	for name, want := range map[string]string{"chalk": "5.4.1", "postcss": "8.4.38", "slugkit": "1.0.0"} {
		data, err := os.ReadFile(filepath.Join(rep.Clone.Repo, "node_modules", name, "package.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ Version string }
		if err := json.Unmarshal(data, &m); err != nil || m.Version != want {
			t.Errorf("the clone's node_modules has %s %q, want %s as step 2's lockfile says", name, m.Version, want)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fix --batch fixes the plan's cheap batch: plan --check found chalk and
// postcss ✓ no impact and slugkit breaking, so the batch is the two, at
// the versions checked, and it verifies in one go.
func TestFixBatchTakesThePlansCheapBatch(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-batch", "npm")
	// Without checks there is no cheap batch: fix says how to get one.
	none := run(t, fe.env, dir, "fix", "--batch")
	if none.code != 2 || !strings.Contains(none.stderr, "uptide plan --check") {
		t.Fatalf("fix --batch before any check: exit %d\n%s", none.code, none.stderr)
	}
	if p := run(t, fe.env, dir, "plan", "chalk", "postcss", "slugkit", "--check", "--no-advisories", "--json"); p.code != 0 {
		t.Fatalf("plan --check: exit %d\n%s", p.code, p.stderr)
	}
	r := run(t, fe.env, dir, "fix", "--batch", "--json")
	var rep batchReport
	decode(t, r, &rep)
	if r.code != 0 || rep.Status != "verified" {
		t.Fatalf("exit %d status %s (%s), want 0 verified\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	var steps []string
	for _, s := range rep.Steps {
		steps = append(steps, s.Package+" "+s.From+" → "+s.To)
	}
	if got := strings.Join(steps, "|"); got != "chalk 5.3.0 → 5.4.1|postcss 8.4.31 → 8.4.38" {
		t.Errorf("steps %q, want the cheap batch: chalk and postcss", got)
	}
	if rep.BrokeAt != nil || rep.Branch != "uptide/batch-2-packages" || rep.Checkout.Branch != rep.Branch {
		t.Errorf("brokeAt %+v branch %q (checkout %q), want a published uptide/batch-2-packages", rep.BrokeAt, rep.Branch, rep.Checkout.Branch)
	}
	if got := subjects(rep.fixReport); len(got) != 2 {
		t.Errorf("commits %q, want one per step", got)
	}
}
