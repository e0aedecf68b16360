package isolate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewClone(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	before, beforeTree := snap(t, f.checkout), treeHash(t, f.checkout)
	head := run(t, f.checkout, "rev-parse", "HEAD")

	c, err := New(ctx, Options{Checkout: filepath.Join(f.checkout, "src"), Root: f.runs, Branch: "uptide/zod-4.1.12"})
	if err != nil {
		t.Fatal(err)
	}
	if !idPattern.MatchString(c.ID) || c.Dir != filepath.Join(f.runs, "run-"+c.ID) {
		t.Fatalf("id %q dir %q", c.ID, c.Dir)
	}
	if c.Checkout != f.checkout || c.Base != head || c.Branch != "uptide/zod-4.1.12" {
		t.Fatalf("clone %+v, want checkout %s base %s", c, f.checkout, head)
	}
	data, err := os.ReadFile(filepath.Join(c.Dir, MarkerName))
	if err != nil {
		t.Fatal(err)
	}
	if m, _, err := ParseMarker(data); err != nil || m.ID != c.ID || m.Checkout != f.checkout || m.Branch != c.Branch {
		t.Fatalf("marker %+v %v", m, err)
	}
	// A clone, not a worktree: its own .git directory, its own config.
	if fi, err := os.Lstat(filepath.Join(c.Work, ".git")); err != nil || !fi.IsDir() {
		t.Fatalf("clone's .git is not a directory: %v", err)
	}
	if common := run(t, c.Work, "rev-parse", "--path-format=absolute", "--git-common-dir"); common != filepath.Join(c.Work, ".git") {
		t.Fatalf("clone's common dir is %s", common)
	}
	if got := run(t, c.Work, "symbolic-ref", "--short", "HEAD"); got != c.Branch {
		t.Errorf("clone is on %s", got)
	}
	if got := run(t, c.Work, "rev-parse", "HEAD"); got != head {
		t.Errorf("clone HEAD %s, checkout HEAD %s", got, head)
	}
	if got := run(t, c.Work, "for-each-ref", "--format=%(refname)", "refs/heads"); got != "refs/heads/"+c.Branch {
		t.Errorf("clone's local branches: %s", got)
	}
	for _, tc := range []struct{ args, want string }{
		{"remote get-url origin", f.remote},
		{"remote get-url --push origin", f.pushURL},
		{"remote get-url upstream", f.upstream},
		{"remote get-url --push upstream", f.upstream},
		{"config user.name", "Ada Lovelace"},
		{"config user.email", "ada@example.com"},
		{"config core.hooksPath", c.HooksDir},
		{"symbolic-ref refs/remotes/origin/HEAD", "refs/remotes/origin/main"},
		{"remote", "origin\nupstream"},
	} {
		if got := run(t, c.Work, strings.Fields(tc.args)...); got != tc.want {
			t.Errorf("clone: git %s = %q, want %q", tc.args, got, tc.want)
		}
	}
	refs := "for-each-ref --format=%(refname) %(objectname) refs/remotes"
	if got, want := run(t, c.Work, strings.Fields(refs)...), run(t, f.checkout, strings.Fields(refs)...); got != want {
		t.Errorf("remote-tracking refs differ:\nclone:\n%s\ncheckout:\n%s", got, want)
	}
	if entries, err := os.ReadDir(c.HooksDir); err != nil || len(entries) != 0 {
		t.Errorf("hooks dir %v %v", entries, err)
	}
	if rel, err := filepath.Rel(c.Work, c.HooksDir); err == nil && !strings.HasPrefix(rel, "..") {
		t.Errorf("hooks dir %s is inside the work tree", c.HooksDir)
	}

	// Commits are the checkout's author's, and no hook of the checkout runs.
	if sha, err := c.Commit(ctx, "nothing"); err != nil || sha != "" {
		t.Fatalf("commit of nothing: %q %v", sha, err)
	}
	write(t, filepath.Join(c.Work, "src/index.ts"), "export const x = 2\n", 0o644)
	write(t, filepath.Join(c.Work, "debug.log"), "ignored\n", 0o644)
	sha, err := c.Commit(ctx, "zod 4: bump")
	if err != nil || sha == "" {
		t.Fatalf("commit: %q %v", sha, err)
	}
	if got := run(t, c.Work, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%s", sha); got != "Ada Lovelace <ada@example.com>|Ada Lovelace <ada@example.com>|zod 4: bump" {
		t.Errorf("commit %s", got)
	}
	if got := run(t, c.Work, "show", "--name-only", "--format=", sha); got != "src/index.ts" {
		t.Errorf("commit holds %q", got)
	}
	if got, err := c.Git(ctx, "rev-parse", "HEAD"); err != nil || got != sha {
		t.Errorf("Git rev-parse HEAD = %q %v", got, err)
	}
	for _, ran := range []string{filepath.Join(c.Work, "HOOK-RAN"), filepath.Join(f.checkout, "HOOK-RAN")} {
		if _, err := os.Stat(ran); err == nil {
			t.Errorf("a hook ran: %s", ran)
		}
	}
	if p, err := c.Path(filepath.Join(f.checkout, "packages/web")); err != nil || p != filepath.Join(c.Work, "packages/web") {
		t.Errorf("Path = %q %v", p, err)
	}
	if _, err := c.Path(filepath.Dir(f.checkout)); err == nil {
		t.Error("Path of a directory outside the checkout")
	}

	if changes := before.Changes(snap(t, f.checkout)); len(changes) != 0 {
		t.Errorf("the checkout changed: %v", changes)
	}
	sameTree(t, "New and Commit", beforeTree, treeHash(t, f.checkout))

	if err := c.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.Dir); !os.IsNotExist(err) {
		t.Fatalf("run dir still there: %v", err)
	}
}

