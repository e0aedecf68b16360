package publish_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/publish"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/testkit/fakegithub"
	"github.com/uptide/uptide/view/prbody"
)

const token = "ghp_fake0123456789abcdefTOKEN"

// world is a checkout whose origin names github.com/acme/app and is, for
// git, a local bare repository; fix's branch is in it at its commit.
type world struct {
	dir, bare string
	env       []string
	gh        *fakegithub.Server
	rep       *fix.Report
}

func git(t *testing.T, env []string, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{dir: filepath.Join(root, "app"), bare: filepath.Join(root, "remote.git"), gh: fakegithub.Start(t, token)}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GH_TOKEN=") && !strings.HasPrefix(kv, "GITHUB_TOKEN=") && !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "PATH=") {
			w.env = append(w.env, kv)
		}
	}
	// PATH holds git and nothing that could be a gh of the machine's.
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	w.env = append(w.env, "PATH="+filepath.Dir(gitBin), "HOME="+root, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	git(t, w.env, root, "init", "-q", "--bare", w.bare)
	git(t, w.env, root, "init", "-q", "-b", "main", w.dir)
	git(t, w.env, w.dir, "remote", "add", "origin", "https://github.com/acme/app.git")
	git(t, w.env, w.dir, "config", "url."+w.bare+".insteadOf", "https://github.com/acme/app.git")
	os.WriteFile(filepath.Join(w.dir, "package.json"), []byte(`{"dependencies":{"zod":"^3.23.8"}}`), 0o644)
	git(t, w.env, w.dir, "add", ".")
	git(t, w.env, w.dir, "commit", "-qm", "start")
	git(t, w.env, w.dir, "push", "-q", "-u", "origin", "main")
	git(t, w.env, w.dir, "checkout", "-q", "-b", "uptide/zod-4.0.17")
	os.WriteFile(filepath.Join(w.dir, "package.json"), []byte(`{"dependencies":{"zod":"^4.0.17"}}`), 0o644)
	git(t, w.env, w.dir, "commit", "-qam", "Upgrade zod to 4.0.17")
	sha := git(t, w.env, w.dir, "rev-parse", "HEAD")
	git(t, w.env, w.dir, "checkout", "-q", "main")
	w.rep = &fix.Report{Package: "zod", From: "3.23.8", To: "4.0.17", Branch: "uptide/zod-4.0.17", Status: fix.StatusVerified,
		Risk:     fix.Risk{Level: "medium", Why: []string{"a major version"}},
		Moves:    []fix.Move{{Name: "zod", From: "3.23.8", To: "4.0.17", Why: "the upgrade"}},
		Commits:  []fix.Commit{{Sha: sha, Subject: "Upgrade zod to 4.0.17"}},
		Checkout: fix.CheckoutReport{Branch: "uptide/zod-4.0.17", Sha: sha, Created: true}}
	return w
}

func (w *world) options(extra ...string) publish.Options {
	env := append(append([]string{}, w.env...), "GITHUB_API_URL="+w.gh.URL)
	env = append(env, extra...)
	return publish.Options{Dir: w.dir, Env: env, Secrets: redact.FromEnv(env)}
}

// remoteHas is the commit the bare remote's branch is at ("" when none).
func (w *world) remoteHas(t *testing.T, branch string) string {
	cmd := exec.Command("git", "--git-dir", w.bare, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch)
	out, _ := cmd.Output()
	return strings.TrimSpace(string(out))
}

// A verified run: the verified commit is on the remote's branch, and the
// pull request GitHub was asked for has the run's title, head, the
// checkout's tracked branch as base, and the run's body; the token went
// in the Authorization header and nowhere in the report.
func TestOpenPushesAndOpensThePullRequest(t *testing.T) {
	w := newWorld(t)
	got := publish.Open(context.Background(), w.rep, w.options("GH_TOKEN="+token))
	if got.Status != fix.PublishOpened || got.URL != "https://github.com/acme/app/pull/1" {
		t.Fatalf("publish: %+v", got)
	}
	if sha := w.remoteHas(t, "uptide/zod-4.0.17"); sha != w.rep.Checkout.Sha {
		t.Errorf("the remote's branch is at %q, want the verified %s", sha, w.rep.Checkout.Sha)
	}
	pulls := w.gh.Pulls()
	if len(pulls) != 1 {
		t.Fatalf("%d pull requests", len(pulls))
	}
	p := pulls[0]
	want := fakegithub.Pull{Owner: "acme", Repo: "app", Number: 1, Title: "Upgrade zod 3.23.8 → 4.0.17", Head: "uptide/zod-4.0.17", Base: "main", Body: prbody.Body(w.rep)}
	if p.Owner != want.Owner || p.Repo != want.Repo || p.Title != want.Title || p.Head != want.Head || p.Base != want.Base || p.Body != want.Body {
		t.Errorf("the request:\n%+v\nwant\n%+v", p, want)
	}
	if p.Header.Get("Authorization") != "Bearer "+token || p.Header.Get("Accept") != "application/vnd.github+json" {
		t.Errorf("headers %v", p.Header)
	}
	w.rep.Publish = got
	data, _ := json.Marshal(w.rep)
	if strings.Contains(string(data), token) {
		t.Errorf("the report holds the token: %s", data)
	}
	// A second run of the same head: GitHub's refusal, said.
	again := publish.Open(context.Background(), w.rep, w.options("GITHUB_TOKEN="+token))
	if again.Status != fix.PublishFailed || !strings.Contains(again.Reason, "A pull request already exists for acme:uptide/zod-4.0.17") {
		t.Errorf("a second pull request of the same head: %+v", again)
	}
}

