package discover

import (
	"context"
	"errors"
	"fmt"
	"github.com/uptide/uptide/engine/event"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/uptide/uptide/engine/groups"
	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/lists"
)

// Options configures Discover.
type Options struct {
	// Cwd is where the user ran Uptide; the repository root is found from it.
	Cwd string
	// Env is the environment .npmrc settings are read from (npm_config_*).
	Env []string
	// Client overrides the registry client (tests, the demo).
	Client *registry.Client
	// Repository, when set, is the repository the caller has loaded from
	// Cwd already (fix): Discover reads it instead of loading it again.
	Repository *model.Repository
	Events     event.Sink
	// PartialRows asks for Events carrying the rows known before the
	// report (see PartialRows): the planner shows them as they arrive.
	PartialRows bool
	// Timing, when set, receives the duration of each phase.
	Timing map[event.Phase]time.Duration
}

// Discover reads the repository as its package manager sees it, asks the
// registry what is available, and works out release groups and companions.
// Registry failures do not fail it: the packages are reported not checked.
// With the report comes the Index of what it read, for a check to start
// from.
func Discover(ctx context.Context, opts Options) (*model.DiscoverReport, *Index, error) {
	t := event.NewTimer(opts.Timing)
	var err error
	r := opts.Repository
	if r == nil {
		if r, err = repo.Load(opts.Cwd); err != nil {
			return nil, nil, err
		}
	}
	t.Done(event.PhaseRepository)
	opts.Events.Emit(event.Event{Phase: event.PhaseRepository, Finished: true})

	rep := &model.DiscoverReport{Repository: summarize(r), Problems: append([]model.Problem{}, r.Problems...)}
	lf, problem := loadLockfile(r.Root)
	if problem != nil {
		rep.Problems = append(rep.Problems, *problem)
	}
	if lf != nil {
		rep.Repository.Lockfile = rel(r.Root, lf.Path())
		rep.Repository.LockfileFormat = string(lf.Format())
	} else if problem == nil {
		rep.Notes = append(rep.Notes, "no lockfile: installed versions are the exact versions the manifests pin; run "+r.PackageManager+" install for the rest")
	}
	t.Done(event.PhaseLockfile)

	decls, skipped := resolveInstalled(r, lf, problem != nil)
	rep.Skipped = skipped
	// The source scan needs only the declared names, so it runs while the
	// registry answers instead of after.
	importers := scanImporters(r, decls)
	var partial *partialRows
	if opts.PartialRows {
		partial = newPartialRows(decls)
		summary := rep.Repository
		opts.Events.Emit(event.Event{Phase: event.PhaseLockfile, Finished: true,
			Rows: &event.PartialRows{Repository: &summary, Rows: partial.all()}})
	}

	client := opts.Client
	if client == nil {
		client, err = newClient(r.Root, opts.Env)
		if err != nil {
			return nil, nil, err
		}
	}
	packs, failures := fetchPackuments(ctx, client, decls, opts.Events, partial)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	t.Done(event.PhaseRegistry)

	rep.Rows = buildRows(decls, packs, failures)
	rep.NotChecked = notChecked(decls, failures)

	deps := groupDeps(decls, packs)
	rep.Groups = groups.ReleaseGroups(deps, packs)
	markGroups(rep.Rows, rep.Groups)
	sharedTargets(rep.Rows, rep.Groups, packs)
	rep.Companions = companionPlans(rep.Rows, deps, packs)
	t.Done(event.PhaseGroups)
	opts.Events.Emit(event.Event{Phase: event.PhaseGroups, Finished: true})

	if err := addImporters(rep.Rows, importers); err != nil {
		return nil, nil, err
	}
	t.Done(event.PhaseImporters)
	sortRows(rep.Rows)
	normalize(rep)
	return rep, newIndex(r, client, rep), nil
}

// newClient builds the registry client from the repository's .npmrc files
// and the environment, caching where the environment says (nil: the
// process's).
func newClient(root string, env []string) (*registry.Client, error) {
	cfg, err := registry.LoadConfig(root, env)
	if err != nil {
		return nil, err
	}
	dir, _ := cache.RootOf(env)
	return registry.New(registry.Options{Config: cfg, CacheDir: dir}), nil
}

func summarize(r *model.Repository) model.RepoSummary {
	s := model.RepoSummary{Root: r.Root, PackageManager: r.PackageManager, PackageManagerField: r.PackageManagerField}
	for _, w := range r.Workspaces {
		s.Workspaces = append(s.Workspaces, w.Path)
		if w.Path == "." {
			s.Name = w.Name
		}
	}
	if s.Name == "" {
		s.Name = filepath.Base(r.Root)
	}
	return s
}

