package fix

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/fix/isolate"
	"github.com/uptide/uptide/fix/managers"
	"github.com/uptide/uptide/fix/verify"
	"github.com/uptide/uptide/internal/checkstore"
	"github.com/uptide/uptide/internal/environ"
	"github.com/uptide/uptide/internal/lists"
	"github.com/uptide/uptide/internal/redact"
)

// Options are the inputs of one fix run.
type Options struct {
	// Cwd is where the user ran Uptide; CwdArg is --cwd as written.
	Cwd, CwdArg string
	Env         []string
	// Client is the registry client of check and of the pinned compiler;
	// nil reads the repository's .npmrc.
	Client *registry.Client
	// CompilerClient, when set, fetches the pinned TypeScript instead of
	// Client: the demo's registry serves only its own packages.
	CompilerClient *registry.Client
	Package        string
	// Packages, two or more, make the run a batch (fix a b c): each
	// package upgraded in its own commit in this order, verified once at
	// the end, bisected to the step that broke when that fails.
	Packages []string
	// Targets maps a package to the version (or dist-tag) to upgrade to;
	// without one the package moves to its latest release.
	Targets map[string]string
	Group   bool
	// NoRuntime skips check's runtime probe (--no-runtime), as check's own
	// flag does: JavaScript the repository does not type-check is then
	// unverified. By default fix's check runs it, so fix and check give the
	// same verdicts on the same repository.
	NoRuntime bool
	// Patches is the accepted set (--patches), nil for none.
	Patches *PatchFile
	Keep    bool
	// WithServices also runs the tests that need services; it runs only
	// with Yes, once the report listed them and their connection targets.
	WithServices, Yes bool
	// RunsRoot is where clones live; "" is isolate.Root().
	RunsRoot string
	// TestTimeout bounds each test run; 0 is 10 minutes.
	TestTimeout time.Duration
	// Progress receives each phase's lines.
	Progress func(phase model.Phase, line string)
	// Trace, when set (--verbose), receives what the progress lines do not
	// mark: where a step running beside others ends (the clone made, the
	// baseline compiled, check done), for the phase timings.
	Trace func(phase model.Phase, line string)
	// CheckEvents receives check's own progress.
	CheckEvents engine.Sink
	// Assist, when set, is given the sites of the upgraded clone and a
	// validator over it after the upgrade commit; the patches it accepts
	// are applied with Patches (the planner's review queue, fix --assist).
	Assist func(ctx context.Context, in AssistInput) (AssistOutcome, error)
	// Secrets are masked in the report and the stored run (what the
	// install, the tests, the tools and the provider printed may hold
	// them); the registry client's credentials are added to them, so a
	// provider sharing the set masks and withholds those too. Nil is the
	// secrets of Env.
	Secrets *redact.Secrets
}

// runner is one run's state: the options, the report, and what each step
// of the pipeline (steps) writes for the steps after it.
type runner struct {
	o   Options
	rep *Report
	// cancelWork ends the steps on the work's context (step.work); tasks
	// are the beside steps by name.
	cancelWork context.CancelFunc
	tasks      map[string]*task

	repository *model.Repository
	top        string // the checkout's git top
	root       string // the repository root inside the checkout
	before     isolate.Snapshot
	snapErr    error
	// unlike says why a clone would not hold the checkout's files ("" when
	// it does: the baseline compile then reads the checkout).
	unlike    string
	sameErr   error
	targetErr error
	// manager is the package manager Detect found in the checkout;
	// detectErr says why there is none.
	manager      *managers.Detected
	managerFetch managers.Fetch
	detectErr    error
	fetch        func(ctx context.Context, name, version string) (string, error)
	workspaces   []string
	// base is the baseline compile, before the upgrade.
	base    *compileRun
	baseErr error

	clone    *isolate.Clone
	croot    string // the repository root inside the clone
	env      []string
	cloneErr error
	// plans carries check's plans of the package to the early install
	// while check runs; checked is closed when check is done.
	plans   chan model.PackageReport
	checked chan struct{}
	early   *earlyInstall
	// earlyBatch is a batch's early install (early stays nil).
	earlyBatch *earlyBatch
	// earlyDone is closed when the early install is over (early set or
	// left nil).
	earlyDone chan struct{}
	// earlyStarted: the early install is installing; earlyWait is check's
	// one wait for it (installedRoot).
	earlyStarted atomic.Bool
	earlyWait    sync.Once
	crep         *model.CheckReport
	checkErr     error
	// keptCheck: crep is the check kept for this state of the files
	// (internal/checkstore), set before checked is closed.
	keptCheck bool

	reports   []model.PackageReport
	upgrade   *upgradePlan
	cloneRepo *model.Repository // the clone's repository before the install
	style     verify.Style
	lb        *lintBaseline
	// ruleFiles are the files the rule edits changed, ruled the findings
	// they took; patchFiles the files the accepted patches edit; edited
	// all the files the edits changed.
	ruleFiles, patchFiles, edited []string
	ruled                         map[string]bool

	// drivers run the repository's compiler for check and for the
	// compiles before and after the upgrade and the validations.
	drivers *typescript.Drivers
	// cleanMu guards clean: the compiles before and after may fetch.
	cleanMu sync.Mutex
	clean   []func()
	// batchPlans are a batch's steps; batchBase the clone's commit before
	// the first; stepCommits how many commits the report had after each.
	batchPlans  []batchPlan
	batchBase   string
	stepCommits []int
	// installing: the upgrade reached the clone (a failure from here on
	// keeps the clone for inspection).
	installing bool
	// v is a verify run's branch (reverify.go); nil for a fix run.
	v *verifying
}

