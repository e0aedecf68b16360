package browser

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/view"
)

// Holds fails for each value the page's visible text does not hold.
func Holds(t *testing.T, what string, p Page, values []string) {
	t.Helper()
	missing := 0
	for _, v := range values {
		if v = Fold(v); v != "" && !strings.Contains(p.Text, v) {
			missing++
			t.Errorf("%s: the page does not show %q", what, v)
		}
	}
	if missing > 0 {
		t.Logf("%s: the page shows:\n%s", what, p.Text)
	}
}

// CheckValues are what a check page must show of its report: every
// package's move and verdict, every companion, every rule's row of
// counts, every finding's place, id, reason, compiler errors and diff,
// the coverage, what was not analyzed, warnings, notes and the commands.
func CheckValues(rep *model.CheckReport) []string {
	out := []string{rep.Repository.Name}
	for _, p := range rep.Packages {
		out = append(out, p.Title, p.Summary, p.Installed, p.Target, p.Update.String(), p.Reason)
		out = append(out, p.Warnings...)
		if p.Status == model.StatusNotAnalyzed {
			continue
		}
		for _, c := range p.Companions.Companions {
			out = append(out, c.Name, c.From, c.To, c.Why)
		}
		for _, c := range p.Companions.Conflicts {
			out = append(out, c.Name, c.From, c.Why)
		}
		byID := map[string]model.Finding{}
		for _, f := range p.Findings {
			byID[f.ID] = f
		}
		rows := func(rules []model.PlanRule, marker string, counted bool) {
			for _, r := range rules {
				row := marker + " " + r.Title + " " + view.RuleSites(r)
				if counted {
					row += " " + dash(r.ByRule) + " " + dash(r.ByAgent) + " " + dash(r.Manual)
				}
				out = append(out, row, r.ID, r.Note)
				out = append(out, r.Review...)
				for _, id := range r.Findings {
					out = append(out, r.Previews[id])
				}
			}
		}
		rows(p.Plan.Rules, "✗", true)
		rows(p.Plan.Unverified, "?", false)
		rows(p.Plan.Deprecations, "!", false)
		rows(p.Plan.Noted, "·", false)
		if t := p.Plan.Totals; t.Sites > 0 {
			out = append(out, view.EffortLine(model.Effort{Sites: t.Sites, ByRule: t.ByRule, ByAgent: t.ByAgent, Manual: t.Manual}))
		}
		for _, f := range p.Findings {
			at := f.File
			if f.Line > 0 {
				at += ":" + strconv.Itoa(f.Line)
			}
			out = append(out, at, f.ID, f.Reason)
			for _, d := range append(append([]model.Diagnostic{}, f.Evidence...), f.Downstream...) {
				out = append(out, view.DiagLine(d))
			}
		}
		if p.Status != model.StatusSkipped {
			out = append(out, p.Compile.Line)
		}
		for _, s := range p.Compile.Skipped {
			out = append(out, s.File, s.Reason)
		}
		for _, d := range p.Compile.PreExistingErrors {
			out = append(out, view.DiagLine(d))
		}
		for _, u := range p.Unanalyzed {
			out = append(out, fmt.Sprintf("%s:%d", u.File, u.Line), u.Reason)
		}
		out = append(out, p.Notes...)
		out = append(out, p.Plan.Next...)
	}
	for _, l := range rep.ComputedLoads {
		out = append(out, fmt.Sprintf("%s:%d", l.File, l.Line), l.Reason)
	}
	for _, p := range rep.Problems {
		out = append(out, p.Message)
	}
	return append(out, rep.Notes...)
}

// PlanValues are what a plan page must show: every step's moves, what it
// waits for, why it matters, whether it is blocked; the totals, the
// unchecked steps, the cycles.
func PlanValues(rep *model.UpgradePlanReport) []string {
	out := []string{rep.Repository.Name}
	for i, s := range rep.Plan.Steps {
		out = append(out, strconv.Itoa(i+1)+". "+view.PlanStepTitle(s), s.Blocked, s.Reason)
		if s.Verdict == model.VerdictBreaking {
			out = append(out, view.EffortLine(s.Effort))
		}
		for _, m := range s.Moves {
			out = append(out, m.Name, m.From+" → "+m.To, m.Update.String(), m.Why)
		}
		for _, a := range s.After {
			out = append(out, a.Step+": "+a.Why)
		}
		for _, p := range s.Priorities {
			out = append(out, p.Reason, p.FixedIn, p.URL, p.Severity)
		}
	}
	if c := rep.Ceiling; c != nil {
		out = append(out, c.Package, c.Installed, "ceiling "+c.Version, c.Latest, c.Stopped)
		for _, s := range c.Steps {
			out = append(out, s.Version, s.Reason)
		}
	}
	if len(rep.Plan.Steps) > 0 {
		out = append(out, view.EffortLine(rep.Plan.Totals))
	}
	out = append(out, rep.Plan.Unchecked...)
	for _, c := range rep.Plan.Cycles {
		out = append(out, strings.Join(c, " → "))
	}
	for _, p := range rep.Problems {
		out = append(out, p.Message)
	}
	return append(out, rep.Notes...)
}

// FixValues are what a fix page must show: every line the CLI prints of
// the run, section by section.
func FixValues(r *fix.Report) []string {
	v := view.Fix(r)
	out := []string{v.Verdict.Text, v.Head, v.Reason}
	for _, s := range v.Sections {
		out = append(out, s.Title, s.Aside.Text)
		for _, l := range s.Lines {
			out = append(out, l.Text())
		}
	}
	for _, l := range v.Where {
		out = append(out, l.Text())
	}
	return out
}

func dash(n int) string {
	if n == 0 {
		return "–"
	}
	return strconv.Itoa(n)
}
