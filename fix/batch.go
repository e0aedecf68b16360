package fix

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix/managers"
	"github.com/uptide/uptide/fix/verify"
)

// A batch (fix a b c, the plan's cheap batch) is the single-package
// pipeline with its middle replaced: every package is planned from one
// check, installed and committed in its own step, in order; the compile
// and the tests run once, on the last commit; and when they fail,
// bisection re-verifies the steps' commits in the clone to the first one
// that breaks, and the branch ends at the step before it. A batch makes no
// rule edits and applies no patches: an upgrade that needs edits is fixed
// on its own.

func (r *runner) batch() bool { return len(r.o.Packages) > 1 }

// names are the packages the run upgrades, in order.
func (r *runner) names() []string {
	if r.batch() {
		return r.o.Packages
	}
	return []string{r.o.Package}
}

// label names the run's branch before its targets are known.
func (r *runner) label() string {
	if r.batch() {
		return batchBranch(len(r.o.Packages))
	}
	return r.o.Package
}

// batchBranch: "batch-3-packages" (under uptide/).
func batchBranch(n int) string { return fmt.Sprintf("batch-%d-packages", n) }

// batchSteps are steps with the single upgrade's plan, install and edits
// replaced by the batch's, and bisection after the verdict.
func (r *runner) batchSteps() []step {
	var out []step
	for _, s := range r.steps() {
		switch s.name {
		case "rules", "assist", "patches", "format":
			continue
		case "install early":
			s.run = r.installBatchEarly
		case "plan":
			s.run = r.planBatch
		case "install":
			s.run = r.installBatch
		}
		out = append(out, s)
		if s.name == "verdict" {
			out = append(out, step{name: "bisect", run: r.bisect})
		}
	}
	return out
}

// batchPlan is one step of a batch before it is committed.
type batchPlan struct {
	name string
	plan *upgradePlan
}

// planBatch turns check's reports into one upgrade per package, in the
// order named; a package another step already moves (a release group's
// member named too) is no step of its own.
func (r *runner) planBatch(ctx context.Context) bool {
	if !r.joinCheck(ctx) {
		return false
	}
	moved := map[string]string{}
	seen := map[string]bool{}
	merged := &upgradePlan{added: map[string]bool{}}
	for _, name := range r.o.Packages {
		if by, ok := moved[name]; ok {
			r.rep.NotRun = append(r.rep.NotRun, fmt.Sprintf("%s: no step of its own, it moves with %s", name, by))
			continue
		}
		reports := reportsOf(r.crep, name)
		plan, err := batchStep(name, reports, r.repository)
		if err != nil {
			r.stop("%v; nothing was changed", err)
			return false
		}
		for _, p := range reports {
			if !seen[p.Title] {
				seen[p.Title] = true
				r.reports = append(r.reports, p)
			}
		}
		for _, m := range plan.moves {
			moved[m.Name] = name
		}
		for a := range plan.added {
			merged.added[a] = true
		}
		merged.moves = append(merged.moves, plan.moves...)
		r.batchPlans = append(r.batchPlans, batchPlan{name: name, plan: plan})
	}
	r.upgrade = merged
	r.rep.Moves = merged.moves
	r.rep.Branch = "uptide/" + batchBranch(len(r.o.Packages))
	return r.nameBranch(ctx)
}

// batchStep is the plan of the batch's step of name from check's reports
// of it; a conflict is an error.
func batchStep(name string, reports []model.PackageReport, repo *model.Repository) (*upgradePlan, error) {
	plan, err := planOf(name, reports, repo)
	if err != nil {
		return nil, err
	}
	if len(plan.conflicts) > 0 {
		return nil, fmt.Errorf("the companion plan of %s has a conflict: %s", name, strings.Join(plan.conflicts, "; "))
	}
	return plan, nil
}