// Run upgrades the package on a branch in a private clone and verifies it.
// Whatever happens the report says it: the error is only for options that
// cannot describe a run.
func Run(ctx context.Context, o Options) (*Report, error) {
	switch len(o.Packages) {
	case 0:
	case 1:
		o.Package, o.Packages = o.Packages[0], nil
	default:
		o.Package = ""
	}
	if o.Package == "" && len(o.Packages) == 0 {
		return nil, errors.New("fix: no package named: uptide list shows the dependencies")
	}
	r := newRunner(o, o.Package+strings.Join(o.Packages, " "))
	defer r.close()
	r.run(ctx)
	r.finish(ctx)
	r.o.Secrets.Walk(r.rep)
	return r.rep, nil
}

// newRunner is a run of o with its empty report, named what.
func newRunner(o Options, what string) *runner {
	if o.TestTimeout == 0 {
		o.TestTimeout = 10 * time.Minute
	}
	r := &runner{o: o, rep: &Report{Package: what, Status: StatusNotRun, Moves: []Move{}, Commits: []Commit{},
		Patches: []PatchResult{}, Sites: []Site{}, NotRun: []string{}, Decisions: []string{},
		Types:    TypesReport{Status: model.StatusNotAnalyzed, Projects: []string{}, New: []model.Diagnostic{}},
		Tests:    TestsReport{Results: []verify.TestResult{}, NoTests: []string{}, Skipped: []verify.ServiceSkip{}, NotRun: []string{}},
		Style:    StyleReport{Formatted: []string{}, NewFailures: map[string][]string{}},
		Checkout: CheckoutReport{Changed: []string{}}}}
	if r.o.Secrets == nil {
		r.o.Secrets = redact.FromEnv(o.Env)
	}
	r.plans, r.checked, r.earlyDone = make(chan model.PackageReport, 16), make(chan struct{}), make(chan struct{})
	r.drivers = typescript.NewDrivers()
	return r
}

// close removes what the run fetched and stops its compilers.
func (r *runner) close() {
	for _, f := range r.clean {
		f()
	}
	r.drivers.Close()
}

func (r *runner) progress(phase model.Phase, format string, args ...any) {
	if r.o.Progress != nil {
		r.o.Progress(phase, fmt.Sprintf(format, args...))
	}
}

func (r *runner) trace(phase model.Phase, format string, args ...any) {
	if r.o.Trace != nil {
		r.o.Trace(phase, fmt.Sprintf(format, args...))
	}
}

// stop ends the run as not run with the reason.
func (r *runner) stop(format string, args ...any) {
	r.rep.Status = StatusNotRun
	r.rep.Reason = fmt.Sprintf(format, args...)
}

// interrupted is true (and says so) when ctx ended the run.
func (r *runner) interrupted(ctx context.Context, during string) bool {
	if ctx.Err() == nil {
		return false
	}
	r.stop("interrupted during %s: nothing was verified", during)
	return true
}

func (r *runner) run(ctx context.Context) {
	if r.batch() {
		r.pipeline(ctx, r.batchSteps())
		return
	}
	r.pipeline(ctx, r.steps())
}

func (r *runner) loadRepository(ctx context.Context) bool {
	repository, err := repo.Load(r.o.Cwd)
	if err != nil {
		r.stop("%v", err)
		return false
	}
	r.repository, r.root = repository, repository.Root
	top, err := gitTop(ctx, r.root)
	if err != nil {
		r.stop("%s is not inside a git repository: fix works on a branch, so it needs one (git init, and commit)", r.root)
		return false
	}
	r.top = top
	return true
}

// takeSnapshot and readSameFiles (whether a clone holds the same files)
// are git reads like the check that the checkout is clean: they run beside
// it (a dozen git processes one after the other took 1–4 s of a loaded
// machine before the clone could start).
func (r *runner) takeSnapshot(ctx context.Context) bool {
	r.before, r.snapErr = isolate.Take(ctx, r.top)
	return r.snapErr == nil
}

func (r *runner) readSameFiles(ctx context.Context) bool {
	r.unlike, r.sameErr = isolate.SameFiles(ctx, r.top)
	return r.sameErr == nil
}

func (r *runner) requireClean(ctx context.Context) bool {
	if reason, err := isolate.Dirty(ctx, r.top); err != nil || reason != "" {
		if err != nil {
			reason = err.Error()
		}
		r.stop("the checkout is not clean: %s; commit or stash first, fix starts from a commit", reason)
		return false
	}
	return true
}

