package cli

import (
	"encoding/json"
	"io"
	"os"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/triage"
	"github.com/uptide/uptide/internal/lists"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/term"
	"github.com/uptide/uptide/view"
	"github.com/uptide/uptide/view/html"
)

// PlanOptions are the inputs of `uptide plan`.
type PlanOptions struct {
	*Globals
	Packages []string
	// Check runs the checks the plan lacks.
	Check bool
	// Results are saved `check --json` envelopes to plan from.
	Results      []string
	NoAdvisories bool
	// HTML is the file --html writes the plan's page to.
	HTML string
	// Ceiling names the package whose safe ceiling to find.
	Ceiling string
}

func newPlanCmd(g *Globals) *cobra.Command {
	o := &PlanOptions{Globals: g}
	cmd := &cobra.Command{
		Use:   "plan [package...]",
		Short: "Every outdated dependency as ordered steps, with priorities and the effort their checks counted",
		Long: "plan orders the repository's upgrades (or the ones named): release groups and companions as one\n" +
			"step, what must move first before what needs it (a TypeScript floor, a peer range), cycles reported.\n" +
			"Each step says why it matters now (security advisories with the release that fixes them, deprecated\n" +
			"or unsupported installed lines, majors behind) and what its check counted. Checks come from the\n" +
			"checks run here before on the same state of the repository, from --results, or from --check.\n" +
			"Exit code: 0 a plan, 2 an error.",
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Packages = args
			if err := htmlWritable(o.HTML); err != nil {
				return err
			}
			return runPlan(cmd, o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.Check, "check", false, "check the steps no result covers yet (one check run for all of them)")
	f.StringArrayVar(&o.Results, "results", nil, "plan from a saved check --json envelope in `FILE` (repeatable: one per CI job)")
	f.BoolVar(&o.NoAdvisories, "no-advisories", false, "do not ask the registry for security advisories")
	addHTMLFlag(f, &o.HTML)
	f.StringVar(&o.Ceiling, "ceiling", "", "find the newest release of `PACKAGE` whose check is ✓ no impact, bisecting the releases above the installed one")
	return cmd
}

func runPlan(cmd *cobra.Command, o *PlanOptions) error {
	ctx := cmd.Context()
	progress := term.NewProgress(o.Stderr, o.Term.Progress)
	defer progress.Clear()
	checks := map[string]*model.PackageReport{}
	var repoOf *model.RepoSummary
	repoFile := ""
	for _, file := range o.Results {
		rep, err := readCheckEnvelope(file)
		if err != nil {
			return err
		}
		if repoOf != nil && !sameRepository(*repoOf, rep.Repository) {
			return usageError("%s is a check of %s, the other results are of %s: plan merges the checks of one repository", file, repoName(rep.Repository), repoName(*repoOf))
		}
		repoOf, repoFile = &rep.Repository, file
		mergeChecks(checks, rep)
	}
	disc, index, err := engine.Discover(ctx, engine.DiscoverOptions{Cwd: o.Cwd, Env: o.Env,
		Events: func(e engine.Event) { progress.Update(e.Finished, "%s", checkProgress(e)) }})
	if err != nil {
		return err
	}
	// The checks plan reads and makes are those of the state it started on.
	store := openCheckStore(o.Env, disc.Repository.Root)
	if repoOf != nil && repoOf.Name != disc.Repository.Name {
		return usageError("%s: the results are checks of %s, this repository is %s", repoFile, repoName(*repoOf), repoName(disc.Repository))
	}
	var ceil *model.Ceiling
	if o.Ceiling != "" {
		if len(o.Packages) > 0 || o.Check || len(o.Results) > 0 {
			return usageError("--ceiling %s plans that package alone: it takes no package names, --check or --results", o.Ceiling)
		}
		o.Packages = []string{o.Ceiling}
		if ceil, err = ceiling(cmd, o, disc, index, store, progress); err != nil {
			return err
		}
	}
	if len(o.Results) == 0 {
		// Kept checks are by the name the manifests declare, as a check
		// reports an npm: alias and as the plan reads them.
		targets := map[string]string{}
		for _, r := range disc.Rows {
			targets[r.Name] = r.Target
		}
		for name, rep := range store.load(targets) {
			checks[name] = rep
		}
	}
	planOpts := engine.PlanOptions{Cwd: o.Cwd, Env: o.Env, Only: o.Packages, NoAdvisories: o.NoAdvisories, Checks: checks,
		Discovered: disc, Now: time.Now()}
	progress.Update(false, "asking the registry for releases and advisories")
	rep, err := engine.PlanUpgrades(ctx, planOpts)
	if err != nil {
		return err
	}
	if o.Check && len(rep.Plan.Unchecked) > 0 {
		leads := uncheckedLeads(rep.Plan)
		secrets := redact.FromEnv(o.Env)
		checked, err := engine.Check(ctx, engine.CheckOptions{Cwd: o.Cwd, Env: o.Env, Index: index, Packages: leads, Compile: true, Runtime: true, Secrets: secrets,
			Events: func(e engine.Event) { progress.Update(e.Finished, "%s", checkProgress(e)) }})
		if err != nil {
			return err
		}
		secrets.Walk(checked)
		store.save(checked)
		mergeChecks(checks, checked)
		planOpts.Checks = checks
		if rep, err = engine.PlanUpgrades(ctx, planOpts); err != nil {
			return err
		}
	}
	rep.Ceiling = ceil
	progress.Clear()
	if err := writeHTML(o.HTML, func(w io.Writer) error { return html.Plan(w, rep) }); err != nil {
		return err
	}
	if o.JSON {
		return o.writeEnvelope(Envelope{SchemaVersion: SchemaVersion, Command: "plan", Data: rep, ExitCode: ExitOK, Warnings: []string{}})
	}
	renderPlanReport(o.Stdout, rep, palette{on: o.Term.Color}, o.Term.Width)
	return nil
}

// uncheckedLeads are the packages to check for the steps no result covers:
// each unchecked step's moves that are direct dependencies (check follows
// their groups and companions itself).
func uncheckedLeads(p model.UpgradePlan) []string {
	unchecked := map[string]bool{}
	for _, id := range p.Unchecked {
		unchecked[id] = true
	}
	var out []string
	for _, s := range p.Steps {
		if unchecked[s.ID] {
			out = append(out, s.ID)
		}
	}
	sort.Strings(out)
	return out
}

// readCheckEnvelope reads a saved `check --json` envelope of this
// version's schema.
func readCheckEnvelope(file string) (*model.CheckReport, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, usageError("--results %s: %v", file, err)
	}
	var env struct {
		SchemaVersion int             `json:"schemaVersion"`
		Command       string          `json:"command"`
		Data          json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, usageError("--results %s is not a JSON envelope (%v): save it with uptide check <package> --json > %s", file, err, file)
	}
	if env.Command != "check" {
		return nil, usageError("--results %s is the envelope of %q, not of check: save it with uptide check <package> --json", file, env.Command)
	}
	if env.SchemaVersion != SchemaVersion {
		return nil, usageError("--results %s has schema version %d; this uptide reads %d: check again with this version", file, env.SchemaVersion, SchemaVersion)
	}
	if len(env.Data) == 0 || string(env.Data) == "null" {
		return nil, usageError("--results %s holds no check report (the check failed: its error is in the envelope)", file)
	}
	var rep model.CheckReport
	if err := json.Unmarshal(env.Data, &rep); err != nil {
		return nil, usageError("--results %s is not a check report this uptide reads (%v): check again with this version", file, err)
	}
	return &rep, nil
}

