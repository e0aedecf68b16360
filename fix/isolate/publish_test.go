package isolate

import (
	"context"
	"errors"
	"github.com/uptide/uptide/internal/proc"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// publishSkip is what Publish may change in the checkout's .git: the
// objects it brings, the ref, and the ref's log.
var publishSkip = []string{".git/objects", ".git/refs", ".git/logs", ".git/packed-refs"}

func commitIn(t *testing.T, c *Clone, file, content string) string {
	t.Helper()
	write(t, filepath.Join(c.Work, file), content, 0o644)
	sha, err := c.Commit(context.Background(), "change "+file)
	if err != nil || sha == "" {
		t.Fatalf("commit %q %v", sha, err)
	}
	return sha
}

func TestPublish(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	c := newClone(t, f, "uptide/zod-4.1.12")
	first := commitIn(t, c, "src/index.ts", "export const x = 4\n")
	os.Remove(filepath.Join(f.checkout, ".git/FETCH_HEAD")) // the fixture's own fetches

	before, beforeTree := snap(t, f.checkout), treeHash(t, f.checkout, publishSkip...)
	pub, err := Publish(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if pub != (Published{Branch: "uptide/zod-4.1.12", Sha: first, Created: true}) {
		t.Errorf("published %+v", pub)
	}
	if got := run(t, f.checkout, "rev-parse", "refs/heads/uptide/zod-4.1.12"); got != first {
		t.Errorf("checkout's branch at %s, want %s", got, first)
	}
	if changes := before.Changes(snap(t, f.checkout)); len(changes) != 0 {
		t.Errorf("Publish changed the checkout: %q", changes)
	}
	sameTree(t, "Publish", beforeTree, treeHash(t, f.checkout, publishSkip...))
	for _, ran := range []string{"REFHOOK-RAN", ".git/FETCH_HEAD"} {
		if _, err := os.Stat(filepath.Join(f.checkout, ran)); err == nil {
			t.Errorf("%s exists after Publish", ran)
		}
	}

	// Unchanged: nothing to do.
	if pub, err := Publish(ctx, c); err != nil || pub.Created || pub.FastForward || pub.Sha != first {
		t.Errorf("republish %+v %v", pub, err)
	}

	// A further commit fast-forwards the published branch.
	second := commitIn(t, c, "src/index.ts", "export const x = 5\n")
	pub, err = Publish(ctx, c)
	if err != nil || pub != (Published{Branch: "uptide/zod-4.1.12", Sha: second, FastForward: true}) {
		t.Fatalf("fast-forward %+v %v", pub, err)
	}
	if got := run(t, f.checkout, "rev-parse", "refs/heads/uptide/zod-4.1.12"); got != second {
		t.Errorf("checkout's branch at %s, want %s", got, second)
	}

	// Another run of the same branch from HEAD has diverged from it.
	other := newClone(t, f, "uptide/zod-4.1.12")
	if other.ID == c.ID || other.Dir == c.Dir {
		t.Fatalf("two runs share %s", c.Dir)
	}
	commitIn(t, other, "src/other.ts", "x\n")
	if pub, err := Publish(ctx, other); !errors.Is(err, ErrDiverged) || pub.Existing != second {
		t.Fatalf("diverged publish: %v, the checkout's branch at %q, want %s", err, pub.Existing, second)
	}
	// Its commits are taken by fetching from its clone into a name the
	// checkout lacks.
	cmd, err := FetchCommand(ctx, other)
	if want := "git fetch " + proc.ShellQuote(other.Work) + " uptide/zod-4.1.12:uptide/zod-4.1.12-2"; err != nil || cmd != want {
		t.Errorf("FetchCommand: %q %v, want %q", cmd, err, want)
	}
	if got := run(t, f.checkout, "rev-parse", "refs/heads/uptide/zod-4.1.12"); got != second {
		t.Errorf("a diverged publish moved the branch to %s", got)
	}
	if changes := before.Changes(snap(t, f.checkout)); len(changes) != 0 {
		t.Errorf("the checkout changed: %q", changes)
	}
}

func TestPublishCheckedOut(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	c := newClone(t, f, "main")
	commitIn(t, c, "src/index.ts", "export const x = 6\n")
	head := run(t, f.checkout, "rev-parse", "HEAD")
	before, beforeTree := snap(t, f.checkout), treeHash(t, f.checkout, publishSkip...)
	pub, err := Publish(ctx, c)
	if !errors.Is(err, ErrCheckedOut) || !strings.Contains(err.Error(), f.checkout) || pub.CheckedOutIn == "" {
		t.Fatalf("publishing the checked-out branch: %v (checked out in %q)", err, pub.CheckedOutIn)
	}
	if got := run(t, f.checkout, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved to %s", got)
	}
	if changes := before.Changes(snap(t, f.checkout)); len(changes) != 0 {
		t.Errorf("the checkout changed: %q", changes)
	}
	sameTree(t, "a refused Publish", beforeTree, treeHash(t, f.checkout, publishSkip...))

	// Checked out in a linked worktree of the checkout counts too.
	wt := filepath.Join(t.TempDir(), "wt")
	run(t, f.checkout, "worktree", "add", "-q", "-b", "uptide/side-1.0.0", wt)
	side := newClone(t, f, "uptide/side-1.0.0")
	commitIn(t, side, "src/side.ts", "x\n")
	if _, err := Publish(ctx, side); !errors.Is(err, ErrCheckedOut) {
		t.Fatalf("publishing a branch checked out in a worktree: %v", err)
	}
}

func TestStoreRun(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := filepath.Join(f.checkout, ".git/uptide/uptide/zod-4.1.12")
	p, err := StoreRun(ctx, filepath.Join(f.checkout, "src"), "uptide/zod-4.1.12", "r1", []byte(`{"run":1}`), true)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "run.json"); p != want {
		t.Errorf("stored at %s, want %s", p, want)
	}
	// A second run whose commits did not reach the branch keeps its own
	// record and leaves run.json describing the branch head.
	p2, err := StoreRun(ctx, f.checkout, "uptide/zod-4.1.12", "r2", []byte(`{"run":2}`), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "runs", "r2.json"); p2 != want {
		t.Errorf("a run off the branch head stored at %s, want %s", p2, want)
	}
	// A third run that moved the branch replaces run.json; every run's
	// record stays.
	if _, err := StoreRun(ctx, f.checkout, "uptide/zod-4.1.12", "r3", []byte(`{"run":3}`), true); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{"run.json": `{"run":3}`, "runs/r1.json": `{"run":1}`,
		"runs/r2.json": `{"run":2}`, "runs/r3.json": `{"run":3}`} {
		if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file))); string(data) != want {
			t.Errorf("%s holds %q (%v), want %s", file, data, err, want)
		}
	}
	if st := run(t, f.checkout, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("the stored run shows in git status: %s", st)
	}
	for _, bad := range []string{"../escape", "a/../../b", "", "-x"} {
		if _, err := StoreRun(ctx, f.checkout, bad, "r", nil, true); err == nil {
			t.Errorf("branch %q stored", bad)
		}
	}
	for _, bad := range []string{"", "../r", "a/b", ".hidden"} {
		if _, err := StoreRun(ctx, f.checkout, "uptide/a-1.0.0", bad, nil, true); err == nil {
			t.Errorf("run id %q stored", bad)
		}
	}
	// A linked worktree stores in the repository's common git dir.
	wt := filepath.Join(t.TempDir(), "wt")
	run(t, f.checkout, "worktree", "add", "-q", "--detach", wt)
	p, err = StoreRun(ctx, wt, "uptide/a-1.0.0", "r1", []byte("{}"), true)
	if err != nil || p != filepath.Join(f.checkout, ".git/uptide/uptide/a-1.0.0/run.json") {
		t.Errorf("from a worktree: %s %v", p, err)
	}
}
