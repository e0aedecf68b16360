package probe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
)

// Copy names one copy of the package.
type Copy struct {
	Version string
	// Dir: for the installed copy, where it is installed (a link is
	// followed; "" finds it from the workspace's node_modules); for the
	// target, an extracted copy the caller holds ("" fetches it through
	// Request.Fetch at Version).
	Dir string
	// Integrity, when known (the lockfile's, the registry's), joins the
	// cache key, so a republished version is probed again.
	Integrity string
}

// Request is one package to probe.
type Request struct {
	Name string
	// RepoRoot and Workspace locate the consumer's install (Workspace ""
	// is the root, a relative one is under it) and, with Node nil, the
	// repository's Node.
	RepoRoot, Workspace string
	Installed, Target   Copy
	// Node is the repository's Node as module-format findings read it
	// (modformat.NodeVersion); nil reads it here.
	Node *modformat.NodeInfo
	// Fetch provides the target and the dependencies neither the consumer
	// nor Available serve; nil leaves them unprovided (inconclusive).
	Fetch     FetchFunc
	Available []Available
	// Env is where version managers' directories and PATH are read
	// (HOME, NVM_DIR, VOLTA_HOME, ASDF_DATA_DIR, FNM_DIR, XDG_DATA_HOME,
	// PATH); nil is the process's. The probe itself runs with none of it.
	Env []string
	// Timeout bounds each copy's load; 0 is DefaultTimeout.
	Timeout time.Duration
	// CacheDir holds results; "" is the runtime folder of Uptide's cache.
	// NoCache neither reads nor writes it.
	CacheDir string
	NoCache  bool
	// TempDir is where the loads are laid out; "" is os.TempDir().
	TempDir string
	// Subpaths are the subpath entries the repository imports ("./v4"
	// for pkg/v4): each copy loads each of them too, beside its main
	// entry. "." and duplicates are ignored.
	Subpaths []string
}

// subpaths are the request's subpath entries, sorted, without "." and
// duplicates.
func (req Request) subpaths() []string {
	var out []string
	for _, sp := range req.Subpaths {
		if sp = strings.TrimSpace(sp); sp != "" && sp != "." && strings.HasPrefix(sp, "./") && !slices.Contains(out, sp) {
			out = append(out, sp)
		}
	}
	slices.Sort(out)
	return out
}

// Run probes the installed and the target copy of one package on the
// repository's Node and diffs them. A probe that cannot decide is a
// result (Status inconclusive, with the reason), never an error; the
// error is for a request that names nothing to probe, a cancelled
// context, and a machine with no Node at all.
func Run(ctx context.Context, req Request) (model.RuntimeResult, error) {
	res := model.RuntimeResult{Package: req.Name}
	if req.Name == "" || req.Target.Version == "" {
		return res, errors.New("probe: a request names the package and its target version")
	}
	if req.Workspace != "" && !filepath.IsAbs(req.Workspace) {
		req.Workspace = filepath.Join(req.RepoRoot, req.Workspace)
	}
	env := envMap(req.Env)
	wanted := modformat.NodeInfo{}
	if req.Node != nil {
		wanted = *req.Node
	} else if req.RepoRoot != "" {
		ws := req.Workspace
		if ws == "" {
			ws = req.RepoRoot
		}
		info, err := modformat.NodeVersion(req.RepoRoot, ws)
		if err != nil {
			return res, err
		}
		wanted = info
	}
	node, nodeInfo, err := chooseNode(ctx, wanted, env)
	res.Node = nodeInfo
	if err != nil {
		return res, err
	}
	res.Installed.Version, res.Target.Version = req.Installed.Version, req.Target.Version
	if _, ok := node.permissionFlag(); !ok {
		res.Status = model.RuntimeInconclusive
		res.Reason = node.noPermissionModel()
		return res, nil
	}
	store := resultCache{dir: req.CacheDir, off: req.NoCache}

	var wg sync.WaitGroup
	var errInstalled, errTarget error
	wg.Add(2)
	go func() {
		defer wg.Done()
		res.Installed, errInstalled = store.probe(ctx, req, req.Installed, node, func() (model.RuntimeCopy, bool, error) {
			return probeInstalled(ctx, req, node)
		})
	}()
	go func() {
		defer wg.Done()
		res.Target, errTarget = store.probe(ctx, req, req.Target, node, func() (model.RuntimeCopy, bool, error) {
			return probeTarget(ctx, req, node)
		})
	}()
	wg.Wait()
	if err := errors.Join(errInstalled, errTarget); err != nil {
		return res, err
	}
	var why []string
	for _, c := range []struct {
		label string
		copy  model.RuntimeCopy
	}{{"installed", res.Installed}, {"target", res.Target}} {
		if c.copy.Inconclusive != "" {
			why = append(why, fmt.Sprintf("%s %s: %s", c.label, c.copy.Version, c.copy.Inconclusive))
		}
	}
	if len(why) > 0 {
		res.Status, res.Reason = model.RuntimeInconclusive, strings.Join(why, "; ")
		return res, nil
	}
	res.Status = model.RuntimeCompared
	res.Changes = Diff(res.Installed, res.Target)
	return res, nil
}

