package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/fixtures"
	"github.com/uptide/uptide/internal/testregistry"
	"github.com/uptide/uptide/tui"
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
		Short: "Uptide on a bundled demo repository and an in-process registry, offline",
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
	reg, err := testregistry.New(fixtures.Registry())
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
		return runTUI(cmd.Context(), o.Globals, &tui.Live{Cwd: dir, Client: client})
	}
	lo := &ListOptions{Globals: o.Globals, All: o.All}
	lo.Cwd = dir
	return list(cmd.Context(), lo, client, "demo")
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
