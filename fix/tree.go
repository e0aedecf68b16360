package fix

import (
	"context"
	"strings"
	"time"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/fix/verify"
	"github.com/uptide/uptide/internal/redact"
)

// TreeOptions are the inputs of VerifyTree.
type TreeOptions struct {
	// Base is the repository before the upgrade, Dir after it (edits
	// made), both with their dependencies installed; each is a private
	// work tree of uptide's, never the user's checkout.
	Base, Dir string
	// Packages are the packages upgraded: the workspaces that declare or
	// import them are compiled and tested.
	Packages []string
	// Edited are the files the edits changed (slash, from the root): they
	// are linted before (in Base) and after, and their tests run.
	Edited      []string
	Env         []string
	TestTimeout time.Duration
	Progress    func(phase, line string)
	Secrets     *redact.Secrets
}

// VerifyTree verifies an upgrade that was installed by someone else (a
// bot's pull request, its own lockfile) with fix's own closing steps: the
// compile after against the compile of Base as the baseline, the tests,
// the lint of the edited files. The report has Types, Tests, Style,
// Sites (new errors no edit fixed), NotRun and the verdict.
func VerifyTree(ctx context.Context, o TreeOptions) *Report {
	if o.TestTimeout == 0 {
		o.TestTimeout = 10 * time.Minute
	}
	if o.Secrets == nil {
		o.Secrets = redact.FromEnv(o.Env)
	}
	r := &runner{o: Options{Env: o.Env, TestTimeout: o.TestTimeout, Progress: o.Progress, Secrets: o.Secrets}, rep: newReport(strings.Join(o.Packages, " "))}
	r.drivers = typescript.NewDrivers()
	defer func() {
		for _, f := range r.clean {
			f()
		}
		r.drivers.Close()
	}()
	defer func() { r.rep.Risk = risk(r.rep); o.Secrets.Walk(r.rep) }()
	repository, err := repo.Load(o.Dir)
	if err != nil {
		r.stop("%v", err)
		return r.rep
	}
	r.repository, r.root, r.croot, r.env, r.cloneRepo = repository, o.Dir, o.Dir, o.Env, repository
	if r.o.Client, err = engine.NewClient(o.Dir, o.Env); err != nil {
		r.stop("%v", err)
		return r.rep
	}
	r.o.Secrets.Withhold(r.o.Client.Config().Secrets()...)
	r.fetch = r.fetcher()
	for _, name := range o.Packages {
		ws, err := workspacesOf(repository, name)
		if err != nil {
			r.stop("%v", err)
			return r.rep
		}
		for _, w := range ws {
			r.workspaces = appendUnique(r.workspaces, w)
		}
	}
	r.compileBefore(ctx, o.Base)
	r.rep.Status = StatusFailed
	r.style = verify.DetectStyle(o.Dir)
	r.lb = &lintBaseline{run: verify.LintRun{Failures: map[string][]string{}}, ok: true}
	if r.style.Linter != nil && len(o.Edited) > 0 {
		// The lint before the edits reads the base, which has them not.
		run, err := r.style.Lint(ctx, o.Base, o.Env, o.Edited)
		if err != nil {
			r.lb.ok = false
			r.rep.NotRun = append(r.rep.NotRun, "lint ("+r.style.Linter.Name+") before the edits: "+err.Error())
		}
		r.lb.run.Failures = run.Failures
	}
	r.edited = o.Edited
	r.progress("compile", "type-checking after the upgrade")
	r.typesAfter(ctx)
	r.lintAndTest(ctx)
	if r.interrupted(ctx, "the compile and the tests") {
		return r.rep
	}
	r.rep.Sites = sitesLeft(nil, r.rep.Types.New, nil, nil, nil)
	r.judge()
	return r.rep
}

// newReport is a run's report before anything ran: not run, every list
// empty rather than absent (the JSON contract).
func newReport(pkg string) *Report {
	return &Report{Package: pkg, Status: StatusNotRun, Moves: []Move{}, Commits: []Commit{},
		Patches: []PatchResult{}, Sites: []Site{}, NotRun: []string{}, Decisions: []string{},
		Types:    TypesReport{Status: model.StatusNotAnalyzed, Projects: []string{}, New: []model.Diagnostic{}},
		Tests:    TestsReport{Results: []verify.TestResult{}, NoTests: []string{}, Skipped: []verify.ServiceSkip{}, NotRun: []string{}},
		Style:    StyleReport{Formatted: []string{}, NewFailures: map[string][]string{}},
		Checkout: CheckoutReport{Changed: []string{}}}
}
