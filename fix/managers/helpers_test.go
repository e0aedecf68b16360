package managers

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/proc"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// The tests run the real package managers in copies of small fixtures,
// against the in-process test registry only: npm from PATH, pnpm and yarn
// fetched once as pinned tools into the shared cache.

const (
	pnpmVersion  = "9.15.9"
	yarnVersion  = "1.22.22"
	berryVersion = "4.18.1"
)

var (
	toolsMu sync.Mutex
	tools   = map[string]string{}
)

// pinnedTool returns the directory of name@version, fetched once with its
// integrity verified through the engine's registry client (the user's
// configured registry) and kept in the cache; later runs are offline.
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
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if info, err := d.Info(); err == nil && info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		return os.WriteFile(target, data, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// startRegistry serves fixtures/registry on a loopback port.
func startRegistry(t testing.TB) *testregistry.Registry {
	t.Helper()
	reg, err := testregistry.New(os.DirFS("../../fixtures/registry"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	return reg
}

// testEnv is a quiet environment whose only registry is the test
// registry: a private HOME and caches, no npm_config_* from outside, and a
// PATH whose first directory holds wrappers named npm, pnpm and yarn for
// the pinned binaries (which manager is "yarn" is the caller's choice).
type testEnv struct {
	vars []string
	home string
	bin  string
	// traps is where trap-scripts' lifecycle scripts would drop markers.
	traps string
}

// assertNoTraps fails when any lifecycle script ran: trap-scripts drops
// TRAP-* in the trap directory and its install directory, the fixtures'
// own root scripts in the repository.
func (e testEnv) assertNoTraps(t testing.TB, dir string) {
	t.Helper()
	for _, root := range []string{e.traps, dir} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasPrefix(d.Name(), "TRAP-") {
				t.Errorf("a lifecycle script ran: %s", p)
			}
			return nil
		})
	}
}

// newEnv builds the environment; yarn is "", "classic" or "berry".
func newEnv(t testing.TB, reg *testregistry.Registry, yarn string) testEnv {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the package managers install for real")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is needed on PATH")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("npm is needed on PATH")
	}
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrap := func(name, target string) {
		script := "#!/bin/sh\nexec " + target + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wrap("npm", npm)
	wrap("pnpm", "node "+filepath.Join(pinnedTool(t, "pnpm", pnpmVersion), "bin", "pnpm.cjs"))
	switch yarn {
	case "classic":
		wrap("yarn", "node "+filepath.Join(pinnedTool(t, "yarn", yarnVersion), "bin", "yarn.js"))
	case "berry":
		wrap("yarn", "node "+filepath.Join(pinnedTool(t, "@yarnpkg/cli-dist", berryVersion), "bin", "yarn.js"))
	}
	var base []string
	for _, kv := range os.Environ() {
		k := strings.ToLower(strings.SplitN(kv, "=", 2)[0])
		if strings.HasPrefix(k, "npm_config_") || strings.HasPrefix(k, "yarn_") || strings.HasPrefix(k, "pnpm_") ||
			k == "home" || k == "path" || k == "xdg_cache_home" || k == "xdg_config_home" || k == "xdg_data_home" {
			continue
		}
		base = append(base, kv)
	}
	url := reg.URL()
	base = append(base,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home,
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"npm_config_registry="+url,
		"npm_config_cache="+filepath.Join(home, ".npm"),
		"npm_config_store_dir="+filepath.Join(home, ".pnpm-store"),
		"npm_config_fetch_retries=0",
		"YARN_CACHE_FOLDER="+filepath.Join(home, ".yarn-cache"),
		"YARN_NPM_REGISTRY_SERVER="+strings.TrimSuffix(url, "/"),
		"YARN_UNSAFE_HTTP_WHITELIST=127.0.0.1",
		"YARN_GLOBAL_FOLDER="+filepath.Join(home, ".berry"),
		"YARN_ENABLE_GLOBAL_CACHE=1",
		"YARN_IGNORE_PATH=1",
		"COREPACK_ENABLE_STRICT=0",
		"DO_NOT_TRACK=1",
	)
	traps := filepath.Join(home, "traps")
	if err := os.MkdirAll(traps, 0o755); err != nil {
		t.Fatal(err)
	}
	base = append(base, "UPTIDE_TRAP_DIR="+traps)
	hooks := filepath.Join(home, "empty-hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	return testEnv{vars: proc.Quiet(base, hooks), home: home, bin: bin, traps: traps}
}

// copyFixture copies testdata/<name> into a temporary directory.
func copyFixture(t testing.TB, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	copyTree(t, filepath.Join("testdata", name), dst)
	return dst
}

// sh runs a manager command in dir for the fixture's set-up (the first
// install that writes the lockfile), failing the test on a non-zero exit.
func (e testEnv) sh(t testing.TB, dir string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := append([]string{filepath.Join(e.bin, argv[0])}, argv[1:]...)
	res, err := proc.Run(ctx, proc.Cmd{Argv: cmd, Dir: dir, Env: testManager(t, argv[0]).Env(e.vars)})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%s in %s: %v (exit %d)\n%s", strings.Join(argv, " "), dir, err, res.ExitCode, res.Output)
	}
	return res.Output
}

// testManager is the manager name names.
func testManager(t testing.TB, name string) Manager {
	t.Helper()
	m, ok := ByName(name)
	if !ok {
		t.Fatalf("no manager is named %q", name)
	}
	return m
}
