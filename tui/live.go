package tui

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/assist"
	"github.com/uptide/uptide/internal/checkstore"
	"github.com/uptide/uptide/internal/environ"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/tui/review"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/view/html"
	"github.com/uptide/uptide/view/prbody"
)

// Live is the Engine over the real analysis: one registry client for the
// run, so the documents Discover fetched answer the companion re-plans
// from memory.
type Live struct {
	Cwd string
	Env []string
	// Client is the registry client; nil builds one from the repository's
	// .npmrc files and Env, as `uptide list` does.
	Client *engine.Client
	// CompilerClient fetches the pinned TypeScript for checks when the
	// cache lacks it; nil uses Compiler, then Client.
	CompilerClient *engine.Client
	// Compiler, when set, builds the compiler's client at the first check
	// rather than before the first frame: building one may ask npm which
	// registry it uses, which takes a second on a cold machine.
	Compiler func() *engine.Client
	// Prepare, when set, gives the directory checks run in, once, before
	// the first check: the demo installs a copy of its repository there.
	// A failure is that check's and is tried again on the next.
	Prepare func(ctx context.Context) (string, error)

	// NewQueue builds the review queue of a fix run's sites (the assisted
	// fixer behind it) and says how many patches a saved accepted set
	// brought back; nil is no provider: every site is manual.
	NewQueue func(ctx context.Context, in fix.AssistInput) (review.Source, int, error)
	// RunsRoot is where fix's clones live; "" is fix's default.
	RunsRoot string
	// Secrets are the provider's (fix.Options.Secrets); nil is Env's.
	Secrets *redact.Secrets

	// Now dates the plan's unsupported-line rule; nil is time.Now.
	Now func() time.Time

	prepMu   sync.Mutex
	checkCwd string

	mu     sync.Mutex
	report *model.DiscoverReport
	// index is what Discover read, for the checks of the same directory.
	index *engine.Index
	// checks are this session's check reports, by package@target.
	checks map[string]*model.PackageReport
	// kept is the checks kept for the repository's state when the run
	// started (uptide check's, plan's), opened once.
	keptOnce sync.Once
	kept     checkstore.Store
}

var _ Engine = (*Live)(nil)

// Discover runs engine.Discover and keeps the report for Plan and what it
// read for Check.
func (l *Live) Discover(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error) {
	client, err := l.client()
	if err != nil {
		return nil, err
	}
	rep, index, err := engine.Discover(ctx, engine.DiscoverOptions{Cwd: l.Cwd, Env: l.Env, Client: client, Events: events, PartialRows: events != nil})
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.report, l.index = rep, index
	l.mu.Unlock()
	return rep, nil
}

func (l *Live) client() (*engine.Client, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Client != nil {
		return l.Client, nil
	}
	client, err := engine.ClientFor(l.Cwd, l.Env)
	if err != nil {
		return nil, err
	}
	l.Client = client
	return client, nil
}

// Versions fetches the full document, which alone carries publish times.
func (l *Live) Versions(ctx context.Context, pkg string) (*model.Packument, error) {
	client, err := l.client()
	if err != nil {
		return nil, err
	}
	return client.Packument(ctx, pkg, true)
}

// Plan re-plans row's upgrade for target over the discovered dependencies
// (engine.PlanTarget), with the documents Discover fetched.
func (l *Live) Plan(ctx context.Context, row model.DependencyRow, target string) (*engine.TargetPlan, error) {
	l.mu.Lock()
	rep := l.report
	l.mu.Unlock()
	client, err := l.client()
	if err != nil {
		return nil, err
	}
	return engine.PlanTarget(ctx, engine.PlanTargetOptions{Report: rep, Client: client}, row, target)
}

// Check runs engine.Check on the one dependency decision of req, with the
// run's registry client, and maps its report into the planner's result.
// An error is the row's, never the run's: the caller shows it in the row.
func (l *Live) Check(ctx context.Context, req CheckRequest, events func(CheckEvent)) (*CheckResult, error) {
	client, cwd, err := l.clientAndDir(ctx, events)
	if err != nil {
		return nil, err
	}
	opts := checkOptions(req)
	opts.Cwd, opts.Env, opts.Client, opts.CompilerClient = cwd, l.Env, client, l.compilerClient()
	if cwd == l.Cwd {
		// The repository Discover read: check starts from it. (The demo
		// checks a copy Prepare installed elsewhere.)
		l.mu.Lock()
		opts.Index = l.index
		l.mu.Unlock()
	}
	if events != nil {
		opts.Events = func(e engine.Event) {
			events(CheckEvent{Phase: phaseLabel(e.Phase), Done: e.Done, Total: e.Total})
		}
	}
	secrets := redact.FromEnv(l.Env)
	opts.Secrets = secrets
	rep, err := engine.Check(ctx, opts)
	if err != nil {
		return nil, err
	}
	secrets.Walk(rep)
	if cwd == l.Cwd {
		// Kept as uptide check keeps it (same options, probe included),
		// so plan and the next run read it instead of checking again.
		kept := l.keptChecks(rep.Repository.Root)
		kept.Save(rep)
		kept.SaveRun(checkstore.Ask{Packages: opts.Packages, Targets: opts.Targets, Group: opts.Group, Runtime: opts.Runtime}, rep)
	}
	pr, err := reportFor(rep, req)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	if l.checks == nil {
		l.checks = map[string]*model.PackageReport{}
	}
	for i := range rep.Packages {
		if p := &rep.Packages[i]; p.Target != "" {
			l.checks[p.Package+"@"+p.Target] = p
		}
	}
	l.mu.Unlock()
	return state.ResultOf(pr), nil
}