// probeInstalled loads the consumer's copy from its real directory, so
// its dependencies resolve where the package manager put them (pnpm's
// .pnpm layout included). Its result is cacheable unless the load was
// cut short.
func probeInstalled(ctx context.Context, req Request, node nodeBinary) (model.RuntimeCopy, bool, error) {
	c := model.RuntimeCopy{Version: req.Installed.Version}
	dir := req.Installed.Dir
	if dir == "" {
		d, v, ok := newConsumer(req.RepoRoot, req.Workspace).find(req.Name)
		if !ok {
			c.Inconclusive = req.Name + " is not installed in node_modules: run your package manager's install first"
			return c, false, nil
		}
		dir = d
		if c.Version == "" {
			c.Version = v
		}
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		c.Inconclusive = fmt.Sprintf("the installed copy at %s cannot be read: %v", dir, err)
		return c, false, nil
	}
	m, err := readManifest(real)
	if err != nil {
		c.Inconclusive = fmt.Sprintf("the installed copy's package.json cannot be read: %v", err)
		return c, false, nil
	}
	if c.Version == "" {
		c.Version = m.Version
	}
	tmp, cleanup, native, err := prepare(req, real, m, &c)
	if tmp == "" {
		return c, native, err
	}
	defer cleanup()
	if err := link(real, modulesDir(filepath.Join(tmp, "node_modules"), req.Name)); err != nil {
		return c, false, err
	}
	c.Placement = "loaded from its installed directory " + displayPath(req.RepoRoot, real)
	sb := sandbox{node: node, dir: tmp, name: req.Name, reads: readRoots(real), timeout: req.Timeout}
	out, ok, err := load(ctx, sb, &c)
	if !ok {
		return c, false, err
	}
	relativize(&c, tmp, req.RepoRoot)
	if c.Inconclusive == "" {
		if l := missingLoad(c); l != nil {
			c.Inconclusive = fmt.Sprintf("%s is missing from your install (loaded by %s)", l.Missing, l.Importer)
		}
	}
	keep := cacheable(c, out)
	if c.Inconclusive == "" {
		if err := loadSubpaths(ctx, sb, req, &c, tmp, &keep, nil); err != nil {
			return c, false, err
		}
	}
	return c, keep, nil
}

// provideFunc provides the package a load missed and says what the
// sandbox may read then; ok false carries why it could not.
type provideFunc func(ctx context.Context, l *model.RuntimeLoad) (reads []string, why string, ok bool)