// earlyBatch is what a batch installed while check still ran: the clone's
// commit before, then each step installed and committed in order, on
// check's first plans of its package.
type earlyBatch struct {
	base  string
	steps []*stepInstall
	// touched: the clone holds more than the steps (an install that
	// failed and was put back, or stopped).
	touched bool
}

// stepInstall is a batch step installed and committed in the clone, not
// yet in the report.
type stepInstall struct {
	name    string
	moves   []managers.Move
	later   bool // installed as a step before the last (managers.Options.Later)
	res     *managers.Result
	repo    *model.Repository // the clone's, before the step
	commits []Commit
}

// installStep installs plan's moves in the clone and commits them, the
// manager's own rewrite of the lockfile first when it makes one; it
// writes nothing in the report, so the early install runs it beside check.
// later: another step installs after it (its frozen install proves both).
func (r *runner) installStep(ctx context.Context, name string, plan *upgradePlan, later bool) (*stepInstall, error) {
	res, cloneRepo, err := r.upgradeClone(ctx, plan, later)
	if err != nil {
		return nil, err
	}
	st := &stepInstall{name: name, moves: plan.managerMoves, later: later, res: res, repo: cloneRepo}
	if len(res.Normalized) > 0 {
		c, err := r.commitNormalized(ctx, res)
		if err != nil {
			return nil, err
		}
		st.add(c)
	}
	c, err := r.commitFiles(ctx, upgradeSubject(name, plan), append(append([]string{}, res.Manifests...), res.Lockfile)...)
	if err != nil {
		return nil, err
	}
	st.add(c)
	return st, nil
}

// add records c, nil when nothing was committed.
func (st *stepInstall) add(c *Commit) {
	if c != nil {
		st.commits = append(st.commits, *c)
	}
}

// keepStep puts an installed step in the report, its last commit as the
// step's.
func (r *runner) keepStep(bp batchPlan, st *stepInstall) {
	if r.cloneRepo == nil {
		r.cloneRepo = st.repo
	}
	r.mergeInstall(st.res)
	r.rep.Commits = append(r.rep.Commits, st.commits...)
	r.rep.Steps = append(r.rep.Steps, BatchStep{Package: bp.name, From: bp.plan.from, To: bp.plan.to, Moves: bp.plan.moves,
		Commit: r.rep.Commits[len(r.rep.Commits)-1].Sha})
	r.stepCommits = append(r.stepCommits, len(r.rep.Commits))
}

// installBatchEarly is a batch's early install: it installs and commits
// the steps in order as check's first plans of their packages come, and
// stops when check is done (installBatch installs the rest), a step fails
// or ctx ends. Like a single upgrade's, it starts once the clone is made,
// the manager detected and the baseline compile no longer reads the
// clone. installBatch keeps the steps whose moves check's final plan
// repeats.
func (r *runner) installBatchEarly(ctx context.Context) bool {
	defer close(r.earlyDone)
	eb := &earlyBatch{}
	defer func() {
		if eb.base != "" {
			r.earlyBatch = eb
		}
	}()
	got := map[string][]model.PackageReport{}
	take := func(p model.PackageReport) {
		for _, n := range r.o.Packages {
			if concerns(p, n) {
				got[n] = append(got[n], p)
			}
		}
	}
	kept := false
	moved := map[string]bool{}
	for i, name := range r.o.Packages {
		if moved[name] {
			continue
		}
		for len(got[name]) == 0 {
			select {
			case p := <-r.plans:
				take(p)
			case <-r.checked:
				if !r.keptCheck || kept {
					return true // check is done: installBatch does the rest
				}
				// A kept check was done before the clone: its final
				// plans are installed now, beside the baseline compile.
				kept = true
				for _, p := range r.crep.Packages {
					take(p)
				}
				if len(got[name]) == 0 {
					return true
				}
			case <-ctx.Done():
				return true
			}
		}
		plan, err := batchStep(name, got[name], r.repository)
		if err != nil || ctx.Err() != nil {
			return true
		}
		for _, m := range plan.moves {
			moved[m.Name] = true
		}
		if eb.base == "" {
			base, err := r.clone.Git(ctx, "rev-parse", "HEAD")
			if err != nil {
				return true
			}
			eb.base = strings.TrimSpace(base)
		}
		when := "while check runs"
		if kept {
			when = "on the kept check's plan"
		}
		r.progress(model.PhaseInstall, "step %d: %s %s → %s, %s", len(eb.steps)+1, name, plan.from, plan.to, when)
		eb.touched = true
		later := false
		for _, next := range r.o.Packages[i+1:] {
			later = later || !moved[next]
		}
		st, err := r.installStep(ctx, name, plan, later)
		if err != nil || len(st.commits) == 0 {
			return true
		}
		eb.steps = append(eb.steps, st)
		eb.touched = false
	}
	return true
}

