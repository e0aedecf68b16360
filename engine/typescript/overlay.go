package typescript

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// LinkedPackage is a package directory linked into an overlay under its name.
type LinkedPackage struct {
	Name string
	// Dir is the extracted package (it holds package.json).
	Dir string
	// Kept: Dir is a real install's copy, which the compiles that follow
	// in the same driver read again (the fix runner's compile after the
	// upgrade): the driver keeps its parsed files instead of forgetting
	// them after the compile.
	Kept bool
}

// RangeFetchFunc fetches the highest version of name inside rng (an exact
// pin needs no version list), integrity verified by the fetcher, and returns
// the extracted directory and the version it chose. The engine wires the
// registry client here; the directory must outlive the overlay.
type RangeFetchFunc func(ctx context.Context, name, rng string) (dir, version string, err error)

// OverlayRequest says what an overlay links.
type OverlayRequest struct {
	// Workspace is the consumer's workspace directory: its node_modules (and
	// its ancestors') serve the targets' dependencies when the installed copy
	// satisfies the range the target declares.
	Workspace string
	// Targets are the analyzed package and every other member of its release
	// group, at their target versions. Members are never fetched as
	// dependencies of one another.
	Targets []LinkedPackage
	// Companions move with the targets (react-dom, @types/react).
	Companions []LinkedPackage
	// Fetch provides a dependency the consumer cannot serve; nil leaves it
	// unresolved.
	Fetch RangeFetchFunc
	// TempDir is where the overlay directory is made; "" is os.TempDir().
	TempDir string
	// RepoRoot bounds the manifests and node_modules read above Workspace;
	// "" reads the workspace's alone.
	RepoRoot string
	// Peers is what the repository's package manager does with a linked
	// package's peer that nothing else provides.
	Peers PeerRule
	// Copies is which copy of a moved package the upgraded install gives
	// an installed package that stays and depends on it.
	Copies CopyRule
}

// CopyRule says which copy of a moved package an installed package that
// stays gets from the upgraded install. The zero value is npm's (and
// pnpm's install after a manifest edit, which is what fix runs): a range
// the target satisfies is deduped to it, and only a range that excludes it
// keeps a nested copy of the installed line.
type CopyRule struct {
	// KeepsLocked: the manager keeps the lockfile's resolution of every
	// range still asked for (yarn re-resolves only the entries the upgrade
	// rewrites), so a staying dependent keeps the copy it has whatever its
	// range admits: @types/response-time's @types/express "*" stays on 4
	// beside the repository's 5.
	KeepsLocked bool
	// Locked is the version the lockfile already resolves name@rng to (nil
	// or false: none). A manager that keeps its entries installs that
	// version again for a package the upgrade brings that declares the
	// range: @types/express 5.0.6's @types/express-serve-static-core
	// ^5.0.0 stays on the lockfile's 5.0.0, not the newest 5.x.
	Locked func(name, rng string) (version string, ok bool)
	// Manager names it in notes ("yarn").
	Manager string
}

// PeerRule says whether the upgraded install adds a missing peer. The zero
// value installs it (npm 7 and later, pnpm with auto-install-peers), and
// the overlay links it at the highest version its range admits.
type PeerRule struct {
	// LeftOut: the manager leaves a peer nothing declares missing (yarn,
	// npm with legacy-peer-deps); the overlay links it only where the
	// upgraded install still has it (the workspace declares it, or an
	// installed package that does not move depends on it), and lists the
	// others in MissingPeers.
	LeftOut bool
	// Why says it for people: "yarn does not install peers".
	Why string
	// Release is the release of name the install gives for rng and its
	// regular dependencies (the registry's metadata); nil leaves what the
	// moved packages bring to their direct dependencies.
	Release ReleaseFunc
}

// ReleaseFunc answers which release of name the install gives for rng,
// with its dependencies and optional dependencies.
type ReleaseFunc func(ctx context.Context, name, rng string) (version string, deps map[string]string, err error)

