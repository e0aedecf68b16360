package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/fix/botpr"
	"github.com/uptide/uptide/internal/testkit/fakegithub"
)

const (
	botToken       = "ghs_e2eBOTfake0123456789abcdefghij"
	checkoutHeader = "eC1hY2Nlc3MtdG9rZW46Y2hlY2tvdXQ="
)

// botWorld is a pnpm repository whose origin names github.com/acme/app
// and is, for git, a local bare repository; Renovate's branch
// renovate/stripe-15.x moves stripe 14.25.0 → 15.0.0 (the lockfile written
// by pnpm against the test registry) and is pull request #1 on a fake
// GitHub that reads branch heads from the bare repository. The checkout
// is the workflow's: detached at the pull request's head, nothing
// installed.
type botWorld struct {
	fe                 fixEnv
	dir, bare, envDir  string
	base, head, branch string
	gh                 *fakegithub.Server
	e                  env
}

// newStripeWorld is the stripe-app on pnpm, moved by Renovate to stripe
// 15.0.0; its tests write down the environment they were given (the
// token must not be in it).
func newStripeWorld(t *testing.T) *botWorld {
	envDir := t.TempDir()
	w := newBotWorld(t, "stripe-app", "renovate/stripe-15.x", func(dir string) {
		// The test script writes down its environment and the git
		// configuration it sees.
		dump := `const fs = require("fs"), path = require("path"), cp = require("child_process");
let git = "";
try { git = cp.execSync("git config --get-regexp extraheader").toString(); } catch {}
fs.writeFileSync(path.join(process.env.BOTPR_ENV_DIR, "env-" + process.pid), JSON.stringify({ env: process.env, git }));
`
		if err := os.WriteFile(filepath.Join(dir, "dump-env.cjs"), []byte(dump), 0o644); err != nil {
			t.Fatal(err)
		}
		editManifest(t, dir, func(m map[string]any) { m["scripts"] = map[string]any{"test": "node dump-env.cjs"} })
	}, func(dir string) {
		editManifest(t, dir, func(m map[string]any) { m["dependencies"].(map[string]any)["stripe"] = "15.0.0" })
	})
	w.envDir = envDir
	w.e.extra = append(w.e.extra, "BOTPR_ENV_DIR="+envDir)
	// actions/checkout without persist-credentials: false leaves its auth
	// header in the checkout's configuration.
	git(t, w.dir, "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic "+checkoutHeader)
	return w
}

