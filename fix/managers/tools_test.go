package managers

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// Two fix runs fetching the same manager: the one finishing second keeps
// the folder the first completed (its pnpm may be running from it) instead
// of deleting it to put its own copy there.
func TestRegistryFetchKeepsAnotherRunsCopy(t *testing.T) {
	cacheDir := t.TempDir()
	t.Setenv("UPTIDE_CACHE_DIR", cacheDir)
	reg, err := testregistry.New(fstest.MapFS{})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(map[string]any{"name": "pnpm", "version": "9.15.9", "bin": map[string]string{"pnpm": "bin/pnpm.cjs"}},
		map[string]string{"bin/pnpm.cjs": "console.log('9.15.9')\n"}); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(cacheDir, "managers", "pnpm@9.15.9")
	// The other run completes its copy while this one downloads.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if strings.Contains(req.URL.Path, "/-/") {
			other := map[string]string{"bin/pnpm.cjs": "theirs", ".tarball-digests.json": `{"sha512":"theirs"}`, ".complete": ""}
			for name, body := range other {
				p := filepath.Join(folder, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Error(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Error(err)
				}
			}
		}
		reg.ServeHTTP(w, req)
	}))
	defer srv.Close()
	cfg, err := registry.LoadConfig(t.TempDir(), []string{"npm_config_registry=" + srv.URL, "HOME=" + t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := RegistryFetch(registry.New(registry.Options{Config: cfg}))(context.Background(), "pnpm", "9.15.9")
	if err != nil {
		t.Fatal(err)
	}
	if tool.Dir != folder || tool.Digests["sha512"] != "theirs" {
		t.Errorf("tool %+v, want the other run's %s and its digests", tool, folder)
	}
	if b, err := os.ReadFile(filepath.Join(folder, "bin", "pnpm.cjs")); err != nil || string(b) != "theirs" {
		t.Errorf("the other run's copy was replaced: %q, %v", b, err)
	}

	// A later run starts it from the cache: no registry.
	srv.Close()
	again, err := RegistryFetch(registry.New(registry.Options{Config: cfg}))(context.Background(), "pnpm", "9.15.9")
	if err != nil || again.Dir != folder {
		t.Errorf("a cached manager asked the registry again: %+v, %v", again, err)
	}
}

// packageManager names one exact version, as corepack requires: anything
// else (a range, a path) is said, naming the field, and nothing is
// fetched for it.
func TestPackageManagerNeedsAnExactVersion(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "fixtures", "repos", "pnpm-v9"), dir)
	for _, field := range []string{"pnpm@^9.15.0", "pnpm@../../../outside", "pnpm@=9.15.9"} {
		r, err := repo.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		r.PackageManagerField = field
		fetched := false
		fetch := func(context.Context, string, string) (*Tool, error) {
			fetched = true
			return nil, errors.New("offline")
		}
		_, err = Detect(context.Background(), dir, r, []string{"PATH=" + t.TempDir()}, fetch)
		if err == nil || !strings.Contains(err.Error(), "packageManager names "+field+", which is not an exact version") || fetched {
			t.Errorf("%s: %v (fetched: %v), want it refused as not an exact version", field, err, fetched)
		}
	}
}

// A shim runs the manager it stands for with the caller's arguments,
// whatever the path of the manager's script holds.
func TestShim(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "it's a $dir")
	script := filepath.Join(dir, "pnpm.cjs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$0|$*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	if err := Shim(bin, &Detected{Manager: pnpm, Argv: []string{script}}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(bin, "pnpm"), "vitest", "run 'x'").CombinedOutput()
	if want := script + "|vitest run 'x'\n"; err != nil || string(out) != want {
		t.Errorf("the shim ran %q (%v), want %q", out, err, want)
	}
}