// MissingPeer is a required peer of a linked package that the upgraded
// install leaves out.
type MissingPeer struct {
	Name  string `json:"name"`
	Range string `json:"range"`
	// RequiredBy and Version: the linked package that peer-requires it.
	RequiredBy string `json:"requiredBy"`
	Version    string `json:"version"`
}

// LinkOrigin says where a linked package came from.
type LinkOrigin string

// The origins.
const (
	OriginTarget    LinkOrigin = "target"
	OriginCompanion LinkOrigin = "companion"
	// OriginInstalled: the consumer's own copy, which satisfies the range.
	OriginInstalled LinkOrigin = "installed"
	// OriginFetched: fetched at the highest version in the declared range.
	OriginFetched LinkOrigin = "fetched"
)

// OverlayLink is one node_modules entry of an overlay.
type OverlayLink struct {
	Name    string     `json:"name"`
	Dir     string     `json:"dir"`
	Version string     `json:"version"`
	Origin  LinkOrigin `json:"origin"`
	// RequiredBy and Range: the linked package that declared it, and how.
	RequiredBy string `json:"requiredBy,omitempty"`
	Range      string `json:"range,omitempty"`
}

// UnresolvedImport is a bare import inside a linked package that nothing
// resolved.
type UnresolvedImport struct {
	// Importer is the linked package whose declarations import Specifier.
	Importer  string `json:"importer"`
	Specifier string `json:"specifier"`
	// Reason is why the overlay could not serve it (set by the overlay).
	Reason string `json:"reason,omitempty"`
}

// Overlay is a temporary directory whose node_modules holds the targets,
// their companions and the dependencies they declare, for the overlay
// compile to resolve the analyzed packages into.
type Overlay struct {
	// Root is the temporary directory; its node_modules holds the links.
	Root string

	mu      sync.Mutex
	req     OverlayRequest
	links   []OverlayLink
	byName  map[string]int
	members map[string]bool
	// kept are the linked directories (real paths) given Kept.
	kept  map[string]bool
	notes []string
	// failed: a package already tried and not served, with why.
	failed     map[string]string
	unresolved []UnresolvedImport
	missing    []MissingPeer
	// dependents index, per package name, the installed packages that
	// depend on it (built on the first question).
	dependents map[string][]dependent
	// alive are the installed packages' directories the upgraded install
	// keeps (built on the first question).
	alive map[string]bool
	// brought are what the moved packages' new releases bring along, by
	// name (read on the first question).
	brought map[string]broughtEdge
}

// BuildOverlay makes the overlay directory and links the targets and
// companions (symlinks, so each target's own exports map applies), then
// every dependency they declare that the consumer's installed copy
// satisfies. What the compile later finds missing is added by Resolve.
func BuildOverlay(ctx context.Context, req OverlayRequest) (*Overlay, error) {
	if len(req.Targets) == 0 {
		return nil, errors.New("overlay: no target to link")
	}
	if req.Workspace != "" {
		abs, err := filepath.Abs(req.Workspace)
		if err != nil {
			return nil, err
		}
		req.Workspace = abs
	}
	root, err := os.MkdirTemp(req.TempDir, "uptide-overlay-")
	if err != nil {
		return nil, fmt.Errorf("overlay: %w", err)
	}
	o := &Overlay{Root: root, req: req, byName: map[string]int{}, members: map[string]bool{}, kept: map[string]bool{}, failed: map[string]string{}}
	ok := false
	defer func() {
		if !ok {
			_ = o.Cleanup()
		}
	}()
	for _, t := range req.Targets {
		o.members[t.Name] = true
	}
	add := func(list []LinkedPackage, origin LinkOrigin) error {
		for _, p := range list {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := checkPackageName(p.Name); err != nil {
				return err
			}
			if _, dup := o.byName[p.Name]; dup {
				return fmt.Errorf("overlay: %s is given twice (as a target or companion); link each package once", p.Name)
			}
			version, err := manifestVersion(p.Dir, p.Name)
			if err != nil {
				return err
			}
			if err := o.link(OverlayLink{Name: p.Name, Dir: p.Dir, Version: version, Origin: origin}); err != nil {
				return err
			}
			if p.Kept {
				o.kept[o.links[len(o.links)-1].Dir] = true
			}
		}
		return nil
	}
	if err := add(req.Targets, OriginTarget); err != nil {
		return nil, err
	}
	if err := add(req.Companions, OriginCompanion); err != nil {
		return nil, err
	}
	for i := 0; i < len(o.links); i++ {
		o.linkInstalledDeps(ctx, o.links[i])
	}
	ok = true
	return o, nil
}

