package probe

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/proc"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// The tests load real packages in a real Node: the fixtures' synthetic
// packages, served by the in-process test registry, installed by the real
// npm (and pnpm) into temporary consumers with scripts off.

type testEnv struct {
	reg     *testregistry.Registry
	fetcher *RegistryFetcher
	// vars is a package manager's environment: the test registry only,
	// a private HOME and caches, lifecycle scripts off.
	vars []string
}

func newTestEnv(t testing.TB) *testEnv {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node (20 or newer) is needed on PATH to run the runtime probe")
	}
	reg, err := testregistry.New(os.DirFS(filepath.Join("..", "..", "fixtures", "registry")))
	if err != nil {
		t.Fatal(err)
	}
	url, err := reg.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	home := t.TempDir()
	env := []string{"npm_config_registry=" + url, "HOME=" + home}
	cfg, err := registry.LoadConfig(home, env)
	if err != nil {
		t.Fatal(err)
	}
	f := &RegistryFetcher{Client: registry.New(registry.Options{Config: cfg, CacheDir: filepath.Join(home, "cache")})}
	t.Cleanup(f.Close)
	var base []string
	for _, kv := range os.Environ() {
		k := strings.ToLower(strings.SplitN(kv, "=", 2)[0])
		if strings.HasPrefix(k, "npm_config_") || strings.HasPrefix(k, "pnpm_") || k == "home" || strings.HasPrefix(k, "xdg_") {
			continue
		}
		base = append(base, kv)
	}
	base = append(base,
		"HOME="+home,
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"npm_config_registry="+url,
		"npm_config_cache="+filepath.Join(home, ".npm"),
		"npm_config_store_dir="+filepath.Join(home, ".pnpm-store"),
	)
	hooks := filepath.Join(home, "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	return &testEnv{reg: reg, fetcher: f, vars: proc.Quiet(base, hooks)}
}

// consumer is a temporary repository with deps installed by argv[0]
// (npm, or the path of pnpm's script).
func (e *testEnv) consumer(t testing.TB, argv []string, deps ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"consumer","version":"1.0.0","private":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := append(append([]string{}, argv...), deps...)
	res, err := proc.Run(ctx, proc.Cmd{Argv: cmd, Dir: dir, Env: e.vars})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%s in %s: %v (exit %d)\n%s", strings.Join(cmd, " "), dir, err, res.ExitCode, res.Output)
	}
	return dir
}

func npmInstall() []string {
	return []string{"npm", "install", "--ignore-scripts", "--no-audit", "--no-fund"}
}

// pnpmInstall is the pinned pnpm, fetched once (integrity verified) from
// the configured npm registry into the cache's tools folder, where
// fix/managers' tests keep it too.
func pnpmInstall(t testing.TB) []string {
	t.Helper()
	const label = "pnpm@9.15.9"
	parent, err := cache.Dir("tools")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := cache.Fill(parent, label, func(tmp string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cfg, err := registry.LoadConfig(os.TempDir(), nil)
		if err != nil {
			return err
		}
		p, err := registry.New(registry.Options{Config: cfg}).Fetch(ctx, "pnpm", "9.15.9")
		if err != nil {
			return err
		}
		defer func() { _ = p.Remove() }()
		return placeCopy(p.Dir, tmp)
	})
	if err != nil {
		t.Fatalf("%s (fetched once from the npm registry into %s): %v", label, parent, err)
	}
	return []string{"node", filepath.Join(dir, "bin", "pnpm.cjs"), "add", "--ignore-scripts", "--config.auto-install-peers=false"}
}

// request is a probe of name from the consumer's install to target.
func (e *testEnv) request(t testing.TB, repo, name, installed, target string) Request {
	return Request{
		Name: name, RepoRoot: repo,
		Installed: Copy{Version: installed}, Target: Copy{Version: target},
		Fetch:    e.fetcher.Fetch,
		CacheDir: t.TempDir(),
		TempDir:  t.TempDir(),
	}
}

type Change = model.RuntimeChange

// findChange finds a change by kind, loader and key.
func findChange(res []Change, kind, loader, key string) (Change, bool) {
	for _, c := range res {
		if string(c.Kind) == kind && string(c.Loader) == loader && c.Key == key {
			return c, true
		}
	}
	return Change{}, false
}