// installBatch installs and commits each step in order: the early
// install's steps while check's final plan repeats their moves, then,
// with the clone put back at the last of them, the rest.
func (r *runner) installBatch(ctx context.Context) bool {
	eb := r.earlyBatch
	if eb != nil {
		r.batchBase = eb.base
	} else {
		base, err := r.clone.Git(ctx, "rev-parse", "HEAD")
		if err != nil {
			r.stop("reading the clone's commit: %v", err)
			return false
		}
		r.batchBase = strings.TrimSpace(base)
	}
	kept := 0 // the early steps kept so far
	// backFromEarly puts the clone back at the last step kept when the
	// early install went on past it (other moves, or a failed step).
	backFromEarly := func(i int) bool {
		if eb == nil || kept != i || (len(eb.steps) <= kept && !eb.touched) {
			return true
		}
		at := r.batchBase
		if kept > 0 {
			at = r.rep.Steps[kept-1].Commit
		}
		r.progress(model.PhaseInstall, "check's final plan differs from its first after step %d: installing from there again", kept)
		eb = nil
		if err := r.resetClone(ctx, at); err != nil {
			if !r.interrupted(ctx, "install") {
				r.stop("%v", err)
			}
			return false
		}
		return true
	}
	for i, bp := range r.batchPlans {
		later := i < len(r.batchPlans)-1
		if eb != nil && kept == i && i < len(eb.steps) && eb.steps[i].name == bp.name && sameMoves(eb.steps[i].moves, bp.plan.managerMoves) && eb.steps[i].later == later {
			r.keepStep(bp, eb.steps[i])
			kept++
			continue
		}
		if !backFromEarly(i) {
			return false
		}
		r.progress(model.PhaseInstall, "step %d of %d: %s %s → %s", i+1, len(r.batchPlans), bp.name, bp.plan.from, bp.plan.to)
		st, err := r.installStep(ctx, bp.name, bp.plan, later)
		if err != nil {
			if !r.interrupted(ctx, "install") {
				r.stop("install of step %d (%s): %v", i+1, bp.name, err)
			}
			return false
		}
		r.keepStep(bp, st)
	}
	if !backFromEarly(len(r.batchPlans)) {
		return false
	}
	// From here the run is failed, not not-run, as after a single
	// upgrade's rule edits.
	r.rep.Status = StatusFailed
	r.style = verify.DetectStyle(r.croot)
	r.lb = &lintBaseline{run: verify.LintRun{Failures: map[string][]string{}}, ok: true}
	return true
}

// resetClone puts the clone's files back at commit sha (node_modules
// stays: the next install lays it out).
func (r *runner) resetClone(ctx context.Context, sha string) error {
	for _, args := range [][]string{{"reset", "-q", "--hard", sha}, {"clean", "-q", "-f", "-d"}} {
		if _, err := r.clone.Git(ctx, args...); err != nil {
			return fmt.Errorf("putting the clone back before the install: %w", err)
		}
	}
	return nil
}