// newBotWorld makes the fixture a pnpm repository (prepare edits it
// first) on main, and Renovate's branch where bump edits the
// declarations and pnpm writes the lockfile again.
func newBotWorld(t *testing.T, fixture, branch string, prepare, bump func(dir string)) *botWorld {
	t.Helper()
	fe := newFixEnv(t)
	w := &botWorld{fe: fe, dir: copyDir(t, "../../fixtures/fix/"+fixture), bare: filepath.Join(t.TempDir(), "remote.git"), branch: branch}
	if err := os.WriteFile(filepath.Join(w.dir, ".gitignore"), []byte("node_modules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prepare(w.dir)
	pnpm := manager2(fe, "pnpm")
	pnpm.run(t, fe.env, w.dir, "install", "--no-frozen-lockfile")
	commitAll(t, w.dir)
	w.base = git(t, w.dir, "rev-parse", "HEAD")
	git(t, w.dir, "init", "-q", "--bare", w.bare)
	git(t, w.dir, "remote", "add", "origin", "https://github.com/acme/app.git")
	git(t, w.dir, "config", "url."+w.bare+".insteadOf", "https://github.com/acme/app.git")
	git(t, w.dir, "push", "-q", "origin", "main")

	// Renovate's branch: the declarations and the lockfile, nothing else.
	git(t, w.dir, "checkout", "-q", "-b", w.branch)
	bump(w.dir)
	pnpm.run(t, fe.env, w.dir, "install", "--no-frozen-lockfile")
	git(t, w.dir, "commit", "-q", "-am", "Update dependency")
	w.head = git(t, w.dir, "rev-parse", "HEAD")
	git(t, w.dir, "push", "-q", "origin", w.branch)
	git(t, w.dir, "checkout", "-q", "--detach", w.head)
	if err := os.RemoveAll(filepath.Join(w.dir, "node_modules")); err != nil {
		t.Fatal(err)
	}

	w.gh = fakegithub.Start(t, botToken)
	w.gh.Backed("acme", "app", w.bare)
	w.gh.AddPull(fakegithub.Pull{Owner: "acme", Repo: "app", Title: "Update dependency", Head: w.branch, Base: "main", User: "renovate[bot]"})
	w.e = fe.env
	w.e.extra = append(append([]string{}, w.e.extra...), "GH_TOKEN="+botToken, "GITHUB_API_URL="+w.gh.URL,
		"GITHUB_EVENT_PATH="+w.event(t, "renovate[bot]"))
	return w
}

// event writes the pull_request event of #1 at the head Renovate pushed.
func (w *botWorld) event(t *testing.T, user string) string {
	t.Helper()
	repo := map[string]string{"full_name": "acme/app"}
	data, _ := json.Marshal(map[string]any{"action": "synchronize", "number": 1, "pull_request": map[string]any{
		"number": 1, "user": map[string]string{"login": user},
		"head": map[string]any{"ref": w.branch, "sha": w.head, "repo": repo},
		"base": map[string]any{"ref": "main", "sha": w.base, "repo": repo}}})
	path := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func (w *botWorld) remoteHead(t *testing.T) string {
	return git(t, w.dir, "--git-dir", w.bare, "rev-parse", "refs/heads/"+w.branch)
}

// The bot's pull request gets exactly one commit on top of the event's
// head: the stripe pack's rule edits, made in a fix run on the pull
// request's sources with the base's stripe and verified again with the
// pull request's own lockfile; the lockfile and the manifest stay
// Renovate's. The report replaces uptide's earlier comment (found by
// its marker), and no install or test saw the token.
func TestBotPRPushesOneVerifiedCommit(t *testing.T) {
	skipShort(t, "bot-pr installs, compiles and tests")
	w := newStripeWorld(t)
	w.gh.AddComment(fakegithub.Comment{Owner: "acme", Repo: "app", Issue: 1, Body: "Renovate's own notes", User: "renovate[bot]"})
	w.gh.AddComment(fakegithub.Comment{Owner: "acme", Repo: "app", Issue: 1, Body: botpr.Marker + "\nan earlier run", User: "github-actions[bot]"})

	r := runBinary(t, stamplessBinary(t), w.e, w.dir, "bot-pr", "--json")
	var rep botpr.Report
	decode(t, r, &rep)
	if r.code != 0 || rep.Status != botpr.Pushed {
		t.Fatalf("bot-pr exited %d: %s (%s)\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	if len(rep.Moves) != 1 || rep.Moves[0] != (botpr.Move{Importer: ".", Name: "stripe", From: "14.25.0", To: "15.0.0"}) {
		t.Errorf("moves %+v, want stripe 14.25.0 → 15.0.0 in the root importer", rep.Moves)
	}
	if at := w.remoteHead(t); at != rep.Commit {
		t.Fatalf("the remote's branch is at %s, want the bot's commit %s", at, rep.Commit)
	}
	if n := git(t, w.dir, "--git-dir", w.bare, "rev-list", "--count", w.head+".."+w.branch); n != "1" {
		t.Errorf("%s commits on top of the event's head, want 1", n)
	}
	if parent := git(t, w.dir, "--git-dir", w.bare, "rev-parse", rep.Commit+"^"); parent != w.head {
		t.Errorf("the commit's parent is %s, want the event's head %s", parent, w.head)
	}
	if files := git(t, w.dir, "--git-dir", w.bare, "diff", "--name-only", w.head, rep.Commit); files != "src/billing.ts" {
		t.Errorf("the commit changes %q, want only src/billing.ts", files)
	}
	billing := git(t, w.dir, "--git-dir", w.bare, "show", rep.Commit+":src/billing.ts")
	for _, s := range []string{`apiVersion: "2024-04-10"`, `marketing_features: [{ name: "Unlimited projects" }`} {
		if !strings.Contains(billing, s) {
			t.Errorf("src/billing.ts lacks %s:\n%s", s, billing)
		}
	}
	if rep.Verify == nil || rep.Verify.Status != "verified" {
		t.Errorf("the head's verification: %+v", rep.Verify)
	}
	comments := w.gh.Comments()
	if len(comments) != 2 || comments[0].Body != "Renovate's own notes" || !strings.HasPrefix(comments[1].Body, botpr.Marker) ||
		!strings.Contains(comments[1].Body, "✓ **verified**") || !strings.Contains(comments[1].Body, "| `stripe` | . | 14.25.0 | 15.0.0 |") {
		t.Errorf("comments after the run (want the marked one updated):\n%+v", comments)
	}
	envs, _ := filepath.Glob(filepath.Join(w.envDir, "env-*"))
	if len(envs) == 0 {
		t.Fatal("the repository's tests never ran")
	}
	for _, f := range envs {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), botToken) || strings.Contains(string(data), "GH_TOKEN") || strings.Contains(string(data), checkoutHeader) {
			t.Errorf("a test process saw a credential (%s)", f)
		}
		if !strings.Contains(string(data), `"git":""`) {
			t.Errorf("the git configuration of a test process holds an auth header (%s)", f)
		}
	}
	for _, text := range []string{r.stdout, r.stderr} {
		if strings.Contains(text, botToken) {
			t.Error("the token was printed")
		}
	}
}

// Renovate pushed again after the event: the head is re-read just
// before the push, which does not happen; the comment says why.
func TestBotPRRefusesAMovedHead(t *testing.T) {
	skipShort(t, "bot-pr installs, compiles and tests")
	w := newStripeWorld(t)
	other := filepath.Join(t.TempDir(), "renovate")
	git(t, w.dir, "clone", "-q", "-b", w.branch, w.bare, other)
	os.WriteFile(filepath.Join(other, "renovate.json"), []byte("{}\n"), 0o644)
	git(t, other, "add", ".")
	git(t, other, "-c", "user.name=renovate", "-c", "user.email=bot@example.invalid", "commit", "-qm", "Renovate rebased")
	git(t, other, "push", "-q")
	moved := w.remoteHead(t)

	r := runBinary(t, stamplessBinary(t), w.e, w.dir, "bot-pr", "--json")
	var rep botpr.Report
	decode(t, r, &rep)
	if r.code != 1 || rep.Status != botpr.Refused || !strings.Contains(rep.Reason, "the pull request's head moved to "+moved[:12]) {
		t.Fatalf("bot-pr on a moved head exited %d: %s (%s)\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	if at := w.remoteHead(t); at != moved {
		t.Errorf("the remote's branch moved to %s", at)
	}
	comments := w.gh.Comments()
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "■ **not pushed**: the pull request's head moved") {
		t.Errorf("comments: %+v", comments)
	}
}

// A repository of another manager fails with what bot-pr takes, and says
// so on the pull request; a person's pull request is not taken at all.
func TestBotPRRefusesWhatItDoesNotTake(t *testing.T) {
	reg := startRegistry(t)
	dir := copyRepo(t, "npm-v3")
	commitAll(t, dir)
	git(t, dir, "remote", "add", "origin", "https://github.com/acme/app.git")
	sha := git(t, dir, "rev-parse", "HEAD")
	gh := fakegithub.Start(t, botToken)
	gh.AddPull(fakegithub.Pull{Owner: "acme", Repo: "app", Head: "renovate/zod", Base: "main", User: "renovate[bot]"})
	w := &botWorld{head: sha, base: sha, branch: "renovate/zod"}
	e := newEnv(t, reg)
	e.extra = []string{"GH_TOKEN=" + botToken, "GITHUB_API_URL=" + gh.URL, "GITHUB_EVENT_PATH=" + w.event(t, "renovate[bot]")}

	r := runBinary(t, stamplessBinary(t), e, dir, "bot-pr")
	if r.code != 2 || !strings.Contains(r.stdout, "uptide bot-pr supports pnpm repositories only (pnpm-lock.yaml); this one has package-lock.json") {
		t.Errorf("bot-pr on npm exited %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if c := gh.Comments(); len(c) != 1 || !strings.Contains(c[0].Body, "could not run") {
		t.Errorf("comments: %+v", c)
	}

	e.extra[2] = "GITHUB_EVENT_PATH=" + w.event(t, "octocat")
	r = runBinary(t, stamplessBinary(t), e, dir, "bot-pr")
	if r.code != 1 || !strings.Contains(r.stdout, "is by octocat, not by renovate[bot] or dependabot[bot]") {
		t.Errorf("bot-pr on a person's pull request exited %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if n := len(gh.Comments()); n != 1 {
		t.Errorf("a person's pull request got a comment (%d)", n)
	}
}

// A pnpm catalog entry moved: the move is read from the catalog and from
// the importer using it; slugkit 2 leaves a site no rule takes, so the
// migration does not verify and nothing is pushed, the comment listing
// the site.
func TestBotPRCatalogMoveWithSitesLeftPushesNothing(t *testing.T) {
	skipShort(t, "bot-pr installs, compiles and tests")
	w := newBotWorld(t, "pnpm-catalog", "renovate/slugkit-2.x", func(string) {}, func(dir string) {
		ws := filepath.Join(dir, "pnpm-workspace.yaml")
		data, err := os.ReadFile(ws)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ws, []byte(strings.Replace(string(data), "slugkit: ^1.0.0", "slugkit: ^2.0.0", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	r := runBinary(t, stamplessBinary(t), w.e, w.dir, "bot-pr", "--json")
	var rep botpr.Report
	decode(t, r, &rep)
	if r.code != 1 || rep.Status != botpr.Failed || !strings.Contains(rep.Reason, "the slugkit") {
		t.Fatalf("bot-pr exited %d: %s (%s)\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	var moves []string
	for _, m := range rep.Moves {
		moves = append(moves, m.Importer+" "+m.Name+" "+m.From+" → "+m.To)
	}
	if got, want := strings.Join(moves, "; "), "catalog:default slugkit 1.0.0 → 2.0.0; packages/app slugkit 1.0.0 → 2.0.0"; got != want {
		t.Errorf("moves %q, want %q", got, want)
	}
	if at := w.remoteHead(t); at != w.head {
		t.Errorf("the remote's branch moved to %s", at)
	}
	if c := w.gh.Comments(); len(c) != 1 || !strings.Contains(c[0].Body, "✗ **not pushed**") || !strings.Contains(c[0].Body, "left for you: `packages/app/src/title.ts:4`") {
		t.Errorf("comments: %+v", c)
	}
}
