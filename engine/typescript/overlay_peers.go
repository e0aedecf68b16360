package typescript

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// peerDecl is a peer a package declares and does not also depend on.
type peerDecl struct {
	optional bool
}

// peerOnly reads the peers of the package in dir that are not also among
// its dependencies or optional dependencies (those are installed either
// way), with peerDependenciesMeta's optional flag.
func peerOnly(dir string) (map[string]peerDecl, error) {
	m, err := readDeps(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]peerDecl{}
	for n := range m.PeerDependencies {
		if _, dep := m.Dependencies[n]; dep {
			continue
		}
		if _, dep := m.OptionalDependencies[n]; dep {
			continue
		}
		out[n] = peerDecl{optional: m.PeerDependenciesMeta[n].Optional}
	}
	return out, nil
}

// keeps reports whether the upgraded install still has name where a
// linked package finds it, when the manager does not add missing peers:
// the workspace (or a manifest above it, up to the repository root)
// declares it, or an installed package that does not move depends on it
// (hoisted next to it, or in pnpm's virtual store).
func (o *Overlay) keeps(name string) bool {
	for _, dir := range o.manifestDirs() {
		if declares(dir, name) {
			return true
		}
	}
	if o.dependents == nil {
		o.dependents = o.indexDependents()
	}
	for _, d := range o.dependents[name] {
		if o.moves(d.Name) || !o.stays(d.Dir) {
			// Its installed release goes away with the upgrade.
			continue
		}
		if d.Name != name {
			return true
		}
	}
	return false
}

// moves: name is a target or a companion of the overlay.
func (o *Overlay) moves(name string) bool {
	i, linked := o.byName[name]
	return linked && (o.links[i].Origin == OriginTarget || o.links[i].Origin == OriginCompanion)
}

// lockedVersion is the version the lockfile already resolves name@rng to,
// when the manager keeps its lockfile's entries: it installs that one
// again for a package the upgrade brings that declares the range.
func (o *Overlay) lockedVersion(name, rng string) (string, bool) {
	if !o.req.Copies.KeepsLocked || o.req.Copies.Locked == nil {
		return "", false
	}
	v, ok := o.req.Copies.Locked(name, rng)
	if !ok || !semver.Satisfies(v, rng) {
		return "", false
	}
	return v, true
}

// lockedElsewhere: the install gives name@rng the lockfile's version, not
// the installed copy at version that the range also admits.
func (o *Overlay) lockedElsewhere(name, rng, version string) bool {
	v, ok := o.lockedVersion(name, rng)
	return ok && v != version
}

// stays reports whether the installed package in dir is still installed
// after the upgrade: a manifest of the repository declares it, a package
// that stays depends on it (Node's resolution from that package reaches
// it), or a moved package's new release does at a range its version
// meets. One that only the moved packages' old releases needed goes with
// them (@storybook/addon-docs 8.0.9 under addon-essentials 8.0.9 → 8.6.19).
// A package outside node_modules (a workspace) always stays.
func (o *Overlay) stays(dir string) bool {
	if !strings.Contains(filepath.ToSlash(dir), "/node_modules/") {
		return true
	}
	if o.alive == nil {
		o.alive = o.aliveDirs()
	}
	if o.alive[""] {
		// The walk was cut short: every package is taken to stay.
		return true
	}
	return o.alive[dir]
}

