package check

import (
	"context"
	"fmt"
	"github.com/uptide/uptide/engine/event"
	"path/filepath"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/lists"
)

// surfaces is the adapter surfaces are extracted with: the pinned
// compiler, so the surface cache is shared across repositories.
func (c *checker) surfaces(ctx context.Context) (*typescript.Adapter, error) {
	c.pinnedMu.Lock()
	defer c.pinnedMu.Unlock()
	if c.pinned == nil && c.pinnedErr == nil {
		c.pinned, c.pinnedErr = pinnedAdapter(ctx, c.compilerClient(), c.opts.Events)
	}
	return c.pinned, c.pinnedErr
}

// compilerClient is the client the pinned compiler is fetched through.
func (c *checker) compilerClient() *registry.Client {
	if c.opts.CompilerClient != nil {
		return c.opts.CompilerClient
	}
	return c.client
}

// judge is the adapter of a workspace's own compiler (its
// node_modules/typescript or the nearest above), which finds usages and
// compiles; the pinned one when the repository installs none. Each slot
// of the units analyzed at once (slots.go) has a driver of its own.
func (c *checker) judge(ctx context.Context, ws string) (*typescript.Adapter, error) {
	c.judgeMu.Lock()
	defer c.judgeMu.Unlock()
	dir := filepath.Join(c.root, filepath.FromSlash(ws))
	var fetched []*registry.Package
	fetch := func(ctx context.Context, name, version string) (string, error) {
		p, err := c.compilerClient().Fetch(ctx, name, version)
		if err != nil {
			return "", err
		}
		fetched = append(fetched, p)
		return p.Dir, nil
	}
	compiler, err := typescript.ResolveCompiler(ctx, dir, fetch, func(msg string, done bool) {
		c.opts.Events.Emit(event.Event{Phase: event.PhaseCompiler, Package: msg, Finished: done})
	})
	for _, p := range fetched {
		_ = p.Remove()
	}
	if err != nil {
		return nil, fmt.Errorf("the TypeScript compiler of %s: %w", dir, err)
	}
	if !compiler.FromRepo && compiler.RepoNative == "" && compiler.RepoTooOld == "" {
		return c.surfaces(ctx)
	}
	slot := slotOf(ctx)
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%d", compiler.Dir, compiler.RepoNative, compiler.RepoTooOld, slot)
	if a, ok := c.adapters[key]; ok {
		return a, nil
	}
	if c.adapters == nil {
		c.adapters = map[string]*typescript.Adapter{}
	}
	if c.opts.Drivers != nil && compiler.FromRepo && slot == 0 {
		a, err := c.opts.Drivers.Adapter(compiler)
		if err != nil {
			return nil, fmt.Errorf("the TypeScript compiler of %s: %w", dir, err)
		}
		if c.shared == nil {
			c.shared = map[*typescript.Adapter]bool{}
		}
		c.adapters[key], c.shared[a] = a, true
		return a, nil
	}
	a := typescript.New(compiler, typescript.Options{})
	c.adapters[key] = a
	return a, nil
}

// fetch downloads one exact version (or dist-tag) and gives the cache's
// shared copy of its contents: check only reads it (surfaces, the type
// comparison, overlays link it).
func (c *checker) fetch(ctx context.Context, name, version string) (*registry.Package, error) {
	p, err := c.client.Shared(ctx, name, version)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.fetched = append(c.fetched, p)
	c.mu.Unlock()
	return p, nil
}

// fetchRange is the overlay's RangeFetchFunc: the highest published version
// inside rng, which an exact pin names itself.
func (c *checker) fetchRange(ctx context.Context, name, rng string) (string, string, error) {
	version, _, err := c.pick(ctx, name, rng)
	if err != nil {
		return "", "", err
	}
	pkg, err := c.fetch(ctx, name, version)
	if err != nil {
		return "", "", err
	}
	return pkg.Dir, pkg.Version, nil
}

// releaseFor is the overlay's ReleaseFunc: the release a fresh resolution
// of rng gives (the lockfile's, for a manager that keeps its entries), with
// its dependencies and optional dependencies, from the registry's metadata.
func (c *checker) releaseFor(ctx context.Context, name, rng string) (string, map[string]string, error) {
	if v, ok := c.locked(name, rng); ok {
		rng = v
	}
	version, rel, err := c.pick(ctx, name, rng)
	if err != nil {
		return "", nil, err
	}
	if rel == nil {
		p, err := c.client.Packument(ctx, name, false)
		if err != nil {
			return "", nil, err
		}
		r, ok := p.Versions[version]
		if !ok {
			return "", nil, fmt.Errorf("%s has no published version %s", name, version)
		}
		rel = &r
	}
	deps := map[string]string{}
	for _, m := range []map[string]string{rel.OptionalDependencies, rel.Dependencies} {
		for k, v := range m {
			deps[k] = v
		}
	}
	return version, deps, nil
}

// pick is the highest published version inside rng, and its release when
// the metadata was read for it (an exact pin needs none).
func (c *checker) pick(ctx context.Context, name, rng string) (string, *model.Release, error) {
	if version, ok := semver.Exact(rng); ok {
		return version, nil, nil
	}
	p, err := c.client.Packument(ctx, name, false)
	if err != nil {
		return "", nil, err
	}
	versions := lists.SortedKeys(p.Versions)
	version, ok := semver.MaxSatisfying(versions, rng)
	if !ok {
		return "", nil, fmt.Errorf("no published version of %s satisfies %s", name, rng)
	}
	rel := p.Versions[version]
	return version, &rel, nil
}
