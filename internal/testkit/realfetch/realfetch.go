// Package realfetch owns the tests' one way of fetching a pinned tool (the
// TypeScript compiler) from the registry the user's configuration names,
// its integrity verified by the engine's own client, and of removing the
// extracted copies when the tests end.
package realfetch

import (
	"context"
	"os"
	"sync"

	"github.com/uptide/uptide/engine/registry"
)

// New returns a fetch function (a typescript.FetchFunc) and the cleanup
// removing every copy it extracted.
func New() (fetch func(ctx context.Context, name, version string) (string, error), cleanup func()) {
	var mu sync.Mutex
	var fetched []*registry.Package
	fetch = func(ctx context.Context, name, version string) (string, error) {
		cfg, err := registry.LoadConfig(os.TempDir(), nil)
		if err != nil {
			return "", err
		}
		p, err := registry.New(registry.Options{Config: cfg}).Fetch(ctx, name, version)
		if err != nil {
			return "", err
		}
		mu.Lock()
		fetched = append(fetched, p)
		mu.Unlock()
		return p.Dir, nil
	}
	cleanup = func() {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range fetched {
			_ = p.Remove()
		}
		fetched = nil
	}
	return fetch, cleanup
}
