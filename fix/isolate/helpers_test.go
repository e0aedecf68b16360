package isolate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestMain gives every test a private HOME and no system git config, so
// the user's own git configuration never decides an outcome.
func TestMain(m *testing.M) {
	if _, err := exec.LookPath("git"); err != nil {
		fmt.Fprintln(os.Stderr, "fix/isolate tests need git on PATH")
		os.Exit(1)
	}
	home, err := os.MkdirTemp("", "isolate-home-*")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Unsetenv("GIT_CONFIG_GLOBAL")
	for _, v := range locatorVars {
		os.Unsetenv(v)
	}
	for _, v := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		os.Unsetenv(v)
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// run runs git in dir and fails the test on error.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

type fixture struct {
	checkout string // git top
	remote   string // origin's fetch URL, a bare repository
	pushURL  string // origin's push URL
	upstream string // a second remote
	runs     string // the runs root
}

// newFixture is a checkout with an origin (separate push URL) and an
// upstream, remote-tracking refs including origin/HEAD, a committed
// package.json in the root and in a workspace, node_modules ignored, and a
// husky-like pre-commit hook and a reference-transaction hook that leave
// HOOK-RAN and REFHOOK-RAN in the work tree's top if they ever run (hooks
// run there).
func newFixture(t *testing.T) fixture {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: pushes, fetches and clones with git for real")
	}
	base := t.TempDir()
	f := fixture{
		checkout: filepath.Join(base, "app"),
		remote:   filepath.Join(base, "origin.git"),
		pushURL:  filepath.Join(base, "push.git"),
		upstream: filepath.Join(base, "upstream.git"),
		runs:     filepath.Join(base, "runs"),
	}
	for _, bare := range []string{f.remote, f.pushURL, f.upstream} {
		run(t, base, "init", "-q", "--bare", "-b", "main", bare)
	}
	run(t, base, "init", "-q", "-b", "main", f.checkout)
	if real, err := filepath.EvalSymlinks(f.checkout); err == nil {
		f.checkout = real
	}
	run(t, f.checkout, "config", "user.name", "Ada Lovelace")
	run(t, f.checkout, "config", "user.email", "ada@example.com")
	write(t, filepath.Join(f.checkout, "package.json"), `{"name":"app","workspaces":["packages/*"]}`+"\n", 0o644)
	write(t, filepath.Join(f.checkout, "packages/web/package.json"), `{"name":"web"}`+"\n", 0o644)
	write(t, filepath.Join(f.checkout, "src/index.ts"), "export const x = 1\n", 0o644)
	write(t, filepath.Join(f.checkout, ".gitignore"), "node_modules/\n*.log\n", 0o644)
	run(t, f.checkout, "add", "-A")
	run(t, f.checkout, "commit", "-q", "-m", "first")
	run(t, f.checkout, "remote", "add", "origin", f.remote)
	run(t, f.checkout, "remote", "add", "upstream", f.upstream)
	run(t, f.checkout, "push", "-q", "origin", "main")
	run(t, f.checkout, "push", "-q", "origin", "main:feature")
	run(t, f.checkout, "push", "-q", "upstream", "main")
	run(t, f.checkout, "fetch", "-q", "origin")
	run(t, f.checkout, "fetch", "-q", "upstream")
	run(t, f.checkout, "remote", "set-head", "origin", "main")
	run(t, f.checkout, "config", "remote.origin.pushurl", f.pushURL)
	write(t, filepath.Join(f.checkout, ".git/hooks/pre-commit"), "#!/bin/sh\ntouch HOOK-RAN\n", 0o755)
	write(t, filepath.Join(f.checkout, ".git/hooks/reference-transaction"), "#!/bin/sh\ntouch REFHOOK-RAN\n", 0o755)
	return f
}

// treeHash is a digest of every file below dir (paths, modes, contents,
// link targets), leaving out the .git entries skip names.
func treeHash(t *testing.T, dir string, skip ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		for _, s := range skip {
			if rel == s {
				return filepath.SkipDir
			}
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h := sha256.New()
		fmt.Fprintf(h, "%v", info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			h.Write([]byte(target))
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(data)
		}
		out[filepath.ToSlash(rel)] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	var diffs []string
	for k, v := range before {
		if w, ok := after[k]; !ok {
			diffs = append(diffs, "removed "+k)
		} else if w != v {
			diffs = append(diffs, "changed "+k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			diffs = append(diffs, "added "+k)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("%s changed the checkout: %s", what, strings.Join(diffs, ", "))
	}
}

func snap(t *testing.T, dir string) Snapshot {
	t.Helper()
	s, err := Take(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newClone(t *testing.T, f fixture, branch string) *Clone {
	t.Helper()
	c, err := New(context.Background(), Options{Checkout: f.checkout, Root: f.runs, Branch: branch})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