// aliveDirs walks the installed packages from what the manifests declare
// and what the moved packages' new releases depend on, through the
// dependencies of every package that does not move. The "" key says the
// walk was bounded before it ended.
func (o *Overlay) aliveDirs() map[string]bool {
	alive := map[string]bool{}
	var queue []string
	reach := func(from, name, rng string) {
		if o.moves(name) || o.members[name] {
			return
		}
		dir, version, ok := resolveFrom(from, name)
		if !ok || alive[dir] {
			return
		}
		if rng != "" {
			if _, err := semver.ParseRange(rng); err == nil && !semver.Satisfies(version, rng) {
				return
			}
		}
		alive[dir] = true
		queue = append(queue, dir)
	}
	read := false
	for _, d := range o.manifestDirs() {
		m, err := readDeps(d)
		if err != nil {
			continue
		}
		read = true
		for _, deps := range []map[string]string{m.Dependencies, m.DevDependencies, m.OptionalDependencies, m.PeerDependencies} {
			for n := range deps {
				reach(d, n, "")
			}
		}
	}
	if !read {
		// No manifest says what the repository asks for.
		return map[string]bool{"": true}
	}
	for _, l := range o.links {
		if l.Origin != OriginTarget && l.Origin != OriginCompanion {
			continue
		}
		for n, r := range regularDeps(l.Dir) {
			reach(o.req.Workspace, n, r)
		}
	}
	for len(queue) > 0 {
		if len(alive) > maxIndexed {
			return map[string]bool{"": true}
		}
		dir := queue[0]
		queue = queue[1:]
		m, err := readDeps(dir)
		if err != nil {
			continue
		}
		for _, deps := range []map[string]string{m.Dependencies, m.OptionalDependencies, m.PeerDependencies} {
			for n := range deps {
				reach(dir, n, "")
			}
		}
	}
	return alive
}

// dependent is an installed package depending on another, with its range.
type dependent struct {
	Name, Dir, Range string
}

// nestedFor are the directories of the installed packages that stay and
// keep a copy of l's installed line after the upgrade instead of being
// deduped to the target: every manager nests one for a dependent whose own
// range excludes l's new version, and a manager that keeps its lockfile's
// entries (CopyRule.KeepsLocked) leaves every dependent on the copy it
// has. The caller holds o.mu.
func (o *Overlay) nestedFor(l OverlayLink) []string {
	if l.Version == "" {
		return nil
	}
	if o.dependents == nil {
		o.dependents = o.indexDependents()
	}
	var out []string
	var locked []dependent
	for _, d := range o.dependents[l.Name] {
		if d.Dir == "" || o.moves(d.Name) || !strings.Contains(filepath.ToSlash(d.Dir), "/node_modules/") {
			// A workspace of the repository (linked into node_modules, its
			// real directory outside) is the user's own code: it moves with
			// the decision being checked.
			continue
		}
		if !o.stays(d.Dir) {
			// Only the moved packages' old releases needed it: it goes
			// with them, and so does the copy it held.
			continue
		}
		if _, err := semver.ParseRange(d.Range); err != nil || semver.Satisfies(l.Version, d.Range) {
			if !o.req.Copies.KeepsLocked {
				continue // a tag, a URL or a range the target meets: deduped
			}
			if _, version, ok := resolveFrom(d.Dir, l.Name); ok && version != l.Version {
				locked = append(locked, d)
			}
		}
		out = append(out, d.Dir)
	}
	sort.Strings(out)
	o.noteLocked(l, locked)
	return out
}

// noteLocked says which dependents whose range admits the target keep
// their copy because the manager keeps its lockfile's entries: the one
// difference from npm's dedupe a reader would not expect.
func (o *Overlay) noteLocked(l OverlayLink, locked []dependent) {
	if len(locked) == 0 {
		return
	}
	byVersion := map[string][]string{}
	for _, d := range locked {
		_, version, _ := resolveFrom(d.Dir, l.Name)
		key := version + "\x00" + d.Range
		byVersion[key] = lists.AppendUnique(byVersion[key], d.Name)
	}
	keys := lists.SortedKeys(byVersion)
	for _, k := range keys {
		version, rng, _ := strings.Cut(k, "\x00")
		names := byVersion[k]
		sort.Strings(names)
		who := strings.Join(names, ", ")
		if len(names) > 3 {
			who = fmt.Sprintf("%s and %d more", strings.Join(names[:3], ", "), len(names)-3)
		}
		o.note(fmt.Sprintf("%s keeps %s %s for %s: the lockfile's entry for %s@%s stays, %s re-resolves only what the upgrade rewrites",
			o.req.Copies.Manager, l.Name, version, who, l.Name, rng, o.req.Copies.Manager))
	}
}

