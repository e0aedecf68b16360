package fix

import (
	"context"

	"github.com/uptide/uptide/engine/model"
)

// steps is a fix run in order. Each step reads what the steps before it
// wrote on the runner (its inputs, after the arrow its outputs); finish
// (the checkout guard, publish, the stored run) follows whatever happened.
//
// A step beside the others starts at its place in the list and runs while
// the steps after it do, until a step that names it in after; that is all
// the run's concurrency, and it exists for speed: the git reads beside the
// clean check, the target and the manager beside the rest, the baseline
// compile beside the clone, check and the install, the install started on
// check's first plan, the compile after the upgrade beside lint and tests.
func (r *runner) steps() []step {
	return []step{
		// Cwd → repository, root, top.
		{name: "repository", run: r.loadRepository},
		// top → before (what the guard compares the checkout with).
		{name: "snapshot", beside: true, run: r.takeSnapshot},
		// top → unlike (why a clone would not hold the checkout's files).
		{name: "same files", beside: true, run: r.readSameFiles},
		// top → stop unless the checkout is clean.
		{name: "clean", run: r.requireClean},
		// root, Env → the registry client, the secrets it holds withheld.
		{name: "registry", run: r.openRegistry},
		// client, Targets → targetErr (the targets resolved as check will).
		{name: "target", beside: true, run: r.resolveTargets},
		// root, repository → manager, detectErr; a failure ends the work.
		{name: "detect", beside: true, run: r.detectManager},
		// repository, before, unlike → workspaces; services confirmed.
		{name: "workspaces", after: []string{"snapshot", "same files"}, run: r.scope},
		// workspaces → base, baseErr, from the checkout when a clone holds
		// the same files: it needs no target, and check waits on its driver.
		{name: "baseline", beside: true, work: true, when: r.baselineReadsCheckout, run: r.baselineCheckout},
		// targetErr → stop on a target that does not resolve: nothing cloned.
		{name: "resolved", after: []string{"target"}, run: r.targetResolved},
		// top → clone, croot, env, cloneErr.
		{name: "clone", beside: true, work: true, run: r.makeClone},
		// clone → base, baseErr, from the clone before the install touches it.
		{name: "baseline in the clone", beside: true, work: true, after: []string{"clone"}, when: r.baselineReadsClone, run: r.baselineClone},
		// check's first plan, clone, manager → early (the install most
		// runs keep, done by the time check is).
		{name: "install early", beside: true, work: true, after: []string{"clone", "baseline in the clone", "detect"}, run: r.installEarly},
		// repository, Targets → crep, checkErr; plans for the early install.
		{name: "check", work: true, run: r.check},
		// crep, clone, manager → upgrade (the moves, the branch), stop on a
		// failure of what ran beside.
		{name: "plan", after: []string{"clone", "baseline", "baseline in the clone", "install early", "detect"}, run: r.planUpgrade},
		// upgrade, early → the upgrade committed in the clone (Install).
		{name: "install", run: r.installUpgrade},
		// reports → the pack's rule edits, one commit (ruleFiles, ruled).
		{name: "rules", run: r.ruleEdits},
		// reports, base → the assisted fixer's accepted patches.
		{name: "assist", run: r.assist},
		// Patches → edited, one commit each.
		{name: "patches", run: r.patch},
		// edited → the formatter's changes, one commit.
		{name: "format", run: r.format},
		// base → Types.
		{name: "types", beside: true, phase: model.PhaseCompile, says: "type-checking after the upgrade", run: r.typesAfter},
		// edited → Style, Tests, NotRun.
		{name: "lint and tests", run: r.lintAndTest},
		// Types, Tests, Style → Sites, Status.
		{name: "verdict", after: []string{"types"}, run: r.verdict},
	}
}

// step is one named part of a fix run.
type step struct {
	name string
	// beside: the step runs in the background from its place in the list
	// until a step naming it in after (a stop cancels it and waits for
	// it). A beside step returning false skips the beside steps that wait
	// for it; their output stays unset.
	beside bool
	// work: the step runs on the work's context, which a failed detection
	// of the manager ends too (cancelWork); the others see only a stop
	// and the run's own end, so the git reads, the target and the manager
	// still say what they found.
	work bool
	// after are the beside steps it waits for before it runs.
	after []string
	// when, if set, is asked at the step's place: false skips the step (a
	// beside step skipped is done).
	when func() bool
	// phase and says, when set, are announced on the progress at the
	// step's place, before it runs.
	phase model.Phase
	says  string
	// run does the step; a foreground step returning false stops the run,
	// the report saying why.
	run func(ctx context.Context) bool
}

// task is a beside step's run.
type task struct {
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
	ok      bool
	started bool
}

// pipeline runs the steps in order until one stops the run, then cancels
// and waits for the beside steps still running.
func (r *runner) pipeline(ctx context.Context, steps []step) {
	besides, cancelBesides := context.WithCancel(ctx)
	work, cancelWork := context.WithCancel(besides)
	r.cancelWork = cancelWork
	r.tasks = map[string]*task{}
	for _, s := range steps {
		if s.beside {
			t := &task{done: make(chan struct{})}
			parent := besides
			if s.work {
				parent = work
			}
			t.ctx, t.cancel = context.WithCancel(parent)
			r.tasks[s.name] = t
		}
	}
	defer func() {
		cancelBesides()
		cancelWork()
		for _, t := range r.tasks {
			if t.started {
				<-t.done
			}
			t.cancel()
		}
	}()
	for _, s := range steps {
		if s.when != nil && !s.when() {
			if t := r.tasks[s.name]; t != nil {
				t.started, t.ok = true, true
				close(t.done)
			}
			continue
		}
		if s.says != "" {
			r.progress(s.phase, "%s", s.says)
		}
		if !s.beside {
			r.await(s.after)
			run := ctx
			if s.work {
				run = work
			}
			if !s.run(run) {
				return
			}
			continue
		}
		t := r.tasks[s.name]
		t.started = true
		go func() {
			defer close(t.done)
			if r.await(s.after) {
				t.ok = s.run(t.ctx)
			}
		}()
	}
}

// await waits for the beside steps named; false when one of them failed.
func (r *runner) await(names []string) bool {
	ok := true
	for _, n := range names {
		t := r.tasks[n]
		<-t.done
		ok = ok && t.ok
	}
	return ok
}

// cancelStep cancels a beside step, started or not.
func (r *runner) cancelStep(name string) {
	if t := r.tasks[name]; t != nil { // a batch has no early install
		t.cancel()
	}
}