func loadLockfile(root string) (lockfile.Lockfile, *model.Problem) {
	path, err := lockfile.Find(root)
	if err != nil {
		return nil, asProblem(err, root)
	}
	if path == "" {
		return nil, nil
	}
	lf, err := lockfile.Load(path)
	if err != nil {
		return nil, asProblem(err, path)
	}
	return lf, nil
}

// asProblem turns a parse error into a Problem naming the file.
func asProblem(err error, file string) *model.Problem {
	var le *lockfile.Error
	if errors.As(err, &le) {
		msg := le.Msg
		if le.Hint != "" {
			msg += ": " + le.Hint
		}
		return &model.Problem{File: le.File, Line: le.Line, Message: msg}
	}
	return &model.Problem{File: file, Message: err.Error()}
}

func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

// decl is one registry declaration of one workspace with its installed version.
type decl struct {
	ws      string
	d       model.Declaration
	version string
	source  model.InstalledSource
	reason  string
}

// resolveInstalled reads the installed version of every registry
// declaration, and sets aside the ones that do not come from a registry.
func resolveInstalled(r *model.Repository, lf lockfile.Lockfile, lockBroken bool) ([]decl, []model.Skipped) {
	var decls []decl
	var skipped []model.Skipped
	local := map[string]model.Workspace{}
	for _, w := range r.Workspaces {
		if w.Name != "" {
			local[w.Name] = w
		}
	}
	for _, w := range r.Workspaces {
		for _, d := range w.Declarations {
			if d.Type == model.Peer {
				continue
			}
			if !d.Kind.FromRegistry() {
				skipped = append(skipped, model.Skipped{Name: d.Name, Workspace: w.Path, Spec: d.Spec, Kind: d.Kind, Reason: skipReason(d.Kind)})
				continue
			}
			if lw, ok := local[d.Name]; ok && resolvesToWorkspace(d, lw) {
				skipped = append(skipped, model.Skipped{Name: d.Name, Workspace: w.Path, Spec: d.Spec, Kind: d.Kind,
					Reason: "workspace package: resolved to " + lw.Path})
				continue
			}
			x := decl{ws: w.Path, d: d}
			version, found := "", false
			if lf != nil {
				version, found = lf.Installed(w.Path, d.Name, d.Spec)
			}
			if !found {
				if dir := linkedLocally(r.Root, lf, w.Path, d); dir != "" {
					// A workspace the repository could not read (its
					// problem says why): the name is the repository's
					// own, never a registry package's.
					skipped = append(skipped, model.Skipped{Name: d.Name, Workspace: w.Path, Spec: d.Spec, Kind: d.Kind,
						Reason: "local package: linked to " + dir})
					continue
				}
			}
			switch {
			case found:
				x.version, x.source = version, model.FromLockfile
			case lf != nil:
				x.source = model.Unknown
				x.reason = fmt.Sprintf("not in %s: run %s install", filepath.Base(lf.Path()), r.PackageManager)
				if w.LinkedFrom != "" && d.Type == model.Dev {
					x.reason = fmt.Sprintf("not in %s: npm installs no devDependencies of a file: dependency (%s links %s); run npm install in %s",
						filepath.Base(lf.Path()), linker(w.LinkedFrom), w.Path, w.Path)
				}
			case !lockBroken && semver.IsExact(d.Range):
				x.version, x.source = cleanExact(d.Range), model.FromManifest
			default:
				x.source = model.Unknown
				if lockBroken {
					x.reason = "the lockfile could not be read"
				} else {
					x.reason = "no lockfile and the manifest does not pin an exact version"
				}
			}
			decls = append(decls, x)
		}
	}
	return decls, skipped
}

// linkedLocally is the directory of the repository a registry-looking
// declaration is linked to instead of installed from a registry, as the
// lockfile records it (npm, pnpm, berry and bun list workspace links) or,
// for yarn 1, whose lockfile lists no workspace, as node_modules links it;
// "" for anything else.
func linkedLocally(root string, lf lockfile.Lockfile, ws string, d model.Declaration) string {
	if lf != nil {
		if e, ok := lf.Lookup(ws, d.Name, d.Spec); ok {
			if e.Local && e.Version == "" {
				return e.Resolution
			}
			return ""
		}
	}
	for _, nm := range []string{filepath.Join(root, filepath.FromSlash(ws), "node_modules"), filepath.Join(root, "node_modules")} {
		link := filepath.Join(nm, filepath.FromSlash(d.Name))
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		dest, err := filepath.EvalSymlinks(link)
		if err != nil {
			continue
		}
		realRoot, err := filepath.EvalSymlinks(root)
		if err != nil {
			return ""
		}
		rel, err := filepath.Rel(realRoot, dest)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || slices.Contains(strings.Split(rel, string(filepath.Separator)), "node_modules") {
			return ""
		}
		return filepath.ToSlash(rel)
	}
	return ""
}