// openRegistry makes the registry client check and the pinned compiler
// use; the targets are resolved with it, before anything is cloned, as
// check resolves them (check then reads the same packuments from it).
func (r *runner) openRegistry(context.Context) bool {
	if r.o.Client == nil {
		var err error
		if r.o.Client, err = engine.NewClient(r.root, r.o.Env); err != nil {
			r.stop("%v", err)
			return false
		}
	}
	r.o.Secrets.Withhold(r.o.Client.Config().Secrets()...)
	// A manager the PATH lacks (or has at another version than
	// packageManager names) comes from the same registry.
	r.managerFetch = managers.RegistryFetch(r.o.Client)
	return true
}

func (r *runner) resolveTargets(ctx context.Context) bool {
	r.targetErr = engine.ResolveTargets(ctx, r.o.Client, r.repository, r.o.Targets)
	return r.targetErr == nil
}

// detectManager checks the package manager (the binary, at the version
// packageManager names): no install starts before it is, and its failure
// ends the work before anything is installed.
func (r *runner) detectManager(ctx context.Context) bool {
	if r.manager, r.detectErr = managers.Detect(ctx, r.root, r.repository, r.o.Env, r.managerFetch); r.detectErr != nil {
		r.cancelWork()
		return false
	}
	r.trace(model.PhaseInstall, "the manager is %s %s (%s)", r.manager.Manager.Name(), r.manager.Version, r.manager.Binary)
	return true
}

// scope decides where the baseline compile reads and which workspaces the
// upgrade touches.
func (r *runner) scope(context.Context) bool {
	if r.snapErr != nil {
		r.stop("snapshot of the checkout: %v", r.snapErr)
		return false
	}
	// The baseline compile reads the checkout, from the start and beside
	// the clone and the install, when the clone will hold the same files;
	// else it reads the clone before the install touches it.
	if r.sameErr != nil {
		r.stop("reading the checkout: %v", r.sameErr)
		return false
	}
	if real, _ := filepath.EvalSymlinks(r.root); r.unlike == "" && real != r.top {
		// tsc names files outside the repository root by absolute paths,
		// which differ between the checkout and the clone.
		r.unlike = "the repository is below the git top " + r.top
	}
	r.fetch = r.fetcher()
	for _, name := range r.names() {
		ws, err := workspacesOf(r.repository, name)
		if err != nil {
			r.stop("%v", err)
			return false
		}
		for _, w := range ws {
			r.workspaces = appendUnique(r.workspaces, w)
		}
	}
	sort.Strings(r.workspaces)
	if r.o.WithServices && !r.confirmServices(r.repository, r.workspaces) {
		return false
	}
	if r.unlike != "" {
		r.progress(model.PhaseCompile, "the baseline compile waits for the clone: %s", r.unlike)
	}
	return true
}

func (r *runner) baselineReadsCheckout() bool { return r.unlike == "" }
func (r *runner) baselineReadsClone() bool    { return r.unlike != "" }

func (r *runner) baselineCheckout(ctx context.Context) bool {
	return r.compileBefore(ctx, r.root, true)
}
func (r *runner) baselineClone(ctx context.Context) bool { return r.compileBefore(ctx, r.croot, false) }

// compileBefore is the baseline: the compile of the workspaces before the
// upgrade, in root (the checkout's errors are check's baseline too).
func (r *runner) compileBefore(ctx context.Context, root string, checkout bool) bool {
	r.progress(model.PhaseCompile, "type-checking %s before the upgrade", model.Where(r.workspaces))
	r.base, r.baseErr = compileIn(ctx, root, r.workspaces, r.fetch, r.drivers, checkout)
	r.trace(model.PhaseCompile, "compiled before the upgrade")
	return true
}

// targetResolved stops the run on a target that does not resolve; the
// baseline compile stops with it, before its report.
func (r *runner) targetResolved(ctx context.Context) bool {
	err := r.targetErr
	if err == nil {
		return true
	}
	r.cancelWork()
	var unknown *engine.TargetError
	switch {
	case r.interrupted(ctx, "resolving the target"):
	case errors.As(err, &unknown):
		r.stop("%v: name one that exists; nothing was cloned", err)
	default:
		// The registry did not answer: the target may well exist.
		r.stop("%v: nothing was cloned", err)
	}
	return false
}

func (r *runner) makeClone(ctx context.Context) bool {
	r.progress(model.PhaseClone, "cloning %s into a private clone", r.top)
	var err error
	r.clone, err = isolate.New(ctx, isolate.Options{Checkout: r.top, Root: r.o.RunsRoot, Branch: pendingBranch(r.label()), Env: r.o.Env})
	if err == nil {
		if r.croot, err = r.clone.Path(r.root); err == nil {
			r.env = r.clone.Env(r.o.Env)
		}
	}
	r.trace(model.PhaseClone, "cloned")
	r.cloneErr = err
	return err == nil
}