func (l *Live) compilerClient() *engine.Client {
	l.prepMu.Lock()
	defer l.prepMu.Unlock()
	if l.CompilerClient == nil && l.Compiler != nil {
		l.CompilerClient = l.Compiler()
		l.Compiler = nil
	}
	return l.CompilerClient
}

// clientAndDir is what every check and fix starts from: the run's registry
// client and the directory the work happens in.
func (l *Live) clientAndDir(ctx context.Context, events func(CheckEvent)) (*engine.Client, string, error) {
	client, err := l.client()
	if err != nil {
		return nil, "", err
	}
	cwd, err := l.checkDir(ctx, events)
	if err != nil {
		return nil, "", err
	}
	return client, cwd, nil
}

// checkDir runs Prepare once it succeeds; concurrent checks wait for it.
func (l *Live) checkDir(ctx context.Context, events func(CheckEvent)) (string, error) {
	if l.Prepare == nil {
		return l.Cwd, nil
	}
	l.prepMu.Lock()
	defer l.prepMu.Unlock()
	if l.checkCwd != "" {
		return l.checkCwd, nil
	}
	if events != nil {
		events(CheckEvent{Phase: "installing"})
	}
	dir, err := l.Prepare(ctx)
	if err != nil {
		return "", err
	}
	l.checkCwd = dir
	return dir, nil
}

// checkOptions asks about the row's package at the chosen target, with its
// release group's members at theirs; companions outside the group are
// fix's business, and naming them would only add "unused target" notes.
func checkOptions(req CheckRequest) engine.CheckOptions {
	name := req.Row.Name
	if name == "" {
		name = req.Row.Package
	}
	targets := map[string]string{}
	if req.Target != "" {
		targets[name] = req.Target
	}
	for _, w := range req.With {
		if w.To != "" && w.Reason.Kind == model.CompanionGroupMember {
			targets[w.Name] = w.To
		}
	}
	return engine.CheckOptions{
		Packages: []string{name},
		Targets:  targets,
		// The planner shows cross-scope groups as one row too, so they are
		// checked as one decision.
		Group:   req.Row.Group != "",
		Compile: true,
		// As uptide check does: the details screen shows the probe's
		// evidence, and JavaScript the repository does not type-check is
		// judged by it.
		Runtime: true,
	}
}

// phaseLabel names an engine phase in the words of the check column.
func phaseLabel(p engine.Phase) string {
	switch p {
	case engine.PhaseRepository, engine.PhaseLockfile, engine.PhaseGroups, engine.PhaseImporters:
		return "reading repository"
	case engine.PhaseRegistry, engine.PhaseFetch:
		return "fetching"
	case engine.PhaseInstall:
		return "checking install"
	case engine.PhaseDiff, engine.PhaseSurface, engine.PhaseCompare:
		return "reading declarations"
	case engine.PhaseUsages:
		return "finding usages"
	case engine.PhaseCompiler:
		return "loading compiler"
	case engine.PhaseCompile:
		return "compiling target"
	case engine.PhaseMatch:
		return "matching"
	}
	return string(p)
}

// reportFor picks the report of req's row: the one of its package (or its
// group) that shares a workspace with the row, else the only one there is.
func reportFor(rep *model.CheckReport, req CheckRequest) (*model.PackageReport, error) {
	var candidates []*model.PackageReport
	for i := range rep.Packages {
		p := &rep.Packages[i]
		if p.Package == req.Row.Name || p.Package == req.Row.Package || (req.Row.Group != "" && p.Title == req.Row.Group) {
			candidates = append(candidates, p)
		}
	}
	for _, p := range candidates {
		if (req.Row.Installed == "" || p.Installed == "" || p.Installed == req.Row.Installed) && sharesWorkspace(p.Workspaces, req.Row.Workspaces) {
			return p, nil
		}
	}
	if len(candidates) > 0 {
		return candidates[0], nil
	}
	if len(rep.Packages) == 1 {
		return &rep.Packages[0], nil
	}
	return nil, fmt.Errorf("check of %s: the engine reported nothing for it", req.Row.Name)
}

