package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/internal/testkit/browser"
)

// readPage reads a written page: self-contained (its policy forbids every
// fetch), and as Chromium shows it, holding every value of the report.
func readPage(t *testing.T, file, what string, values []string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%s: no page: %v", what, err)
	}
	if !strings.HasPrefix(string(data), "<!DOCTYPE html>") || !strings.Contains(string(data), `content="default-src 'none'; style-src 'unsafe-inline'"`) {
		t.Fatalf("%s: %s is not a self-contained page:\n%.400s", what, file, data)
	}
	p := browser.Read(t, data)
	browser.Holds(t, what, p, values)
	if p.Resources != 0 {
		t.Errorf("%s: the page fetched %d resources", what, p.Resources)
	}
}

// check --html writes the page of the report --json prints: the
// envelope on stdout, the page in the file, the same findings in both.
// A file that cannot be written fails at once, naming it.
func TestCheckHTML(t *testing.T) {
	skipShort(t, "check installs and compiles")
	e := checkEnv(t)
	dir := copyFixture(t, "npm-app")
	npmInstall(t, e, dir)

	bad := filepath.Join(t.TempDir(), "no-such-dir", "report.html")
	if r := run(t, e, dir, "check", "zod", "--html", bad); r.code != 2 || !strings.Contains(r.stderr, bad) {
		t.Errorf("an unwritable --html: exit %d, stderr %q; want 2 naming %s", r.code, r.stderr, bad)
	}

	page := filepath.Join(t.TempDir(), "check.html")
	r := run(t, e, dir, "check", "zod", "slugkit", "express", "--json", "--html", page)
	var rep model.CheckReport
	if env := decode(t, r, &rep); env.Command != "check" || r.code != 1 {
		t.Fatalf("check exited %d\n%s", r.code, r.stderr)
	}
	findings := 0
	for _, p := range rep.Packages {
		findings += len(p.Findings)
	}
	if findings == 0 {
		t.Fatal("the fixture's check found nothing: the page would prove nothing")
	}
	readPage(t, page, "check --html", browser.CheckValues(&rep))
}

// plan --html writes the plan's page beside its envelope.
func TestPlanHTML(t *testing.T) {
	skipShort(t, "plan installs the fixture")
	e := checkEnv(t)
	dir := planApp(t, e)
	page := filepath.Join(t.TempDir(), "plan.html")
	r := run(t, e, dir, "plan", "--json", "--html", page)
	var rep model.UpgradePlanReport
	if env := decode(t, r, &rep); env.Command != "plan" || r.code != 0 || len(rep.Plan.Steps) == 0 {
		t.Fatalf("plan exited %d with %d steps\n%s", r.code, len(rep.Plan.Steps), r.stderr)
	}
	readPage(t, page, "plan --html", browser.PlanValues(&rep))
}

// fix's stored run gains its page: report.html beside run.json, the
// words the CLI prints.
func TestFixStoresItsPage(t *testing.T) {
	skipShort(t, "fix installs, compiles and tests")
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
	r := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches, "--json")
	var rep fix.Report
	decode(t, r, &rep)
	if rep.Status != fix.StatusVerified || filepath.Base(rep.Checkout.RunFile) != "run.json" {
		t.Fatalf("fix: %s (%s), run file %q\n%s", rep.Status, rep.Reason, rep.Checkout.RunFile, r.stderr)
	}
	page := filepath.Join(filepath.Dir(rep.Checkout.RunFile), "report.html")
	readPage(t, page, "fix's report.html", browser.FixValues(&rep))
	// The page holds what the record holds: it is as private.
	pst, err1 := os.Stat(page)
	rst, err2 := os.Stat(rep.Checkout.RunFile)
	if err1 != nil || err2 != nil || pst.Mode() != rst.Mode() {
		t.Errorf("report.html's mode %v, run.json's %v (%v %v)", pst.Mode(), rst.Mode(), err1, err2)
	}
}
