package cli

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fixtures"
	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/demoprovider"
	"github.com/uptide/uptide/internal/proc"
	"github.com/uptide/uptide/internal/registryserver"
	"github.com/uptide/uptide/tui"
	"github.com/uptide/uptide/tui/review"
)

// DemoOptions are the inputs of `uptide demo`.
type DemoOptions struct {
	*Globals
	All bool
}

func newDemoCmd(g *Globals) *cobra.Command {
	o := &DemoOptions{Globals: g}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Uptide on a bundled demo repository and an in-process registry",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd, o)
		},
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "show minor and patch updates too")
	return cmd
}

// runDemo copies the embedded demo repository into a temporary directory,
// serves the embedded packages from an in-process registry, and runs the
// same planner (in a terminal) or list as on a real repository. Nothing is
// written outside that temporary directory.
func runDemo(cmd *cobra.Command, o *DemoOptions) error {
	tmp, err := os.MkdirTemp("", "uptide-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "acme")
	if err := copyFS(dir, fixtures.DemoRepo()); err != nil {
		return fmt.Errorf("demo repository: %w", err)
	}
	reg, err := registryserver.New(fixtures.Registry())
	if err != nil {
		return fmt.Errorf("demo registry: %w", err)
	}
	url, err := reg.Start()
	if err != nil {
		return fmt.Errorf("demo registry: %w", err)
	}
	defer reg.Close()

	// Only the demo registry is configured: no user .npmrc takes part.
	userrc := filepath.Join(tmp, "npmrc")
	if err := os.WriteFile(userrc, nil, 0o644); err != nil {
		return err
	}
	cfg, err := registry.LoadConfig(dir, []string{"npm_config_registry=" + url, "NPM_CONFIG_USERCONFIG=" + userrc})
	if err != nil {
		return err
	}
	client := registry.New(registry.Options{Config: cfg, CacheDir: filepath.Join(tmp, "cache")})
	if ok, _ := interactive(o.Globals); ok {
		live := &tui.Live{Cwd: dir, Env: demoEnv(o.Env, tmp, url, userrc), Client: client,
			Compiler: func() *registry.Client { return compilerClient(o.Globals) },
			Prepare: func(ctx context.Context) (string, error) {
				return installDemo(ctx, tmp, url, userrc, o.Env.Get("PATH"))
			},
			// fix's clones stay in the demo's temporary directory too.
			RunsRoot: filepath.Join(tmp, "runs"),
			NewQueue: demoQueue(filepath.Join(tmp, "reviews")),
		}
		return runTUI(cmd.Context(), o.Globals, live)
	}
	lo := &ListOptions{Globals: o.Globals, All: o.All}
	lo.Cwd = dir
	return list(cmd.Context(), lo, client, "demo")
}

// demoBudget is the demo's nominal budget: its scripted replies cost
// nothing, so the meter stays at $0.00 of it.
const demoBudget = 1.0

// demoQueue is the review queue of a demo fix run: the assisted fixer's
// queue over the scripted provider, validating each reply on the upgraded
// clone like a model's. The accepted set is kept in dir (the demo's
// temporary directory) after every decision, so a review left before its
// hand-off is taken up again by the next f, for as long as the demo runs.
func demoQueue(dir string) func(ctx context.Context, in fix.AssistInput) (review.Source, int, error) {
	return func(ctx context.Context, in fix.AssistInput) (review.Source, int, error) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, 0, err
		}
		file := filepath.Join(dir, strings.ReplaceAll(in.Package, "/", "__")+"@"+in.To+".json")
		saved, err := readReview(file, in.Package, in.To)
		if err != nil {
			return nil, 0, err
		}
		return reviewQueue(ctx, in, demoprovider.New(in.Read), demoBudget, file, saved)
	}
}

// demoEnv is the environment of the demo's checks and fix runs: the
// user's, with npm's configuration replaced by the demo's (its registry,
// an empty user .npmrc, a cache in tmp), so the npm fix runs in its clone
// asks only the demo registry, as installDemo's does.
func demoEnv(base []string, tmp, url, userrc string) []string {
	var env []string
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(strings.ToLower(name), "npm_config_") {
			env = append(env, kv)
		}
	}
	return append(env, npmDemoVars(tmp, url, userrc)...)
}