// linker names the package that links a file: dependency.
func linker(path string) string {
	if path == "." {
		return "the root"
	}
	return path
}

// resolvesToWorkspace reports whether a registry-looking specifier is
// satisfied by the repository's own workspace of that name, which is what
// npm, yarn and bun link instead of asking the registry.
func resolvesToWorkspace(d model.Declaration, w model.Workspace) bool {
	if d.Package != d.Name {
		return false
	}
	if d.Kind == model.SpecTag || d.Range == "" || d.Range == "*" || w.Version == "" {
		return true
	}
	return semver.Satisfies(w.Version, d.Range)
}

func cleanExact(v string) string {
	if p, err := semver.Parse(v); err == nil {
		return p.String()
	}
	return v
}

func skipReason(k model.SpecKind) string {
	switch k {
	case model.SpecWorkspace:
		return "workspace package: versioned with the repository"
	case model.SpecLink:
		return "linked directory: not from a registry"
	case model.SpecFile:
		return "local file or directory: not from a registry"
	case model.SpecGit:
		return "git dependency: not from a registry"
	case model.SpecURL:
		return "tarball URL: not from a registry"
	case model.SpecCatalog:
		return "catalog entry not found in pnpm-workspace.yaml"
	}
	return "not from a registry"
}

// fetchPackuments asks the registry about every distinct package, all at
// once (the client bounds concurrency), and returns the answers and the
// failures by package.
func fetchPackuments(ctx context.Context, c *registry.Client, decls []decl, events event.Sink, partial *partialRows) (groups.Packuments, map[string]error) {
	names := map[string]bool{}
	for _, d := range decls {
		names[d.d.Package] = true
	}
	total := len(names)
	events.Emit(event.Event{Phase: event.PhaseRegistry, Total: total})
	packs := groups.Packuments{}
	failures := map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := 0
	for name := range names {
		wg.Add(1)
		go func(name string) {
			defer wg.Done()
			p, err := c.Packument(ctx, name, false)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failures[name] = err
			} else {
				packs[name] = p
			}
			done++
			e := event.Event{Phase: event.PhaseRegistry, Done: done, Total: total, Package: name}
			if partial != nil {
				// Under the lock: rows events reach the sink one at a time.
				e.Rows = &event.PartialRows{Package: name, Rows: partial.of(name, p, err)}
			}
			events.Emit(e)
		}(name)
	}
	wg.Wait()
	events.Emit(event.Event{Phase: event.PhaseRegistry, Done: done, Total: total, Finished: true})
	return packs, failures
}

// notChecked lists the packages the registry did not answer for, with the
// host and the reason, so the report can group them by host.
func notChecked(decls []decl, failures map[string]error) []model.NotChecked {
	byName := map[string]*model.NotChecked{}
	for _, d := range decls {
		err, failed := failures[d.d.Package]
		if !failed {
			continue
		}
		nc := byName[d.d.Package]
		if nc == nil {
			nc = &model.NotChecked{Name: d.d.Package, Reason: err.Error()}
			var re *registry.Error
			if errors.As(err, &re) {
				nc.Host, nc.Reason = re.Host, re.Reason
			}
			byName[d.d.Package] = nc
		}
		nc.Workspaces = lists.AppendUnique(nc.Workspaces, d.ws)
	}
	out := make([]model.NotChecked, 0, len(byName))
	for _, nc := range byName {
		sort.Strings(nc.Workspaces)
		out = append(out, *nc)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Host != out[j].Host {
			return out[i].Host < out[j].Host
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// normalize makes every list non-nil and sorted so JSON is deterministic.
func normalize(r *model.DiscoverReport) {
	if r.Rows == nil {
		r.Rows = []model.DependencyRow{}
	}
	if r.Groups == nil {
		r.Groups = []model.Group{}
	}
	if r.Companions == nil {
		r.Companions = []model.CompanionPlan{}
	}
	if r.Skipped == nil {
		r.Skipped = []model.Skipped{}
	}
	sort.Slice(r.Skipped, func(i, j int) bool {
		a, b := r.Skipped[i], r.Skipped[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Workspace < b.Workspace
	})
	if r.NotChecked == nil {
		r.NotChecked = []model.NotChecked{}
	}
	if r.Problems == nil {
		r.Problems = []model.Problem{}
	}
	sort.Slice(r.Problems, func(i, j int) bool {
		if r.Problems[i].File != r.Problems[j].File {
			return r.Problems[i].File < r.Problems[j].File
		}
		return r.Problems[i].Line < r.Problems[j].Line
	})
	if r.Notes == nil {
		r.Notes = []string{}
	}
}
