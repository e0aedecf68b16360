package isolate

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestSameFiles(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	same := func() string {
		t.Helper()
		reason, err := SameFiles(ctx, f.checkout)
		if err != nil {
			t.Fatal(err)
		}
		return reason
	}
	if r := same(); r != "" {
		t.Fatalf("a clean checkout with nothing installed: %q, want the same files", r)
	}
	// The node_modules a clone copies are no difference.
	write(t, filepath.Join(f.checkout, "node_modules/left-pad/index.js"), "module.exports = 1\n", 0o644)
	write(t, filepath.Join(f.checkout, "packages/web/node_modules/x/index.d.ts"), "export {}\n", 0o644)
	if r := same(); r != "" {
		t.Fatalf("installed node_modules: %q, want the same files", r)
	}
	// One a clone does not copy (no tracked package.json beside it) is.
	write(t, filepath.Join(f.checkout, "src/node_modules/y/index.js"), "\n", 0o644)
	if r := same(); !strings.Contains(r, "src/node_modules/") {
		t.Fatalf("node_modules without a package.json beside it: %q, want it named", r)
	}
	run(t, f.checkout, "clean", "-q", "-f", "-d", "-X", "src")
	// Ignored build output or generated sources are.
	write(t, filepath.Join(f.checkout, "build.log"), "x\n", 0o644)
	if r := same(); r != "the ignored build.log is not in a clone" {
		t.Fatalf("an ignored file: %q", r)
	}
	run(t, f.checkout, "clean", "-q", "-f", "-X", "--", "build.log")
	if r := same(); r != "" {
		t.Fatalf("after removing the ignored file: %q", r)
	}
	// So is a file git does not look at: it may differ from HEAD.
	run(t, f.checkout, "update-index", "--skip-worktree", "src/index.ts")
	if r := same(); r != "git does not look at src/index.ts in the checkout (skip-worktree or assume-unchanged)" {
		t.Fatalf("a skip-worktree file: %q", r)
	}
	run(t, f.checkout, "update-index", "--no-skip-worktree", "src/index.ts")
	run(t, f.checkout, "update-index", "--assume-unchanged", "src/index.ts")
	if r := same(); !strings.Contains(r, "src/index.ts") {
		t.Fatalf("an assume-unchanged file: %q", r)
	}
	run(t, f.checkout, "update-index", "--no-assume-unchanged", "src/index.ts")
	// So is a submodule, which a clone does not check out.
	run(t, f.checkout, "update-index", "--add", "--cacheinfo", "160000,"+run(t, f.checkout, "rev-parse", "HEAD")+",vendor/lib")
	if r := same(); r != "the submodule vendor/lib is not checked out in a clone" {
		t.Fatalf("a submodule: %q", r)
	}
}
