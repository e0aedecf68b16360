package isolate

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pnpmLayout installs by hand what pnpm leaves in a workspace repository:
// the .pnpm store with an executable bin, relative symlinks from the root
// and a workspace into it, a .bin link, an absolute link to a workspace
// package inside the checkout, one to elsewhere, and a read-only directory.
func pnpmLayout(t *testing.T, checkout string) {
	t.Helper()
	nm := filepath.Join(checkout, "node_modules")
	store := filepath.Join(nm, ".pnpm/zod@3.25.76/node_modules/zod")
	write(t, filepath.Join(store, "package.json"), `{"name":"zod","version":"3.25.76"}`, 0o644)
	write(t, filepath.Join(store, "bin/zod.js"), "#!/usr/bin/env node\n", 0o755)
	write(t, filepath.Join(store, "locked/README"), "read-only dir\n", 0o444)
	os.Chmod(filepath.Join(store, "locked"), 0o555)
	t.Cleanup(func() { os.Chmod(filepath.Join(store, "locked"), 0o755) })
	for link, target := range map[string]string{
		filepath.Join(nm, "zod"):                                 ".pnpm/zod@3.25.76/node_modules/zod",
		filepath.Join(nm, ".bin/zod"):                            "../zod/bin/zod.js",
		filepath.Join(checkout, "packages/web/node_modules/zod"): "../../../node_modules/.pnpm/zod@3.25.76/node_modules/zod",
		filepath.Join(nm, "web"):                                 filepath.Join(checkout, "packages/web"),
		filepath.Join(nm, "elsewhere"):                           "/usr/share",
	} {
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
}

func checkCopied(t *testing.T, checkout, work string) {
	t.Helper()
	nm := filepath.Join(work, "node_modules")
	links := map[string]string{
		"node_modules/zod":              ".pnpm/zod@3.25.76/node_modules/zod",
		"node_modules/.bin/zod":         "../zod/bin/zod.js",
		"packages/web/node_modules/zod": "../../../node_modules/.pnpm/zod@3.25.76/node_modules/zod",
		"node_modules/web":              filepath.Join(work, "packages/web"),
		"node_modules/elsewhere":        "/usr/share",
	}
	for rel, want := range links {
		got, err := os.Readlink(filepath.Join(work, rel))
		if err != nil || got != want {
			t.Errorf("%s -> %q (%v), want %q", rel, got, err, want)
		}
	}
	bin := filepath.Join(nm, ".bin/zod")
	info, err := os.Stat(bin)
	if err != nil {
		t.Fatalf("the .bin link does not resolve in the clone: %v", err)
	}
	if info.Mode().Perm() != 0o755 {
		t.Errorf("bin mode %o, want 755", info.Mode().Perm())
	}
	data, err := os.ReadFile(filepath.Join(work, "packages/web/node_modules/zod/package.json"))
	if err != nil || string(data) != `{"name":"zod","version":"3.25.76"}` {
		t.Errorf("workspace link resolves to %q %v", data, err)
	}
	locked, err := os.Stat(filepath.Join(nm, ".pnpm/zod@3.25.76/node_modules/zod/locked"))
	if err != nil || locked.Mode().Perm() != 0o555 {
		t.Errorf("read-only dir: %v %v", locked, err)
	}
	// The clone's node_modules is a copy: writing to it leaves the checkout's alone.
	if err := os.WriteFile(filepath.Join(nm, "zod/package.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(filepath.Join(checkout, "node_modules/zod/package.json"))
	if string(orig) != `{"name":"zod","version":"3.25.76"}` {
		t.Errorf("writing the clone's node_modules reached the checkout: %q", orig)
	}
}

func TestNodeModulesCopied(t *testing.T) {
	f := newFixture(t)
	pnpmLayout(t, f.checkout)
	before := treeHash(t, f.checkout)
	c := newClone(t, f, "uptide/zod-4.1.12")
	checkCopied(t, f.checkout, c.Work)
	if st := run(t, c.Work, "status", "--porcelain"); st != "" {
		t.Errorf("the copied node_modules shows in the clone's status: %s", st)
	}
	sameTree(t, "copying node_modules", before, treeHash(t, f.checkout))
	// The read-only directory does not stop the guarded removal.
	if err := c.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(c.Dir); !os.IsNotExist(err) {
		t.Fatalf("run dir still there: %v", err)
	}
	if kept, err := List(f.runs); err != nil || len(kept) != 0 {
		t.Errorf("List %+v %v after Remove", kept, err)
	}
	// The files go in the background; they do go.
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		entries, err := os.ReadDir(f.runs)
		if err == nil && len(entries) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the runs root still holds %v (%v)", entries, err)
		}
	}
}

// The Go copy (for a cp without --reflink) keeps the same layout.
func TestCopyTreeInGo(t *testing.T) {
	f := newFixture(t)
	pnpmLayout(t, f.checkout)
	work := filepath.Join(t.TempDir(), "repo")
	c := &Clone{Checkout: f.checkout, Work: work}
	for _, d := range []string{"node_modules", "packages/web/node_modules"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(work, d)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := c.copyTree(context.Background(), filepath.Join(f.checkout, d), filepath.Join(work, d), nil); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(work, "packages/web/package.json"), "{}", 0o644)
	checkCopied(t, f.checkout, work)
	if dst, err := os.Stat(filepath.Join(work, "node_modules/.pnpm/zod@3.25.76/node_modules/zod/locked/README")); err != nil || dst.Mode().Perm() != fs.FileMode(0o444) {
		t.Errorf("mode of a read-only file not kept: %v %v", dst, err)
	}
	makeWritable(work)
}

// With GNU cp on PATH the probe must choose it, or the reflink path is
// never taken; without cp it must fall back rather than fail.
func TestCpProbe(t *testing.T) {
	out, _ := exec.Command("cp", "--version").Output()
	gnu := strings.Contains(string(out), "GNU coreutils")
	if got := cpReflinks(context.Background(), t.TempDir()); got != gnu {
		t.Errorf("cpReflinks = %v with cp --version %q", got, out)
	}
	t.Setenv("PATH", t.TempDir())
	if cpReflinks(context.Background(), t.TempDir()) {
		t.Error("cpReflinks with no cp on PATH")
	}
}

// pnpm's tree gets the files pnpm hard-linked from its store as links to
// the same store files (the layout pnpm's own install makes in the
// clone), and a copy of everything pnpm wrote for this project alone; a
// tree of another manager is copied whole, even a file with two names.
func TestStoreFilesAreLinked(t *testing.T) {
	f := newFixture(t)
	pnpmLayout(t, f.checkout)
	nm := filepath.Join(f.checkout, "node_modules")
	store := filepath.Join(filepath.Dir(f.checkout), "pnpm-store", "files", "ab", "cdef")
	write(t, store, "module.exports = 3\n", 0o644)
	pkg := filepath.Join(nm, ".pnpm/zod@3.25.76/node_modules/zod")
	if err := os.Link(store, filepath.Join(pkg, "index.js")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	write(t, filepath.Join(nm, ".modules.yaml"), "layoutVersion: 5\nstoreDir: "+filepath.Dir(store)+"\n", 0o644)
	write(t, filepath.Join(nm, ".pnpm/node_modules/.bin/zod"), "#!/bin/sh\nexec node ../zod/bin/zod.js\n", 0o755)
	web := filepath.Join(f.checkout, "packages/web/node_modules/shared.js")
	write(t, filepath.Join(filepath.Dir(f.checkout), "shared.js"), "x\n", 0o644)
	if err := os.Link(filepath.Join(filepath.Dir(f.checkout), "shared.js"), web); err != nil {
		t.Fatal(err)
	}
	before := treeHash(t, f.checkout)

	c := newClone(t, f, "uptide/zod-4.1.12")
	defer c.Remove()
	checkCopied(t, f.checkout, c.Work)
	storeInfo, err := os.Stat(store)
	if err != nil {
		t.Fatal(err)
	}
	for rel, linked := range map[string]bool{
		"node_modules/.pnpm/zod@3.25.76/node_modules/zod/index.js":     true,
		"node_modules/.pnpm/zod@3.25.76/node_modules/zod/bin/zod.js":   false, // one name: not the store's
		"node_modules/.pnpm/zod@3.25.76/node_modules/zod/package.json": false,
		"node_modules/.pnpm/node_modules/.bin/zod":                     false,
		"node_modules/.modules.yaml":                                   false,
		"packages/web/node_modules/shared.js":                          false, // no pnpm tree there
	} {
		info, err := os.Stat(filepath.Join(c.Work, filepath.FromSlash(rel)))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		orig, err := os.Stat(filepath.Join(f.checkout, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if got := os.SameFile(info, orig); got != linked {
			t.Errorf("%s: the clone's file is the checkout's = %v, want %v", rel, got, linked)
		}
		if linked && !os.SameFile(info, storeInfo) {
			t.Errorf("%s is not the store's file", rel)
		}
	}
	if st := run(t, c.Work, "status", "--porcelain"); st != "" {
		t.Errorf("the node_modules shows in the clone's status: %s", st)
	}
	sameTree(t, "copying node_modules", before, treeHash(t, f.checkout))
}

// A pnpm tree is linked only where pnpm linked its packages from the
// store; one pnpm cloned or copied (every file one name) goes to cp.
func TestStoreLinkedReadsHowPnpmImported(t *testing.T) {
	nm := filepath.Join(t.TempDir(), "node_modules")
	pkg := filepath.Join(nm, ".pnpm/zod@3.25.76/node_modules/zod")
	write(t, filepath.Join(pkg, "package.json"), "{}", 0o644)
	write(t, filepath.Join(pkg, "index.js"), "module.exports = 3\n", 0o644)
	write(t, filepath.Join(nm, ".pnpm/node_modules/.bin/zod"), "#!/bin/sh\n", 0o755)
	if storeLinked(nm) {
		t.Error("no .modules.yaml: taken as pnpm's")
	}
	write(t, filepath.Join(nm, ".modules.yaml"), "layoutVersion: 5\n", 0o644)
	if storeLinked(nm) {
		t.Error("every file has one name (pnpm cloned or copied them): taken as linked")
	}
	if err := os.Link(filepath.Join(pkg, "index.js"), filepath.Join(t.TempDir(), "store-file")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if !storeLinked(nm) {
		t.Error("a package file linked from the store: not taken as linked")
	}
}
