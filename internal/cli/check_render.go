package cli

import (
	"fmt"
	"github.com/uptide/uptide/engine"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// checkView is how much of a check report to print.
type checkView struct {
	details bool
	all     bool
	elapsed time.Duration
}

// renderCheck prints the check report for humans: a header with the
// repository, its package manager and the elapsed time; one row per
// dependency; then per package its companions, one line per plan rule, the
// possible impact apart, the coverage line, what was not analyzed, and the
// Next block.
func renderCheck(w io.Writer, rep *model.CheckReport, v checkView, p palette, width int) {
	repo := rep.Repository
	fmt.Fprintf(w, "%s · %s (%s, %s) · %s\n\n", p.bold("uptide check"), repo.Name, repo.PackageManager,
		plural(len(repo.Workspaces), "workspace"), v.elapsed.Round(100*time.Millisecond))

	t := &table{
		header:   []string{"PACKAGE", "WHERE", "INSTALLED → TARGET", "KIND", "CHECK"},
		flexible: []bool{true, true, false, false, true},
		keep:     3,
	}
	for _, pr := range rep.Packages {
		t.add(pr.Title, engine.Where(pr.Workspaces), arrow(pr.Installed, pr.Target), pr.Update.String(), verdictText(pr))
	}
	fmt.Fprint(w, t.render(width, "  ", func(row, col int, s string) string {
		switch {
		case row < 0:
			return p.dim(s)
		case col == 3:
			return p.update(rep.Packages[row].Update, s)
		case col == 4:
			return colorVerdict(rep.Packages[row], s, p)
		}
		return s
	}))
	for _, pr := range rep.Packages {
		renderPackage(w, pr, v, p, width)
	}
	if line := computedLine(rep.ComputedLoads); line != "" {
		fmt.Fprintf(w, "\n%s\n", p.dim(line))
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.red("Problems"))
		for _, pr := range rep.Problems {
			fmt.Fprintf(w, "  %s\n", problemLine(pr))
		}
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "\n%s\n", p.dim("note: "+n))
	}
}

// computedLine is the one line for the computed loads no package checked
// could be loaded by: the first three by place, then how many more.
func computedLine(loads []model.ComputedLoad) string {
	if len(loads) == 0 {
		return ""
	}
	const shown = 3
	var at []string
	for i, l := range loads {
		if i == shown {
			at = append(at, fmt.Sprintf("%d more", len(loads)-shown))
			break
		}
		at = append(at, fmt.Sprintf("%s:%d %s(%s)", l.File, l.Line, l.Kind, l.Specifier))
	}
	return fmt.Sprintf("%s cannot load a checked package, not counted: %s", plural(len(loads), "computed load"), strings.Join(at, ", "))
}

