package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/fix"
)

// withRemote gives the checkout dir a local bare repository as origin,
// main pushed there; it returns the bare repository.
func withRemote(t *testing.T, dir string) string {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "remote.git")
	git(t, dir, "init", "-q", "--bare", bare)
	git(t, dir, "remote", "add", "origin", bare)
	git(t, dir, "push", "-q", "-u", "origin", "main")
	return bare
}

// remoteRef is the bare repository's branch, "" when it has none.
func remoteRef(t *testing.T, bare, branch string) string {
	t.Helper()
	out := git(t, bare, "for-each-ref", "--format=%(objectname)", "refs/heads/"+branch)
	return strings.TrimSpace(out)
}

// brokenBranch commits, on a branch of its own, an edit the compiler
// rejects, and goes back to main.
func brokenBranch(t *testing.T, dir, branch string) {
	t.Helper()
	git(t, dir, "checkout", "-q", "-b", branch)
	f := filepath.Join(dir, "src", "title.ts")
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(src, []byte("\nexport const width: number = \"wide\";\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "commit", "-q", "--no-verify", "-am", "a title width")
	git(t, dir, "checkout", "-q", "main")
}

// The user sits on the branch fix makes, so fix cannot move it: its
// commits stay in the kept clone. uptide verify (the current branch)
// finds them there and verifies them in a clone of its own, installing
// the branch's own lockfile; --push refuses without --yes and with it
// pushes the verified commit to the checkout's remote. The checkout is
// byte-identical after all of it, and the stored run says what was pushed.
func TestVerifyTakesTheCommitsTheCheckoutCouldNotReceiveAndPushesThem(t *testing.T) {
	skipShort(t, "fix and verify install, compile and test")
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	bare := withRemote(t, dir)
	const branch = "uptide/slugkit-2.0.0"
	git(t, dir, "checkout", "-q", "-b", branch)
	patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
	made, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@2.0.0", "--patches", patches)
	if made.Status != "verified" || len(made.Commits) == 0 {
		t.Fatalf("fix: %s (%s)\n%s", made.Status, made.Reason, r.stderr)
	}
	tip := made.Commits[len(made.Commits)-1].Sha
	userTip := git(t, dir, "rev-parse", branch)
	if userTip == tip {
		t.Fatal("fix moved the branch the user has checked out")
	}
	before := checkoutDigest(t, dir)

	r = runBinary(t, stamplessBinary(t), fe.env, dir, "verify", "--json")
	var rep fix.Report
	env := decode(t, r, &rep)
	if env.Command != "verify" || r.code != 0 || rep.Status != fix.StatusVerified {
		t.Fatalf("verify: exit %d, %s %s (%s)\n%s", r.code, env.Command, rep.Status, rep.Reason, r.stderr)
	}
	if v := rep.Verified; v == nil || v.Sha != tip || v.Branch != branch || v.Clone == "" || v.Base != git(t, dir, "rev-parse", "main") {
		t.Fatalf("verified %+v, want %s at fix's %s from its kept clone, against main", rep.Verified, branch, tip)
	}
	if len(rep.Commits) != len(made.Commits) || rep.Install == nil || !strings.Contains(strings.Join(rep.Install.Commands, " "), "npm ci --ignore-scripts") {
		t.Errorf("commits %d (fix made %d), install %+v", len(rep.Commits), len(made.Commits), rep.Install)
	}
	if len(rep.Moves) != 1 || rep.Moves[0].Name != "slugkit" || rep.Moves[0].To != "2.0.0" {
		t.Errorf("moves %+v, want slugkit → 2.0.0 from the branch's lockfile", rep.Moves)
	}
	if rep.Types.Status != "analyzed" || len(rep.Types.New) != 0 || rep.Publish != nil {
		t.Errorf("types %+v, publish %+v", rep.Types, rep.Publish)
	}
	if got := remoteRef(t, bare, branch); got != "" {
		t.Fatalf("verify without --push pushed %s", got)
	}

	r = runBinary(t, stamplessBinary(t), fe.env, dir, "verify", "--push")
	if r.code != 2 || !strings.Contains(r.stderr, "confirm with --yes") || remoteRef(t, bare, branch) != "" {
		t.Fatalf("verify --push without --yes: exit %d, %s", r.code, r.stderr)
	}

	r = runBinary(t, stamplessBinary(t), fe.env, dir, "verify", "--push", "--yes", "--json")
	rep = fix.Report{}
	decode(t, r, &rep)
	if r.code != 0 || rep.Publish == nil || rep.Publish.Status != fix.PublishPushed || rep.Publish.Remote != "origin" {
		t.Fatalf("verify --push --yes: exit %d, publish %+v (%s)\n%s", r.code, rep.Publish, rep.Reason, r.stderr)
	}
	if got := remoteRef(t, bare, branch); got != tip {
		t.Errorf("the remote's %s is at %q, want the verified %s", branch, got, tip)
	}
	record, err := os.ReadFile(rep.Checkout.RunFile)
	if err != nil || !strings.Contains(string(record), `"status": "pushed"`) {
		t.Errorf("the stored run does not say what was pushed (%v):\n%s", err, record)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	if got := git(t, dir, "rev-parse", branch); got != userTip {
		t.Errorf("the checked-out %s moved to %s", branch, got)
	}
	assertNoTrap(t, fe, dir)
}

// A branch that breaks the compile fails verification with fix's exit
// code and the compiler's new errors; --push --yes pushes nothing then.
// The user's checkout (on main) is byte-identical after.
func TestVerifyABranchThatBreaksTheCompile(t *testing.T) {
	skipShort(t, "verify installs, compiles and tests")
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	bare := withRemote(t, dir)
	brokenBranch(t, dir, "broken")
	before := checkoutDigest(t, dir)

	r := runBinary(t, stamplessBinary(t), fe.env, dir, "verify", "broken", "--push", "--yes", "--json")
	var rep fix.Report
	decode(t, r, &rep)
	if r.code != 1 || rep.Status != fix.StatusFailed {
		t.Fatalf("verify broken: exit %d, %s (%s)\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	if len(rep.Types.New) != 1 || rep.Types.New[0].File != "src/title.ts" || rep.Types.New[0].Code != 2322 {
		t.Errorf("new errors %+v, want the TS2322 in src/title.ts", rep.Types.New)
	}
	if v := rep.Verified; v == nil || strings.Join(v.Changed, " ") != "src/title.ts" || v.Clone != "" {
		t.Errorf("verified %+v", rep.Verified)
	}
	if rep.Publish == nil || rep.Publish.Status != fix.PublishBlocked || !strings.Contains(rep.Publish.Reason, "did not verify") {
		t.Errorf("publish %+v, want blocked: the run did not verify", rep.Publish)
	}
	if got := remoteRef(t, bare, "broken"); got != "" {
		t.Errorf("a failed verification pushed %s", got)
	}
	if !rep.Clone.Kept {
		t.Error("the clone of a failed verification is not kept to look at")
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}

	// The words: the verdict and the error, where to look.
	r = run(t, fe.env, dir, "verify", "broken")
	if r.code != 1 || !strings.Contains(r.stdout, "✗ not verified") || !strings.Contains(r.stdout, "src/title.ts") || !strings.Contains(r.stdout, "against") {
		t.Errorf("verify broken: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	assertNoTrap(t, fe, dir)
}

// withPrettier gives the checkout (on main) the real prettier as a
// development dependency its lockfile links (file:vendor/prettier, so the
// private clone's frozen install finds it too) and a .prettierrc, and
// pushes that to the remote.
func withPrettier(t *testing.T, fe fixEnv, dir string) {
	t.Helper()
	copyTree(t, pinnedTool(t, "prettier", "3.3.3"), filepath.Join(dir, "vendor", "prettier"))
	manifest := filepath.Join(dir, "package.json")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	withDev := strings.Replace(string(data), `"devDependencies": {`, `"devDependencies": {`+"\n"+`    "prettier": "file:vendor/prettier",`, 1)
	if withDev == string(data) {
		t.Fatal("the fixture's package.json has no devDependencies to add prettier to")
	}
	if err := os.WriteFile(manifest, []byte(withDev), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".prettierrc"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	npmManager().install(t, fe.env, dir)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "--no-verify", "-m", "format with prettier")
	git(t, dir, "push", "-q", "origin", "main")
}

// A branch whose changed file the repository's formatter would change:
// verify formats it where the branch stands and adds that as one commit
// on top (the branch's own commits untouched), verifies that head, and
// --push --yes pushes it. Without --push the commit stays in the kept
// clone and the report says so. The checkout is byte-identical after.
func TestVerifyFormatsTheBranchAndCommitsThatOnTop(t *testing.T) {
	skipShort(t, "verify installs, formats, compiles and tests")
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	bare := withRemote(t, dir)
	withPrettier(t, fe, dir)
	const ugly = "export function pad(s:string):string{return s.padStart(8,' ')}\n"
	const tidy = "export function pad(s: string): string {\n  return s.padStart(8, \" \");\n}\n"
	git(t, dir, "checkout", "-q", "-b", "messy")
	if err := os.WriteFile(filepath.Join(dir, "src", "pad.ts"), []byte(ugly), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "src/pad.ts")
	git(t, dir, "commit", "-q", "--no-verify", "-m", "a pad")
	git(t, dir, "checkout", "-q", "main")
	tip := git(t, dir, "rev-parse", "messy")
	before := checkoutDigest(t, dir)

	r := runBinary(t, stamplessBinary(t), fe.env, dir, "verify", "messy", "--push", "--yes", "--json")
	var rep fix.Report
	decode(t, r, &rep)
	if r.code != 0 || rep.Status != fix.StatusVerified {
		t.Fatalf("verify messy: exit %d, %s (%s)\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	v := rep.Verified
	if v == nil || len(v.Added) != 1 || v.Added[0].Subject != "format the files the branch changed (prettier)" || v.Sha != v.Added[0].Sha || v.Sha == tip {
		t.Fatalf("verified %+v, want one format commit on top of %s, verified", v, tip)
	}
	if n := len(rep.Commits); n != 2 || rep.Commits[0].Sha != tip || rep.Commits[1].Sha != v.Sha {
		t.Errorf("commits %+v, want the branch's %s then the format commit", rep.Commits, tip)
	}
	if rep.Style.Formatter != "prettier" || strings.Join(rep.Style.Formatted, " ") != "src/pad.ts" {
		t.Errorf("style %+v, want src/pad.ts formatted by prettier", rep.Style)
	}
	if rep.Publish == nil || rep.Publish.Status != fix.PublishPushed || rep.Publish.Sha != v.Sha {
		t.Fatalf("publish %+v, want %s pushed", rep.Publish, v.Sha)
	}
	if got := remoteRef(t, bare, "messy"); got != v.Sha {
		t.Fatalf("the remote's messy is at %q, want the formatted %s", got, v.Sha)
	}
	// On the remote: the branch's commit untouched, the formatting on top.
	if parent := strings.TrimSpace(git(t, bare, "rev-parse", v.Sha+"^")); parent != tip {
		t.Errorf("the format commit's parent is %s, want the branch's %s", parent, tip)
	}
	if files := strings.TrimSpace(git(t, bare, "diff", "--name-only", tip, v.Sha)); files != "src/pad.ts" {
		t.Errorf("the format commit changes %q, want src/pad.ts", files)
	}
	if got := git(t, bare, "show", v.Sha+":src/pad.ts"); got != strings.TrimSuffix(tidy, "\n") && got != tidy {
		t.Errorf("src/pad.ts at the pushed head is %q, want prettier's %q", got, tidy)
	}
	record, err := os.ReadFile(rep.Checkout.RunFile)
	if err != nil || !strings.Contains(string(record), `"sha": "`+v.Sha+`"`) || !strings.Contains(string(record), `"added"`) {
		t.Errorf("the stored run does not record the new head %s (%v):\n%s", v.Sha, err, record)
	}
	if rep.Clone.Kept {
		t.Errorf("the clone of a pushed, verified run is kept: %s", rep.Clone.Why)
	}

	// Without --push the added commit exists only in the kept clone: the
	// words say it, and how to push it.
	r = run(t, fe.env, dir, "verify", "messy")
	if r.code != 0 || !strings.Contains(r.stdout, "1 commit added: format the files the branch changed (prettier) (uptide verify messy --push --yes pushes it)") ||
		!strings.Contains(r.stdout, "its commits exist nowhere else") {
		t.Errorf("verify messy: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	if got := git(t, dir, "rev-parse", "messy"); got != tip {
		t.Errorf("the checkout's messy moved to %s", got)
	}
	assertNoTrap(t, fe, dir)
}