func sameRepository(a, b model.RepoSummary) bool {
	return a.Name == b.Name && a.PackageManager == b.PackageManager
}

func repoName(r model.RepoSummary) string {
	if r.Name != "" {
		return r.Name
	}
	return "an unnamed repository"
}

// mergeChecks adds a check's reports by package; a package two checks
// report (two jobs of a matrix) keeps the first report's findings and
// adds the second's it lacks, the worse verdict, and summed counts.
func mergeChecks(into map[string]*model.PackageReport, rep *model.CheckReport) {
	for i := range rep.Packages {
		p := rep.Packages[i]
		prev, ok := into[p.Package]
		if !ok {
			into[p.Package] = &p
			continue
		}
		into[p.Package] = mergeReport(prev, &p)
	}
}

func mergeReport(a, b *model.PackageReport) *model.PackageReport {
	out := *a
	seen := map[string]bool{}
	for _, f := range a.Findings {
		seen[f.ID] = true
	}
	out.Findings = append([]model.Finding{}, a.Findings...)
	for _, f := range b.Findings {
		if !seen[f.ID] {
			out.Findings = append(out.Findings, f)
		}
	}
	sort.Slice(out.Findings, func(i, j int) bool { return out.Findings[i].ID < out.Findings[j].ID })
	if b.Verdict.Rank() > a.Verdict.Rank() {
		out.Verdict = b.Verdict
	}
	out.Workspaces = unionSorted(a.Workspaces, b.Workspaces)
	out.Plan.Rules = append(append([]model.PlanRule{}, a.Plan.Rules...), b.Plan.Rules...)
	out.Plan.Totals.Sites += b.Plan.Totals.Sites
	out.Plan.Totals.ByRule += b.Plan.Totals.ByRule
	out.Plan.Totals.ByAgent += b.Plan.Totals.ByAgent
	out.Plan.Totals.Manual += b.Plan.Totals.Manual
	out.Plan.Totals.Errors += b.Plan.Totals.Errors
	return &out
}