// check is what the upgrade is: the target, the group, the companions and
// the sites. It hands its plans of the package to the early install as
// they come.
func (r *runner) check(ctx context.Context) bool {
	ask := checkstore.Ask{Packages: r.names(), Targets: r.o.Targets, Group: r.o.Group, Runtime: !r.o.NoRuntime}
	if kept := checkstore.Open(environ.Env(r.o.Env), r.root).LoadRun(ask); kept != nil {
		// uptide check (or the planner) checked the same on this state of
		// the files: its check is this run's, and check's analysis, the
		// most of a run's own work, is not done twice.
		r.progress(model.PhaseCheck, "checked %s: the check kept for this state of the files", strings.Join(r.names(), ", "))
		r.crep, r.keptCheck = kept, true
		close(r.checked)
		return true
	}
	r.progress(model.PhaseCheck, "checking %s", strings.Join(r.names(), ", "))
	r.crep, r.checkErr = engine.Check(ctx, engine.CheckOptions{Cwd: r.o.Cwd, CwdArg: r.o.CwdArg, Env: r.o.Env, Client: r.o.Client, CompilerClient: r.o.CompilerClient,
		Packages: r.names(), Targets: r.o.Targets, Group: r.o.Group, Compile: true, Runtime: !r.o.NoRuntime, Events: r.o.CheckEvents,
		Repository: r.repository, Drivers: r.drivers, Installed: r.installedRoot, Planned: func(p model.PackageReport) {
			for _, name := range r.names() {
				if concerns(p, name) {
					r.trace(model.PhaseCheck, "planned %s", p.Title)
					select {
					case r.plans <- p:
					default:
					}
					break
				}
			}
		}})
	close(r.checked)
	r.trace(model.PhaseCheck, "checked")
	if r.checkErr != nil {
		r.cancelStep("install early")
	}
	return true
}

// planUpgrade joins what ran beside check and turns check's reports into
// the upgrade, on its branch.
func (r *runner) planUpgrade(ctx context.Context) bool {
	if !r.joinCheck(ctx) {
		return false
	}
	r.reports = reportsOf(r.crep, r.o.Package)
	plan, err := planOf(r.o.Package, r.reports, r.repository)
	if err != nil {
		r.stop("%v", err)
		return false
	}
	r.upgrade = plan
	r.rep.From, r.rep.To, r.rep.Moves = plan.from, plan.to, plan.moves
	r.rep.Branch = "uptide/" + r.o.Package + "-" + plan.to
	if len(plan.conflicts) > 0 {
		r.stop("the companion plan has a conflict: %s; nothing was changed", strings.Join(plan.conflicts, "; "))
		return false
	}
	return r.nameBranch(ctx)
}

// joinCheck stops the run on a failure of what ran beside check (the
// clone, the manager, check itself) and puts the manager on the clone's
// PATH.
func (r *runner) joinCheck(ctx context.Context) bool {
	if r.clone != nil {
		r.rep.Clone.Dir, r.rep.Clone.Repo = r.clone.Dir, r.croot
	}
	during := "check and the clone"
	if r.early != nil {
		// An early install that check's plan then stops (a late conflict)
		// is nothing to look at: the clone goes unless interrupted.
		during = "check and the install"
	}
	switch {
	case r.interrupted(ctx, during):
		return false
	case r.detectErr != nil:
		r.stop("%v", r.detectErr)
		return false
	case r.checkErr != nil:
		r.stop("check: %v", r.checkErr)
		return false
	case r.cloneErr != nil:
		r.stop("clone: %v", r.cloneErr)
		return false
	}
	if err := r.shimManager(); err != nil {
		r.stop("%v", err)
		return false
	}
	return true
}

// nameBranch gives the clone's branch the run's name (rep.Branch): from
// here the upgrade reaches the clone.
func (r *runner) nameBranch(ctx context.Context) bool {
	if err := r.clone.Rename(ctx, r.rep.Branch); err != nil {
		r.stop("naming the branch in the clone: %v", err)
		return false
	}
	r.installing = true
	return true
}

// installUpgrade bumps and installs (the early install when it installed
// the same moves) and commits the upgrade.
func (r *runner) installUpgrade(ctx context.Context) bool {
	res, cloneRepo, err := r.install(ctx, r.upgrade, r.early)
	if err != nil {
		if !r.interrupted(ctx, "install") {
			r.stop("install: %v", err)
		}
		return false
	}
	r.cloneRepo = cloneRepo
	r.rep.Install = &Install{Manager: res.Manager, Version: res.Version, Binary: res.Binary, BinaryWhy: res.BinaryWhy, Lockfile: res.Lockfile, Manifests: res.Manifests,
		Commands: res.Commands, Moved: res.Moved, Normalized: orEmpty(res.Normalized)}
	if len(res.Normalized) > 0 {
		if c, err := r.commitNormalized(ctx, res); !r.recordCommit(ctx, c, err) {
			return false
		}
	}
	return r.commit(ctx, upgradeSubject(r.o.Package, r.upgrade), append(append([]string{}, res.Manifests...), res.Lockfile)...)
}

// ruleEdits makes the pack's rule edits first, as one commit: the
// assisted fixer then sees the clone they left, and is not handed their
// sites. The rest is verification: from here the run is failed, not
// not-run.
func (r *runner) ruleEdits(ctx context.Context) bool {
	r.rep.Status = StatusFailed
	r.style = verify.DetectStyle(r.croot)
	r.lb = &lintBaseline{run: verify.LintRun{Failures: map[string][]string{}}, ok: true}
	var ok bool
	r.ruleFiles, r.ruled, ok = r.applyRules(ctx, r.reports, r.workspaces, r.style, r.lb)
	return ok && !r.interrupted(ctx, "the rule edits")
}

