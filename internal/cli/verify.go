package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/publish"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/view/html"
	"github.com/uptide/uptide/view/prbody"
)

// VerifyOptions are the inputs of `uptide verify`.
type VerifyOptions struct {
	*Globals
	Branch, Base string
	Keep         bool
	WithServices bool
	Yes          bool
	TestTimeout  time.Duration
	// Push pushes the verified commit to the checkout's remote; only with
	// Yes.
	Push bool
}

func newVerifyCmd(g *Globals) *cobra.Command {
	o := &VerifyOptions{Globals: g}
	cmd := &cobra.Command{
		Use:   "verify [<branch>]",
		Short: "Verify a branch (fix's, a person's, a bot's) in a private clone, as fix verifies its own",
		Long: "verify clones the repository privately (never a worktree), installs the base's lockfile and compiles the\n" +
			"baseline there (the base is the merge-base with the default branch, or with --base), then checks the\n" +
			"branch out, installs its own lockfile frozen with lifecycle scripts and hook installers off, and verifies\n" +
			"it: the repository's own compiler against that baseline, its tests, its linter on the files the branch\n" +
			"changes. Before that the repository's formatter runs on the changed files: what it changes becomes one\n" +
			"commit on top of the branch (never a rewrite), and that new head is what is verified, stored and pushed.\n" +
			"Without a branch it verifies the one checked out. Your checkout gains only the stored run in\n" +
			".git/uptide/<branch>/. When fix could not move a branch you have checked out, verify takes its commits\n" +
			"from fix's kept clone, and --push --yes pushes them from the private clone to your checkout's remote\n" +
			"(the remote the branch tracks, else origin), never forced: only a verified run is pushed.\n" +
			"Exit code: 0 verified, 1 verification failed or errors left, 2 could not run (or --push pushed nothing).",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Branch = args[0]
			}
			if o.Push && !o.Yes {
				return usageError("verify --push pushes the verified branch to your checkout's remote: confirm with --yes")
			}
			return runVerify(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Base, "base", "", "compare with `REF` (its merge-base with the branch) instead of the default branch")
	addCloneFlags(f, &o.Keep, &o.WithServices)
	f.BoolVar(&o.Yes, "yes", false, "confirm --push and what --with-services listed")
	f.DurationVar(&o.TestTimeout, "test-timeout", 10*time.Minute, "time limit of each install and test run")
	f.BoolVar(&o.Push, "push", false, "after a verified run, push the verified commit to your checkout's remote (fast-forward only; with --yes); never for a run that did not verify, a checkout that changed, or an uptide built from a dirty tree")
	return cmd
}

func runVerify(cmd *cobra.Command, o *VerifyOptions) error {
	if o.Push && thisBuild().Dirty {
		return usageError("verify --push: %s", publish.DirtyBuild)
	}
	secrets := redact.FromEnv(o.Env)
	opts := fix.VerifyOptions{Options: fix.Options{Cwd: o.Cwd, Env: withoutTokens(o.Env), Keep: o.Keep, WithServices: o.WithServices, Yes: o.Yes,
		TestTimeout: o.TestTimeout, Secrets: secrets}, Branch: o.Branch, Base: o.Base}
	if f := cmd.Flags().Lookup("cwd"); f != nil && f.Changed {
		opts.CwdArg = f.Value.String()
	}
	if o.Push {
		opts.Push = func(ctx context.Context, rep *fix.Report, dir string) *fix.Publish {
			return publish.Push(ctx, rep, dir, publish.Options{Dir: o.Cwd, Env: o.Env, Build: thisBuild(), Secrets: secrets})
		}
	}
	done := runProgress(o.Globals, "verify", &opts.Options)
	rep, err := fix.Verify(cmd.Context(), opts)
	done()
	if err != nil {
		return err
	}
	prbody.Store(rep)
	html.StoreFixPage(rep)
	code := rep.ExitCode()
	if o.Push && rep.Publish != nil && rep.Publish.Status != fix.PublishPushed && code == ExitOK {
		code = ExitIncomplete
	}
	return o.emitRun("verify", rep, code)
}
