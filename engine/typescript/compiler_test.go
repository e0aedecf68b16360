package typescript

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTypeScript installs a stand-in typescript package (a manifest and,
// when withAPI, a lib/typescript.js) under dir/node_modules.
func writeTypeScript(t *testing.T, dir, version string, withAPI bool) string {
	t.Helper()
	ts := filepath.Join(dir, "node_modules", "typescript")
	if err := os.MkdirAll(filepath.Join(ts, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"name":"typescript","version":"` + version + `"}`
	if err := os.WriteFile(filepath.Join(ts, "package.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if withAPI {
		if err := os.WriteFile(filepath.Join(ts, "lib", "typescript.js"), []byte("module.exports = {};\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ts
}

func TestResolveCompiler(t *testing.T) {
	pinned := pinnedCompiler(t) // cached: the fallbacks below need no fetch
	noFetch := func(ctx context.Context, name, version string) (string, error) {
		t.Fatalf("unexpected fetch of %s@%s", name, version)
		return "", nil
	}
	tests := []struct {
		name       string
		version    string // repo's typescript, "" for none
		withAPI    bool
		sub        string // where the resolver starts, below the repo root
		fromRepo   bool
		repoNative string
		repoTooOld string
	}{
		{name: "repo 5.x", version: "5.4.5", withAPI: true, fromRepo: true},
		{name: "repo 4.x from a nested workspace", version: "4.9.5", withAPI: true, sub: "packages/app/src", fromRepo: true},
		{name: "repo 6.x", version: "6.0.2", withAPI: true, fromRepo: true},
		{name: "native 7 uses the pinned compiler", version: "7.0.0", withAPI: false, repoNative: "7.0.0"},
		{name: "a JS API missing is treated as native", version: "6.1.0", withAPI: false, repoNative: "6.1.0"},
		{name: "4.5, the oldest supported", version: "4.5.5", withAPI: true, fromRepo: true},
		{name: "too old: the pinned compiler serves the driver", version: "3.9.10", withAPI: true, repoTooOld: "3.9.10"},
		{name: "4.4 is too old", version: "4.4.4", withAPI: true, repoTooOld: "4.4.4"},
		{name: "none", version: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			var repoTS string
			if tt.version != "" {
				repoTS = writeTypeScript(t, root, tt.version, tt.withAPI)
			}
			start := filepath.Join(root, filepath.FromSlash(tt.sub))
			if err := os.MkdirAll(start, 0o755); err != nil {
				t.Fatal(err)
			}
			c, err := ResolveCompiler(context.Background(), start, noFetch, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.FromRepo != tt.fromRepo || c.RepoNative != tt.repoNative || c.RepoTooOld != tt.repoTooOld {
				t.Fatalf("got %+v, want fromRepo=%v repoNative=%q repoTooOld=%q", c, tt.fromRepo, tt.repoNative, tt.repoTooOld)
			}
			if tt.fromRepo {
				if c.Version != tt.version || !samePath(c.Dir, repoTS) {
					t.Errorf("got %s at %s, want %s at %s", c.Version, c.Dir, tt.version, repoTS)
				}
				return
			}
			if c.Version != PinnedVersion || c.Dir != pinned.Dir {
				t.Errorf("got %s at %s, want the pinned %s at %s", c.Version, c.Dir, PinnedVersion, pinned.Dir)
			}
			if tt.version != "" && !samePath(c.RepoDir, repoTS) {
				t.Errorf("RepoDir %q, want %q", c.RepoDir, repoTS)
			}
		})
	}
}

func samePath(a, b string) bool {
	ra, _ := filepath.EvalSymlinks(a)
	rb, _ := filepath.EvalSymlinks(b)
	return ra == rb
}

func TestResolveCompilerBrokenManifest(t *testing.T) {
	root := t.TempDir()
	ts := filepath.Join(root, "node_modules", "typescript")
	if err := os.MkdirAll(ts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ts, "package.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ResolveCompiler(context.Background(), root, nil, nil)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(ts, "package.json")) {
		t.Fatalf("want an error naming the manifest, got %v", err)
	}
}

// PinnedCompiler fetches once into the cache and verifies what it got, with
// a stand-in fetcher and a cache of its own (no network).
func TestPinnedCompilerFetchesOnce(t *testing.T) {
	t.Setenv("UPTIDE_CACHE_DIR", t.TempDir())
	good := t.TempDir()
	writeFile(t, good, "package.json", `{"name":"typescript","version":"`+PinnedVersion+`"}`)
	writeFile(t, good, "lib/typescript.js", "module.exports = {};\n")
	writeFile(t, good, "lib/lib.es5.d.ts", "interface Array<T> {}\n")
	writeFile(t, good, "lib/tsserver.js", "// not needed by the driver\n")
	wrong := t.TempDir()
	writeFile(t, wrong, "package.json", `{"name":"typescript","version":"5.0.0"}`)
	writeFile(t, wrong, "lib/typescript.js", "")

	var fetches int
	var events []string
	progress := func(msg string, done bool) {
		events = append(events, msg+map[bool]string{true: " done", false: ""}[done])
	}

	bad := func(ctx context.Context, name, version string) (string, error) { fetches++; return wrong, nil }
	if _, err := PinnedCompiler(context.Background(), bad, progress); err == nil || !strings.Contains(err.Error(), "5.0.0") {
		t.Fatalf("a wrong version must be refused, got %v", err)
	}
	failing := func(ctx context.Context, name, version string) (string, error) {
		return "", errors.New("registry down")
	}
	if _, err := PinnedCompiler(context.Background(), failing, nil); err == nil || !strings.Contains(err.Error(), "registry down") {
		t.Fatalf("fetch error must surface, got %v", err)
	}

	fetch := func(ctx context.Context, name, version string) (string, error) {
		fetches++
		if name != PinnedName || version != PinnedVersion {
			t.Errorf("fetched %s@%s", name, version)
		}
		return good, nil
	}
	events = nil
	for i := 0; i < 2; i++ {
		c, err := PinnedCompiler(context.Background(), fetch, progress)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(c.ScriptPath()); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(c.Dir, "lib", "lib.es5.d.ts")); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(c.Dir, "lib", "tsserver.js")); err == nil {
			t.Error("tsserver.js copied into the cache")
		}
	}
	if fetches != 2 { // one refused, one accepted, then the cache
		t.Errorf("%d fetches, want 2", fetches)
	}
	want := []string{"downloading typescript@6.0.3", "downloading typescript@6.0.3 done"}
	if strings.Join(events, "|") != strings.Join(want, "|") {
		t.Errorf("progress %q, want %q", events, want)
	}
	if _, err := PinnedCompiler(context.Background(), nil, nil); err != nil {
		t.Errorf("a cached compiler needs no fetcher: %v", err)
	}
}

func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