// loadSubpaths loads each subpath entry the request names from the same
// layout as the main entry, in a sandbox of its own. A load that misses a
// package is loaded again once provide (the target's placer; nil for the
// installed copy, whose tree is the install's) has provided it, as the
// main entry is. An entry's load cut short (a timeout, a refusal, a
// missing dependency) makes that entry inconclusive, and the copy not
// cached; an entry the copy does not export is an answer (both loaders
// throw).
func loadSubpaths(ctx context.Context, sb sandbox, req Request, c *model.RuntimeCopy, tmp string, keep *bool, provide provideFunc) error {
	c.Subpaths = nil
	for _, sp := range req.subpaths() {
		sb.name = req.Name + strings.TrimPrefix(sp, ".")
		e := model.RuntimeEntry{Subpath: sp}
		for {
			out, err := sb.run(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				e.Inconclusive = "the probe failed: " + err.Error()
				*keep = false
				break
			}
			var one model.RuntimeCopy
			fill(&one, out)
			l := missingLoad(one)
			if l != nil && !out.timedOut && len(one.Denied) == 0 && provide != nil {
				reads, why, ok := provide(ctx, l)
				if ok {
					sb.reads = reads
					continue
				}
				relativize(&one, tmp, req.RepoRoot)
				e.Require, e.Import = one.Require, one.Import
				e.Inconclusive = "a dependency could not be provided: " + why
				*keep = false
				break
			}
			relativize(&one, tmp, req.RepoRoot)
			e.Require, e.Import = one.Require, one.Import
			switch l := missingLoad(one); {
			case out.timedOut || len(one.Denied) > 0:
				e.Inconclusive = one.Inconclusive
			case l != nil:
				e.Inconclusive = fmt.Sprintf("%s is missing (loaded by %s)", l.Missing, l.Importer)
			}
			if !cacheable(one, out) {
				*keep = false
			}
			break
		}
		c.Subpaths = append(c.Subpaths, e)
	}
	return nil
}

// probeTarget lays the target out in a temporary node_modules with the
// dependency tree its manifests declare, loads it, and, when a load
// still misses a package, provides it at the range its importer declares
// and loads again, once per missing package.
func probeTarget(ctx context.Context, req Request, node nodeBinary) (model.RuntimeCopy, bool, error) {
	c := model.RuntimeCopy{Version: req.Target.Version}
	src := req.Target.Dir
	if src == "" {
		if req.Fetch == nil {
			c.Inconclusive = "nothing can fetch the target"
			return c, false, nil
		}
		d, v, err := req.Fetch(ctx, req.Name, req.Target.Version)
		if err != nil {
			if ctx.Err() != nil {
				return c, false, ctx.Err()
			}
			c.Inconclusive = fmt.Sprintf("the target could not be fetched: %v", err)
			return c, false, nil
		}
		src, c.Version = d, v
	}
	m, err := readManifest(src)
	if err != nil {
		c.Inconclusive = fmt.Sprintf("the target's package.json cannot be read: %v", err)
		return c, false, nil
	}
	tmp, cleanup, native, err := prepare(req, src, m, &c)
	if tmp == "" {
		return c, native, err
	}
	defer cleanup()
	top := filepath.Join(tmp, "node_modules")
	self := modulesDir(top, req.Name)
	if err := placeCopy(src, self); err != nil {
		return c, false, fmt.Errorf("placing %s@%s in %s: %w", req.Name, c.Version, tmp, err)
	}
	p := &placer{top: top, fetch: req.Fetch, available: req.Available, consumer: newConsumer(req.RepoRoot, req.Workspace), reads: map[string]bool{}}
	if err := p.placeTree(ctx, self); err != nil {
		if ctx.Err() != nil {
			return c, false, ctx.Err()
		}
		c.Inconclusive = "a dependency could not be provided: " + err.Error()
		return c, false, nil
	}
	retried := map[string]bool{}
	reads := func() []string {
		var out []string
		for r := range p.reads {
			out = append(out, r)
		}
		return out
	}
	// A subpath's load retries as the main entry's does, each missing
	// package provided once across the entries.
	provide := func(ctx context.Context, l *model.RuntimeLoad) ([]string, string, bool) {
		why, ok := provideMissing(ctx, p, tmp, l, retried)
		c.Placement = p.placement()
		return reads(), why, ok
	}
	for {
		c.Placement = p.placement()
		sb := sandbox{node: node, dir: tmp, name: req.Name, reads: reads(), timeout: req.Timeout}
		out, ok, err := load(ctx, sb, &c)
		if !ok {
			return c, false, err
		}
		l := missingLoad(c)
		if c.Inconclusive != "" || l == nil {
			relativize(&c, tmp, req.RepoRoot)
			keep := cacheable(c, out)
			if c.Inconclusive == "" {
				if err := loadSubpaths(ctx, sb, req, &c, tmp, &keep, provide); err != nil {
					return c, false, err
				}
			}
			return c, keep, nil
		}
		why, retry := provideMissing(ctx, p, tmp, l, retried)
		if !retry {
			relativize(&c, tmp, req.RepoRoot)
			c.Inconclusive = "a dependency could not be provided: " + why
			return c, false, nil
		}
	}
}

