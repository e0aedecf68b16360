package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/internal/testkit/fakegithub"
)

var (
	stamplessOnce sync.Once
	stamplessBin  string
	stamplessErr  error
)

// stamplessBinary is uptide built without version control stamps, as go
// install of a release builds it: not known to be dirty, whatever state
// this tree is in while the tests run (the test binary's own stamps
// follow the tree, and a dirty build never publishes).
func stamplessBinary(t testing.TB) string {
	t.Helper()
	stamplessOnce.Do(func() {
		dir := filepath.Dir(uptideBinary(t))
		stamplessBin = filepath.Join(dir, "uptide-stampless")
		if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", stamplessBin, ".").CombinedOutput(); err != nil {
			stamplessErr = err
			t.Logf("%s", out)
		}
	})
	if stamplessErr != nil {
		t.Fatalf("building uptide without stamps: %v", stamplessErr)
	}
	return stamplessBin
}

// fix --pr on a verified run pushes the verified commit to the
// checkout's remote (a local bare repository standing for
// github.com/acme/app) with the user's hooks off, and opens the pull
// request through the REST API (a fake GitHub speaking it) with the
// run's title, branch, base and stored pr-body.md. The token goes in the
// request and nowhere else: not stdout, not stderr, not the stored run.
func TestFixOpensThePullRequest(t *testing.T) {
	skipShort(t, "fix installs, compiles and tests")
	const token = "ghp_e2eFAKE0123456789abcdefghij"
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	bare := filepath.Join(t.TempDir(), "remote.git")
	git(t, dir, "init", "-q", "--bare", bare)
	git(t, dir, "remote", "add", "origin", "https://github.com/acme/app.git")
	git(t, dir, "config", "url."+bare+".insteadOf", "https://github.com/acme/app.git")
	git(t, dir, "push", "-q", "-u", "origin", "main")
	prePush := filepath.Join(fe.trap, "TRAP-user-pre-push")
	if err := os.WriteFile(filepath.Join(dir, ".git", "hooks", "pre-push"), []byte("#!/bin/sh\necho ran > '"+prePush+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gh := fakegithub.Start(t, token)
	e := fe.env
	e.extra = append(append([]string{}, e.extra...), "GH_TOKEN="+token, "GITHUB_API_URL="+gh.URL)

	patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
	r := runBinary(t, stamplessBinary(t), e, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches, "--json", "--pr")
	var rep fix.Report
	decode(t, r, &rep)
	if rep.Status != fix.StatusVerified || r.code != 0 {
		t.Fatalf("fix --pr exited %d: %s (%s)\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	if rep.Publish == nil || rep.Publish.Status != fix.PublishOpened || rep.Publish.URL != "https://github.com/acme/app/pull/1" {
		t.Fatalf("publish: %+v", rep.Publish)
	}
	if at := git(t, dir, "--git-dir", bare, "rev-parse", "refs/heads/"+rep.Checkout.Branch); at != rep.Checkout.Sha {
		t.Errorf("the remote's %s is at %s, want the verified %s", rep.Checkout.Branch, at, rep.Checkout.Sha)
	}
	if _, err := os.Stat(prePush); err == nil {
		t.Error("the checkout's pre-push hook ran")
	}
	body, err := os.ReadFile(filepath.Join(filepath.Dir(rep.Checkout.RunFile), "pr-body.md"))
	if err != nil {
		t.Fatal(err)
	}
	pulls := gh.Pulls()
	if len(pulls) != 1 {
		t.Fatalf("%d pull requests", len(pulls))
	}
	p := pulls[0]
	if p.Owner != "acme" || p.Repo != "app" || p.Head != rep.Checkout.Branch || p.Base != "main" || p.Title != "Upgrade slugkit "+rep.From+" → 2.0.0" || p.Body != string(body) {
		t.Errorf("the pull request asked for: %s/%s %q %s ← %s\n%s\nwant the body of pr-body.md:\n%s", p.Owner, p.Repo, p.Title, p.Base, p.Head, p.Body, body)
	}
	if !strings.Contains(p.Body, "✓ verified") || !strings.Contains(p.Body, "`slugkit`") {
		t.Errorf("the body does not say what was verified:\n%s", p.Body)
	}
	record, err := os.ReadFile(rep.Checkout.RunFile)
	if err != nil || !strings.Contains(string(record), `"status": "opened"`) {
		t.Errorf("the stored run does not say the pull request opened (%v):\n%s", err, record)
	}
	// The run's own record and the stored page say it too.
	own, _ := filepath.Glob(filepath.Join(filepath.Dir(rep.Checkout.RunFile), "runs", "*.json"))
	for _, f := range own {
		if data, err := os.ReadFile(f); err != nil || !strings.Contains(string(data), `"status": "opened"`) {
			t.Errorf("%s does not say the pull request opened (%v)", f, err)
		}
	}
	if page, err := os.ReadFile(filepath.Join(filepath.Dir(rep.Checkout.RunFile), "report.html")); err != nil || len(own) != 1 || !strings.Contains(string(page), "opened https://github.com/acme/app/pull/1") {
		t.Errorf("report.html does not say the pull request opened (%v, %d own records)", err, len(own))
	}
	for what, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "run.json": string(record), "pr-body.md": string(body)} {
		if strings.Contains(text, token) {
			t.Errorf("the token is in %s", what)
		}
	}
	// The branch is not in the checkout's commits: fix's commits are.
	if git(t, dir, "status", "--porcelain") != "" {
		t.Error("the checkout is not clean")
	}
}
