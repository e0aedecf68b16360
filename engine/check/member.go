package check

import (
	"context"
	"errors"
	"fmt"
	"github.com/uptide/uptide/engine/event"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/diff"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/typescript"
)

// memberRun is what one member's Signal A and diff gathered.
type memberRun struct {
	m   member
	rep model.MemberReport
	// ok: the usages and both surfaces are there, so the member is judged.
	ok bool
	// linkName and tgtDir are what the overlay links for the member: the
	// package itself, or its @types release; tgtDir is "" when the member
	// stays at its installed version.
	linkName string
	tgtDir   string
	// runtimeInst and runtimeTgt are the runtime package's directories, for
	// the module-format check (the same as the declarations' unless typed
	// by @types).
	runtimeInst, runtimeTgt string
	// runtime is Signal C's result once runtimeDone is closed (startRuntime).
	runtime     *model.RuntimeResult
	runtimeNode modformat.NodeInfo
	runtimeDone chan struct{}
	inst, tgt   *model.Surface
	changes     []model.Change
	// usages, importers and format findings by workspace.
	usages    map[string][]model.Usage
	importers map[string][]string
	// js: the workspace's program includes JavaScript (allowJs).
	js map[string]bool
	// config is the workspace's tsconfig, repository-relative.
	config     map[string]string
	format     map[string][]model.Finding
	unanalyzed []model.Unanalyzed
	// computed are the computed loads that cannot load the member.
	computed []model.ComputedLoad
	// baselineDir, when set, is the @types release the baseline compile
	// links instead of the installed one (it types the installed runtime's
	// major).
	baselineDir string
	// noCompile says why the overlay has nothing to judge for the member.
	noCompile string
	// removesTypes is the @types package the target makes needless: it
	// ships its own declarations, which the member is analyzed against.
	removesTypes string
	// compileGap says why the overlay cannot link the member's new
	// declarations although they change: what the compile then says of
	// its files proves nothing.
	compileGap string
	// untyped says why the member has no surface on either side: its
	// sites are judged by the runtime probe alone (judgeUntyped).
	untyped  string
	notes    []string
	warnings []string
}

func (r *memberRun) fail(status model.AnalysisStatus, reason string) *memberRun {
	r.ok = false
	r.rep.Status, r.rep.Reason = status, reason
	return r
}

// runMember finds the member's usages in every workspace declaring it,
// extracts the installed and target surfaces and diffs them.
func (c *checker) runMember(ctx context.Context, m member) *memberRun {
	run := &memberRun{
		m:         m,
		linkName:  m.name(),
		usages:    map[string][]model.Usage{},
		importers: map[string][]string{},
		js:        map[string]bool{},
		config:    map[string]string{},
		format:    map[string][]model.Finding{},
		rep: model.MemberReport{
			Name: m.name(), Installed: m.row.Installed, Target: m.target,
			Workspaces: append([]string{}, m.row.Workspaces...), Status: model.StatusAnalyzed,
		},
	}
	if m.reason != "" {
		return run.fail(model.StatusNotAnalyzed, m.reason)
	}
	var pkgDir, typesFrom, noTypes string
	// The installed copy's surface, which the diff needs anyway, extracted
	// first: Signal A builds its position map from it instead of a program
	// of its own over the package. A failure here is left to the diff to
	// report, after the usages, as before.
	var preDir string
	var pre *model.Surface
	if m.target != m.row.Installed {
		if dir, _ := installedCopy(c.root, m.row.Workspaces[0], m.name()); dir != "" {
			if sa, err := c.surfaces(ctx); err == nil {
				if s, err := sa.ExtractSurface(ctx, dir, m.name(), m.row.Installed); err == nil {
					preDir, pre = dir, s
				}
			}
		}
	}
	var next *ahead
	if m.target != m.row.Installed {
		next = c.fetchAhead(ctx, m, pre)
		// Whatever ends the member waits for it: what it fetched is
		// removed with the check's other copies.
		defer func() { <-next.done }()
	}
	files := map[string]bool{}
	for _, ws := range m.row.Workspaces {
		c.opts.Events.Emit(event.Event{Phase: event.PhaseUsages, Package: m.name()})
		ad, err := c.judge(ctx, ws)
		if err != nil {
			return run.fail(model.StatusNotAnalyzed, err.Error())
		}
		res, err := ad.FindUsages(ctx, typescript.UsageRequest{
			RepoRoot: c.root, Workspace: ws, Package: m.name(), Exclude: c.excludes(m.name(), ws),
			Installed: pre, InstalledDir: preDir,
		})
		if err != nil {
			return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("finding the usages of %s in %s: %v", m.name(), wsLabel(ws), err))
		}
		if res.Unresolved != "" {
			return run.fail(model.StatusNotAnalyzed, res.Unresolved)
		}
		if pkgDir == "" {
			pkgDir, typesFrom, noTypes = res.PackageDir, res.TypesFrom, res.NoTypes
		}
		run.usages[ws] = res.Usages
		run.importers[ws] = res.Importers
		run.js[ws] = res.IncludesJS
		run.config[ws] = res.Config
		run.unanalyzed = append(run.unanalyzed, res.Unanalyzed...)
		run.computed = append(run.computed, res.Computed...)
		for _, u := range res.Usages {
			files[u.File] = true
		}
		run.rep.Sites += len(res.Usages)
		if res.Unmapped > 0 {
			run.notes = append(run.notes, fmt.Sprintf("declarations of %s that its public surface does not export are reached by %d %s in %s", m.name(), res.Unmapped, pluralWord(res.Unmapped, "reference"), wsLabel(ws)))
		}
	}
	run.rep.Files = len(files)
	c.timer.Done(event.PhaseUsages)

	run.runtimeInst, _ = installedCopy(c.root, m.row.Workspaces[0], m.name())
	if m.target == m.row.Installed {
		// A group member already at its target moves with nothing: its
		// installed copy serves the overlay.
		run.rep.Status = model.StatusSkipped
		run.rep.Reason = "already at " + m.target
		return run
	}
	<-next.done
	tgtPkg, err := next.pkg, next.err
	if err != nil {
		return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("fetching %s@%s: %v", m.row.Package, m.target, err))
	}
	run.runtimeTgt = tgtPkg.Dir

	c.opts.Events.Emit(event.Event{Phase: event.PhaseDiff, Package: m.name()})
	sa, err := c.surfaces(ctx)
	if err != nil {
		return run.fail(model.StatusNotAnalyzed, err.Error())
	}
	if typesFrom != "" || noTypes != "" {
		return c.typesMember(ctx, run, sa, pkgDir, typesFrom, noTypes)
	}
	run.tgtDir = tgtPkg.Dir
	if pre != nil && samePath(preDir, pkgDir) {
		run.inst = pre
	} else if run.inst, err = sa.ExtractSurface(ctx, pkgDir, m.name(), m.row.Installed); err != nil {
		return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("reading the declarations of the installed %s@%s: %v", m.name(), m.row.Installed, err))
	}
	if run.inst == pre && !errors.Is(next.tgtErr, errNotAhead) {
		// What ran beside the usage scan read the target and diffed the
		// same two surfaces.
		run.tgt, err, run.changes = next.tgt, next.tgtErr, next.changes
	} else {
		run.tgt, err = sa.ExtractSurface(ctx, tgtPkg.Dir, m.name(), m.target)
	}
	var nt *typescript.NoTypesError
	if errors.As(err, &nt) {
		return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("%s@%s ships no declarations (%s) while %s does: its types cannot be compared", m.name(), m.target, nt.Reason, m.row.Installed))
	}
	if err != nil {
		return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("reading the declarations of %s@%s: %v", m.name(), m.target, err))
	}
	c.diffRun(ctx, run, sa, pkgDir, tgtPkg.Dir)
	return run
}

