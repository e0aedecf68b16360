package verify

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/proc"
	"github.com/uptide/uptide/internal/testkit"
)

// writeTree writes files (slash path → content) below a fresh directory.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// needNode fails without node; under -short (the fast lane) it skips, as
// every test that needs node runs real tools.
func needNode(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: runs real tools under node")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is needed on PATH for these tests")
	}
}

// quietEnv is the environment verification runs tools with: quiet, hooks
// pointed at an empty directory, HOME private.
func quietEnv(t testing.TB) []string {
	t.Helper()
	home := t.TempDir()
	hooks := t.TempDir()
	var base []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "npm_config_") || strings.HasPrefix(kv, "NODE_OPTIONS=") {
			continue
		}
		base = append(base, kv)
	}
	return proc.Quiet(append(base, "HOME="+home, "NO_COLOR=1"), hooks)
}

var (
	toolsMu sync.Mutex
	tools   = map[string]string{}
)

// pinnedTool returns the directory of name@version, fetched once from the
// user's configured npm registry with its integrity verified and kept in
// the shared cache; later runs are offline.
func pinnedTool(t testing.TB, name, version string) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: %s installs for real", name)
	}
	toolsMu.Lock()
	defer toolsMu.Unlock()
	label := name + "@" + version
	if dir, ok := tools[label]; ok {
		return dir
	}
	parent, err := cache.Dir("tools")
	if err != nil {
		t.Fatal(err)
	}
	dirName := strings.ReplaceAll(label, "/", "+")
	dir := filepath.Join(parent, dirName)
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cfg, err := registry.LoadConfig(os.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := registry.New(registry.Options{Config: cfg}).Fetch(ctx, name, version)
		if err != nil {
			t.Fatalf("%s (fetched once from the npm registry into %s): %v", label, parent, err)
		}
		defer func() { _ = p.Remove() }()
		tmp, err := os.MkdirTemp(parent, dirName+".tmp-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		copyTree(t, p.Dir, tmp)
		if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		_ = os.RemoveAll(dir)
		if err := os.Rename(tmp, dir); err != nil {
			if _, statErr := os.Stat(filepath.Join(dir, ".complete")); statErr != nil {
				t.Fatal(err)
			}
		}
	}
	tools[label] = dir
	return dir
}

func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		return os.WriteFile(target, data, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// installPrettier puts the pinned prettier into root's node_modules as an
// install would: the package, its bin made executable, and its .bin entry.
func installPrettier(t testing.TB, root string) {
	t.Helper()
	dir := pinnedTool(t, "prettier", "3.3.3")
	pkg := filepath.Join(root, "node_modules", "prettier")
	copyTree(t, dir, pkg)
	if err := os.Chmod(filepath.Join(pkg, "bin", "prettier.cjs"), 0o755); err != nil {
		t.Fatal(err)
	}
	link(t, filepath.Join("..", "prettier", "bin", "prettier.cjs"), filepath.Join(root, "node_modules", ".bin", "prettier"))
}

// installBiome puts the pinned biome binary of this platform at root's
// node_modules/.bin/biome.
func installBiome(t testing.TB, root string) {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Fatalf("the biome test pins the linux-x64 binary; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	dir := pinnedTool(t, "@biomejs/cli-linux-x64", "1.9.4")
	link(t, filepath.Join(dir, "biome"), filepath.Join(root, "node_modules", ".bin", "biome"))
}

func link(t testing.TB, target, at string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

const (
	vitestVersion = "2.1.9"
	eslintVersion = "9.17.0"
)

// installVitest links a pinned vitest into root's node_modules.
func installVitest(t testing.TB, root string) {
	linkModules(t, testkit.NpmTool(t, "vitest", vitestVersion), root)
}

// installESLint links a pinned eslint into root's node_modules.
func installESLint(t testing.TB, root string) {
	linkModules(t, testkit.NpmTool(t, "eslint", eslintVersion), root)
}

// linkModules links each package of a cached install into root's
// node_modules, so what a tool writes under node_modules stays in root.
func linkModules(t testing.TB, dir, root string) {
	t.Helper()
	mods := filepath.Join(dir, "node_modules")
	entries, err := os.ReadDir(mods)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == ".vite" || e.Name() == ".package-lock.json" {
			continue
		}
		link(t, filepath.Join(mods, e.Name()), filepath.Join(root, "node_modules", e.Name()))
	}
}
