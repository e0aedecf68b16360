package fix

import (
	"context"
	"fmt"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/fix/managers"
)

// earlyInstall is the install started on check's first plan of the
// package, while check still analyzes: most runs' final plan is that plan,
// so the install is done by the time check is.
type earlyInstall struct {
	moves []managers.Move
	repo  *model.Repository
	res   *managers.Result
	err   error
}

// installEarly waits for check's first plan of the package (a kept check's
// final one) and installs its moves in the clone, into early; it leaves
// early nil when check ended first, the plan could not be installed as it was (a conflict, no
// target), or ctx ended. The pipeline starts it once the clone is made,
// the manager detected and, when the baseline compile reads the clone,
// that compile done: it must see the clone before the upgrade.
func (r *runner) installEarly(ctx context.Context) bool {
	defer close(r.earlyDone)
	var reports []model.PackageReport
	select {
	case <-r.checked:
	default:
		select {
		case first := <-r.plans:
			reports = []model.PackageReport{first}
		case <-r.checked:
		case <-ctx.Done():
			return true
		}
	}
	if reports == nil {
		if !r.keptCheck {
			return true // the install after check takes its final plan
		}
		// A kept check was done before the clone: its final plan is
		// installed now, beside the baseline compile.
		reports = reportsOf(r.crep, r.o.Package)
	}
	pl, err := planOf(r.o.Package, reports, r.repository)
	if err != nil || len(pl.conflicts) > 0 || ctx.Err() != nil {
		return true
	}
	r.earlyStarted.Store(true)
	res, cloneRepo, err := r.upgradeClone(ctx, pl, false)
	if cloneRepo != nil {
		r.early = &earlyInstall{moves: pl.managerMoves, repo: cloneRepo, res: res, err: err}
	}
	return true
}

// earlyWait bounds how long check's compile waits for an early install
// still running: about what the parse of a large package's declarations
// costs the compile after the upgrade when the two do not share it.
const earlyWait = time.Second

// installedRoot is check's Installed: the clone's repository root once
// the early install is done and succeeded; "" while it runs. Check then
// links the copies the compile after the upgrade reads, whose parsed
// files the driver keeps for it.
func (r *runner) installedRoot() string {
	r.earlyWait.Do(func() {
		if !r.earlyStarted.Load() {
			return
		}
		// An install about to end is waited for: the compile after the
		// upgrade then parses none of the copies check's compile read,
		// which saves more than a short wait costs.
		t := time.NewTimer(earlyWait)
		defer t.Stop()
		select {
		case <-r.earlyDone:
		case <-t.C:
		}
	})
	select {
	case <-r.earlyDone:
	default:
		return ""
	}
	if r.early == nil || r.early.err != nil {
		return ""
	}
	return r.croot
}

// install is the upgrade of the final plan in the clone: the early install
// when it installed the same moves, else (after putting the clone back at
// its commit when the early one changed it) a fresh one. It returns the
// clone's repository as it was before the install.
func (r *runner) install(ctx context.Context, plan *upgradePlan, early *earlyInstall) (*managers.Result, *model.Repository, error) {
	if early != nil && sameMoves(early.moves, plan.managerMoves) {
		return early.res, early.repo, early.err
	}
	if early != nil && early.err == nil {
		r.progress(model.PhaseInstall, "check's final plan differs from its first (%s): installing again", moveList(plan.moves))
		if err := r.resetClone(ctx, "HEAD"); err != nil {
			return nil, nil, err
		}
	}
	return r.upgradeClone(ctx, plan, false)
}

// upgradeClone installs the plan's moves in the clone, returning the
// clone's repository as it was before (nil when its manifests cannot be
// read); later: a batch's step before the last, whose lockfile the last
// step's frozen install proves (managers.Options.Later).
func (r *runner) upgradeClone(ctx context.Context, plan *upgradePlan, later bool) (*managers.Result, *model.Repository, error) {
	cloneRepo, err := repo.Load(r.croot)
	if err != nil {
		return nil, nil, fmt.Errorf("the clone's manifests: %w", err)
	}
	r.progress(model.PhaseInstall, "installing %s", moveList(plan.moves))
	res, err := managers.Upgrade(ctx, managers.Options{Root: r.croot, Repo: cloneRepo, Moves: plan.managerMoves, Env: r.env, Manager: r.manager, Fetch: r.managerFetch, Later: later,
		Progress: func(line string) { r.progress(model.PhaseInstall, "%s", line) }})
	r.trace(model.PhaseInstall, "installed")
	return res, cloneRepo, err
}

// sameMoves: the same packages to the same versions, in any order.
func sameMoves(a, b []managers.Move) bool {
	if len(a) != len(b) {
		return false
	}
	key := func(m managers.Move) string {
		return fmt.Sprintf("%s@%s add=%v in %q", m.Name, m.To, m.Add, m.Workspaces)
	}
	want := map[string]int{}
	for _, m := range a {
		want[key(m)]++
	}
	for _, m := range b {
		if want[key(m)] == 0 {
			return false
		}
		want[key(m)]--
	}
	return true
}

// concerns: the report is of the package or of a group it is in.
func concerns(p model.PackageReport, name string) bool {
	if p.Package == name {
		return true
	}
	for _, m := range p.Members {
		if m.Name == name {
			return true
		}
	}
	return false
}
