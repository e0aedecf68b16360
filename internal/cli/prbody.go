package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/isolate"
	"github.com/uptide/uptide/fix/publish"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/view/prbody"
)

// PRBodyOptions are the inputs of `uptide pr-body`.
type PRBodyOptions struct {
	*Globals
	// RunID names the stored run; "" is the latest.
	RunID string
}

// prBodyReport is pr-body's --json data: the run, and what GitHub was
// asked (publish's statuses: updated, blocked, failed).
type prBodyReport struct {
	Run    string `json:"run"`
	Branch string `json:"branch"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	URL    string `json:"url,omitempty"`
}

func newPRBodyCmd(g *Globals) *cobra.Command {
	o := &PRBodyOptions{Globals: g}
	return &cobra.Command{
		Use:   "pr-body [run-id]",
		Short: "Update a pull request's description from a stored fix run's pr-body.md",
		Long: "pr-body sends the stored body of a fix run (.git/uptide/<branch>/pr-body.md; the latest run unless\n" +
			"a run id names one) as the description of the open pull request of the run's branch, through GitHub's\n" +
			"REST API (token: GH_TOKEN, GITHUB_TOKEN, else gh auth token; API: GITHUB_API_URL). It goes through\n" +
			"fix --pr's gate: a run that did not verify, a checkout that changed during it, or an uptide built from\n" +
			"a dirty tree never updates anything. The pull request must be the run's: on your checkout's remote's\n" +
			"repository, of the run's branch, its head the commit the run verified.\n" +
			"Exit code: 0 updated, 1 refused (the reason is printed), 2 could not ask GitHub.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.RunID = args[0]
			}
			return runPRBody(cmd, o)
		},
	}
}

func runPRBody(cmd *cobra.Command, o *PRBodyOptions) error {
	run, rep, body, err := storedRun(cmd, o.Cwd, o.RunID)
	if err != nil {
		return err
	}
	// A run the gate refuses says so, whether or not it stored a body.
	if body == "" && len(publish.Blockers(rep, thisBuild())) == 0 {
		return fmt.Errorf("run %s stored no pull request body (%s)", run.ID, prbody.FileName(rep.Checkout.RunFile))
	}
	secrets := redact.FromEnv(o.Env)
	pub := publish.UpdateBody(cmd.Context(), rep, body, publish.Options{Dir: o.Cwd, Env: o.Env, Build: thisBuild(), Secrets: secrets})
	out := prBodyReport{Run: run.ID, Branch: run.Branch, Status: pub.Status, Reason: pub.Reason, URL: pub.URL}
	code := ExitOK
	switch pub.Status {
	case publish.Updated:
	case fix.PublishBlocked:
		code = ExitBreaking // refused: like a verification that failed
	default:
		code = ExitIncomplete
	}
	if o.JSON {
		if err := o.writeEnvelope(Envelope{SchemaVersion: SchemaVersion, Command: "pr-body", Data: out, ExitCode: code}); err != nil {
			return err
		}
	} else if pub.Status == publish.Updated {
		fmt.Fprintf(o.Stdout, "updated the description of %s from run %s (%s)\n", pub.URL, run.ID, run.Branch)
	} else {
		fmt.Fprintf(o.Stdout, "pr-body: run %s (%s) %s: %s\n", run.ID, run.Branch, pub.Status, pub.Reason)
	}
	if code != ExitOK {
		return silentExit(code)
	}
	return nil
}

// storedRun is the run id names (the latest for ""), its record (its
// RunFile where it was read) and its stored pull request body ("" when
// it stored none).
func storedRun(cmd *cobra.Command, cwd, id string) (isolate.StoredRun, *fix.Report, string, error) {
	runs, err := isolate.StoredRuns(cmd.Context(), cwd)
	if err != nil {
		return isolate.StoredRun{}, nil, "", err
	}
	if len(runs) == 0 {
		return isolate.StoredRun{}, nil, "", usageError("no fix run is stored in %s: uptide fix stores one", cwd)
	}
	run := runs[len(runs)-1]
	if id != "" {
		found := false
		for _, r := range runs {
			if r.ID == id {
				run, found = r, true
			}
		}
		if !found {
			return isolate.StoredRun{}, nil, "", usageError("no stored fix run %s (the latest is %s)", id, runs[len(runs)-1].ID)
		}
	}
	rep, err := readRun(run.File)
	if err != nil {
		return run, nil, "", err
	}
	// The branch's run.json and pr-body.md are this run's when the branch
	// stands at its commits; they then also hold what --pr did.
	file := run.File
	if head, err := readRun(run.Head); err == nil && head.Checkout.Sha != "" && head.Checkout.Sha == rep.Checkout.Sha {
		file, rep = run.Head, head
	}
	rep.Checkout.RunFile = file
	body, err := os.ReadFile(prbody.FileName(file))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return run, nil, "", err
	}
	return run, rep, string(body), nil
}

// readRun reads a stored run record ({"schemaVersion": 1, "run": …}).
func readRun(file string) (*fix.Report, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var rec struct {
		SchemaVersion int         `json:"schemaVersion"`
		Run           *fix.Report `json:"run"`
	}
	if err := json.Unmarshal(data, &rec); err != nil || rec.Run == nil {
		return nil, fmt.Errorf("%s is not a stored fix run (%v): run uptide fix again", file, err)
	}
	return rec.Run, nil
}
