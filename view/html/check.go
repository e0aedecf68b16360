package html

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// checkPage is a check report as the page lays it out.
type checkPage struct {
	head
	Rows     []checkRow
	Packages []packageView
	Computed []string
	Problems []string
	Notes    []string
}

// checkRow is one line of the summary table, as check prints it.
type checkRow struct {
	Anchor, Title, Where, Move, Update, Verdict string
	Tone                                        view.Tone
}

// packageView is one package's section: view.Check's model, with what
// only a page has room for (every finding, every error, the previews).
type packageView struct {
	checkRow
	// NotAnalyzed: the package was not analyzed; Reason says why.
	NotAnalyzed bool
	Status      string
	Reason      string
	Importers   []string
	Group       string
	Members     []string
	Companions  []view.CompanionRow
	// Plan are view.Check's plan rows; Rules its rules, in that order,
	// each with its findings.
	Plan   []view.PlanRow
	Rules  []ruleView
	Totals string
	// Others are the findings no rule lists (the hidden ones).
	Others      []findingView
	Hidden      int
	Coverage    string
	Skipped     []string
	PreExisting []string
	Unanalyzed  []string
	Warnings    []string
	Notes       []string
	Next        []string
}

// ruleView is one rule with its findings.
type ruleView struct {
	// Head is the rule's first cell in the plan: its sign, its title.
	Head     view.Span
	ID       string
	Note     string
	Review   []string
	Findings []findingView
}

// findingView is one finding: view.Check's site, who makes its edit and
// the edit the rule will make.
type findingView struct {
	view.Site
	Fix     string
	Preview []diffLine
}

// diffLine is one line of a preview: a hunk header, a removed or an added
// line.
type diffLine struct {
	Text, Class string
}

// Check writes a check report as a page.
func Check(w io.Writer, rep *model.CheckReport) error {
	return render(w, "check", checkView(rep))
}

func checkView(rep *model.CheckReport) checkPage {
	r := rep.Repository
	name := r.Name
	if name == "" {
		name = r.Root
	}
	page := checkPage{head: head{Command: "check", Title: "uptide check · " + name,
		Sub: []string{fmt.Sprintf("%s (%s, %s)", name, r.PackageManager, plural(len(r.Workspaces), "workspace"))}}}
	for i := range rep.Packages {
		pr := &rep.Packages[i]
		pv := view.Check(pr)
		row := checkRow{Anchor: "p" + strconv.Itoa(i+1), Title: pr.Title, Where: pv.Where,
			Move: view.Arrow(pr.Installed, pr.Target), Update: pr.Update.String(), Verdict: pv.Verdict.Text, Tone: pv.Verdict.Tone}
		page.Rows = append(page.Rows, row)
		page.Packages = append(page.Packages, packageSection(row, pr, pv))
	}
	for _, l := range rep.ComputedLoads {
		page.Computed = append(page.Computed, fmt.Sprintf("%s:%d %s(%s) %s", l.File, l.Line, l.Kind, l.Specifier, l.Reason))
	}
	for _, p := range rep.Problems {
		page.Problems = append(page.Problems, view.ProblemLine(p))
	}
	page.Notes = rep.Notes
	return page
}

func packageSection(row checkRow, pr *model.PackageReport, pv view.CheckPackage) packageView {
	v := packageView{checkRow: row, Status: string(pr.Status), Reason: pr.Reason,
		NotAnalyzed: !pv.Analyzed, Importers: view.ImporterLines(pr),
		Warnings: pr.Warnings, Notes: pr.Notes, Next: pr.Plan.Next, Hidden: pr.Counts.Hidden}
	if v.NotAnalyzed {
		return v
	}
	if pr.Group != nil {
		v.Group = pr.Group.Why
	}
	for _, m := range pr.Members {
		v.Members = append(v.Members, view.MemberLine(m)+fmt.Sprintf(" · %s in %s", plural(m.Sites, "site"), plural(m.Files, "file")))
	}
	v.Companions = pv.Companions
	sites := map[string]view.Site{}
	for _, s := range pv.Sites {
		sites[s.ID] = s
	}
	listed := map[string]bool{}
	v.Plan = pv.Plan
	for _, row := range pv.Plan {
		if row.Rule < 0 {
			continue
		}
		r := pv.Rules[row.Rule].Rule
		rv := ruleView{Head: row.Cells[0], ID: r.ID, Note: r.Note, Review: r.Review}
		for _, id := range r.Findings {
			s, ok := sites[id]
			if !ok {
				continue
			}
			listed[id] = true
			rv.Findings = append(rv.Findings, findingView{Site: s, Fix: view.FixWord(r.Fix[id]), Preview: previewLines(r.Previews[id])})
		}
		v.Rules = append(v.Rules, rv)
	}
	if t := pr.Plan.Totals; t.Sites > 0 {
		v.Totals = fmt.Sprintf("%s: %d by rule, %d by agent, %d manual", plural(t.Sites, "site"), t.ByRule, t.ByAgent, t.Manual)
		if t.Errors > t.Sites {
			v.Totals += " · " + plural(t.Errors, "error")
		}
	}
	for _, s := range pv.Sites {
		if !listed[s.ID] {
			v.Others = append(v.Others, findingView{Site: s})
		}
	}
	if pr.Status != model.StatusSkipped {
		v.Coverage = pr.Compile.Line
	}
	for _, s := range pr.Compile.Skipped {
		v.Skipped = append(v.Skipped, s.File+": "+s.Reason)
	}
	for _, d := range pr.Compile.PreExistingErrors {
		v.PreExisting = append(v.PreExisting, view.DiagLine(d))
	}
	for _, u := range pr.Unanalyzed {
		spec := ""
		if u.Specifier != "" {
			spec = "(" + u.Specifier + ")"
		}
		v.Unanalyzed = append(v.Unanalyzed, fmt.Sprintf("%s:%d %s%s %s", u.File, u.Line, u.Kind, spec, u.Reason))
	}
	if pr.ModuleFormat.Status == model.StatusNotAnalyzed {
		v.Unanalyzed = append(v.Unanalyzed, "module format: "+pr.ModuleFormat.Reason)
	}
	return v
}

// previewLines splits a rule's dry run into classed lines.
func previewLines(p string) []diffLine {
	if p == "" {
		return nil
	}
	var out []diffLine
	for _, l := range strings.Split(strings.TrimRight(p, "\n"), "\n") {
		class := ""
		switch {
		case strings.HasPrefix(l, "@@"):
			class = "hunk"
		case strings.HasPrefix(l, "-"):
			class = "del"
		case strings.HasPrefix(l, "+"):
			class = "add"
		}
		out = append(out, diffLine{Text: l, Class: class})
	}
	return out
}
