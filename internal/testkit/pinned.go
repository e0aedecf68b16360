package testkit

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/uptide/uptide/engine/registry"
)

// Pinned returns the directory of the package name@version (a package
// manager the machine does not have, a TypeScript compiler), fetched once
// from the user's configured registry with its integrity verified by the
// engine's own client and kept in the tools folder of the cache, so later
// runs are offline. Unlike NpmTool it holds the package alone, without its
// dependencies: the two must not be asked for the same name@version.
func Pinned(t testing.TB, name, version string) string {
	t.Helper()
	return tool(t, name, version, func(ctx context.Context, label, parent, tmp string) error {
		cfg, err := registry.LoadConfig(os.TempDir(), nil)
		if err != nil {
			return err
		}
		p, err := registry.New(registry.Options{Config: cfg}).Fetch(ctx, name, version)
		if err != nil {
			return fmt.Errorf("%s (fetched once from the npm registry into %s): %w", label, parent, err)
		}
		defer func() { _ = p.Remove() }()
		return os.CopyFS(tmp, os.DirFS(p.Dir))
	})
}