// A checkout with no remote keeps itself as the clone's origin.
func TestNewCloneWithoutRemote(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "solo")
	run(t, dir, "init", "-q", "-b", "main", repo)
	repo, _ = filepath.EvalSymlinks(repo)
	run(t, repo, "config", "user.name", "Solo")
	run(t, repo, "config", "user.email", "solo@example.com")
	write(t, filepath.Join(repo, "package.json"), "{}\n", 0o644)
	run(t, repo, "add", "-A")
	run(t, repo, "commit", "-q", "-m", "one")
	run(t, repo, "checkout", "-q", "--detach")
	c, err := New(context.Background(), Options{Checkout: repo, Root: filepath.Join(dir, "runs"), Branch: "uptide/a-1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, c.Work, "remote", "get-url", "origin"); got != repo {
		t.Errorf("origin = %q, want the checkout %q", got, repo)
	}
	if got := run(t, c.Work, "config", "user.email"); got != "solo@example.com" {
		t.Errorf("user.email = %q", got)
	}
}

func TestNewRefuses(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"bad branch", Options{Checkout: f.checkout, Root: f.runs, Branch: "uptide/zod..4"}, "not a valid git branch name"},
		{"expanding branch", Options{Checkout: f.checkout, Root: f.runs, Branch: "@{-1}"}, "not a valid git branch name"},
		{"no branch", Options{Checkout: f.checkout, Root: f.runs}, "no branch name"},
		{"not a repo", Options{Checkout: t.TempDir(), Root: f.runs, Branch: "b"}, "not inside a git work tree"},
		{"no dir", Options{Checkout: filepath.Join(f.checkout, "nope"), Root: f.runs, Branch: "b"}, "no such directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(ctx, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	if entries, _ := os.ReadDir(f.runs); len(entries) != 0 {
		t.Errorf("a refused New left %v in the runs root", entries)
	}
	// A runs root others can write is refused.
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o777)
	if _, err := New(ctx, Options{Checkout: f.checkout, Root: open, Branch: "b"}); err == nil || !strings.Contains(err.Error(), "writable by others") {
		t.Fatalf("open root: %v", err)
	}
}

// A failure after the run dir exists removes it.
func TestNewRemovesPartialRun(t *testing.T) {
	f := newFixture(t)
	// The checkout's identity is unusable: git var fails in the checkout
	// only once the clone exists.
	run(t, f.checkout, "config", "user.useConfigOnly", "true")
	run(t, f.checkout, "config", "--unset", "user.email")
	_, err := New(context.Background(), Options{Checkout: f.checkout, Root: f.runs, Branch: "b"})
	if err == nil || !strings.Contains(err.Error(), "no git identity") {
		t.Fatalf("err %v", err)
	}
	if entries, _ := os.ReadDir(f.runs); len(entries) != 0 {
		t.Errorf("partial run left behind: %v", entries)
	}
}

func TestGitMissing(t *testing.T) {
	f := newFixture(t)
	t.Setenv("PATH", t.TempDir())
	if _, err := Take(context.Background(), f.checkout); err == nil || !strings.Contains(err.Error(), "git not found on PATH") {
		t.Fatalf("Take without git: %v", err)
	}
	if _, err := New(context.Background(), Options{Checkout: f.checkout, Root: f.runs, Branch: "b"}); err == nil || !strings.Contains(err.Error(), "git not found on PATH") {
		t.Fatalf("New without git: %v", err)
	}
}