// Cleanup removes the overlay directory (never what its links point to).
func (o *Overlay) Cleanup() error {
	if o == nil || o.Root == "" {
		return nil
	}
	return os.RemoveAll(o.Root)
}

// Links lists the overlay's node_modules entries in the order they were
// made.
func (o *Overlay) Links() []OverlayLink {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]OverlayLink(nil), o.links...)
}

// Notes are what the overlay could not do as asked (a dependency linked at
// a version another importer does not accept, a fetch that failed).
func (o *Overlay) Notes() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.notes...)
}

// Unresolved is what the last compile still found missing inside the
// targets and what was linked for them: counted in one warning, never a
// finding (an unresolved import in a declaration file makes a type any,
// which hides errors rather than inventing them).
func (o *Overlay) Unresolved() []UnresolvedImport {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]UnresolvedImport(nil), o.unresolved...)
}

// link makes node_modules/<name> point at the package's real directory.
func (o *Overlay) link(l OverlayLink) error {
	if err := checkPackageName(l.Name); err != nil {
		return err
	}
	dir, err := filepath.Abs(l.Dir)
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	l.Dir = dir
	at := filepath.Join(o.Root, "node_modules", filepath.FromSlash(l.Name))
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	if err := os.Symlink(dir, at); err != nil {
		return fmt.Errorf("overlay: link %s: %w", l.Name, err)
	}
	o.byName[l.Name] = len(o.links)
	o.links = append(o.links, l)
	return nil
}

// linkInstalledDeps links, for a package linked for the targets, each
// dependency it declares that the consumer has installed at a version in
// the declared range: those need no round trip through the compile.
func (o *Overlay) linkInstalledDeps(ctx context.Context, l OverlayLink) {
	if l.Origin == OriginInstalled {
		return
	}
	deps, err := declaredDeps(l.Dir)
	if err != nil {
		o.notes = append(o.notes, err.Error())
		return
	}
	peers, _ := peerOnly(l.Dir)
	names := lists.SortedKeys(deps)
	for _, n := range names {
		if _, done := o.byName[n]; done || o.members[n] {
			continue
		}
		if p, isPeer := peers[n]; isPeer && o.req.Peers.LeftOut {
			if !o.keeps(n) {
				if rng, by, hoisted := o.hoistedBy(ctx, n, l.Name); hoisted {
					// Linked here when installed in the range of the package
					// that brings it; else fetched at it when the compile asks.
					if dir, version, ok := o.installed(n); ok && semver.Satisfies(version, rng) {
						if err := o.link(OverlayLink{Name: n, Dir: dir, Version: version, Origin: OriginInstalled, RequiredBy: by, Range: rng}); err != nil {
							o.notes = append(o.notes, err.Error())
						}
					}
					continue
				}
				if !p.optional {
					o.addMissing(MissingPeer{Name: n, Range: deps[n], RequiredBy: l.Name, Version: l.Version})
				}
				continue
			}
			// Peers resolve to the copy the install has, whatever its
			// version: yarn warns and links it.
			if dir, version, ok := o.installed(n); ok {
				if !semver.Satisfies(version, deps[n]) {
					o.note(fmt.Sprintf("%s peer-requires %s %s; the install keeps %s@%s", l.Name, n, deps[n], n, version))
				}
				if err := o.link(OverlayLink{Name: n, Dir: dir, Version: version, Origin: OriginInstalled, RequiredBy: l.Name, Range: deps[n]}); err != nil {
					o.notes = append(o.notes, err.Error())
				}
			}
			continue
		}
		dir, version, ok := o.installed(n)
		if !ok || !semver.Satisfies(version, deps[n]) || o.lockedElsewhere(n, deps[n], version) {
			continue
		}
		if err := o.link(OverlayLink{Name: n, Dir: dir, Version: version, Origin: OriginInstalled, RequiredBy: l.Name, Range: deps[n]}); err != nil {
			o.notes = append(o.notes, err.Error())
		}
	}
}