func unionSorted(a, b []string) []string {
	set := map[string]bool{}
	for _, s := range append(append([]string{}, a...), b...) {
		set[s] = true
	}
	return lists.SortedKeys(set)
}

// planStepTitle is a step's one-line name: its lead's move and what moves
// with it.
func planStepTitle(s model.PlanStep) string { return view.PlanStepTitle(s) }

// ceiling bisects the package's releases above the installed one, one
// check per step (a check kept from an earlier run of the same state is
// not made again).
func ceiling(cmd *cobra.Command, o *PlanOptions, disc *model.DiscoverReport, index *engine.Index, store checkStore, progress *term.Progress) (*model.Ceiling, error) {
	var row *model.DependencyRow
	for i, r := range disc.Rows {
		if r.Name == o.Ceiling {
			row = &disc.Rows[i]
			break
		}
	}
	if row == nil || row.Installed == "" {
		return nil, usageError("--ceiling %s: not a dependency of this repository with an installed version; uptide list shows them", o.Ceiling)
	}
	versions, err := engine.Releases(cmd.Context(), o.Cwd, o.Env, row.Package)
	if err != nil {
		return nil, err
	}
	secrets := redact.FromEnv(o.Env)
	judge := func(v string) (model.Verdict, int, string, error) {
		targets := map[string]string{row.Name: v}
		rep := store.load(targets)[row.Name]
		if rep == nil {
			progress.Update(false, "checking %s %s", row.Name, v)
			checked, err := engine.Check(cmd.Context(), engine.CheckOptions{Cwd: o.Cwd, Env: o.Env, Index: index, Packages: []string{row.Name},
				Targets: targets, Compile: true, Runtime: true, Secrets: secrets})
			if err != nil {
				return "", 0, "", err
			}
			secrets.Walk(checked)
			store.save(checked)
			for i := range checked.Packages {
				if checked.Packages[i].Package == row.Name {
					rep = &checked.Packages[i]
				}
			}
		}
		if rep == nil {
			return model.VerdictUnknown, 0, "check reported nothing for " + row.Name, nil
		}
		verdict, reason := triage.VerdictOf(rep), ""
		if verdict.Incomplete() {
			reason = rep.Reason
		}
		return verdict, rep.Counts.Breaking, reason, nil
	}
	c, err := triage.Ceiling(row.Name, row.Installed, versions, judge)
	if err != nil {
		return nil, err
	}
	return &c, nil
}
