package cli

import (
	"fmt"
	"github.com/uptide/uptide/engine/model"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/fix/botpr"
	"github.com/uptide/uptide/fix/publish"
	"github.com/uptide/uptide/internal/redact"
)

// BotPROptions are the inputs of `uptide bot-pr`.
type BotPROptions struct {
	*Globals
	// Event is the pull_request event file; "" is GITHUB_EVENT_PATH.
	Event       string
	TestTimeout time.Duration
}

// credentialVars are what a workflow step may hold that no install, test
// or tool uptide runs may see: the GitHub token and the runner's own.
var credentialVars = []string{"GH_TOKEN", "GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL"}

// withoutCredentials is env without credentialVars.
func withoutCredentials(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, c := range credentialVars {
			drop = drop || k == c
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

func newBotPRCmd(g *Globals) *cobra.Command {
	o := &BotPROptions{Globals: g}
	cmd := &cobra.Command{
		Use:   "bot-pr",
		Short: "Migrate the code of a Renovate or Dependabot pull request and push one verified commit onto it",
		Long: "bot-pr is the work of uptide's GitHub Action (action.yml) on a pull_request event by renovate[bot] or\n" +
			"dependabot[bot] from a branch of the same repository. In private clones of the checkout it reads which\n" +
			"packages the pull request moves (pnpm-lock.yaml's importers and catalogs, base against head), runs fix for\n" +
			"each on the pull request's sources with the base's dependencies (check, the migration pack's rule edits,\n" +
			"verification), commits only their source edits on the pull request's exact head, and verifies that as\n" +
			"uptide verify does (the base's lockfile for the baseline, the pull request's own lockfile frozen, scripts\n" +
			"off, the compiler, the tests, the lint of the changed files). Only when everything verified, and GitHub\n" +
			"says the head is still the event's, it pushes that one commit (a normal push, never forced). Its report is one comment on\n" +
			"the pull request, updated on every run. Only pnpm repositories are taken; others fail with a message.\n" +
			"Token: GH_TOKEN, GITHUB_TOKEN, else gh auth token; API: GITHUB_API_URL. The token is used for the API\n" +
			"requests and the push alone: installs, tests and tools run without it.\n" +
			"Exit code: 0 pushed or nothing to push, 1 not verified or refused (head moved), 2 could not run.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBotPR(cmd, o) },
	}
	cmd.Flags().StringVar(&o.Event, "event", "", "the pull_request event `FILE` (default: GITHUB_EVENT_PATH)")
	cmd.Flags().DurationVar(&o.TestTimeout, "test-timeout", 10*time.Minute, "time limit of each test run")
	return cmd
}

func runBotPR(cmd *cobra.Command, o *BotPROptions) error {
	if thisBuild().Dirty {
		return usageError("bot-pr: %s", publish.DirtyBuild)
	}
	path := o.Event
	if path == "" {
		path = o.Env.Get("GITHUB_EVENT_PATH")
	}
	if path == "" {
		return usageError("bot-pr reads a pull_request event: --event FILE, or GITHUB_EVENT_PATH as a workflow sets it")
	}
	ev, err := botpr.ReadEvent(path)
	if err != nil {
		return usageError("%v", err)
	}
	secrets := redact.FromEnv(o.Env)
	opts := botpr.Options{Cwd: o.Cwd, Event: ev, Env: withoutCredentials(o.Env), TestTimeout: o.TestTimeout, Secrets: secrets}
	if ev.Refusal() == "" {
		sess, err := publish.Connect(cmd.Context(), publish.Options{Dir: o.Cwd, Env: o.Env, Secrets: secrets}, "origin")
		if err != nil {
			return fmt.Errorf("bot-pr: %s", secrets.String(err.Error()))
		}
		if r := sess.Repo(); r.Owner+"/"+r.Name != ev.BaseRepo {
			return fmt.Errorf("bot-pr: the checkout's origin is %s/%s, the event's pull request is of %s", r.Owner, r.Name, ev.BaseRepo)
		}
		opts.GitHub = sess
	}
	if !o.JSON {
		// A workflow's log is the only place to watch the run.
		opts.Progress = func(phase model.Phase, line string) { fmt.Fprintf(o.Stderr, "%s: %s\n", phase, secrets.String(line)) }
	}
	rep := botpr.Run(cmd.Context(), opts)
	code := rep.ExitCode()
	if o.JSON {
		if err := o.writeEnvelope(Envelope{SchemaVersion: SchemaVersion, Command: "bot-pr", Data: rep, ExitCode: code}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(o.Stdout, "bot-pr #%d (%s at %s): %s", rep.PR, rep.Branch, rep.Head[:min(12, len(rep.Head))], rep.Status)
		if rep.Reason != "" {
			fmt.Fprintf(o.Stdout, ": %s", rep.Reason)
		}
		fmt.Fprintln(o.Stdout)
		if rep.Commit != "" {
			fmt.Fprintf(o.Stdout, "commit  %s\n", rep.Commit)
		}
		if rep.Comment != "" {
			fmt.Fprintf(o.Stdout, "comment %s\n", rep.Comment)
		}
		for _, k := range rep.Kept {
			fmt.Fprintf(o.Stdout, "kept    %s (uptide clean removes it after 7 days)\n", k)
		}
	}
	if code != ExitOK {
		return silentExit(code)
	}
	return nil
}