func (r *runner) assist(ctx context.Context) bool {
	if r.o.Assist == nil || r.baseErr != nil {
		return true
	}
	return r.assistStep(ctx, r.reports, r.workspaces, r.base, r.upgrade.from, r.upgrade.to, r.ruled)
}

// patch lints the files the accepted patches edit (the rules' are linted)
// and applies the patches, one commit each.
func (r *runner) patch(ctx context.Context) bool {
	r.patchFiles = r.filesPatched()
	var unlinted []string
	for _, f := range r.patchFiles {
		if !slices.Contains(r.ruleFiles, f) {
			unlinted = append(unlinted, f)
		}
	}
	r.lintBefore(ctx, r.style, unlinted, "the edits", r.lb)
	edited := r.applyPatches(ctx)
	if ctx.Err() != nil {
		r.interrupted(ctx, "the edits")
		return false
	}
	for _, f := range r.ruleFiles {
		edited = appendUnique(edited, f)
	}
	sort.Strings(edited)
	r.edited = edited
	return true
}

// format formats the edited files and commits what the formatter changed.
func (r *runner) format(ctx context.Context) bool {
	style, edited := r.style, r.edited
	if style.Formatter == nil || len(edited) == 0 {
		return true
	}
	r.rep.Style.Formatter = style.Formatter.Name
	r.progress(model.PhaseFormat, "formatting %d edited files (%s)", len(edited), style.Formatter.Name)
	changed, err := style.Format(ctx, r.croot, r.env, edited)
	switch {
	case err != nil:
		r.rep.NotRun = append(r.rep.NotRun, fmt.Sprintf("format (%s): %v", style.Formatter.Name, err))
	case len(changed) > 0:
		r.rep.Style.Formatted = changed
		what := "the upgrade edited"
		if r.v != nil {
			what = "the branch changed"
		}
		return r.commit(ctx, fmt.Sprintf("format the files %s (%s)", what, style.Formatter.Name), changed...)
	}
	return true
}

// verdict judges the run once the compile after the upgrade is done.
func (r *runner) verdict(ctx context.Context) bool {
	if r.interrupted(ctx, "the compile and the tests") {
		return false
	}
	r.rep.Sites = sitesLeft(r.reports, r.rep.Types.New, r.rep.Patches, r.upgrade.added, r.ruled)
	r.judge()
	return true
}

// typesAfter type-checks the upgraded clone against the baseline. It
// writes only the report's Types, so it runs beside lintAndTest.
func (r *runner) typesAfter(ctx context.Context) bool {
	workspaces, base, baseErr := r.workspaces, r.base, r.baseErr
	switch {
	case baseErr != nil:
		r.rep.Types.Reason = "the baseline compile failed: " + baseErr.Error()
	default:
		after, err := compileWorkspaces(ctx, r.croot, workspaces, r.fetch, r.drivers)
		r.trace(model.PhaseCompile, "compiled after the upgrade")
		if ctx.Err() != nil {
			return true
		}
		if err != nil {
			r.rep.Types.Reason = "the compile after the upgrade failed: " + err.Error()
			break
		}
		r.rep.Types = TypesReport{Status: model.StatusAnalyzed, Compiler: after.Compiler, Projects: after.Projects,
			Files: after.Files, Baseline: len(base.Diagnostics), New: newDiagnostics(base.Diagnostics, after.Diagnostics),
			Untyped: after.Untyped}
		if len(after.Projects) == 0 {
			r.rep.Types.Status = model.StatusSkipped
			r.rep.Types.Reason = "no tsconfig.json or jsconfig.json in " + model.Where(workspaces) + ": nothing to type-check"
		}
	}
	return true
}

// lintBaseline is the lint of the files the edits touch, taken before
// them; ok is false when a part of it could not run, and then no new lint
// failure can be told.
type lintBaseline struct {
	run verify.LintRun
	ok  bool
}

// lintBefore lints files before what changes them (the rule edits, the
// patches), into lb, when the repository has a linter.
func (r *runner) lintBefore(ctx context.Context, style verify.Style, files []string, what string, lb *lintBaseline) {
	if style.Linter == nil || len(files) == 0 {
		return
	}
	r.progress(model.PhaseLint, "linting %d files before %s (%s)", len(files), what, style.Linter.Name)
	run, err := style.Lint(ctx, r.croot, r.env, files)
	if err != nil {
		lb.ok = false
		r.rep.NotRun = append(r.rep.NotRun, fmt.Sprintf("lint (%s) before %s: %v", style.Linter.Name, what, err))
	}
	for f, msgs := range run.Failures {
		lb.run.Failures[f] = msgs
	}
}

