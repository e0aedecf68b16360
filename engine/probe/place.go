package probe

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// FetchFunc provides name at the highest version inside rng (an exact
// version is a range too), integrity verified, as an extracted directory
// that stays until the caller's run ends; the probe copies what it needs.
// The checker's registry-backed fetcher has this shape; RegistryFetcher is
// one.
type FetchFunc func(ctx context.Context, name, rng string) (dir, version string, err error)

// Available is a copy the caller already holds (a package Signal B's
// overlay linked), offered before the registry.
type Available struct {
	Name, Version, Dir string
}

// modulesDir is where a package named name lives under a node_modules.
func modulesDir(nodeModules, name string) string {
	return filepath.Join(nodeModules, filepath.FromSlash(name))
}

// consumer finds the consumer's installed copies: the workspace's
// node_modules and its ancestors' up to the repository root, then pnpm's
// hoisted virtual store (node_modules/.pnpm/node_modules), where every
// package of a pnpm install is reachable by name.
type consumer struct {
	dirs []string // node_modules folders, nearest first
}

func newConsumer(repoRoot, workspace string) consumer {
	var c consumer
	if workspace == "" {
		workspace = repoRoot
	}
	if workspace == "" {
		return c
	}
	root := filepath.Clean(repoRoot)
	for d := filepath.Clean(workspace); ; d = filepath.Dir(d) {
		c.dirs = append(c.dirs, filepath.Join(d, "node_modules"))
		if d == root || repoRoot == "" || filepath.Dir(d) == d {
			break
		}
	}
	n := len(c.dirs)
	for _, d := range c.dirs[:n] {
		c.dirs = append(c.dirs, filepath.Join(d, ".pnpm", "node_modules"))
	}
	return c
}

// find is the consumer's copy of name: its real directory and version.
func (c consumer) find(name string) (dir, version string, ok bool) {
	for _, nm := range c.dirs {
		p := modulesDir(nm, name)
		m, err := readManifest(p)
		if err != nil || m.Version == "" {
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		return real, m.Version, true
	}
	return "", "", false
}

// readRoots are the directories a copy at realDir may read while it
// loads: the outermost node_modules holding it (pnpm's store and the
// hoisted packages are all inside), or the copy itself when it is no
// installed package (a workspace link), the node_modules of every
// ancestor, where Node's resolution looks, and the targets of links in
// those that point elsewhere (a workspace package linked into
// node_modules).
func readRoots(realDir string) []string {
	set := map[string]bool{}
	top := realDir
	if i := strings.Index(realDir, string(filepath.Separator)+"node_modules"+string(filepath.Separator)); i >= 0 {
		top = realDir[:i+len("/node_modules")]
	}
	set[top] = true
	var modules []string
	if filepath.Base(top) == "node_modules" {
		modules = append(modules, top)
	}
	for d := filepath.Dir(top); ; d = filepath.Dir(d) {
		nm := filepath.Join(d, "node_modules")
		if st, err := os.Stat(nm); err == nil && st.IsDir() {
			if real, err := filepath.EvalSymlinks(nm); err == nil && !set[real] {
				set[real] = true
				modules = append(modules, real)
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, nm := range modules {
		for _, target := range linkedOut(nm) {
			if !under(target, set) {
				set[target] = true
			}
		}
	}
	return lists.SortedKeys(set)
}

// linkedOut lists where the links directly in a node_modules (and in its
// scope folders) point, resolved.
func linkedOut(nm string) []string {
	var out []string
	entries, err := os.ReadDir(nm)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		p := filepath.Join(nm, e.Name())
		if strings.HasPrefix(e.Name(), "@") && e.IsDir() {
			scoped, _ := os.ReadDir(p)
			for _, s := range scoped {
				if s.Type()&os.ModeSymlink != 0 {
					if real, err := filepath.EvalSymlinks(filepath.Join(p, s.Name())); err == nil {
						out = append(out, real)
					}
				}
			}
			continue
		}
		if e.Type()&os.ModeSymlink != 0 {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				out = append(out, real)
			}
		}
	}
	return out
}

// under says whether p is one of roots or inside one.
func under(p string, roots map[string]bool) bool {
	for r := range roots {
		if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// placer lays a target copy out in a temporary node_modules with the
// dependency tree its manifests declare, npm-style: hoisted to the top
// when the name is free or the copy there fits, else nested under the
// importer.
type placer struct {
	top       string // <tmp>/node_modules
	fetch     FetchFunc
	available []Available
	consumer  consumer
	mu        sync.Mutex // guards reads, the counts and skipped
	reads     map[string]bool
	// counts say where the dependencies came from, for the placement line.
	fromConsumer, fromAvailable, fetched int
	skipped                              []string
}

// placeCopy copies an extracted package to dst: a copy, never a link,
// because Node resolves through real paths and the package's dependencies
// must resolve from where it is placed.
func placeCopy(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, b, 0o644)
		}
		return nil // links and the like: extraction never makes them
	})
}

// link points dst at a consumer's copy; its own dependencies then resolve
// where it is installed.
func link(realDir, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.Symlink(realDir, dst)
}

