package publish_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/publish"
	"github.com/uptide/uptide/internal/testkit/fakegithub"
)

// pushedWithPull is the world once fix --pr did its part: the verified
// commit on the remote's branch and an open pull request of it.
func pushedWithPull(t *testing.T) *world {
	w := newWorld(t)
	git(t, w.env, w.dir, "push", "-q", "origin", w.rep.Checkout.Sha+":refs/heads/"+w.rep.Checkout.Branch)
	w.gh.Backed("acme", "app", w.bare)
	w.gh.AddPull(fakegithub.Pull{Owner: "acme", Repo: "app", Title: "Upgrade zod", Head: w.rep.Checkout.Branch, Base: "main", Body: "old", User: "someone"})
	return w
}

// The description of the run's pull request becomes the body, through
// GET pulls?head=acme:branch and PATCH pulls/1.
func TestUpdateBodyReplacesTheDescription(t *testing.T) {
	w := pushedWithPull(t)
	got := publish.UpdateBody(context.Background(), w.rep, "the run's body", w.options("GH_TOKEN="+token))
	if got.Status != publish.Updated || got.URL != "https://github.com/acme/app/pull/1" {
		t.Fatalf("update: %+v", got)
	}
	if p := w.gh.Pulls()[0]; p.Body != "the run's body" {
		t.Errorf("the description is %q", p.Body)
	}
}

// A pull request whose head is not the verified commit, or a run that
// did not verify, keeps its description; the answer says why.
func TestUpdateBodyRefuses(t *testing.T) {
	t.Run("head moved", func(t *testing.T) {
		w := pushedWithPull(t)
		other := filepath.Join(t.TempDir(), "other")
		git(t, w.env, w.dir, "clone", "-q", "-b", w.rep.Checkout.Branch, w.bare, other)
		os.WriteFile(filepath.Join(other, "more.txt"), []byte("x"), 0o644)
		git(t, w.env, other, "add", ".")
		git(t, w.env, other, "commit", "-qm", "a reviewer's commit")
		git(t, w.env, other, "push", "-q")
		got := publish.UpdateBody(context.Background(), w.rep, "the run's body", w.options("GH_TOKEN="+token))
		if got.Status != fix.PublishBlocked || !strings.Contains(got.Reason, "the pull request's head is") {
			t.Errorf("update of a moved head: %+v", got)
		}
		if p := w.gh.Pulls()[0]; p.Body != "old" {
			t.Errorf("the description changed to %q", p.Body)
		}
	})
	t.Run("not verified", func(t *testing.T) {
		w := pushedWithPull(t)
		w.rep.Status, w.rep.Reason = fix.StatusFailed, "1 new type error"
		got := publish.UpdateBody(context.Background(), w.rep, "the run's body", w.options("GH_TOKEN="+token))
		if got.Status != fix.PublishBlocked || !strings.Contains(got.Reason, "the run did not verify: 1 new type error") {
			t.Errorf("update of a failed run: %+v", got)
		}
		if n := len(w.gh.Requests()); n != 0 {
			t.Errorf("a blocked run asked GitHub %d times", n)
		}
	})
	t.Run("no pull request", func(t *testing.T) {
		w := newWorld(t)
		got := publish.UpdateBody(context.Background(), w.rep, "the run's body", w.options("GH_TOKEN="+token))
		if got.Status != fix.PublishFailed || !strings.Contains(got.Reason, "acme/app has no open pull request of the run's branch uptide/zod-4.0.17") {
			t.Errorf("update without a pull request: %+v", got)
		}
	})
}