// installed finds the consumer's copy of name the way Node would from the
// workspace (node_modules of it and its ancestors), and pnpm's hoisted
// virtual store for packages only reached transitively.
func (o *Overlay) installed(name string) (dir, version string, ok bool) {
	if o.req.Workspace == "" {
		return "", "", false
	}
	return findUp(o.req.Workspace, name, func(d, rel string) []string {
		return []string{filepath.Join(d, "node_modules", rel), filepath.Join(d, "node_modules", ".pnpm", "node_modules", rel)}
	})
}

// Resolve links what a compile found missing inside the linked packages:
// the consumer's copy when it satisfies the range the importer declares,
// else the highest version in that range through Fetch. It reports whether
// it linked anything (another compile round is worth it) and records what
// stays unresolved. Only a cancelled context is an error.
func (o *Overlay) Resolve(ctx context.Context, missing []UnresolvedImport) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	progress := false
	var still []UnresolvedImport
	seen := map[string]bool{}
	for _, u := range missing {
		if err := ctx.Err(); err != nil {
			return progress, err
		}
		name := packageName(u.Specifier)
		key := u.Importer + "\x00" + u.Specifier
		if seen[key] {
			continue
		}
		seen[key] = true
		linked, reason := o.serve(ctx, u.Importer, name)
		if err := ctx.Err(); err != nil {
			return progress, err
		}
		if linked {
			progress = true
			continue
		}
		u.Reason = reason
		still = append(still, u)
	}
	o.unresolved = still
	return progress, nil
}

// serve tries to link name for importer: the package itself, else its
// @types package.
func (o *Overlay) serve(ctx context.Context, importer, name string) (bool, string) {
	if o.members[name] {
		return false, name + " is a member of the release group and is linked at its own target"
	}
	imp, ok := o.byName[importer]
	if !ok {
		return false, importer + " is not linked in the overlay"
	}
	deps, err := declaredDeps(o.links[imp].Dir)
	if err != nil {
		return false, err.Error()
	}
	candidates := []string{name}
	if !strings.HasPrefix(name, "@types/") {
		candidates = append(candidates, typesName(name))
	}
	var reasons []string
	for _, c := range candidates {
		if _, done := o.byName[c]; done {
			l := o.links[o.byName[c]]
			reasons = append(reasons, fmt.Sprintf("%s@%s is linked but does not provide it", c, l.Version))
			if rng, ok := deps[c]; ok && !semver.Satisfies(l.Version, rng) {
				o.note(fmt.Sprintf("%s declares %s %s, the overlay has %s@%s for another importer", importer, c, rng, c, l.Version))
			}
			continue
		}
		if why, tried := o.failed[c]; tried {
			reasons = append(reasons, why)
			continue
		}
		rng, declared := deps[c]
		by := importer
		if peers, _ := peerOnly(o.links[imp].Dir); declared && o.req.Peers.LeftOut {
			p, isPeer := peers[c]
			hrng, mover, hoisted := "", "", false
			if isPeer && !o.keeps(c) {
				hrng, mover, hoisted = o.hoistedBy(ctx, c, importer)
			}
			switch {
			case hoisted:
				// Served as the dependency of the package that brings it.
				rng, by = hrng, mover
			case isPeer:
				if !o.keeps(c) {
					if !p.optional {
						o.addMissing(MissingPeer{Name: c, Range: rng, RequiredBy: importer, Version: o.links[imp].Version})
					}
					o.failed[c] = fmt.Sprintf("%s %s is a peer of %s that the upgraded install leaves out (%s)", c, rng, importer, o.req.Peers.Why)
					reasons = append(reasons, o.failed[c])
					continue
				}
				if dir, version, have := o.installed(c); have {
					// The install links the copy it keeps, whatever its version.
					if !semver.Satisfies(version, rng) {
						o.note(fmt.Sprintf("%s peer-requires %s %s; the install keeps %s@%s", importer, c, rng, c, version))
					}
					if err := o.link(OverlayLink{Name: c, Dir: dir, Version: version, Origin: OriginInstalled, RequiredBy: importer, Range: rng}); err != nil {
						o.failed[c] = err.Error()
						reasons = append(reasons, err.Error())
						continue
					}
					return true, ""
				}
			}
		}
		dir, version, have := o.installed(c)
		switch {
		case declared && have && semver.Satisfies(version, rng) && !o.lockedElsewhere(c, rng, version):
		case !declared && have:
			// An undeclared import (a types package reached through a
			// hoisted install) is served as the consumer's compile serves it.
		case declared && o.req.Fetch != nil:
			want := rng
			if v, locked := o.lockedVersion(c, rng); locked {
				want = v
			}
			d, v, err := o.req.Fetch(ctx, c, want)
			if err != nil {
				o.failed[c] = fmt.Sprintf("%s %s could not be fetched: %v", c, rng, err)
				o.note(o.failed[c])
				reasons = append(reasons, o.failed[c])
				continue
			}
			if err := o.link(OverlayLink{Name: c, Dir: d, Version: v, Origin: OriginFetched, RequiredBy: by, Range: rng}); err != nil {
				o.failed[c] = err.Error()
				reasons = append(reasons, err.Error())
				continue
			}
			o.linkInstalledDeps(ctx, o.links[len(o.links)-1])
			return true, ""
		case declared:
			o.failed[c] = fmt.Sprintf("%s %s is not installed at a matching version and nothing can fetch it", c, rng)
			reasons = append(reasons, o.failed[c])
			continue
		default:
			continue
		}
		if err := o.link(OverlayLink{Name: c, Dir: dir, Version: version, Origin: OriginInstalled, RequiredBy: by, Range: rng}); err != nil {
			o.failed[c] = err.Error()
			reasons = append(reasons, err.Error())
			continue
		}
		return true, ""
	}
	if len(reasons) == 0 {
		return false, fmt.Sprintf("%s does not declare %s and the consumer has no copy", importer, name)
	}
	return false, strings.Join(reasons, "; ")
}

