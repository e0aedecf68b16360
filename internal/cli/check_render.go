package cli

import (
	"fmt"
	"io"
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
		t.add(pr.Title, model.Where(pr.Workspaces), arrow(pr.Installed, pr.Target), pr.Update.String(), view.VerdictSpan(&pr).Text)
	}
	fmt.Fprint(w, t.render(width, "  ", func(row, col int, s string) string {
		switch {
		case row < 0:
			return p.dim(s)
		case col == 3:
			return p.update(rep.Packages[row].Update, s)
		case col == 4:
			return p.tone(view.Span{Text: s, Tone: view.VerdictSpan(&rep.Packages[row]).Tone})
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

func arrow(installed, target string) string { return view.Arrow(installed, target) }

// renderPackage prints one package as view.Check words it, the sites
// with --details or --all.
func renderPackage(w io.Writer, pr model.PackageReport, v checkView, p palette, width int) {
	pv := view.Check(&pr)
	fmt.Fprintf(w, "\n%s · %s   %s\n", p.bold(pv.Title), pv.Where, p.tone(pv.Verdict))
	p.lines(w, pv.Head)
	if !pv.Analyzed {
		return
	}
	renderCompanions(w, pv.Companions, p, width)
	renderPlan(w, pv, p, width)
	if v.details || v.all {
		p.lines(w, view.SiteLines(pv.Sites, v.all))
		p.lines(w, pv.PreExisting)
	}
	if !v.all {
		p.lines(w, pv.Hidden)
	}
	if v.details || v.all {
		p.lines(w, pv.Runtime)
	}
	p.lines(w, pv.Tail)
}

// cells are a view row's texts, for the table to lay out.
func cells(r view.Cells) []string {
	out := make([]string, len(r))
	for i, s := range r {
		out[i] = s.Text
	}
	return out
}

func renderCompanions(w io.Writer, rows []view.CompanionRow, p palette, width int) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s\n", p.bold("Companions"))
	companionTable(w, rows, p, width, p.dim)
}

// companionTable prints companions as one table, as list and check both
// do: the versions and reasons line up whatever the names' lengths; a
// conflict is red, a reason otherwise in why's style.
func companionTable(w io.Writer, rows []view.CompanionRow, p palette, width int, why func(string) string) {
	t := &table{columns: 3, flexible: []bool{false, false, true}, keep: 2}
	for _, r := range rows {
		t.add(r.Name, r.Versions, r.Why)
	}
	fmt.Fprint(w, t.render(width, "    ", func(row, col int, s string) string {
		switch {
		case rows[row].Conflict:
			return p.red(s)
		case col == 2:
			return why(s)
		}
		return s
	}))
}

// renderPlan prints the plan table view.Check lays out, then the rules'
// notes.
func renderPlan(w io.Writer, pv view.CheckPackage, p palette, width int) {
	if len(pv.Plan) == 0 {
		return
	}
	t := &table{
		header:   view.PlanHeader,
		flexible: []bool{true, false, false, false, false},
		right:    []bool{false, true, true, true, true},
		keep:     2,
	}
	for _, r := range pv.Plan {
		t.add(cells(r.Cells)...)
	}
	fmt.Fprint(w, t.render(width, "  ", func(row, col int, s string) string {
		switch {
		case row < 0 && col == 0:
			return p.bold(s)
		case row < 0:
			return p.dim(s)
		}
		return p.tone(view.Span{Text: s, Tone: pv.Plan[row].Cells[col].Tone})
	}))
	p.lines(w, pv.RuleNotes)
}

func diagLine(d model.Diagnostic) string { return view.DiagLine(d) }