func npmDemoVars(tmp, url, userrc string) []string {
	return []string{
		"npm_config_registry=" + url,
		"npm_config_userconfig=" + userrc,
		"npm_config_cache=" + filepath.Join(tmp, "npm-cache"),
		"npm_config_replace_registry_host=always",
		"npm_config_update_notifier=false",
		"npm_config_fetch_retries=0",
		"npm_config_loglevel=error",
	}
}

// installDemo copies the demo repository to a directory of its own, makes
// it a git repository with one commit (fix branches from a commit; the
// branch it publishes lands here, never in the user's repositories), and
// installs it there from the in-process registry with the real npm, as a
// check needs node_modules. Lifecycle scripts are off, and HOME, npm's
// configuration and cache point into tmp, so only the demo registry is
// asked and nothing is written outside tmp. The lockfile's resolved URLs
// name the port the fixtures were recorded on; npm is told to swap in the
// demo registry's. path is the PATH npm and git run with.
func installDemo(ctx context.Context, tmp, url, userrc, path string) (string, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("the demo check installs its repository with npm, which is not on PATH: install Node.js and npm")
	}
	dir := filepath.Join(tmp, "installed", "acme")
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := copyFS(dir, fixtures.DemoRepo()); err != nil {
		return "", fmt.Errorf("demo repository: %w", err)
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return "", err
	}
	if err := commitDemo(ctx, dir, home, path); err != nil {
		return "", err
	}
	// proc.Run keeps only the tail of what npm prints.
	res, err := proc.Run(ctx, proc.Cmd{Argv: []string{npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"}, Dir: dir,
		Env: append([]string{"PATH=" + path, "HOME=" + home}, npmDemoVars(tmp, url, userrc)...)})
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("exit status %d", res.ExitCode)
	}
	if err != nil {
		msg := strings.TrimSpace(res.Output)
		if i := strings.LastIndex(msg, "\n"); i >= 0 && len(msg) > 300 {
			msg = msg[i+1:]
		}
		return "", fmt.Errorf("installing the demo repository with npm ci: %v: %s", err, msg)
	}
	return dir, nil
}

// commitDemo makes dir a git repository on main with everything in it
// committed by a demo identity, node_modules ignored through
// .git/info/exclude (the tree stays the fixture's). No configuration of
// the user's takes part: no global or system config, no hooks.
func commitDemo(ctx context.Context, dir, home, path string) error {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		return fmt.Errorf("the demo's fix works on a git branch, and git is not on PATH: install git")
	}
	hooks := filepath.Join(home, "no-hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		return err
	}
	env := []string{"PATH=" + path, "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z"}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.name", "Uptide demo"},
		{"config", "user.email", "demo@uptide.invalid"},
		{"config", "core.hooksPath", hooks},
		{"config", "commit.gpgsign", "false"},
	} {
		if err := runGit(ctx, gitBin, dir, env, args...); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("node_modules/\n"), 0o644); err != nil {
		return err
	}
	if err := runGit(ctx, gitBin, dir, env, "add", "-A"); err != nil {
		return err
	}
	return runGit(ctx, gitBin, dir, env, "commit", "-q", "-m", "the demo repository")
}

func runGit(ctx context.Context, gitBin, dir string, env []string, args ...string) error {
	res, err := proc.Run(ctx, proc.Cmd{Argv: append([]string{gitBin}, args...), Dir: dir, Env: env})
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("exit status %d", res.ExitCode)
	}
	if err != nil {
		return fmt.Errorf("preparing the demo repository: git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(res.Output))
	}
	return nil
}

// compilerClient reaches the user's own registry, for the one package the
// demo registry does not serve: the pinned TypeScript, fetched once into
// the shared cache like on any other run. Nil when no registry is
// configured; the check then says the compiler could not be fetched.
func compilerClient(g *Globals) *registry.Client {
	cfg, err := registry.LoadConfig(g.Cwd, g.Env)
	if err != nil {
		return nil
	}
	root, _ := cache.RootOf(g.Env)
	return registry.New(registry.Options{Config: cfg, CacheDir: root})
}

// copyFS writes every file of fsys under dir.
func copyFS(dir string, fsys fs.FS) error {
	return fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(path))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