// provideMissing places the package a load could not find, at the range
// its importer declares, when the importer is a placed copy and the
// package was not asked for before.
func provideMissing(ctx context.Context, p *placer, tmp string, l *model.RuntimeLoad, retried map[string]bool) (string, bool) {
	if retried[l.Missing] {
		return fmt.Sprintf("%s is still missing after it was provided once", l.Missing), false
	}
	retried[l.Missing] = true
	realTmp, _ := filepath.EvalSymlinks(tmp)
	dir, m, ok := packageOf(l.Importer)
	if !ok {
		return fmt.Sprintf("%s is loaded by %s, which belongs to no package", l.Missing, l.Importer), false
	}
	if rel, err := filepath.Rel(realTmp, dir); err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Sprintf("%s is missing from your install (loaded by %s)", l.Missing, m.Name), false
	}
	rng, declared := m.declared(l.Missing)
	if !declared {
		return fmt.Sprintf("%s loads %s without declaring it", m.Name, l.Missing), false
	}
	placed, err := p.provide(ctx, dir, m.Name, l.Missing, rng, true)
	if err != nil {
		return err.Error(), false
	}
	p.unskip(l.Missing)
	if placed != "" {
		if err := p.placeTree(ctx, placed); err != nil {
			return err.Error(), false
		}
	}
	return "", true
}

// fill records a sandboxed load on the copy and decides whether it can be
// trusted: a timeout, a refusal by the sandbox, or no value from either
// loader leave it inconclusive.
// load runs the sandbox and fills c with what it saw. ok is false when
// the probe cannot go on: err when the context ended, else c.Inconclusive
// says why the run failed.
func load(ctx context.Context, sb sandbox, c *model.RuntimeCopy) (out outcome, ok bool, err error) {
	out, err = sb.run(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return out, false, ctx.Err()
		}
		c.Inconclusive = "the probe failed: " + err.Error()
		return out, false, nil
	}
	fill(c, out)
	return out, true, nil
}

func fill(c *model.RuntimeCopy, out outcome) {
	c.Require, c.Import, c.Denied = out.require, out.imp, dedupe(out.denied)
	c.Inconclusive = ""
	for _, l := range []model.RuntimeLoad{c.Require, c.Import} {
		switch l.Code {
		case "ERR_ACCESS_DENIED", "ERR_UPTIDE_SANDBOX", "ERR_DLOPEN_DISABLED":
			c.Denied = dedupe(append(c.Denied, firstLine(l.Message)))
		}
	}
	switch {
	case out.timedOut:
		c.Inconclusive = "the load did not finish in time and was killed"
	case len(c.Denied) > 0:
		c.Inconclusive = "the sandbox refused " + strings.Join(c.Denied, "; ")
	case !c.Require.Got() && !c.Import.Got() && missingLoad(*c) == nil && !(fileMissing(c.Require) && fileMissing(c.Import)):
		c.Inconclusive = fmt.Sprintf("neither loader got a value (require(): %s; import(): %s)", failureText(c.Require), failureText(c.Import))
	}
}