// lintAndTest lints the edited files (and those the patches edit) and
// runs the affected tests. It writes the report's NotRun, Style and
// Tests, never Types.
func (r *runner) lintAndTest(ctx context.Context) bool {
	reports, edited, style, lb := r.reports, r.edited, r.style, *r.lb
	lintFiles := append([]string(nil), edited...)
	for _, f := range r.patchFiles {
		lintFiles = appendUnique(lintFiles, f)
	}
	// Lint the edited files.
	if style.Linter != nil && len(lintFiles) > 0 {
		r.rep.Style.Linter = style.Linter.Name
		r.progress(model.PhaseLint, "linting the %d edited files (%s)", len(lintFiles), style.Linter.Name)
		after, err := style.Lint(ctx, r.croot, r.env, lintFiles)
		switch {
		case err != nil:
			r.rep.NotRun = append(r.rep.NotRun, fmt.Sprintf("lint (%s): %v", style.Linter.Name, err))
		case lb.ok:
			r.rep.Style.NewFailures = verify.NewLintFailures(lb.run, after)
		}
	}

	// Tests.
	affected := affectedFiles(reports, edited)
	tp, err := r.planTests(affected)
	if err != nil {
		r.rep.Tests.NotRun = append(r.rep.Tests.NotRun, "tests: "+err.Error())
	} else {
		r.rep.Tests.NoTests = orEmpty(tp.NoTests)
		r.rep.Tests.Skipped = tp.Skipped
		if r.rep.Tests.Skipped == nil {
			r.rep.Tests.Skipped = []verify.ServiceSkip{}
		}
		r.rep.Tests.NotRun = orEmpty(tp.NotRun)
		if len(tp.Runs) > 0 {
			r.progress(model.PhaseTests, "running %d test runs", len(tp.Runs))
			r.rep.Tests.Results = r.runTests(ctx, tp, affected)
		}
	}
	r.trace(model.PhaseTests, "lint and tests done")
	return true
}

// planTests plans the test runs of the clone as it is now.
func (r *runner) planTests(affected []string) (*verify.TestPlan, error) {
	afterRepo, err := repo.Load(r.croot)
	if err != nil {
		afterRepo = r.cloneRepo
	}
	return verify.PlanTests(r.croot, afterRepo, r.workspaces, affected, r.o.WithServices)
}

// runTests runs the plan in the manager's own environment: a script that runs the
// manager meets only settings that manager reads (Yarn 4.5 stops on Yarn
// 1's YARN_IGNORE_SCRIPTS), scripts still off.
func (r *runner) runTests(ctx context.Context, tp *verify.TestPlan, affected []string) []verify.TestResult {
	env := r.env
	if r.manager != nil {
		env = r.manager.Manager.Env(env)
	}
	return verify.RunTests(ctx, r.croot, env, tp, affected, r.o.TestTimeout,
		func(line string) { r.progress(model.PhaseTests, "%s", line) })
}

// confirmServices lists what --with-services would run and where it
// connects, and stops the run unless --yes confirmed it.
func (r *runner) confirmServices(repository *model.Repository, workspaces []string) bool {
	sv, err := verify.FindServices(r.root, repository, workspaces, r.o.Env)
	if err != nil {
		r.stop("finding the tests that need services: %v", err)
		return false
	}
	r.rep.Services = &sv
	if sv.Empty() {
		r.progress(model.PhaseTests, "nothing in %s needs a service: --with-services changes nothing", model.Where(workspaces))
		return true
	}
	if !r.o.Yes {
		r.stop("--with-services runs %s that connect to services (listed under Services): confirm with --yes; nothing was changed",
			plural(len(sv.Needs)+len(sv.Runs), "test file or run", "test files and runs"))
		return false
	}
	return true
}

// judge sets the verdict of a run whose upgrade was committed.
func (r *runner) judge() {
	var why []string
	if r.rep.Types.Status != model.StatusAnalyzed && r.rep.Types.Status != model.StatusSkipped {
		why = append(why, "types were not verified ("+r.rep.Types.Reason+")")
	}
	if n := len(r.rep.Types.New); n > 0 {
		why = append(why, plural(n, "new type error", "new type errors"))
	}
	if n := len(r.rep.Sites); n > 0 {
		why = append(why, plural(n, "site left for you", "sites left for you"))
	}
	for _, t := range r.rep.Tests.Results {
		if t.Status == verify.StatusFailed || t.Status == verify.StatusTimedOut || t.Status == verify.StatusError {
			why = append(why, fmt.Sprintf("tests (%s): %s", t.Run.Scope, t.Status))
		}
	}
	if n := len(r.rep.Style.NewFailures); n > 0 {
		why = append(why, plural(n, "edited file with a new lint failure", "edited files with new lint failures"))
	}
	if len(why) == 0 {
		r.rep.Status = StatusVerified
		return
	}
	r.rep.Status = StatusFailed
	r.rep.Reason = strings.Join(why, "; ")
}