// MissingPeers are the required peers of linked packages that the upgraded
// install leaves out, sorted by name and requirer.
func (o *Overlay) MissingPeers() []MissingPeer {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := append([]MissingPeer(nil), o.missing...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].RequiredBy < out[j].RequiredBy
	})
	return out
}

func (o *Overlay) addMissing(m MissingPeer) {
	for _, x := range o.missing {
		if x.Name == m.Name && x.RequiredBy == m.RequiredBy {
			return
		}
	}
	o.missing = append(o.missing, m)
}

func (o *Overlay) note(s string) {
	for _, n := range o.notes {
		if n == s {
			return
		}
	}
	o.notes = append(o.notes, s)
}

func (o *Overlay) setUnresolved(list []UnresolvedImport) {
	o.mu.Lock()
	defer o.mu.Unlock()
	reasons := map[string]string{}
	for _, u := range o.unresolved {
		reasons[u.Importer+"\x00"+u.Specifier] = u.Reason
	}
	o.unresolved = nil
	for _, u := range list {
		if u.Reason == "" {
			u.Reason = reasons[u.Importer+"\x00"+u.Specifier]
		}
		o.unresolved = append(o.unresolved, u)
	}
}

// driverMapping is what the driver's module resolution needs: the names
// sent to the overlay (a linked @types/x also takes "x"), and the linked
// packages whose own imports resolve from inside it (everything but the
// consumer's copies, whose dependencies are where they are installed).
func (o *Overlay) driverMapping() *mapping {
	o.mu.Lock()
	defer o.mu.Unlock()
	m := &mapping{Root: o.Root, Packages: []string{}, Remap: []remapEntry{}}
	for _, mp := range o.missing {
		m.LeftOut = append(m.LeftOut, mp.Name)
	}
	sort.Strings(m.LeftOut)
	seen := map[string]bool{}
	addPkg := func(n string) {
		if !seen[n] {
			seen[n] = true
			m.Packages = append(m.Packages, n)
		}
	}
	for _, l := range o.links {
		if l.Origin == OriginTarget || l.Origin == OriginCompanion {
			addPkg(l.Name)
			names := []string{l.Name}
			if rt, ok := runtimeOfTypes(l.Name); ok {
				addPkg(rt)
				names = append(names, rt)
			}
			for _, dir := range o.nestedFor(l) {
				m.Keep = append(m.Keep, keepEntry{Dir: dir, Names: names})
			}
		}
		if l.Origin != OriginInstalled {
			m.Remap = append(m.Remap, remapEntry{Name: l.Name, Dir: l.Dir, Kept: o.kept[l.Dir]})
		}
	}
	return m
}