// relativize takes the probe's temporary directory and the repository's
// root out of what the loads said, so a result reads the same on every
// run and machine (a path under the probe's directory starts at its
// node_modules).
func relativize(c *model.RuntimeCopy, tmp, root string) {
	var pairs []string
	if tmp != "" {
		pairs = append(pairs, tmp+string(filepath.Separator), "")
	}
	if root != "" {
		if real, err := filepath.EvalSymlinks(root); err == nil {
			pairs = append(pairs, real+string(filepath.Separator), "")
		}
		pairs = append(pairs, filepath.Clean(root)+string(filepath.Separator), "")
	}
	if len(pairs) == 0 {
		return
	}
	r := strings.NewReplacer(pairs...)
	for _, l := range []*model.RuntimeLoad{&c.Require, &c.Import} {
		l.Message, l.Importer = r.Replace(l.Message), r.Replace(l.Importer)
	}
	for i, d := range c.Denied {
		c.Denied[i] = r.Replace(d)
	}
}

// fileMissing: the load failed for a file the copy does not ship (its
// main, its exports' target, a relative load inside it), not for a
// package: the copy is laid out whole, so the installed upgrade throws
// the same (faker 6.6.6, published with no code). That is a change the
// probe saw, not one it could not decide.
func fileMissing(l model.RuntimeLoad) bool {
	return !l.Got() && l.Missing == "" && (l.Code == "MODULE_NOT_FOUND" || l.Code == "ERR_MODULE_NOT_FOUND")
}

// missingLoad is a load that failed for want of a package, if any.
func missingLoad(c model.RuntimeCopy) *model.RuntimeLoad {
	for _, l := range []model.RuntimeLoad{c.Require, c.Import} {
		if l.Missing != "" {
			return &l
		}
	}
	return nil
}

// cacheable: what a complete load decided, and a copy that looks native,
// stand for the version; a load cut short or short of a dependency does
// not.
func cacheable(c model.RuntimeCopy, out outcome) bool {
	return !out.timedOut && len(c.Denied) == 0 && missingLoad(c) == nil
}

func failureText(l model.RuntimeLoad) string {
	if l.Code != "" {
		return l.Code + " " + firstLine(l.Message)
	}
	if m := firstLine(l.Message); m != "" {
		return m
	}
	return "no value"
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// prepare refuses a copy that looks native, its why on c (native: that
// decides and may be kept), else lays out the temporary directory its load
// runs in: tmp is "" when nothing is to load.
func prepare(req Request, dir string, m manifest, c *model.RuntimeCopy) (tmp string, cleanup func(), native bool, err error) {
	if why := looksNative(dir, m); why != "" {
		c.Inconclusive = why
		return "", nil, true, nil
	}
	tmp, cleanup, err = layout(req.TempDir)
	return tmp, cleanup, false, err
}

// layout makes the temporary directory a load runs in, with the probe's
// scripts, and returns it by its real path (the permission model compares
// real paths).
func layout(parent string) (string, func(), error) {
	tmp, err := os.MkdirTemp(parent, "uptide-probe-")
	if err != nil {
		return "", nil, fmt.Errorf("probe: %w", err)
	}
	cleanup := func() { _ = os.RemoveAll(tmp) }
	real, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("probe: %w", err)
	}
	if err := writeScripts(real); err != nil {
		cleanup()
		return "", nil, err
	}
	return real, cleanup, nil
}

func displayPath(root, p string) string {
	if root != "" {
		if realRoot, err := filepath.EvalSymlinks(root); err == nil {
			root = realRoot
		}
		if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return p
}

func envMap(env []string) map[string]string {
	if env == nil {
		env = os.Environ()
	}
	m := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}