// placeTree provides every dependency the package at dir declares, and
// theirs in turn. A required dependency that cannot be provided is an
// error naming it; an optional one (optionalDependencies, optional peers)
// is skipped.
func (p *placer) placeTree(ctx context.Context, dir string) error {
	type job struct{ dir string }
	queue := []job{{dir}}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		m, err := readManifest(j.dir)
		if err != nil {
			return err
		}
		type dep struct {
			name, rng string
			optional  bool
			// optionalPeer: npm leaves an optional peer out unless
			// something else brings it, so only a copy at hand serves it.
			optionalPeer bool
		}
		var deps []dep
		for n, r := range m.Dependencies {
			deps = append(deps, dep{n, r, false, false})
		}
		for n, r := range m.OptionalDependencies {
			deps = append(deps, dep{n, r, true, false})
		}
		for n, r := range m.PeerDependencies {
			if _, dup := m.Dependencies[n]; dup {
				continue
			}
			opt := m.PeerDependenciesMeta[n].Optional
			deps = append(deps, dep{n, r, opt, opt})
		}
		sort.Slice(deps, func(a, b int) bool { return deps[a].name < deps[b].name })
		// One package's dependencies have distinct names, so they land in
		// distinct folders: they are provided at once (fetches dominate).
		placed := make([]string, len(deps))
		errs := make([]error, len(deps))
		var wg sync.WaitGroup
		sem := make(chan struct{}, 8)
		for i, d := range deps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				placed[i], errs[i] = p.provide(ctx, j.dir, m.Name, d.name, d.rng, !d.optionalPeer)
			}()
		}
		wg.Wait()
		for i, d := range deps {
			if err := errs[i]; err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if d.optional {
					p.mu.Lock()
					p.skipped = append(p.skipped, d.name)
					p.mu.Unlock()
					continue
				}
				return err
			}
			if placed[i] != "" {
				queue = append(queue, job{placed[i]})
			}
		}
	}
	return nil
}

// provide makes dep resolvable from the package at importerDir: already
// there when a fitting copy is hoisted; else the consumer's copy when it
// satisfies the range (linked, its tree is its own), a copy the caller
// holds, or one fetched, placed at the top when the name is free and
// under the importer when not. It returns the directory of a copy it
// placed whose own dependencies still need providing, "" otherwise.
func (p *placer) provide(ctx context.Context, importerDir, importer, dep, rng string, fetch bool) (string, error) {
	topDir := modulesDir(p.top, dep)
	dst := topDir
	if m, err := readManifest(topDir); err == nil {
		if fits(m.Version, rng) {
			return "", nil
		}
		dst = modulesDir(filepath.Join(importerDir, "node_modules"), dep)
		if m, err := readManifest(dst); err == nil && fits(m.Version, rng) {
			return "", nil
		}
	}
	if real, version, ok := p.consumer.find(dep); ok && fits(version, rng) {
		if err := link(real, dst); err != nil {
			return "", err
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, r := range readRoots(real) {
			p.reads[r] = true
		}
		p.fromConsumer++
		return "", nil
	}
	for _, a := range p.available {
		if a.Name == dep && fits(a.Version, rng) {
			if err := placeCopy(a.Dir, dst); err != nil {
				return "", err
			}
			p.mu.Lock()
			p.fromAvailable++
			p.mu.Unlock()
			return dst, nil
		}
	}
	if p.fetch == nil || !fetch {
		return "", fmt.Errorf("%s %s (required by %s) is not installed at a matching version and nothing can fetch it", dep, rng, importer)
	}
	dir, _, err := p.fetch(ctx, dep, rng)
	if err != nil {
		return "", fmt.Errorf("%s %s (required by %s) could not be fetched: %v", dep, rng, importer, err)
	}
	if err := placeCopy(dir, dst); err != nil {
		return "", err
	}
	p.mu.Lock()
	p.fetched++
	p.mu.Unlock()
	return dst, nil
}

// fits says whether version satisfies rng; a range this code cannot read
// (a tag, a URL, workspace:) accepts any copy rather than fail the load.
func fits(version, rng string) bool {
	r, err := semver.ParseRange(rng)
	if err != nil {
		return true
	}
	return r.Satisfies(version)
}

// unskip forgets that dep was left out, once a load asked for it and got it.
func (p *placer) unskip(dep string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	kept := p.skipped[:0]
	for _, s := range p.skipped {
		if s != dep {
			kept = append(kept, s)
		}
	}
	p.skipped = kept
}

// placement says where the dependencies came from.
func (p *placer) placement() string {
	total := p.fromConsumer + p.fromAvailable + p.fetched
	if total == 0 && len(p.skipped) == 0 {
		return "placed in a temporary node_modules; it declares no dependencies"
	}
	var parts []string
	if p.fromConsumer > 0 {
		parts = append(parts, fmt.Sprintf("%d from your install", p.fromConsumer))
	}
	if p.fromAvailable > 0 {
		parts = append(parts, fmt.Sprintf("%d already fetched", p.fromAvailable))
	}
	if p.fetched > 0 {
		parts = append(parts, fmt.Sprintf("%d from the registry", p.fetched))
	}
	noun := "dependencies"
	if total == 1 {
		noun = "dependency"
	}
	s := fmt.Sprintf("placed in a temporary node_modules with %d %s", total, noun)
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	if len(p.skipped) > 0 {
		sort.Strings(p.skipped)
		s += "; optional left out: " + strings.Join(p.skipped, ", ")
	}
	return s
}

// packageOf is the directory of the package holding file: the nearest
// ancestor with a package.json that names a package.
func packageOf(file string) (string, manifest, bool) {
	for d := filepath.Dir(file); filepath.Dir(d) != d; d = filepath.Dir(d) {
		if m, err := readManifest(d); err == nil && m.Name != "" {
			return d, m, true
		}
	}
	return "", manifest{}, false
}