// A run started from inside a git hook inherits GIT_DIR; the clone's git
// must still act on the clone.
func TestCloneIgnoresInheritedGitDir(t *testing.T) {
	f := newFixture(t)
	env := append(os.Environ(), "GIT_DIR="+filepath.Join(f.checkout, ".git"), "GIT_WORK_TREE="+f.checkout)
	c, err := New(context.Background(), Options{Checkout: f.checkout, Root: f.runs, Branch: "uptide/x-1.0.0", Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Git(context.Background(), "symbolic-ref", "--short", "HEAD"); err != nil || got != "uptide/x-1.0.0" {
		t.Fatalf("clone git sees %q %v", got, err)
	}
	for _, kv := range c.Env(env) {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_WORK_TREE=") {
			t.Errorf("Env keeps %s", kv)
		}
	}
}

// What a hook installer run in the clone could leave (hooks in the
// clone's .git/hooks, core.hooksPath in its config, a hook in the empty
// hooks directory itself) never runs on Commit.
func TestCommitRunsNoHook(t *testing.T) {
	f := newFixture(t)
	c := newClone(t, f, "uptide/zod-4.1.12")
	hook := "#!/bin/sh\ntouch HOOK-RAN\n"
	for _, name := range []string{"pre-commit", "post-commit", "commit-msg", "reference-transaction"} {
		write(t, filepath.Join(c.Work, ".git/hooks", name), hook, 0o755)
		write(t, filepath.Join(c.Work, ".husky", name), hook, 0o755)
		write(t, filepath.Join(c.HooksDir, name), hook, 0o755)
	}
	run(t, c.Work, "config", "core.hooksPath", ".husky")
	if _, err := c.Commit(context.Background(), "husky ran"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(c.Work, "HOOK-RAN")); err == nil {
		t.Fatal("a hook ran on Commit")
	}
	if entries, _ := os.ReadDir(c.HooksDir); len(entries) != 0 {
		t.Errorf("hooks dir not emptied: %v", entries)
	}
}

// CI checkouts are often shallow; the clone still works and publishes.
func TestNewFromShallowCheckout(t *testing.T) {
	f := newFixture(t)
	run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "commit", "-q", "--allow-empty", "-m", "second")
	run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "push", "-q", "origin", "main")
	shallow := filepath.Join(t.TempDir(), "ci")
	run(t, f.checkout, "clone", "-q", "--depth", "1", "file://"+f.remote, shallow)
	run(t, shallow, "config", "user.name", "CI")
	run(t, shallow, "config", "user.email", "ci@example.com")
	c, err := New(context.Background(), Options{Checkout: shallow, Root: f.runs, Branch: "uptide/zod-4.1.12"})
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, c.Work, "remote", "get-url", "origin"); got != "file://"+f.remote {
		t.Errorf("origin %q", got)
	}
	sha := commitIn(t, c, "src/index.ts", "shallow\n")
	if pub, err := Publish(context.Background(), c); err != nil || pub.Sha != sha || !pub.Created {
		t.Fatalf("publish from a shallow clone: %+v %v", pub, err)
	}
}

// Run from a linked worktree of the user's repository, the clone starts at
// that worktree's HEAD.
func TestNewFromLinkedWorktree(t *testing.T) {
	f := newFixture(t)
	wt := filepath.Join(t.TempDir(), "wt")
	run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "worktree", "add", "-q", "-b", "topic", wt)
	wt, _ = filepath.EvalSymlinks(wt)
	run(t, wt, "-c", "core.hooksPath=/nonexistent", "commit", "-q", "--allow-empty", "-m", "on topic")
	head := run(t, wt, "rev-parse", "HEAD")
	before := snap(t, wt)
	c := newClone(t, f, "uptide/x-1.0.0")
	if c.Base == head {
		t.Fatal("the main checkout's clone started at the worktree's HEAD")
	}
	c, err := New(context.Background(), Options{Checkout: wt, Root: f.runs, Branch: "uptide/x-1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Base != head || c.Checkout != wt || run(t, c.Work, "rev-parse", "HEAD") != head {
		t.Errorf("clone of the worktree at %s, want %s", c.Base, head)
	}
	if got := run(t, c.Work, "remote", "get-url", "--push", "origin"); got != f.pushURL {
		t.Errorf("push URL %q", got)
	}
	if changes := before.Changes(snap(t, wt)); len(changes) != 0 {
		t.Errorf("worktree changed: %q", changes)
	}
}

func TestRenameBranch(t *testing.T) {
	c := newClone(t, newFixture(t), "uptide/zod-pending")
	if err := c.Rename(context.Background(), "uptide/zod-4.1.12"); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Git(context.Background(), "rev-parse", "--abbrev-ref", "HEAD"); got != "uptide/zod-4.1.12" || c.Branch != got {
		t.Fatalf("branch %q / %q after rename", got, c.Branch)
	}
	// clean lists a kept run by the branch its marker names.
	kept, err := List(filepath.Dir(c.Dir))
	if err != nil || len(kept) != 1 || kept[0].Branch != "uptide/zod-4.1.12" {
		t.Fatalf("kept runs %+v (%v), want the run named by its new branch", kept, err)
	}
	if err := c.Rename(context.Background(), "bad..name"); err == nil {
		t.Fatal("an invalid name was taken")
	}
}