// ahead is what a member's check needs of the target and does not need
// the usages for: the target's copy, its surface and the text diff
// against the installed surface. It runs beside the usage scan, which
// holds the repository's driver (and, in a fix run, waits behind the
// baseline compile); done is closed when it is over.
type ahead struct {
	done    chan struct{}
	pkg     *registry.Package
	err     error
	tgt     *model.Surface
	tgtErr  error
	changes []model.Change
}

// fetchAhead starts the member's ahead work. The diff is made only
// against pre, the installed surface read before the scan: the member
// takes it when the usages resolve the package to that same copy.
func (c *checker) fetchAhead(ctx context.Context, m member, pre *model.Surface) *ahead {
	a := &ahead{done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.pkg, a.err = c.fetch(ctx, m.row.Package, m.target)
		if a.err != nil || pre == nil {
			a.tgtErr = errNotAhead
			return
		}
		sa, err := c.surfaces(ctx)
		if err != nil {
			a.tgtErr = err
			return
		}
		if a.tgt, a.tgtErr = sa.ExtractSurface(ctx, a.pkg.Dir, m.name(), m.target); a.tgtErr == nil {
			a.changes = diff.Diff(pre, a.tgt, nil)
		}
	}()
	return a
}

var errNotAhead = errors.New("not read ahead")

// diffRun classifies the changes between the two surfaces, refined by the
// checker where the text cannot tell.
func (c *checker) diffRun(ctx context.Context, run *memberRun, sa *typescript.Adapter, instDir, tgtDir string) {
	if run.changes == nil {
		run.changes = diff.Diff(run.inst, run.tgt, nil)
	}
	c.refine(ctx, run, sa, instDir, tgtDir)
	run.rep.Changes = len(run.changes)
	for _, ch := range run.changes {
		if ch.Severity == model.Breaking {
			run.rep.BreakingChanges++
		}
	}
	run.ok = true
	c.timer.Done(event.PhaseDiff)
}

// excludes are the workspaces below ws that declare the package themselves:
// they report their own usages, so each usage is reported once.
func (c *checker) excludes(name, ws string) []string {
	out := []string{}
	for _, r := range c.disc.Rows {
		if r.Name != name {
			continue
		}
		for _, w := range r.Workspaces {
			if w != ws && (ws == "." || strings.HasPrefix(w, ws+"/")) {
				out = appendUnique(out, filepath.Join(c.root, filepath.FromSlash(w)))
			}
		}
	}
	sort.Strings(out)
	return out
}

func wsLabel(ws string) string {
	if ws == "." || ws == "" {
		return "the root workspace"
	}
	return "workspace " + ws
}

// samePath: two directories are one after resolving symlinks (pnpm's store).
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}