// Yarn 2+ from the registry: packageManager's hash is of the single-file
// release corepack downloads, which uptide cannot check against the
// registry's package; the report says so instead of passing over it.
func TestBerryHashIsSaidUnchecked(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "fixtures", "repos", "yarn-berry"), dir)
	tool := t.TempDir()
	if err := os.MkdirAll(filepath.Join(tool, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tool, "package.json"), []byte(`{"version":"4.18.1","bin":{"yarn":"bin/yarn.js"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tool, "bin", "yarn.js"), []byte("console.log('4.18.1')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is needed on PATH")
	}
	// A PATH with node alone: no yarn a corepack beside node would give.
	bin := t.TempDir()
	if err := os.Symlink(node, filepath.Join(bin, "node")); err != nil {
		t.Fatal(err)
	}
	fetch := func(_ context.Context, name, version string) (*Tool, error) {
		if name != "@yarnpkg/cli-dist" || version != "4.18.1" {
			t.Errorf("fetched %s@%s", name, version)
		}
		return &Tool{Dir: tool, Digests: map[string]string{"sha224": "registry"}}, nil
	}
	for field, unchecked := range map[string]bool{"yarn@4.18.1+sha224.abc": true, "yarn@4.18.1": false} {
		r, err := repo.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		r.PackageManagerField = field
		m, err := Detect(context.Background(), dir, r, []string{"PATH=" + bin}, fetch)
		if err != nil {
			t.Fatalf("%s: %v", field, err)
		}
		if got := strings.Contains(m.Why, "so it was not checked"); got != unchecked {
			t.Errorf("%s: why %q; want it to say the hash was not checked: %v", field, m.Why, unchecked)
		}
	}
}

// A manager folder an earlier uptide filled has no record beside its files
// (that release kept the digests in the cache's completion marker): fix
// fetched nothing and stopped with "remove that folder and run again" on
// every yarn repository without yarn on PATH. The tarball is fetched once
// more for the record, which later runs read without the registry.
func TestRegistryFetchRecordsAnEarlierReleasesFolder(t *testing.T) {
	cacheDir := t.TempDir()
	t.Setenv("UPTIDE_CACHE_DIR", cacheDir)
	reg, err := testregistry.New(fstest.MapFS{})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(map[string]any{"name": "yarn", "version": "1.22.22", "bin": map[string]string{"yarn": "bin/yarn.js"}},
		map[string]string{"bin/yarn.js": "console.log('1.22.22')\n"}); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(cacheDir, "managers", "yarn@1.22.22")
	for name, body := range map[string]string{"bin/yarn.js": "console.log('1.22.22')\n", "package.json": `{"name":"yarn","version":"1.22.22"}`, ".complete": `{"sha512":"the earlier release's"}`} {
		p := filepath.Join(folder, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(reg)
	cfg, err := registry.LoadConfig(t.TempDir(), []string{"npm_config_registry=" + srv.URL, "HOME=" + t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := RegistryFetch(registry.New(registry.Options{Config: cfg}))(context.Background(), "yarn", "1.22.22")
	if err != nil {
		t.Fatal(err)
	}
	if tool.Dir != folder || len(tool.Digests["sha512"]) != 128 {
		t.Fatalf("tool %+v: want %s with the tarball's digests", tool, folder)
	}
	srv.Close()
	again, err := RegistryFetch(registry.New(registry.Options{Config: cfg}))(context.Background(), "yarn", "1.22.22")
	if err != nil || again.Digests["sha512"] != tool.Digests["sha512"] {
		t.Errorf("the next run, registry down: %+v, %v: want the recorded digests", again, err)
	}
}

// A pnpm installed as npm installs it globally (a link on PATH to the bin
// script of the pnpm package) at the version packageManager names is that
// release: its manifest says so, and it is not started to ask. Anything
// else is asked: no packageManager, another version, a wrapper script.
func TestALinkedReleaseIsNotAsked(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "fixtures", "repos", "pnpm-v9"), dir)
	for _, tc := range []struct {
		name, field, pkgVersion string
		wrapper                 bool
		asked                   bool
	}{
		{"a link to the release packageManager names", "pnpm@9.15.9", "9.15.9", false, false},
		{"no packageManager", "", "9.15.9", false, true},
		{"another version", "pnpm@9.15.9", "9.15.8", false, true},
		{"a wrapper script", "pnpm@9.15.9", "9.15.9", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			pkg, marker := filepath.Join(tmp, "lib", "node_modules", "pnpm"), filepath.Join(tmp, "asked")
			if err := os.MkdirAll(filepath.Join(pkg, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			manifest := `{"name":"pnpm","version":"` + tc.pkgVersion + `","bin":{"pnpm":"bin/pnpm.cjs","pnpx":"bin/pnpx.cjs"}}`
			script := filepath.Join(pkg, "bin", "pnpm.cjs")
			if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(script, []byte("#!/bin/sh\necho asked > '"+marker+"'\necho "+tc.pkgVersion+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(tmp, "bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.wrapper {
				err := os.WriteFile(filepath.Join(bin, "pnpm"), []byte("#!/bin/sh\nexec '"+script+"' \"$@\"\n"), 0o755)
				if err != nil {
					t.Fatal(err)
				}
			} else if err := os.Symlink(script, filepath.Join(bin, "pnpm")); err != nil {
				t.Fatal(err)
			}
			r, err := repo.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			r.PackageManagerField = tc.field
			d, err := Detect(context.Background(), dir, r, []string{"PATH=" + bin + ":/usr/bin:/bin"}, nil)
			_, statErr := os.Stat(marker)
			if asked := statErr == nil; asked != tc.asked {
				t.Fatalf("the binary was asked its version: %v, want %v (Detect: %+v, %v)", asked, tc.asked, d, err)
			}
			if !tc.asked && (err != nil || d.Version != "9.15.9" || d.Binary != filepath.Join(bin, "pnpm")) {
				t.Fatalf("Detect = %+v, %v; want pnpm 9.15.9 run from the PATH", d, err)
			}
		})
	}
}