// finish compares the checkout with its snapshot, publishes the branch,
// stores the run and keeps or removes the clone. It runs whatever happened
// before, on a fresh context: an interrupted run still has to say where
// its clone is.
func (r *runner) finish(runCtx context.Context) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if r.clone == nil {
		r.rep.Risk = risk(r.rep)
		return
	}
	after, err := isolate.Take(ctx, r.top)
	if err != nil {
		r.rep.Checkout.Changed = append(r.rep.Checkout.Changed, "the checkout could not be read after the run: "+err.Error())
	} else {
		r.rep.Checkout.Changed = append(r.rep.Checkout.Changed, r.before.Changes(after)...)
	}
	changed := len(r.rep.Checkout.Changed) > 0
	if changed && r.rep.Status == StatusVerified {
		r.rep.Status = StatusFailed
		r.rep.Reason = "the checkout changed during the run: " + strings.Join(r.rep.Checkout.Changed, "; ")
	}
	// A verify run's commits are the branch's, which exist elsewhere: the
	// checkout gains no ref from it, and only --push publishes it.
	committed := len(r.rep.Commits) > 0 && r.v == nil
	switch {
	case r.v != nil:
		r.pushVerified(ctx)
		// What verify added on top exists only in the clone until pushed.
		committed = r.rep.Verified != nil && len(r.rep.Verified.Added) > 0 && (r.rep.Publish == nil || r.rep.Publish.Status != PublishPushed)
	case !committed:
	case runCtx.Err() != nil:
		r.rep.Checkout.BranchWhy = "the run was interrupted: the branch stays in the clone"
	case changed:
		r.rep.Checkout.BranchWhy = "the checkout changed during the run: the branch stays in the clone"
	default:
		r.progress(model.PhasePublish, "giving the checkout the branch %s", r.clone.Branch)
		pub, err := isolate.Publish(ctx, r.clone)
		switch {
		case errors.Is(err, isolate.ErrCheckedOut):
			where := "your checkout"
			if pub.CheckedOutIn != "" {
				where = pub.CheckedOutIn
			}
			r.rep.Checkout.BranchWhy = fmt.Sprintf("%s is checked out in %s, so it was not moved: the commits stay in the clone", r.clone.Branch, where)
		case errors.Is(err, isolate.ErrDiverged):
			at := "another commit"
			if pub.Existing != "" {
				at = pub.Existing[:min(10, len(pub.Existing))]
			}
			r.rep.Checkout.BranchWhy = fmt.Sprintf("%s already exists at %s, which is not an ancestor of this run's commits, so it was not moved: the commits stay in the clone", r.clone.Branch, at)
		case err != nil:
			r.rep.Checkout.BranchWhy = "the branch could not be created: " + err.Error()
		default:
			r.rep.Checkout.Branch, r.rep.Checkout.Sha, r.rep.Checkout.Created = pub.Branch, pub.Sha, pub.Created
		}
		r.trace(model.PhasePublish, "published")
	}
	published := r.rep.Checkout.Branch != ""
	switch {
	case r.o.Keep:
		r.rep.Clone.Kept, r.rep.Clone.Why = true, "--keep was passed"
	case runCtx.Err() != nil:
		r.rep.Clone.Kept, r.rep.Clone.Why = true, "the run was interrupted"
	case changed:
		r.rep.Clone.Kept, r.rep.Clone.Why = true, "the checkout changed during the run"
	case r.rep.Status != StatusVerified && r.installing:
		r.rep.Clone.Kept, r.rep.Clone.Why = true, "the run did not verify: look at it there"
	case committed && !published:
		r.rep.Clone.Kept, r.rep.Clone.Why = true, "its commits exist nowhere else"
	}
	if committed && !published && r.rep.Clone.Kept {
		// The commits are only in the kept clone: say how to take them.
		if cmd, err := isolate.FetchCommand(ctx, r.clone); err == nil {
			r.rep.Checkout.Fetch = cmd
		}
	}
	r.rep.Risk = risk(r.rep)
	if committed || r.rep.Clone.Kept || r.v != nil {
		r.o.Secrets.Walk(r.rep)
		head := published || (r.v != nil && r.v.atCheckout && len(r.rep.Verified.Added) == 0)
		if data, err := marshalRun(r.rep); err == nil {
			r.rep.runID = r.clone.ID
			if file, err := isolate.StoreRun(ctx, r.top, r.clone.Branch, r.clone.ID, data, head); err == nil {
				r.rep.Checkout.RunFile = file
			} else {
				r.rep.NotRun = append(r.rep.NotRun, "storing the run: "+err.Error())
			}
		}
	}
	if final, err := isolate.Take(ctx, r.top); err == nil {
		for _, c := range after.Changes(final) {
			r.rep.Checkout.Changed = append(r.rep.Checkout.Changed, "while publishing: "+c)
		}
	}
	if !r.rep.Clone.Kept {
		r.trace(model.PhasePublish, "removing the clone")
		if err := r.clone.Remove(); err != nil {
			r.rep.Clone.Kept, r.rep.Clone.Why = true, "it could not be removed: "+err.Error()
		} else {
			r.rep.Clone.Removed = true
		}
	}
}

// commit stages exactly files (slash paths relative to the repository
// root) and commits them; false when the run has to stop.
func (r *runner) commit(ctx context.Context, subject string, files ...string) bool {
	c, err := r.commitFiles(ctx, subject, files...)
	return r.recordCommit(ctx, c, err)
}

// recordCommit adds c (nil: nothing was committed) to the report, or
// stops the run on err.
func (r *runner) recordCommit(ctx context.Context, c *Commit, err error) bool {
	if err != nil {
		if !r.interrupted(ctx, "a commit") {
			r.stop("%v", err)
		}
		return false
	}
	if c != nil {
		r.rep.Commits = append(r.rep.Commits, *c)
	}
	return true
}