// mergeInstall folds one step's install into the report's.
func (r *runner) mergeInstall(res *managers.Result) {
	in := r.rep.Install
	if in == nil {
		in = &Install{Manager: res.Manager, Version: res.Version, Binary: res.Binary, BinaryWhy: res.BinaryWhy, Lockfile: res.Lockfile,
			Manifests: []string{}, Commands: []string{}, Normalized: []string{}}
		r.rep.Install = in
	}
	for _, m := range res.Manifests {
		in.Manifests = appendUnique(in.Manifests, m)
	}
	in.Commands = append(in.Commands, res.Commands...)
	in.Moved = append(in.Moved, res.Moved...)
	in.Normalized = append(in.Normalized, res.Normalized...)
}

// bisect finds the first step whose commit does not verify when the batch
// did not: the commit before the first step verified (the baseline), the
// last did not, so a binary search over the steps' commits re-verifies
// about log2(steps) of them, each with its own dependencies installed. It
// judges by what failed at the end: new compiler errors, failing tests.
func (r *runner) bisect(ctx context.Context) bool {
	typesBad := len(r.rep.Types.New) > 0
	var failing []string
	for _, t := range r.rep.Tests.Results {
		if broken(t) {
			failing = append(failing, t.Run.Scope)
		}
	}
	if r.rep.Status != StatusFailed || (!typesBad && len(failing) == 0) {
		return true
	}
	n := len(r.rep.Steps)
	type result struct {
		diags   []model.Diagnostic
		failing []string
	}
	at := map[int]result{n: {r.rep.Types.New, failing}}
	var probes []Probe
	lo, hi := 0, n // step lo verifies (0: the baseline), step hi does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		sha := r.rep.Steps[mid-1].Commit
		r.progress(model.PhaseBisect, "verifying step %d of %d (%s → %s) at %s", mid, n, r.rep.Steps[mid-1].Package, r.rep.Steps[mid-1].To, short(sha))
		res, err := r.verifyAt(ctx, sha, typesBad, len(failing) > 0)
		if err != nil {
			if !r.interrupted(ctx, "bisection") {
				r.rep.NotRun = append(r.rep.NotRun, fmt.Sprintf("bisection at step %d: %v", mid, err))
			}
			break
		}
		bad := len(res.diags) > 0 || len(res.failing) > 0
		probes = append(probes, Probe{Step: mid, Commit: sha, Broken: bad})
		at[mid] = result{res.diags, res.failing}
		if bad {
			hi = mid
		} else {
			lo = mid
		}
	}
	if hi-lo > 1 {
		// Bisection stopped short: the branch stays whole.
		r.restoreHead(ctx, r.rep.Branch)
		return true
	}
	s := r.rep.Steps[hi-1]
	b := &BrokeAt{Step: hi, Package: s.Package, From: s.From, To: s.To, Commit: s.Commit,
		NewErrors: orDiags(at[hi].diags), FailingTests: orEmpty(at[hi].failing), Good: []string{}, Probes: probes,
		Whole: r.rep.Branch + "-whole"}
	if b.Probes == nil {
		b.Probes = []Probe{}
	}
	good := r.batchBase
	for _, st := range r.rep.Steps[:hi-1] {
		b.Good = append(b.Good, st.Commit)
		good = st.Commit
	}
	r.rep.BrokeAt = b
	// The branch ends at the last good step; every step stays in the
	// clone under the whole branch.
	if _, err := r.clone.Git(ctx, "branch", "-f", b.Whole, r.rep.Branch); err != nil {
		r.rep.NotRun = append(r.rep.NotRun, "keeping every step on "+b.Whole+": "+err.Error())
		r.restoreHead(ctx, r.rep.Branch)
		return true
	}
	// When the last probe was the last good step, the clone is there,
	// node_modules laid out as its lockfile says: the branch moves to it
	// and is checked out without touching a file (npm ci would lay it all
	// out again). Otherwise the clone goes there and installs it.
	atGood := len(probes) > 0 && probes[len(probes)-1].Commit == good
	var err error
	if atGood {
		if _, err = r.clone.Git(ctx, "branch", "-f", r.rep.Branch, good); err == nil {
			_, err = r.clone.Git(ctx, "checkout", "-q", r.rep.Branch)
		}
	} else if _, err = r.clone.Git(ctx, "checkout", "-q", "-f", r.rep.Branch); err == nil {
		_, err = r.clone.Git(ctx, "reset", "-q", "--hard", good)
	}
	if err != nil {
		r.rep.NotRun = append(r.rep.NotRun, "ending the branch at the last good step: "+err.Error())
	}
	keep := 0
	if hi > 1 {
		keep = r.stepCommits[hi-2]
	}
	r.rep.Commits = r.rep.Commits[:keep]
	if !atGood || err != nil {
		_ = r.restoreModules(ctx)
	}
	r.rep.Reason = fmt.Sprintf("step %d of %d (%s %s → %s) broke the batch: %s; %s", hi, n, s.Package, s.From, s.To,
		brokeWhy(b), goodSteps(hi-1, r.rep.Branch)) + "; at the last step: " + r.rep.Reason
	return true
}

