package probe

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/semver"
)

// RegistryFetcher is a FetchFunc over the engine's registry client: the
// highest published version inside a range, its tarball verified and
// extracted. It keeps every extracted copy until Close.
type RegistryFetcher struct {
	Client *registry.Client

	mu   sync.Mutex
	pkgs []*registry.Package
}

// Fetch is the FetchFunc.
func (f *RegistryFetcher) Fetch(ctx context.Context, name, rng string) (string, string, error) {
	version, ok := semver.Exact(rng)
	if !ok {
		p, err := f.Client.Packument(ctx, name, false)
		if err != nil {
			return "", "", err
		}
		versions := make([]string, 0, len(p.Versions))
		for v := range p.Versions {
			versions = append(versions, v)
		}
		sort.Strings(versions)
		if version, ok = semver.MaxSatisfying(versions, rng); !ok {
			return "", "", fmt.Errorf("no published version of %s satisfies %s", name, rng)
		}
	}
	pkg, err := f.Client.Fetch(ctx, name, version)
	if err != nil {
		return "", "", err
	}
	f.mu.Lock()
	f.pkgs = append(f.pkgs, pkg)
	f.mu.Unlock()
	return pkg.Dir, pkg.Version, nil
}

// Close removes the extracted copies.
func (f *RegistryFetcher) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.pkgs {
		_ = p.Remove()
	}
	f.pkgs = nil
}
