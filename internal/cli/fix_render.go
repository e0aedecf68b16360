package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
)

// renderFix prints the fix report: the verdict, Risk, Changes, Types,
// Tests, what was not run, the branch and the clone.
// foldedShown is how many of a site's folded errors the text prints.
const foldedShown = 5

func renderFix(w io.Writer, r *fix.Report, p palette) {
	head := r.Package
	if r.To != "" {
		head = fmt.Sprintf("%s %s → %s", r.Package, r.From, r.To)
	}
	switch r.Status {
	case fix.StatusVerified:
		fmt.Fprintf(w, "%s  %s\n", p.green("✓ verified"), p.bold(head))
	case fix.StatusFailed:
		fmt.Fprintf(w, "%s  %s\n  %s\n", p.red("✗ not verified"), p.bold(head), r.Reason)
	default:
		fmt.Fprintf(w, "%s  %s\n  %s\n", p.red("✗ not run"), p.bold(head), r.Reason)
	}
	fmt.Fprintf(w, "\nRisk  %s\n", riskWord(r.Risk.Level, p))
	for _, why := range r.Risk.Why {
		fmt.Fprintf(w, "  %s\n", why)
	}
	if len(r.Moves) > 0 {
		fmt.Fprintln(w, "\nMoves")
		for _, m := range r.Moves {
			from := m.From
			if from == "" {
				from = "(new)"
			}
			to := m.To
			if to == "" {
				to = "(removed)"
			}
			fmt.Fprintf(w, "  %-28s %s → %s  %s\n", m.Name, from, to, p.dim(m.Why))
		}
	}
	if len(r.Commits) > 0 {
		fmt.Fprintf(w, "\nChanges  %s\n", r.Branch)
		for _, c := range r.Commits {
			fmt.Fprintf(w, "  %s %s\n", short(c.Sha), c.Subject)
		}
	}
	if r.Install != nil {
		fmt.Fprintf(w, "  installed with %s %s (%s)\n", r.Install.Manager, r.Install.Version, r.Install.Lockfile)
		if r.Install.BinaryWhy != "" {
			fmt.Fprintf(w, "  ran %s: %s\n", r.Install.Binary, r.Install.BinaryWhy)
		}
		if n := r.Install.Normalized; len(n) > 0 {
			fmt.Fprintf(w, "  %s rewrites %s on its own, without the upgrade (committed before it): %s\n",
				r.Install.Manager, r.Install.Lockfile, strings.Join(n, "; "))
		}
	}
	if r.Rules != nil && (len(r.Rules.Sites) > 0 || r.Rules.Reason != "") {
		fmt.Fprintf(w, "\nRules  the %s pack\n", r.Rules.Pack)
		for _, s := range r.Rules.Sites {
			fmt.Fprintf(w, "  %s:%d  %s\n", s.File, s.Line, s.Rule)
		}
		if r.Rules.Reason != "" {
			fmt.Fprintf(w, "  %s %s\n", p.red("✗ no rule edit made:"), r.Rules.Reason)
		}
	}
	if len(r.Decisions) > 0 {
		fmt.Fprintln(w, "\nDecisions for you")
		for _, d := range r.Decisions {
			fmt.Fprintf(w, "  %s\n", d)
		}
	}
	for _, pr := range r.Patches {
		if !pr.Applied {
			fmt.Fprintf(w, "  %s %s:%d (%s): %s\n", p.red("✗ patch rejected"), pr.File, pr.Line, pr.Rule, pr.Reason)
		}
	}
	renderFixAssist(w, r)
	renderFixServices(w, r)
	renderFixTypes(w, r, p)
	renderFixTests(w, r, p)
	if r.Style.Formatter != "" || r.Style.Linter != "" {
		fmt.Fprintln(w, "\nStyle")
		if r.Style.Formatter != "" {
			fmt.Fprintf(w, "  %s formatted %d of the edited files\n", r.Style.Formatter, len(r.Style.Formatted))
		}
		if r.Style.Linter != "" {
			if len(r.Style.NewFailures) == 0 {
				fmt.Fprintf(w, "  %s: no new lint failure in the edited files\n", r.Style.Linter)
			}
			for _, f := range sortedKeys(r.Style.NewFailures) {
				for _, m := range r.Style.NewFailures[f] {
					fmt.Fprintf(w, "  %s %s %s\n", p.red("✗"), f, m)
				}
			}
		}
	}
	if len(r.Sites) > 0 {
		fmt.Fprintf(w, "\nLeft for you  %s\n", plural(len(r.Sites), "site"))
		for _, s := range r.Sites {
			at := s.File
			if s.Line > 0 {
				at += fmt.Sprintf(":%d", s.Line)
			}
			fmt.Fprintf(w, "  %s  %s  %s\n", at, s.Rule, p.dim(indentMore(s.Message, "    ")))
			// One line per site; what its edit fixes is folded under it,
			// the first few of a cause's many (--json has them all).
			if len(s.Errors) > 1 || len(s.Errors) == 1 && (s.Errors[0].File != s.File || s.Errors[0].Message != s.Message) {
				for i, d := range s.Errors {
					if i == foldedShown && len(s.Errors) > foldedShown+1 {
						fmt.Fprintf(w, "      %s\n", p.dim(fmt.Sprintf("… and %d more", len(s.Errors)-foldedShown)))
						break
					}
					at := fmt.Sprintf("%d:%d", d.Line, d.Column)
					if d.File != s.File {
						at = fmt.Sprintf("%s:%d", d.File, d.Line)
					}
					fmt.Fprintf(w, "      %s TS%d %s\n", at, d.Code, p.dim(indentMore(d.Message, "        ")))
				}
			}
		}
	}
	if len(r.NotRun) > 0 || len(r.Tests.NotRun) > 0 {
		fmt.Fprintln(w, "\nNot run")
		for _, s := range append(append([]string{}, r.Tests.NotRun...), r.NotRun...) {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	renderFixWhere(w, r, p)
}

// renderFixAssist says what the assisted fixer did and what it cost:
// estimates from list prices, not an invoice.
func renderFixAssist(w io.Writer, r *fix.Report) {
	a := r.Assist
	if a == nil {
		return
	}
	fmt.Fprintln(w, "\nAssisted")
	if a.Provider == "" {
		fmt.Fprintf(w, "  %s\n", a.Note)
		return
	}
	fmt.Fprintf(w, "  %s · %s · %d accepted · %s · $%.2f estimated\n", a.Provider, count(a.Sites, "site"), a.Accepted, count(a.Calls, "call"), a.Cost)
	if a.Note != "" {
		fmt.Fprintf(w, "  %s\n", indentMore(a.Note, "    "))
	}
}

// renderFixServices lists what --with-services runs and where it
// connects, credentials masked: what --yes confirms.
func renderFixServices(w io.Writer, r *fix.Report) {
	sv := r.Services
	if sv == nil || sv.Empty() {
		return
	}
	fmt.Fprintln(w, "\nServices  what --with-services runs")
	for _, n := range sv.Needs {
		fmt.Fprintf(w, "  %-40s %s\n", n.File, n.Needs)
	}
	for _, run := range sv.Runs {
		fmt.Fprintf(w, "  %s\n", run)
	}
	if len(sv.Targets) == 0 {
		fmt.Fprintln(w, "  connection targets: none found in the environment or the dotenv files")
	}
	for _, t := range sv.Targets {
		fmt.Fprintf(w, "  connects to %s=%s (%s)\n", t.Name, t.Value, t.From)
	}
}

func renderFixTypes(w io.Writer, r *fix.Report, p palette) {
	if r.Install == nil {
		return
	}
	fmt.Fprintln(w, "\nTypes")
	if r.Types.Reason != "" && len(r.Types.Projects) == 0 {
		fmt.Fprintf(w, "  %s\n", r.Types.Reason)
		return
	}
	fmt.Fprintf(w, "  %s · %s · %s · %s before the upgrade\n", r.Types.Compiler, count(len(r.Types.Projects), "project"),
		count(r.Types.Files, "file"), count(r.Types.Baseline, "error"))
	if len(r.Types.New) == 0 {
		fmt.Fprintf(w, "  %s\n", p.green("✓ no new errors"))
		return
	}
	by := map[string][]string{}
	// Errors inside a dependency are one line per package: the first
	// says what the compiler cannot read there, the rest repeat it.
	deps := map[string][]model.Diagnostic{}
	for _, d := range r.Types.New {
		if model.InDependency(d.File) {
			pkg, _ := model.DependencyOf(d.File)
			deps[pkg] = append(deps[pkg], d)
			continue
		}
		by[d.File] = append(by[d.File], fmt.Sprintf("%d:%d TS%d %s", d.Line, d.Column, d.Code, indentMore(d.Message, "      ")))
	}
	fmt.Fprintf(w, "  %s\n", p.red("✗ "+plural(len(r.Types.New), "new error")))
	for _, f := range sortedKeys(by) {
		fmt.Fprintf(w, "  %s\n", f)
		for _, l := range by[f] {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	for _, pkg := range sortedKeys(deps) {
		ds := deps[pkg]
		name := "outside the repository"
		if pkg != "" {
			name = "inside " + pkg
		}
		fmt.Fprintf(w, "  %s %s (--json lists every one); the first:\n    %s:%d:%d TS%d %s\n", plural(len(ds), "error"), name,
			ds[0].File, ds[0].Line, ds[0].Column, ds[0].Code, indentMore(ds[0].Message, "      "))
	}
}

func renderFixTests(w io.Writer, r *fix.Report, p palette) {
	t := r.Tests
	if len(t.Results) == 0 && len(t.NoTests) == 0 && len(t.Skipped) == 0 {
		return
	}
	fmt.Fprintln(w, "\nTests")
	for _, res := range t.Results {
		mark := p.green("✓")
		switch res.Status {
		case model.TestPassed:
		case model.TestNoTests:
			// The runner found nothing to run: nothing failed either.
			mark = p.yellow("–")
		default:
			mark = p.red("✗")
		}
		counts := ""
		if res.Passed >= 0 || res.Failed >= 0 {
			counts = fmt.Sprintf(" · %d passed, %d failed", max(res.Passed, 0), max(res.Failed, 0))
		}
		rerun := ""
		if res.Rerun {
			rerun = " · re-run once (an unrelated test failed the first time)"
		}
		fmt.Fprintf(w, "  %s %s  %s · %s%s%s\n", mark, res.Status, commandLine(res.Run.Command), res.Run.Scope, counts, rerun)
	}
	for _, ws := range t.NoTests {
		fmt.Fprintf(w, "  – no tests cover %s\n", engine.Where([]string{ws}))
	}
	if len(t.Skipped) > 0 {
		verb := "need services and were"
		if len(t.Skipped) == 1 {
			verb = "needs services and was"
		}
		fmt.Fprintf(w, "  – %s %s not run (--with-services runs them):\n", count(len(t.Skipped), "test file"), verb)
		for _, s := range t.Skipped {
			fmt.Fprintf(w, "      %s  %s\n", s.File, s.Needs)
		}
	}
}

func renderFixWhere(w io.Writer, r *fix.Report, p palette) {
	fmt.Fprintln(w)
	for _, c := range r.Checkout.Changed {
		fmt.Fprintf(w, "%s %s\n", p.red("✗ your checkout changed during the run:"), c)
	}
	switch {
	case r.Checkout.Branch != "":
		verb := "updated"
		if r.Checkout.Created {
			verb = "created"
		}
		fmt.Fprintf(w, "Branch  %s %s at %s in your checkout (nothing else in it changed)\n", r.Checkout.Branch, verb, short(r.Checkout.Sha))
	default:
		for _, l := range r.Checkout.BranchNotMoved() {
			fmt.Fprintln(w, l)
		}
	}
	switch {
	case r.Clone.Kept:
		fmt.Fprintf(w, "Clone   kept at %s (%s)\n", r.Clone.Repo, r.Clone.Why)
	case r.Clone.Removed:
		fmt.Fprintln(w, "Clone   removed")
	}
	if r.Checkout.RunFile != "" {
		fmt.Fprintf(w, "Run     %s\n", r.Checkout.RunFile)
	}
}

func riskWord(level model.RiskLevel, p palette) string {
	switch level {
	case model.RiskLow:
		return p.green(string(level))
	case model.RiskMedium:
		return p.yellow(string(level))
	}
	return p.red(string(level))
}

func short(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// commandLine shows a test command as the user would type it: a script run
// through sh -c is its script.
func commandLine(argv []string) string {
	if len(argv) == 3 && argv[0] == "sh" && argv[1] == "-c" {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

// indentMore indents the continuation lines of a multi-line message.
func indentMore(s, indent string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+indent)
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