// verifyAt checks out sha in the clone, installs what its lockfile says
// and compiles (types) and tests (tests) there.
func (r *runner) verifyAt(ctx context.Context, sha string, types, tests bool) (res struct {
	diags   []model.Diagnostic
	failing []string
}, err error) {
	if _, err = r.clone.Git(ctx, "checkout", "-q", "-f", "--detach", sha); err != nil {
		return res, err
	}
	if err = r.restoreModules(ctx); err != nil {
		return res, err
	}
	// The compile runs beside the tests, as after the last step.
	var compileErr error
	compiled := make(chan struct{})
	go func() {
		defer close(compiled)
		if !types {
			return
		}
		after, err := compileWorkspaces(ctx, r.croot, r.workspaces, r.fetch, r.drivers)
		if err != nil {
			compileErr = err
			return
		}
		res.diags = newDiagnostics(r.base.Diagnostics, after.Diagnostics)
	}()
	if tests {
		affected := affectedFiles(r.reports, nil)
		tp, err := r.planTests(affected)
		if err != nil {
			<-compiled
			return res, err
		}
		for _, t := range r.runTests(ctx, tp, affected) {
			if broken(t) {
				res.failing = append(res.failing, t.Run.Scope)
			}
		}
	}
	<-compiled
	return res, compileErr
}

// restoreModules lays node_modules out as the clone's lockfile says.
func (r *runner) restoreModules(ctx context.Context) error {
	return managers.Restore(ctx, managers.Options{Root: r.croot, Env: r.env, Manager: r.manager,
		Progress: func(line string) { r.progress(model.PhaseBisect, "%s", line) }})
}

// restoreHead puts the clone back on branch after an unfinished bisection.
func (r *runner) restoreHead(ctx context.Context, branch string) {
	if _, err := r.clone.Git(ctx, "checkout", "-q", "-f", branch); err == nil {
		_ = r.restoreModules(ctx)
	}
}

func broken(t verify.TestResult) bool {
	return t.Status == verify.StatusFailed || t.Status == verify.StatusTimedOut || t.Status == verify.StatusError
}

func brokeWhy(b *BrokeAt) string {
	var why []string
	if n := len(b.NewErrors); n > 0 {
		why = append(why, plural(n, "new type error", "new type errors"))
	}
	if len(b.FailingTests) > 0 {
		why = append(why, "tests failing ("+strings.Join(b.FailingTests, ", ")+")")
	}
	return strings.Join(why, ", ")
}

func goodSteps(n int, branch string) string {
	switch n {
	case 0:
		return "no step before it verified, so no branch"
	case 1:
		return branch + " holds step 1, which verified"
	}
	return fmt.Sprintf("%s holds steps 1–%d, which verified", branch, n)
}

func short(sha string) string { return sha[:min(10, len(sha))] }

func orDiags(d []model.Diagnostic) []model.Diagnostic {
	if d == nil {
		return []model.Diagnostic{}
	}
	return d
}
