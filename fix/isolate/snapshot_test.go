package isolate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestTakeAndChanges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, f fixture)
		want   []string // each a prefix of one change, in order
	}{
		{"unchanged", func(t *testing.T, f fixture) {}, nil},
		{"ignored file", func(t *testing.T, f fixture) {
			write(t, filepath.Join(f.checkout, "npm-debug.log"), "x", 0o644)
			write(t, filepath.Join(f.checkout, "node_modules/x/index.js"), "x", 0o644)
		}, nil},
		{"head", func(t *testing.T, f fixture) {
			run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "commit", "-q", "--allow-empty", "-m", "moved")
		}, []string{"HEAD moved from "}},
		{"branch", func(t *testing.T, f fixture) {
			run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "checkout", "-q", "-b", "other")
		}, []string{"branch changed from main to other"}},
		{"detached", func(t *testing.T, f fixture) {
			run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "checkout", "-q", "--detach")
		}, []string{"branch changed from main to (detached)"}},
		{"untracked", func(t *testing.T, f fixture) {
			write(t, filepath.Join(f.checkout, "SCRIPT-RAN"), "x", 0o644)
		}, []string{"git status changed: ?? SCRIPT-RAN"}},
		{"modified", func(t *testing.T, f fixture) {
			write(t, filepath.Join(f.checkout, "src/index.ts"), "changed\n", 0o644)
		}, []string{"git status changed:  M src/index.ts"}},
		{"hook added", func(t *testing.T, f fixture) {
			write(t, filepath.Join(f.checkout, ".git/hooks/post-checkout"), "#!/bin/sh\n", 0o755)
		}, []string{"hooks directory changed"}},
		{"hook mode", func(t *testing.T, f fixture) {
			os.Chmod(filepath.Join(f.checkout, ".git/hooks/pre-commit"), 0o644)
		}, []string{"hooks directory changed"}},
		{"hooks path", func(t *testing.T, f fixture) {
			run(t, f.checkout, "config", "core.hooksPath", ".husky")
		}, []string{"hooks directory changed", "local git config changed: + core.hookspath=.husky"}},
		{"config removed", func(t *testing.T, f fixture) {
			run(t, f.checkout, "config", "--unset", "remote.origin.pushurl")
		}, []string{"local git config changed: - remote.origin.pushurl="}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			before := snap(t, f.checkout)
			tc.change(t, f)
			got := before.Changes(snap(t, f.checkout))
			if len(got) != len(tc.want) {
				t.Fatalf("changes %q, want %d starting %q", got, len(tc.want), tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("change %q, want it to start %q", got[i], tc.want[i])
				}
			}
		})
	}
}

// A hooks directory set by core.hooksPath is the one digested.
func TestTakeFollowsHooksPath(t *testing.T) {
	f := newFixture(t)
	write(t, filepath.Join(f.checkout, ".husky/pre-commit"), "#!/bin/sh\n", 0o755)
	run(t, f.checkout, "add", ".husky")
	run(t, f.checkout, "commit", "-q", "--no-verify", "-m", "husky")
	run(t, f.checkout, "config", "core.hooksPath", ".husky")
	before := snap(t, f.checkout)
	write(t, filepath.Join(f.checkout, ".git/hooks/post-merge"), "#!/bin/sh\n", 0o755)
	if got := before.Changes(snap(t, f.checkout)); len(got) != 0 {
		t.Errorf("a file in the unused .git/hooks counted: %q", got)
	}
	write(t, filepath.Join(f.checkout, ".husky/pre-commit"), "#!/bin/sh\nnpx lint-staged\n", 0o755)
	if got := before.Changes(snap(t, f.checkout)); len(got) != 2 || got[0] != "git status changed:  M .husky/pre-commit" || got[1] != "hooks directory changed" {
		t.Errorf("changes %q", got)
	}
}

// Taking a snapshot writes nothing, not even the index git status would
// refresh after a file's timestamp moved.
func TestTakeWritesNothing(t *testing.T) {
	f := newFixture(t)
	p := filepath.Join(f.checkout, "src/index.ts")
	info, _ := os.Stat(p)
	os.Chtimes(p, info.ModTime().Add(-3600e9), info.ModTime().Add(-3600e9))
	before := treeHash(t, f.checkout)
	s := snap(t, f.checkout)
	if s.Head == "" || s.Branch != "main" || s.Status != "" || s.HooksDigest == "" || !strings.Contains(s.Config, "[remote \"origin\"]") {
		t.Errorf("snapshot %+v", s)
	}
	sameTree(t, "Take", before, treeHash(t, f.checkout))
}