// commitFiles commits exactly files in the clone; nil when nothing
// changed (no commit). It touches no report: a batch's early install
// commits with it beside check.
func (r *runner) commitFiles(ctx context.Context, subject string, files ...string) (*Commit, error) {
	// croot is the root in the clone, whatever path (a symlink) named it.
	rel, _ := filepath.Rel(r.clone.Work, r.croot)
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.ToSlash(filepath.Join(rel, filepath.FromSlash(f))))
	}
	sha, err := r.clone.Commit(ctx, subject, paths...)
	if err != nil {
		return nil, fmt.Errorf("commit in the clone: %w", err)
	}
	if sha == "" {
		return nil, nil
	}
	return &Commit{Sha: sha, Subject: subject}, nil
}

// shimManager puts a manager that is not on PATH (one the registry gave)
// on the PATH of what runs in the clone after the install: the
// repository's scripts call it by name ("test": "pnpm lint && pnpm vitest
// run"). No goroutine reads r.env any more when it runs.
func (r *runner) shimManager() error {
	if r.manager == nil || r.manager.Why == "" {
		return nil
	}
	dir := filepath.Join(r.clone.Dir, "bin")
	if err := managers.Shim(dir, r.manager); err != nil {
		return fmt.Errorf("putting %s on the clone's PATH: %w", r.manager.Binary, err)
	}
	for i, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			r.env[i] = "PATH=" + dir + string(os.PathListSeparator) + v
			return nil
		}
	}
	r.env = append(r.env, "PATH="+dir)
	return nil
}

// commitNormalized commits the lockfile the manager writes on its own, from
// the untouched manifests, before the upgrade's commit: the upgrade's diff
// then holds only what the upgrade changed; nil when nothing changed.
func (r *runner) commitNormalized(ctx context.Context, res *managers.Result) (*Commit, error) {
	lock := filepath.Join(r.croot, filepath.FromSlash(res.Lockfile))
	upgraded, err := os.ReadFile(lock)
	if err == nil {
		err = os.WriteFile(lock, res.NormalizedLockfile, 0o644)
	}
	if err != nil {
		return nil, fmt.Errorf("writing the manager's own lockfile in the clone: %w", err)
	}
	c, err := r.commitFiles(ctx, normalizedSubject(res), res.Lockfile)
	if werr := os.WriteFile(lock, upgraded, 0o644); werr != nil && err == nil {
		return nil, fmt.Errorf("writing the upgraded lockfile in the clone: %w", werr)
	}
	return c, err
}

// normalizedSubject: "npm 11.6.2 rewrites package-lock.json on its own:
// babel-plugin-macros 3.1.0 removed; cosmiconfig 7.1.0 removed".
func normalizedSubject(res *managers.Result) string {
	return fmt.Sprintf("%s rewrites %s on its own: %s", res.Label(), res.Lockfile, strings.Join(res.Normalized, "; "))
}

// filesPatched are the files the accepted patches edit, sorted.
func (r *runner) filesPatched() []string {
	seen := map[string]bool{}
	var out []string
	if r.o.Patches != nil {
		for _, p := range r.o.Patches.Patches {
			if !seen[p.File] {
				seen[p.File] = true
				out = append(out, p.File)
			}
		}
	}
	sort.Strings(out)
	return out
}

// applyPatches applies each accepted patch exactly, in its own commit, and
// returns the files edited.
func (r *runner) applyPatches(ctx context.Context) []string {
	if r.o.Patches == nil {
		return nil
	}
	var edited []string
	for _, p := range r.o.Patches.Patches {
		res := PatchResult{File: p.File, Line: p.Line, Rule: p.Rule, Finding: p.Finding}
		r.progress(model.PhaseEdits, "%s:%d (%s)", p.File, p.Line, p.Rule)
		if err := ApplyPatch(r.croot, p); err != nil {
			res.Reason = err.Error()
			r.rep.Patches = append(r.rep.Patches, res)
			continue
		}
		if !r.commit(ctx, fmt.Sprintf("fix %s:%d (%s)", p.File, p.Line, p.Rule), p.File) {
			res.Reason = r.rep.Reason
			r.rep.Patches = append(r.rep.Patches, res)
			return edited
		}
		res.Applied = true
		r.rep.Patches = append(r.rep.Patches, res)
		edited = appendUnique(edited, p.File)
	}
	sort.Strings(edited)
	return edited
}

// fetcher fetches the pinned compiler when the repository installs none.
func (r *runner) fetcher() func(ctx context.Context, name, version string) (string, error) {
	return func(ctx context.Context, name, version string) (string, error) {
		client := r.o.Client
		if r.o.CompilerClient != nil {
			client = r.o.CompilerClient
		}
		p, err := client.Fetch(ctx, name, version)
		if err != nil {
			return "", err
		}
		r.cleanMu.Lock()
		r.clean = append(r.clean, func() { _ = p.Remove() })
		r.cleanMu.Unlock()
		return p.Dir, nil
	}
}

func gitTop(ctx context.Context, dir string) (string, error) {
	out, err := gitOutput(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(out)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// appendUnique adds v to s unless it holds it (lists.AppendUnique).
var appendUnique = lists.AppendUnique[string]

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
