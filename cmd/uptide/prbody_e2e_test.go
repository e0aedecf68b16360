package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/internal/testkit/fakegithub"
)

// pr-body sends the latest stored run's pr-body.md as the description of
// the open pull request of its branch (GET pulls?head=, PATCH pulls/1),
// and refuses, leaving the description alone, once the pull request's
// head moved past the commit the run verified.
func TestPRBodyUpdatesTheDescription(t *testing.T) {
	skipShort(t, "fix installs, compiles and tests")
	const token = "ghp_e2eFAKE0123456789abcdefghij"
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	bare := filepath.Join(t.TempDir(), "remote.git")
	git(t, dir, "init", "-q", "--bare", bare)
	git(t, dir, "remote", "add", "origin", "https://github.com/acme/app.git")
	git(t, dir, "config", "url."+bare+".insteadOf", "https://github.com/acme/app.git")
	git(t, dir, "push", "-q", "-u", "origin", "main")
	gh := fakegithub.Start(t, token)
	gh.Backed("acme", "app", bare)
	e := fe.env
	e.extra = append(append([]string{}, e.extra...), "GH_TOKEN="+token, "GITHUB_API_URL="+gh.URL)

	patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
	r := runBinary(t, stamplessBinary(t), e, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches, "--json")
	var rep fix.Report
	decode(t, r, &rep)
	if rep.Status != fix.StatusVerified {
		t.Fatalf("fix: %s (%s)\n%s", rep.Status, rep.Reason, r.stderr)
	}
	git(t, dir, "push", "-q", "origin", rep.Checkout.Branch)
	gh.AddPull(fakegithub.Pull{Owner: "acme", Repo: "app", Title: "Upgrade slugkit", Head: rep.Checkout.Branch, Base: "main", Body: "written by hand", User: "dev"})
	body, err := os.ReadFile(filepath.Join(filepath.Dir(rep.Checkout.RunFile), "pr-body.md"))
	if err != nil {
		t.Fatal(err)
	}

	r = runBinary(t, stamplessBinary(t), e, dir, "pr-body")
	if r.code != 0 || !strings.Contains(r.stdout, "updated the description of https://github.com/acme/app/pull/1") {
		t.Fatalf("pr-body exited %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := gh.Pulls()[0].Body; got != string(body) {
		t.Errorf("the description is\n%s\nwant pr-body.md:\n%s", got, body)
	}
	for _, text := range []string{r.stdout, r.stderr} {
		if strings.Contains(text, token) {
			t.Error("the token was printed")
		}
	}

	// A reviewer pushes to the branch: the run no longer describes it.
	other := filepath.Join(t.TempDir(), "other")
	git(t, dir, "clone", "-q", "-b", rep.Checkout.Branch, bare, other)
	os.WriteFile(filepath.Join(other, "NOTES.md"), []byte("review\n"), 0o644)
	git(t, other, "add", ".")
	git(t, other, "commit", "-qm", "a reviewer's commit")
	git(t, other, "push", "-q")
	patched := len(gh.Requests())
	r = runBinary(t, stamplessBinary(t), e, dir, "--json", "pr-body")
	var out struct {
		Status, Reason string
	}
	decode(t, r, &out)
	if r.code != 1 || out.Status != fix.PublishBlocked || !strings.Contains(out.Reason, "the pull request's head is") {
		t.Errorf("pr-body on a moved head exited %d: %+v\n%s", r.code, out, r.stderr)
	}
	for _, req := range gh.Requests()[patched:] {
		if strings.HasPrefix(req, "PATCH") {
			t.Errorf("a refused pr-body asked %s", req)
		}
	}

	// A run that did not verify (slugkit 2 without the patch leaves a
	// site) is the latest: pr-body refuses it for that, asking nothing.
	r = runBinary(t, stamplessBinary(t), e, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--json")
	var failed fix.Report
	decode(t, r, &failed)
	if failed.Status != fix.StatusFailed {
		t.Fatalf("fix without the patch: %s (%s)", failed.Status, failed.Reason)
	}
	asked := len(gh.Requests())
	r = runBinary(t, stamplessBinary(t), e, dir, "pr-body")
	if r.code != 1 || !strings.Contains(r.stdout, "blocked: the run did not verify: ") {
		t.Errorf("pr-body of a failed run exited %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if n := len(gh.Requests()); n != asked {
		t.Errorf("a blocked run asked GitHub %d times", n-asked)
	}
}
