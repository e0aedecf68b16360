package cli

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/triage"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/publish"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/term"
	"github.com/uptide/uptide/view/html"
	"github.com/uptide/uptide/view/prbody"
)

// FixOptions are the inputs of `uptide fix`.
type FixOptions struct {
	*Globals
	Package string
	// Packages, two or more, are a batch: one commit each, verified once.
	Packages []string
	Targets  map[string]string
	// Batch takes the packages from the plan's cheap batch.
	Batch        bool
	Group        bool
	NoRuntime    bool
	PatchesFile  string
	Keep         bool
	WithServices bool
	Yes          bool
	TestTimeout  time.Duration
	// Assist runs the assisted fixer on the sites the upgrade breaks and
	// applies the patches that validate; LLM chooses its provider.
	Assist bool
	LLM    LLMFlags
	// PR pushes a verified run's branch and opens its pull request.
	PR bool
}

func newFixCmd(g *Globals) *cobra.Command {
	o := &FixOptions{Globals: g}
	var targets []string
	cmd := &cobra.Command{
		Use:   "fix <package> [<package>...]",
		Short: "Upgrade a dependency on a branch in a private clone, apply accepted patches, and verify",
		Long: "fix checks the upgrade, clones the repository privately (never a worktree), bumps every workspace that\n" +
			"declares the package (its release group and companions with it, range style kept), installs with the\n" +
			"repository's own package manager with lifecycle scripts and hook installers off, applies the accepted\n" +
			"patches exactly (one commit each), then verifies: the repository's own compiler against the pre-upgrade\n" +
			"baseline, its tests, its formatter and linter on the edited files. Your checkout gains only the branch\n" +
			"uptide/<package>-<version> and the stored run in .git/uptide/. Sites no patch fixed are listed for you.\n" +
			"Several packages are one batch on the branch uptide/batch-<n>-packages: one commit per package in the plan's\n" +
			"order (what must move first, as uptide plan says, goes first; the rest as named), verified once at the end;\n" +
			"when that fails, the steps' commits are re-verified in the clone to the first that breaks (bisection) and\n" +
			"the branch ends at the step before it.\n" +
			"Exit code: 0 verified, 1 verification failed or sites left, 2 could not run (or --pr opened no pull request).",
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if o.Batch {
				if len(args) > 0 || len(targets) > 0 {
					return usageError("--batch fixes the plan's cheap batch at the versions its checks were of: it takes no package or --target")
				}
				if args, err = cheapBatch(cmd.Context(), o.Globals, &targets); err != nil {
					return err
				}
			}
			if len(args) == 0 {
				return usageError("fix takes a package (uptide fix zod), or several for one verified batch (uptide fix chalk postcss); uptide list shows this repository's dependencies")
			}
			if len(args) > 1 && (o.PatchesFile != "" || o.Assist || o.PR) {
				return usageError("--patches, --assist and --pr are of one upgrade: fix that package on its own (uptide fix %s)", args[0])
			}
			parsed, err := parseTargets(targets)
			if err != nil {
				return err
			}
			o.Package, o.Targets = args[0], parsed
			if len(args) > 1 {
				if !o.Batch {
					// --batch's packages already come in the plan's order.
					args = batchInPlanOrder(cmd.Context(), o.Globals, args)
				}
				o.Package, o.Packages = "", args
			}
			if !o.Assist {
				for _, name := range []string{"llm-url", "llm-cmd", "model", "max-cost"} {
					if cmd.Flags().Changed(name) {
						return usageError("--%s chooses the assisted fixer's provider: add --assist", name)
					}
				}
			}
			return runFix(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&targets, "target", nil, "upgrade to `pkg@version` (or pkg@dist-tag) instead of latest; repeatable")
	f.BoolVar(&o.Batch, "batch", false, "fix the cheap batch of uptide plan (every upgrade checked ✓ no impact) as one verified batch")
	f.BoolVar(&o.Group, "group", false, "also move packages linked by peer ranges or shared pins")
	f.BoolVar(&o.NoRuntime, "no-runtime", false, "skip the runtime probe in fix's check (loading each copy in a sandboxed Node), as check --no-runtime does; JavaScript the repository does not type-check stays unverified then")
	f.StringVar(&o.PatchesFile, "patches", "", "apply the accepted patches in `FILE` (JSON: the planner's accepted set)")
	addCloneFlags(f, &o.Keep, &o.WithServices)
	f.BoolVar(&o.Yes, "yes", false, "confirm what --with-services listed")
	f.DurationVar(&o.TestTimeout, "test-timeout", 10*time.Minute, "time limit of each test run")
	f.BoolVar(&o.Assist, "assist", false, "ask a model for a patch of each site the plan gives the assisted fixer (by agent: a migration pack covers the upgrade, no rule takes the site) and apply the ones that validate (the provider: --llm-cmd, else --llm-url, else ANTHROPIC_API_KEY; none: every site manual, no call)")
	f.BoolVar(&o.PR, "pr", false, "after a verified run, push the branch to your checkout's remote and open a GitHub pull request with the run's report as its description (token: GH_TOKEN, GITHUB_TOKEN, else gh auth token; API: GITHUB_API_URL); never for a run that did not verify, a checkout that changed, or an uptide built from a dirty tree")
	o.LLM.add(f)
	return cmd
}

// addCloneFlags adds what fix and verify both ask of the private clone
// they verify in.
func addCloneFlags(f *pflag.FlagSet, keep, withServices *bool) {
	f.BoolVar(keep, "keep", false, "keep the private clone even when the run verified")
	f.BoolVar(withServices, "with-services", false, "also run the tests that need services (databases, queues); lists them and their connection targets, and runs them only with --yes")
}

func runFix(cmd *cobra.Command, o *FixOptions) error {
	env := o.Env
	if o.PR {
		if thisBuild().Dirty {
			return usageError("fix --pr: %s", publish.DirtyBuild)
		}
		env = withoutTokens(env)
	}
	opts := fix.Options{Cwd: o.Cwd, Env: env, Package: o.Package, Packages: o.Packages, Targets: o.Targets, Group: o.Group, NoRuntime: o.NoRuntime,
		Keep: o.Keep, WithServices: o.WithServices, Yes: o.Yes, TestTimeout: o.TestTimeout, Secrets: redact.FromEnv(o.Env)}
	if f := cmd.Flags().Lookup("cwd"); f != nil && f.Changed {
		opts.CwdArg = f.Value.String()
	}
	if o.PatchesFile != "" {
		pf, err := fix.ReadPatches(o.PatchesFile)
		if err != nil {
			return usageError("%v", err)
		}
		if pf.Package != "" && pf.Package != o.Package {
			return usageError("--patches %s holds patches for %s, not %s", o.PatchesFile, pf.Package, o.Package)
		}
		opts.Patches = pf
	}
	done := runProgress(o.Globals, "fix", &opts)
	if o.Assist {
		p, err := o.LLM.provider(o.Env, opts.Secrets)
		if err != nil {
			return err
		}
		opts.Assist = autoAssist(p, o.LLM.MaxCost, opts.Progress)
	}
	rep, err := fix.Run(cmd.Context(), opts)
	done()
	if err != nil {
		return err
	}
	prbody.Store(rep)
	code := rep.ExitCode()
	if o.PR {
		publishRun(cmd.Context(), o, rep, opts.Secrets)
		if rep.Publish.Status != fix.PublishOpened && code == ExitOK {
			code = ExitIncomplete
		}
	}
	// The page after --pr: it says what --pr did, as the record does.
	html.StoreFixPage(rep)
	return o.emitRun("fix", rep, code)
}

// emitRun prints a run's report (fix's, verify's): the envelope with
// --json, else the words of view.Fix; the exit code is code.
func (g *Globals) emitRun(command string, rep *fix.Report, code int) error {
	if g.JSON {
		env := Envelope{SchemaVersion: SchemaVersion, Command: command, Data: rep, ExitCode: code, Warnings: []string{}}
		if err := g.writeEnvelope(env); err != nil {
			return err
		}
	} else {
		renderFix(g.Stdout, rep, palette{on: g.Term.Color})
	}
	if code != ExitOK {
		return silentExit(code)
	}
	return nil
}

// runProgress shows a run's progress (fix's, verify's) on stderr, named
// by command: one line per phase, the phase's lines on the progress row
// (every line, stamped, with --verbose, and check's phases). done clears
// the row once the run returned.
func runProgress(g *Globals, command string, opts *fix.Options) (done func()) {
	progress := term.NewProgress(g.Stderr, g.Term.Progress)
	var mu sync.Mutex
	var phase model.Phase
	// Stamped from the command's start: what ran before the run (the
	// order of a batch) counts too.
	start := g.start
	opts.Progress = func(p model.Phase, line string) {
		// The lines are what the install and the tests print.
		line = opts.Secrets.String(line)
		mu.Lock()
		defer mu.Unlock()
		if g.Verbose {
			// Every line, stamped: check and the clone run side by side.
			fmt.Fprintf(g.Stderr, "%7.2fs %s: %s: %s\n", time.Since(start).Seconds(), command, p, line)
			return
		}
		if p != phase {
			phase = p
			progress.Clear()
			fmt.Fprintf(g.Stderr, "%s: %s: %s\n", command, p, line)
			return
		}
		progress.Update(false, "  %s", clipLine(line, g.Term.Width-4))
	}
	if g.Verbose {
		opts.Trace = opts.Progress
		// Check's own phases, each once, where it enters it.
		checkPhase := engine.Phase("")
		opts.CheckEvents = func(e engine.Event) {
			mu.Lock()
			enter := e.Phase != checkPhase
			checkPhase = e.Phase
			mu.Unlock()
			if enter {
				opts.Progress(model.PhaseCheck, string(e.Phase))
			}
		}
	}
	return func() {
		progress.Clear()
		if g.Verbose {
			fmt.Fprintf(g.Stderr, "%7.2fs %s: done\n", time.Since(start).Seconds(), command)
		}
	}
}

// clipLine keeps a progress line on one terminal row.
func clipLine(s string, width int) string {
	if width < 20 {
		width = 76
	}
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	return string(r[:width-1]) + "…"
}

// cheapBatch are the direct dependencies of the plan's cheap batch (the
// plan of the stored checks, as plan without --check makes it), each at
// the version its check was of (appended to targets as pkg@version).
func cheapBatch(ctx context.Context, g *Globals, targets *[]string) ([]string, error) {
	direct, rep, err := keptPlan(ctx, g, nil, false)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, s := range rep.Plan.Steps {
		if s.ID != triage.BatchID {
			continue
		}
		for _, m := range s.Moves {
			if _, ok := direct[m.Name]; ok && !slices.Contains(names, m.Name) {
				names = append(names, m.Name)
				*targets = append(*targets, m.Name+"@"+m.To)
			}
		}
	}
	if len(names) < 2 {
		return nil, usageError("the plan has no cheap batch (two or more upgrades checked ✓ no impact): uptide plan --check checks what it lacks")
	}
	return names, nil
}
