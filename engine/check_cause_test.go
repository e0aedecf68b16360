package engine

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/testkit/realfetch"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// TestCheckTracedErrorsAreDownstreamOfTheirUsage: zod 4 removed
// ZodError#errors; the callbacks mapped over it get TS7006, which the
// driver traces back to the usage of errors (in the same line, and through
// a repository function from another file). Each is downstream evidence of
// the removed member's finding at that usage, not a break of its own.
func TestCheckTracedErrorsAreDownstreamOfTheirUsage(t *testing.T) {
	dir, env, client := installFixture(t, "npm-causes")
	rep, err := Check(context.Background(), CheckOptions{
		Cwd: dir, Env: env, Client: client,
		Packages: []string{"zod"}, Targets: map[string]string{"zod": "4.1.12"}, Compile: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Packages) != 1 {
		t.Fatalf("%d reports, want 1", len(rep.Packages))
	}
	p := rep.Packages[0]
	var got []string
	for _, f := range p.Findings {
		if f.Severity != model.Breaking {
			continue
		}
		got = append(got, fmt.Sprintf("%s %s %s:%d evidence %s downstream %s", f.Change, f.SymbolPath, f.File, f.Line, codes(f.Evidence), codes(f.Downstream)))
	}
	sort.Strings(got)
	want := []string{
		"removed ZodError#errors src/user.ts:15 evidence TS2339@src/user.ts:15 downstream TS7006@src/report.ts:5",
		"removed ZodError#errors src/user.ts:8 evidence TS2339@src/user.ts:8 downstream TS7006@src/user.ts:8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("breaking findings\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if p.Counts.Breaking != len(want) {
		t.Errorf("%d breaking counted, want %d (a downstream error is counted with its finding)", p.Counts.Breaking, len(want))
	}
}

func codes(ds []model.Diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("TS%d@%s:%d", d.Code, d.File, d.Line))
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ",")
}

// installFixture copies fixtures/check/<name> into a temporary directory and
// installs it with the real npm from the test registry (scripts off, HOME
// isolated). The judging compiler is the pinned one, linked into a private
// cache. It returns the repository, the environment and a registry client.
func installFixture(t *testing.T, name string) (string, []string, *registry.Client) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("this test installs a fixture with the real npm, which is not on PATH: %v", err)
	}
	pinned := pinnedCompiler(t)
	cacheDir := t.TempDir()
	if err := os.Symlink(filepath.Dir(pinned.Dir), filepath.Join(cacheDir, "compilers")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("UPTIDE_CACHE_DIR", cacheDir)

	dir := t.TempDir()
	src := filepath.Join("..", "fixtures", "check", name)
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}

	reg, err := testregistry.New(os.DirFS(filepath.Join("..", "fixtures", "registry")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	home := t.TempDir()
	env := []string{"npm_config_registry=" + reg.URL(), "HOME=" + home}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--ignore-scripts", "--no-audit", "--no-fund", "--registry", reg.URL())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "npm_config_cache="+filepath.Join(home, ".npm"), "npm_config_update_notifier=false", "npm_config_registry="+reg.URL())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("npm install in %s: %v\n%s", dir, err, out.String())
	}
	cfg, err := registry.LoadConfig(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	return dir, env, registry.New(registry.Options{Config: cfg})
}

// pinnedCompiler is the pinned TypeScript, fetched from the npm registry
// into the shared cache the first time (as every TypeScript test does).
// Under -short (the fast lane) it skips: whoever needs it compiles for
// real.
func pinnedCompiler(t testing.TB) *typescript.Compiler {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: compiles with the pinned TypeScript")
	}
	fetch, cleanup := realfetch.New()
	defer cleanup()
	c, err := typescript.PinnedCompiler(context.Background(), fetch, nil)
	if err != nil {
		t.Fatalf("the pinned compiler: %v", err)
	}
	return c
}

// Check hands the caller the registry credentials its client holds, so the
// report (whose compiler messages quote the repository's code) can be
// masked of them as fix's is.
func TestCheckTellsTheCallerTheRegistrySecrets(t *testing.T) {
	const token = "npm_e2e_registry_token_9c1d"
	dir, env, _ := installFixture(t, "npm-causes")
	env = append(env, "NPM_TOKEN="+token)
	cfg, err := registry.LoadConfig(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	secrets := redact.New()
	if _, err := Check(context.Background(), CheckOptions{
		Cwd: dir, Env: env, Client: registry.New(registry.Options{Config: cfg}), Secrets: secrets,
		Packages: []string{"zod"}, Targets: map[string]string{"zod": "4.1.12"},
	}); err != nil {
		t.Fatal(err)
	}
	if got := secrets.String("token " + token); strings.Contains(got, token) {
		t.Errorf("the caller's secrets do not hold the registry token: %q", got)
	}
}