func sharesWorkspace(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// Fix runs fix.Run on the upgrade of req with the review queue as its
// Assist hook.
func (l *Live) Fix(ctx context.Context, req CheckRequest, progress func(phase model.Phase, line string), rv Review) (*fix.Report, error) {
	client, cwd, err := l.clientAndDir(ctx, nil)
	if err != nil {
		return nil, err
	}
	opts := checkOptions(req)
	o := fix.Options{Cwd: cwd, Env: l.Env, Client: client, CompilerClient: l.compilerClient(), Package: opts.Packages[0], Targets: opts.Targets,
		Group: opts.Group, Progress: progress, RunsRoot: l.RunsRoot, Secrets: l.Secrets}
	o.Assist = func(ctx context.Context, in fix.AssistInput) (fix.AssistOutcome, error) {
		src, resumed := review.NoProvider(in.Sites), 0
		if l.NewQueue != nil {
			var err error
			if src, resumed, err = l.NewQueue(ctx, in); err != nil {
				return fix.AssistOutcome{}, err
			}
		}
		patches, err := rv(ctx, src, resumed)
		// The hand-off ends the proposals: what is left is the user's.
		out := fix.AssistOutcome{Patches: patches, Provider: src.Provider(), Cost: src.Spent()}
		if q, ok := src.(interface {
			Close()
			Calls() int
			Records() []assist.Record
		}); ok {
			q.Close()
			out.Calls, out.Sites = q.Calls(), q.Records()
		}
		if src.Provider() == "" {
			out.Note = assist.NoProviderNote
		}
		return out, err
	}
	rep, err := fix.Run(ctx, o)
	html.StoreFixPage(rep)
	prbody.Store(rep)
	return rep, err
}

// keptChecks is the store of the checks kept for the repository's state
// when the run started; nothing when it is no git repository.
func (l *Live) keptChecks(root string) checkstore.Store {
	l.keptOnce.Do(func() { l.kept = checkstore.Open(environ.Env(l.Env), root) })
	return l.kept
}

// checkOf is the check of pkg at version: this session's, else a kept one.
func (l *Live) checkOf(root, pkg, version string) *model.PackageReport {
	l.mu.Lock()
	rep := l.checks[pkg+"@"+version]
	l.mu.Unlock()
	if rep != nil {
		return rep
	}
	return l.keptChecks(root).Load(map[string]string{pkg: version})[pkg]
}

func (l *Live) discovered() (*model.DiscoverReport, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.report == nil {
		return nil, errors.New("the repository has not been read yet")
	}
	return l.report, nil
}

// Upgrades runs engine.PlanUpgrades over what Discover found, with the
// checks of the rows' targets made so far.
func (l *Live) Upgrades(ctx context.Context, only []string) (*model.UpgradePlanReport, error) {
	rep, err := l.discovered()
	if err != nil {
		return nil, err
	}
	client, err := l.client()
	if err != nil {
		return nil, err
	}
	// A check reports a package under its declared name (an alias's
	// own), which is the name the plan's steps move.
	checks := map[string]*model.PackageReport{}
	for _, r := range rep.Rows {
		if r.Target == "" || checks[r.Name] != nil {
			continue
		}
		if c := l.checkOf(rep.Repository.Root, r.Name, r.Target); c != nil {
			checks[r.Name] = c
		}
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	return engine.PlanUpgrades(ctx, engine.PlanOptions{Cwd: l.Cwd, Env: l.Env, Client: client, Only: only, Checks: checks, Discovered: rep, Now: now()})
}

// errNotChecked stops a ceiling's bisection at a release no check was
// made of: the ceiling is not known yet.
var errNotChecked = errors.New("not checked")

// Checked reads the checks made of row's package at versions, and bisects
// them as plan --ceiling would, without checking anything.
func (l *Live) Checked(ctx context.Context, row model.DependencyRow, versions []string) (map[string]model.Verdict, *model.Ceiling, error) {
	rep, err := l.discovered()
	if err != nil {
		return nil, nil, err
	}
	root := rep.Repository.Root
	out := map[string]model.Verdict{}
	for _, v := range versions {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if c := l.checkOf(root, row.Name, v); c != nil {
			out[v] = engine.VerdictOf(c)
		}
	}
	if len(out) == 0 || row.Installed == "" {
		return out, nil, nil
	}
	c, err := engine.Ceiling(row.Name, row.Installed, versions, func(v string) (model.Verdict, int, string, error) {
		verdict, ok := out[v]
		if !ok {
			return "", 0, "", errNotChecked
		}
		return verdict, 0, "", nil
	})
	if err != nil || c.Stopped != "" || c.Version == "" {
		return out, nil, nil
	}
	return out, &c, nil
}

// FixBatch runs fix.Run on packages as one batch (fix a b c).
func (l *Live) FixBatch(ctx context.Context, packages []string, targets map[string]string, progress func(phase model.Phase, line string)) (*fix.Report, error) {
	client, cwd, err := l.clientAndDir(ctx, nil)
	if err != nil {
		return nil, err
	}
	rep, err := fix.Run(ctx, fix.Options{Cwd: cwd, Env: l.Env, Client: client, CompilerClient: l.compilerClient(),
		Packages: packages, Targets: targets, Progress: progress, RunsRoot: l.RunsRoot, Secrets: l.Secrets})
	html.StoreFixPage(rep)
	prbody.Store(rep)
	return rep, err
}