type mapping struct {
	Root     string       `json:"root"`
	Packages []string     `json:"packages"`
	Remap    []remapEntry `json:"remap"`
	// LeftOut are the peers the upgraded install leaves out: their
	// unresolved imports are errors of the install, not gaps of the overlay.
	LeftOut []string `json:"leftOut,omitempty"`
	// Keep are the installed packages whose own range of a target excludes
	// its new version: the upgraded install keeps a nested copy of the
	// installed line for them, so their imports of it are not sent to the
	// overlay.
	Keep []keepEntry `json:"keep,omitempty"`
}

type keepEntry struct {
	Dir   string   `json:"dir"`
	Names []string `json:"names"`
}

type remapEntry struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
	// Kept: the driver keeps the package's parsed files (LinkedPackage.Kept).
	Kept bool `json:"kept,omitempty"`
}

// checkPackageName refuses names that would place a link outside
// node_modules.
func checkPackageName(name string) error {
	if !validName.MatchString(name) || strings.HasSuffix(name, "/.") || strings.HasSuffix(name, "/..") || name == "." || name == ".." {
		return fmt.Errorf("overlay: %q is not an npm package name", name)
	}
	return nil
}

// manifestDeps is what a package.json says about what its package needs.
type manifestDeps struct {
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	PeerDependenciesMeta map[string]struct {
		Optional bool `json:"optional"`
	} `json:"peerDependenciesMeta"`
}

func readDeps(dir string) (manifestDeps, error) {
	var m manifestDeps
	file := filepath.Join(dir, "package.json")
	b, err := os.ReadFile(file)
	if err != nil {
		return m, fmt.Errorf("overlay: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("overlay: %s: %v", file, err)
	}
	return m, nil
}

// merged is the union of the maps, a later one winning.
func merged(maps ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, src := range maps {
		for k, v := range src {
			out[k] = v
		}
	}
	return out
}

// declaredDeps are the ranges a package declares for what its declarations
// may import: dependencies, then peer and optional ones.
func declaredDeps(dir string) (map[string]string, error) {
	m, err := readDeps(dir)
	if err != nil {
		return nil, err
	}
	return merged(m.OptionalDependencies, m.PeerDependencies, m.Dependencies), nil
}

// manifestVersion reads dir/package.json and checks it is the package named.
func manifestVersion(dir, name string) (string, error) {
	file := filepath.Join(dir, "package.json")
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("overlay: %s: %w", name, err)
	}
	var m struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("overlay: %s: not a readable package.json: %v", file, err)
	}
	if m.Name != name {
		return "", fmt.Errorf("overlay: %s holds %q, not %s", file, m.Name, name)
	}
	return m.Version, nil
}

// packageName is the package part of a bare specifier ("@a/b/c" → "@a/b").
func packageName(spec string) string {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// typesName is DefinitelyTyped's name for a package ("@a/b" → "@types/a__b").
func typesName(name string) string {
	if strings.HasPrefix(name, "@") {
		return "@types/" + strings.Replace(name[1:], "/", "__", 1)
	}
	return "@types/" + name
}

// runtimeOfTypes inverts typesName.
func runtimeOfTypes(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "@types/")
	if !ok || rest == "" {
		return "", false
	}
	if scope, pkg, found := strings.Cut(rest, "__"); found {
		return "@" + scope + "/" + pkg, true
	}
	return rest, true
}