func TestChangesConfigWorktree(t *testing.T) {
	before := Snapshot{Config: "[core]\n\tbare = false\n"}
	after := Snapshot{Config: "[core]\n\tbare = false\n" + worktreeConfigMark + "[core]\n\thooksPath = \"/x\" ; set by a script\n"}
	if got := before.Changes(after); len(got) != 1 || got[0] != "local git config changed: + core.hookspath=/x" {
		t.Errorf("changes %q", got)
	}
	before = Snapshot{Config: "[core]\n\tbare = false\n"}
	after = Snapshot{Config: "# a comment\n[core]\n\tbare = false\n"}
	if got := before.Changes(after); len(got) != 1 || got[0] != "local git config changed" {
		t.Errorf("changes %q", got)
	}
}

func TestConfigEntries(t *testing.T) {
	cfg := "[core]\n\tbare = false\n\tfilemode\n[remote \"Origin\"]\n\turl = \"a b\" # c\n[branch.main] remote = origin\n"
	got := strings.Join(configEntries(cfg), "|")
	want := "core.bare=false|core.filemode|remote.Origin.url=a b|branch.main.remote=origin"
	if got != want {
		t.Errorf("entries %q, want %q", got, want)
	}
}

func TestDirty(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	if reason, err := Dirty(ctx, f.checkout); err != nil || reason != "" {
		t.Fatalf("clean checkout: %q %v", reason, err)
	}
	write(t, filepath.Join(f.checkout, "debug.log"), "ignored", 0o644)
	if reason, err := Dirty(ctx, filepath.Join(f.checkout, "src")); err != nil || reason != "" {
		t.Fatalf("ignored files count: %q %v", reason, err)
	}
	write(t, filepath.Join(f.checkout, "src/index.ts"), "changed\n", 0o644)
	write(t, filepath.Join(f.checkout, "notes.md"), "x", 0o644)
	reason, err := Dirty(ctx, f.checkout)
	if err != nil || !strings.Contains(reason, "M src/index.ts") || !strings.Contains(reason, "?? notes.md") ||
		!strings.Contains(reason, f.checkout) || !strings.Contains(reason, "commit or stash") {
		t.Fatalf("reason %q %v", reason, err)
	}
	for i := 0; i < 6; i++ {
		write(t, filepath.Join(f.checkout, fmt.Sprintf("extra/%d.txt", i)), "x", 0o644)
	}
	if reason, _ := Dirty(ctx, f.checkout); !strings.Contains(reason, "and 3 more") {
		t.Errorf("8 files: %q", reason)
	}

	run(t, f.checkout, "checkout", "-q", "--", ".")
	os.RemoveAll(filepath.Join(f.checkout, "extra"))
	os.Remove(filepath.Join(f.checkout, "notes.md"))
	if reason, _ := Dirty(ctx, f.checkout); reason != "" {
		t.Fatalf("cleaned checkout: %q", reason)
	}
	run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "checkout", "-q", "-b", "side")
	write(t, filepath.Join(f.checkout, "src/index.ts"), "side\n", 0o644)
	run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "commit", "-q", "-am", "side")
	run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "checkout", "-q", "main")
	write(t, filepath.Join(f.checkout, "src/index.ts"), "main\n", 0o644)
	run(t, f.checkout, "-c", "core.hooksPath=/nonexistent", "commit", "-q", "-am", "main")
	exec.Command("git", "-C", f.checkout, "-c", "core.hooksPath=/nonexistent", "merge", "-q", "side").Run()
	if reason, _ := Dirty(ctx, f.checkout); !strings.Contains(reason, "middle of a merge") || !strings.Contains(reason, "git merge --abort") {
		t.Errorf("merge in progress: %q", reason)
	}

	plain := t.TempDir()
	if reason, err := Dirty(ctx, plain); err != nil || !strings.Contains(reason, "not inside a git repository") {
		t.Errorf("not a repo: %q %v", reason, err)
	}
	if reason, err := Dirty(ctx, filepath.Join(plain, "missing")); err != nil || !strings.Contains(reason, "does not exist") {
		t.Errorf("missing dir: %q %v", reason, err)
	}
	run(t, plain, "init", "-q")
	if reason, err := Dirty(ctx, plain); err != nil || !strings.Contains(reason, "no commit yet") {
		t.Errorf("no commit: %q %v", reason, err)
	}
}