// resolveFrom finds name the way Node does from inside the package in dir
// (its own node_modules, then each ancestor's), symlinks followed.
func resolveFrom(dir, name string) (string, string, bool) {
	return findUp(dir, name, func(d, rel string) []string {
		if filepath.Base(d) == "node_modules" {
			return nil
		}
		return []string{filepath.Join(d, "node_modules", rel)}
	})
}

// findUp looks for name from dir up to the root, in the places under
// each directory that at names, and answers the first that holds its
// package.json, symlinks followed.
func findUp(dir, name string, at func(d, rel string) []string) (string, string, bool) {
	rel := filepath.FromSlash(name)
	for d := dir; ; {
		for _, cand := range at(d, rel) {
			if v, err := manifestVersion(cand, name); err == nil {
				if real, err := filepath.EvalSymlinks(cand); err == nil {
					cand = real
				}
				return cand, v, true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

// hoistedBy reports whether a package the upgrade brings (a target, a
// companion, or what was fetched for them) depends on name, not as a peer,
// directly or through the releases it brings along: the install then has
// name where a peer of it resolves, even under a manager that never adds
// peers (storybook 8.6 depends on @testing-library/dom, which
// @testing-library/react 16 peer-requires; @storybook/addon-a11y 8.6
// brings it through @storybook/test). It returns the range the last
// package on the way declares and the moved package it starts from.
func (o *Overlay) hoistedBy(ctx context.Context, name, importer string) (rng, by string, ok bool) {
	var from []OverlayLink
	for _, l := range o.links {
		if l.Origin == OriginInstalled || l.Name == name || l.Name == importer {
			continue
		}
		if r, found := regularDeps(l.Dir)[name]; found {
			return r, l.Name, true
		}
		if l.Origin == OriginTarget || l.Origin == OriginCompanion {
			from = append(from, l)
		}
	}
	if o.req.Peers.Release == nil {
		return "", "", false
	}
	return o.broughtBy(ctx, from, name)
}

// maxBrought bounds the releases read looking for what the moved packages
// bring along.
const maxBrought = 400

// broughtBy walks the regular dependencies of the moved packages' new
// releases, breadth first: a dependency the install keeps is read from its
// installed copy, another from the release the install gives for its
// range. The answers are kept for the run.
func (o *Overlay) broughtBy(ctx context.Context, from []OverlayLink, name string) (rng, by string, ok bool) {
	if o.brought == nil {
		o.brought = map[string]broughtEdge{}
		type node struct {
			deps map[string]string
			root string
		}
		var queue []node
		seen := map[string]bool{}
		for _, l := range from {
			queue = append(queue, node{deps: regularDeps(l.Dir), root: l.Name})
			seen[l.Name+"@"+l.Version] = true
		}
		read := 0
		for len(queue) > 0 && read < maxBrought && ctx.Err() == nil {
			n := queue[0]
			queue = queue[1:]
			names := make([]string, 0, len(n.deps))
			for d := range n.deps {
				names = append(names, d)
			}
			sort.Strings(names)
			for _, d := range names {
				r := n.deps[d]
				if _, have := o.brought[d]; !have {
					o.brought[d] = broughtEdge{rng: r, by: n.root}
				}
				if o.moves(d) || o.members[d] {
					continue
				}
				var version string
				var deps map[string]string
				if dir, v, installed := o.installed(d); installed && semver.Satisfies(v, r) {
					version, deps = v, regularDeps(dir)
				} else {
					v, ds, err := o.req.Peers.Release(ctx, d, r)
					if err != nil {
						continue
					}
					version, deps = v, ds
				}
				if seen[d+"@"+version] {
					continue
				}
				seen[d+"@"+version] = true
				read++
				queue = append(queue, node{deps: deps, root: n.root})
			}
		}
	}
	e, found := o.brought[name]
	return e.rng, e.by, found
}

// broughtEdge is the first range seen for a package the moved packages
// bring, and the moved package it came from.
type broughtEdge struct {
	rng, by string
}

// regularDeps are the dependencies and optional dependencies of the
// package in dir: what every manager installs for it.
func regularDeps(dir string) map[string]string {
	m, err := readDeps(dir)
	if err != nil {
		return nil
	}
	return merged(m.OptionalDependencies, m.Dependencies)
}

// manifestDirs are the workspace and the directories above it up to the
// repository root.
func (o *Overlay) manifestDirs() []string {
	if o.req.Workspace == "" {
		return nil
	}
	out := []string{o.req.Workspace}
	if o.req.RepoRoot == "" {
		return out
	}
	root, err := filepath.Abs(o.req.RepoRoot)
	if err != nil {
		return out
	}
	for d := o.req.Workspace; d != root && strings.HasPrefix(d, root+string(filepath.Separator)); {
		d = filepath.Dir(d)
		out = append(out, d)
	}
	return out
}

// declares: the manifest in dir names name among its dependencies of any
// kind a manager installs for it.
func declares(dir, name string) bool {
	m, err := readDeps(dir)
	if err != nil {
		return false
	}
	_, a := m.Dependencies[name]
	_, d := m.DevDependencies[name]
	_, op := m.OptionalDependencies[name]
	return a || d || op
}

// maxIndexed bounds the installed packages read for the dependents index.
const maxIndexed = 50000

// indexDependents reads every installed package under the node_modules of
// the manifest directories (nested node_modules and pnpm's .pnpm store
// included, each real directory once) and indexes who depends on what.
func (o *Overlay) indexDependents() map[string][]dependent {
	idx := map[string][]dependent{}
	seen := map[string]bool{}
	read := 0
	var visit func(nm string, depth int)
	addPkg := func(dir string, depth int) {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || seen[real] || read >= maxIndexed {
			return
		}
		seen[real] = true
		read++
		b, err := os.ReadFile(filepath.Join(real, "package.json"))
		if err == nil {
			var m struct {
				Name                 string            `json:"name"`
				Dependencies         map[string]string `json:"dependencies"`
				OptionalDependencies map[string]string `json:"optionalDependencies"`
			}
			if json.Unmarshal(b, &m) == nil && m.Name != "" {
				for n, r := range m.Dependencies {
					idx[n] = append(idx[n], dependent{Name: m.Name, Dir: real, Range: r})
				}
				for n, r := range m.OptionalDependencies {
					idx[n] = append(idx[n], dependent{Name: m.Name, Dir: real, Range: r})
				}
			}
		}
		if depth < 6 {
			visit(filepath.Join(real, "node_modules"), depth+1)
		}
	}
	visit = func(nm string, depth int) {
		entries, err := os.ReadDir(nm)
		if err != nil {
			return
		}
		for _, e := range entries {
			n := e.Name()
			switch {
			case n == ".pnpm":
				store, err := os.ReadDir(filepath.Join(nm, n))
				if err != nil {
					continue
				}
				for _, s := range store {
					if s.IsDir() && s.Name() != "node_modules" {
						visit(filepath.Join(nm, n, s.Name(), "node_modules"), depth+1)
					}
				}
			case strings.HasPrefix(n, "."):
			case strings.HasPrefix(n, "@"):
				scoped, err := os.ReadDir(filepath.Join(nm, n))
				if err != nil {
					continue
				}
				for _, s := range scoped {
					addPkg(filepath.Join(nm, n, s.Name()), depth)
				}
			default:
				addPkg(filepath.Join(nm, n), depth)
			}
		}
	}
	for _, d := range o.manifestDirs() {
		visit(filepath.Join(d, "node_modules"), 0)
	}
	return idx
}