func orQuestion(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func arrow(installed, target string) string { return view.Arrow(installed, target) }

func verdictText(pr model.PackageReport) string {
	if pr.Summary != "" {
		return pr.Summary
	}
	return string(pr.Status)
}

func colorVerdict(pr model.PackageReport, s string, p palette) string {
	switch {
	case pr.Status == model.StatusNotAnalyzed || pr.Verdict == model.VerdictUnknown:
		return p.yellow(s)
	case pr.Verdict == model.VerdictBreaking:
		return p.red(s)
	case pr.Verdict == model.VerdictPossible || pr.Verdict == model.VerdictPartial:
		return p.yellow(s)
	}
	return p.green(s)
}

func renderPackage(w io.Writer, pr model.PackageReport, v checkView, p palette, width int) {
	title := pr.Title
	if pr.Installed != "" {
		title += " " + arrow(pr.Installed, pr.Target)
	}
	fmt.Fprintf(w, "\n%s · %s   %s\n", p.bold(title), engine.Where(pr.Workspaces), colorVerdict(pr, verdictText(pr), p))
	renderImporters(w, pr, p)
	if pr.Status == model.StatusNotAnalyzed {
		for _, x := range pr.Warnings {
			fmt.Fprintf(w, "  %s\n", p.yellow("! "+x))
		}
		return
	}
	if pr.Group != nil {
		fmt.Fprintf(w, "  %s %s\n", p.dim("group:"), pr.Group.Why)
	}
	for _, m := range pr.Members {
		if len(pr.Members) == 1 && m.TypesVia == nil && m.Status == model.StatusAnalyzed {
			break
		}
		line := fmt.Sprintf("%s %s", m.Name, arrow(m.Installed, m.Target))
		switch tv := m.TypesVia; {
		case tv == nil:
		case tv.To == "" && m.Target != "" && m.Target != m.Installed:
			// The target types itself: its own declarations replace them.
			line += fmt.Sprintf(" · types via %s %s → its own", tv.Package, tv.From)
		default:
			line += fmt.Sprintf(" · types via %s %s", tv.Package, arrow(tv.From, tv.To))
		}
		if m.Status != model.StatusAnalyzed {
			line += " · " + string(m.Status)
			if m.Reason != "" {
				line += ": " + m.Reason
			}
		}
		fmt.Fprintf(w, "  %s\n", line)
	}
	renderCompanions(w, pr.Companions, p, width)
	renderPlan(w, pr, p, width)
	if v.details || v.all {
		renderDetails(w, pr, v.all, p)
		renderPreExisting(w, pr.Compile.PreExistingErrors, p)
	}
	if pr.Counts.Hidden > 0 && !v.all {
		fmt.Fprintf(w, "  %s\n", p.dim(fmt.Sprintf("%s hidden (info, additive or low confidence; --all shows them)", plural(pr.Counts.Hidden, "finding"))))
	}
	if pr.Status == model.StatusSkipped {
		return
	}
	if pr.Compile.Line != "" {
		fmt.Fprintf(w, "  %s\n", p.dim(pr.Compile.Line))
	}
	for _, rt := range pr.Runtime {
		if v.details || v.all {
			fmt.Fprintf(w, "  %s\n", p.dim(rt.Coverage()))
		}
	}
	if len(pr.Unanalyzed) > 0 || pr.ModuleFormat.Status == model.StatusNotAnalyzed {
		fmt.Fprintf(w, "  %s\n", p.yellow("Not analyzed"))
		for _, u := range pr.Unanalyzed {
			spec := ""
			if u.Specifier != "" {
				spec = "(" + u.Specifier + ")"
			}
			fmt.Fprintf(w, "    %s:%d  %s%s  %s\n", u.File, u.Line, u.Kind, spec, u.Reason)
		}
		if pr.ModuleFormat.Status == model.StatusNotAnalyzed {
			fmt.Fprintf(w, "    module format: %s\n", pr.ModuleFormat.Reason)
		}
	}
	for _, x := range pr.Warnings {
		fmt.Fprintf(w, "  %s\n", p.yellow("! "+x))
	}
	for _, n := range pr.Notes {
		fmt.Fprintf(w, "  %s\n", p.dim("note: "+n))
	}
	for i, cmd := range pr.Plan.Next {
		label := "Next "
		if i > 0 {
			label = "     "
		}
		fmt.Fprintf(w, "  %s %s\n", p.bold(label), cmd)
	}
}

// companionColumns are a companion's name, versions and why as list and
// check print them: "remove @types/bcryptjs  2.4.6  bcryptjs 3.0.3 ships its
// own types" for a removal, "new → 10.4.0" for a package the upgrade adds.
func companionColumns(c model.Companion) (name, versions, why string) {
	switch {
	case c.Remove:
		return "remove " + c.Name, c.From, c.Why
	case c.From == "":
		return c.Name, "new → " + orQuestion(c.To), c.Why
	}
	return c.Name, arrow(c.From, c.To), c.Why
}

func renderCompanions(w io.Writer, cp model.CompanionPlan, p palette, width int) {
	if len(cp.Companions)+len(cp.Conflicts) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s\n", p.bold("Companions"))
	// One table, as list prints them: the versions and reasons line up
	// whatever the names' lengths.
	t := &table{header: []string{"", "", ""}, flexible: []bool{false, false, true}, keep: 2}
	for _, c := range cp.Companions {
		t.add(companionColumns(c))
	}
	for _, c := range cp.Conflicts {
		t.add("✗ "+c.Name, c.From, "conflict: "+c.Why)
	}
	out := t.render(width, "    ", func(row, col int, s string) string {
		switch {
		case row >= len(cp.Companions):
			return p.red(s)
		case col == 2:
			return p.dim(s)
		}
		return s
	})
	// Drop the empty header line.
	fmt.Fprint(w, out[strings.Index(out, "\n")+1:])
}

// renderPlan prints one line per rule: the breaking rules with their sites
// split by rule, by agent and manual, then the possible impact apart.
func renderPlan(w io.Writer, pr model.PackageReport, p palette, width int) {
	if len(pr.Plan.Rules) == 0 && len(pr.Plan.Unverified) == 0 && len(pr.Plan.Deprecations) == 0 && len(pr.Plan.Noted) == 0 {
		return
	}
	t := &table{
		header:   []string{"Plan", "sites", "by rule", "by agent", "manual"},
		flexible: []bool{true, false, false, false, false},
		right:    []bool{false, true, true, true, true},
		keep:     2,
	}
	dash := func(n int) string {
		if n == 0 {
			return "–"
		}
		return strconv.Itoa(n)
	}
	for _, r := range pr.Plan.Rules {
		t.add("✗ "+r.Title, ruleSites(r), dash(r.ByRule), dash(r.ByAgent), dash(r.Manual))
	}
	nRules := len(pr.Plan.Rules)
	if len(pr.Plan.Unverified) > 0 {
		t.add("Possible impact (unverified, not counted)", "", "", "", "")
		for _, r := range pr.Plan.Unverified {
			t.add("? "+r.Title, ruleSites(r), "", "", "")
		}
	}
	if len(pr.Plan.Deprecations) > 0 {
		t.add("Deprecated (still works; fix moves the by-rule ones, not counted)", "", "", "", "")
		for _, r := range pr.Plan.Deprecations {
			t.add("! "+r.Title, ruleSites(r), dash(r.ByRule), "–", dash(r.Manual))
		}
	}
	noted := len(t.rows)
	if len(pr.Plan.Noted) > 0 {
		t.add("Noted (still compiles; nothing to edit, read the note)", "", "", "", "")
		for _, r := range pr.Plan.Noted {
			t.add("· "+r.Title, ruleSites(r), "", "", "")
		}
	}
	fmt.Fprint(w, t.render(width, "  ", func(row, col int, s string) string {
		switch {
		case row < 0 && col == 0:
			return p.bold(s)
		case row < 0:
			return p.dim(s)
		case row < nRules && col == 0:
			return p.red(s)
		case row >= noted:
			return p.dim(s)
		case row == nRules:
			return p.yellow(s)
		case row > nRules && col == 0:
			return p.yellow(s)
		}
		return s
	}))
	for _, r := range pr.Plan.Rules {
		if r.Note != "" {
			fmt.Fprintf(w, "    %s\n", p.dim(r.Title+": "+r.Note))
		}
	}
	// The pack's review notes, which fix lists under "Decisions for you".
	seen := map[string]bool{}
	for _, rules := range [][]model.PlanRule{pr.Plan.Rules, pr.Plan.Deprecations, pr.Plan.Noted} {
		for _, r := range rules {
			for _, note := range r.Review {
				if !seen[note] {
					seen[note] = true
					fmt.Fprintf(w, "    %s\n", p.dim(r.Title+": "+note))
				}
			}
		}
	}
}

// ruleSites reads "3", or "1 fix, 12 errors" (view.RuleSites).
func ruleSites(r model.PlanRule) string { return view.RuleSites(r) }

// shownDependencyErrors is how many errors inside dependencies a cause
// shows: the first say what the compiler cannot read, the rest repeat it
// (331 for zod 4 on TypeScript 4.4).
const shownDependencyErrors = 5

// renderDetails lists every site: file:line, severity, reason and the
// compiler's messages.
func renderDetails(w io.Writer, pr model.PackageReport, all bool, p palette) {
	var shown []model.Finding
	for _, f := range pr.Findings {
		if !f.Hidden || all {
			shown = append(shown, f)
		}
	}
	if len(shown) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s\n", p.bold("Sites"))
	for _, f := range shown {
		loc := f.File
		if f.Line > 0 {
			loc += ":" + strconv.Itoa(f.Line)
		}
		fmt.Fprintf(w, "    %s %s  %s  %s\n", siteMarker(f.Severity, p), loc, p.dim(string(f.Severity)+" · "+f.ID), f.Reason)
		inDeps := 0
		for _, d := range f.Evidence {
			if model.InDependency(d.File) {
				if inDeps++; inDeps > shownDependencyErrors {
					continue
				}
			}
			fmt.Fprintf(w, "        %s\n", p.dim(diagLine(d)))
		}
		if more := inDeps - shownDependencyErrors; more > 0 {
			fmt.Fprintf(w, "        %s\n", p.dim(fmt.Sprintf("… %d more inside dependencies (--json lists every one)", more)))
		}
		for _, d := range f.Downstream {
			fmt.Fprintf(w, "        %s\n", p.dim(diagLine(d)))
		}
		for _, c := range f.Runtime {
			fmt.Fprintf(w, "        %s\n", p.dim("runtime: "+c.Detail))
		}
		for _, s := range f.Sites {
			if s.Line != f.Line || s.File != f.File {
				fmt.Fprintf(w, "        %s\n", p.dim(fmt.Sprintf("also %s:%d", s.File, s.Line)))
			}
		}
	}
}

// renderPreExisting lists the errors the repository already has in the
// files compiled: subtracted from the upgrade's, never counted.
func renderPreExisting(w io.Writer, ds []model.Diagnostic, p palette) {
	if len(ds) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s\n", p.bold(fmt.Sprintf("Pre-existing (%s before the upgrade, not counted)", plural(len(ds), "error"))))
	for _, d := range ds {
		fmt.Fprintf(w, "    %s\n", p.dim(diagLine(d)))
	}
}

func diagLine(d model.Diagnostic) string { return view.DiagLine(d) }

func siteMarker(s model.Severity, p palette) string {
	switch s {
	case model.Breaking:
		return p.red("✗")
	case model.Unverified:
		return p.yellow("?")
	case model.Deprecated:
		return p.yellow("!")
	}
	return p.dim("·")
}