// The gate refuses each blocker on its own: nothing is pushed, nothing
// is asked of GitHub, and the report says why.
func TestGateRefusesEachBlocker(t *testing.T) {
	for name, c := range map[string]struct {
		edit  func(r *fix.Report)
		build publish.Build
		why   string
	}{
		"failed":         {func(r *fix.Report) { r.Status, r.Reason = fix.StatusFailed, "2 new type errors" }, publish.Build{}, "the run did not verify: 2 new type errors"},
		"pending":        {func(r *fix.Report) { r.Status, r.Reason = fix.StatusNotRun, "interrupted" }, publish.Build{}, "verification did not run: interrupted"},
		"checkout moved": {func(r *fix.Report) { r.Checkout.Changed = []string{"HEAD moved"} }, publish.Build{}, "your checkout changed during the run: HEAD moved"},
		"dirty uptide":   {func(r *fix.Report) {}, publish.Build{Dirty: true}, "uncommitted changes (vcs.modified)"},
		"no branch":      {func(r *fix.Report) { r.Checkout.Branch, r.Checkout.BranchWhy = "", "you have it checked out" }, publish.Build{}, "no branch of this run to push (you have it checked out)"},
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			c.edit(w.rep)
			o := w.options("GH_TOKEN="+token, "YES=1")
			o.Build = c.build
			got := publish.Open(context.Background(), w.rep, o)
			if got.Status != fix.PublishBlocked || !strings.Contains(got.Reason, c.why) {
				t.Errorf("publish: %+v, want blocked: %s", got, c.why)
			}
			if len(w.gh.Pulls()) != 0 || w.remoteHas(t, "uptide/zod-4.0.17") != "" {
				t.Error("a blocked run reached the remote or GitHub")
			}
		})
	}
}

// Without a token nothing is pushed: a branch is never left on the
// remote without its pull request for want of one.
func TestNoTokenPushesNothing(t *testing.T) {
	w := newWorld(t)
	got := publish.Open(context.Background(), w.rep, w.options())
	if got.Status != fix.PublishFailed || !strings.Contains(got.Reason, "GH_TOKEN") {
		t.Errorf("publish without a token: %+v", got)
	}
	if w.remoteHas(t, "uptide/zod-4.0.17") != "" {
		t.Error("pushed without a token")
	}
}

// Without GH_TOKEN or GITHUB_TOKEN, the token is what gh is logged in
// with (gh here is a script answering as `gh auth token` does).
func TestTokenFromGh(t *testing.T) {
	w := newWorld(t)
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\n[ \"$1 $2\" = \"auth token\" ] && echo "+token+"\n"), 0o755)
	o := w.options()
	for i, kv := range o.Env {
		if strings.HasPrefix(kv, "PATH=") {
			o.Env[i] = kv + string(os.PathListSeparator) + bin
		}
	}
	if got := publish.Open(context.Background(), w.rep, o); got.Status != fix.PublishOpened {
		t.Fatalf("publish with gh's token: %+v", got)
	}
}

func TestParseRemote(t *testing.T) {
	for in, want := range map[string]publish.Repo{
		"https://github.com/acme/app.git":       {"github.com", "acme", "app"},
		"https://x:y@github.com/acme/app":       {"github.com", "acme", "app"},
		"ssh://git@github.com/acme/app.git":     {"github.com", "acme", "app"},
		"git@github.com:acme/app.git":           {"github.com", "acme", "app"},
		"git@ghe.example.com:team/svc.git":      {"ghe.example.com", "team", "svc"},
		"https://ghe.example.com/team/svc.git/": {"ghe.example.com", "team", "svc"},
	} {
		if got, err := publish.ParseRemote(in); err != nil || got != want {
			t.Errorf("ParseRemote(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"/srv/git/app.git", "../app", "https://github.com/acme", "C:/repos/app"} {
		if _, err := publish.ParseRemote(bad); err == nil {
			t.Errorf("ParseRemote(%q) named a repository", bad)
		}
	}
}

func TestBuildOf(t *testing.T) {
	dirty := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}}
	clean := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}
	if !publish.BuildOf(dirty).Dirty || publish.BuildOf(clean).Dirty || publish.BuildOf(&debug.BuildInfo{}).Dirty || publish.BuildOf(nil).Dirty {
		t.Error("vcs.modified read wrong")
	}
}
