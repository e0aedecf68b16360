package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// renderPlanReport prints the plan: a header, one block per step in order
// (its verdict and effort, why it matters, what it waits for), then the
// totals, what no check covers, and the cycles.
func renderPlanReport(w io.Writer, rep *model.UpgradePlanReport, p palette, width int) {
	if rep.Ceiling != nil {
		renderCeiling(w, *rep.Ceiling, p)
		return
	}
	plan := rep.Plan
	checked := len(plan.Steps) - len(plan.Unchecked)
	head := fmt.Sprintf("%s · %s · %d checked", repoName(rep.Repository), count(len(plan.Steps), "step"), checked)
	if !plan.Advisories.Asked {
		head += " · no advisories: " + plan.Advisories.Reason
	}
	fmt.Fprintln(w, p.bold(head))
	if len(plan.Steps) == 0 {
		fmt.Fprintln(w, "\nnothing to plan: every dependency is up to date")
		return
	}
	for i, s := range plan.Steps {
		fmt.Fprintf(w, "\n%2d  %s  %s\n", i+1, p.bold(planStepTitle(s)), stepVerdict(s, p))
		if s.Batch {
			var moves []string
			for _, m := range s.Moves {
				moves = append(moves, fmt.Sprintf("%s %s → %s", m.Name, m.From, m.To))
			}
			fmt.Fprintf(w, "    %s\n", strings.Join(moves, ", "))
		}
		if s.Blocked != "" {
			fmt.Fprintf(w, "    %s %s\n", p.red("✗ blocked:"), s.Blocked)
		}
		for _, a := range s.After {
			fmt.Fprintf(w, "    %s\n", p.dim("after "+a.Step+": "+a.Why))
		}
		for _, pr := range s.Priorities {
			fmt.Fprintf(w, "    %s\n", priorityLine(pr, p))
		}
	}
	t := plan.Totals
	fmt.Fprintf(w, "\nTotals     %s (the checked steps)\n", view.PlanEffort(t))
	if len(plan.Unchecked) > 0 {
		fmt.Fprintf(w, "Unchecked  %s: uptide plan --check checks them\n", strings.Join(plan.Unchecked, ", "))
	}
	for _, c := range plan.Cycles {
		fmt.Fprintf(w, "%s %s\n", p.red("Cycle     "), view.CycleLine(c))
	}
	for _, pr := range rep.Problems {
		fmt.Fprintf(w, "%s\n", p.yellow("! "+pr.File+": "+pr.Message))
	}
}

func stepVerdict(s model.PlanStep, p palette) string {
	v, effort := view.StepVerdict(s)
	if effort != "" {
		return p.tone(v) + " · " + effort
	}
	return p.tone(v)
}

func priorityLine(pr model.Priority, p palette) string {
	if l := view.PriorityLabel(pr); l.Tone != view.Dim {
		return p.tone(l) + " " + pr.Reason
	}
	return p.dim("· " + pr.Reason)
}

// renderCeiling prints the ceiling and the checks that found it.
func renderCeiling(w io.Writer, c model.Ceiling, p palette) {
	switch {
	case c.Version == "":
		fmt.Fprintf(w, "%s %s: no ceiling known\n", p.bold(c.Package), c.Installed)
	case c.Version == c.Installed && c.Latest != c.Installed:
		fmt.Fprintf(w, "%s %s: ceiling %s — the first release above it already has impact (latest %s)\n", p.bold(c.Package), c.Installed, p.yellow(c.Version), c.Latest)
	default:
		fmt.Fprintf(w, "%s %s: ceiling %s (latest %s)\n", p.bold(c.Package), c.Installed, p.green(c.Version), c.Latest)
	}
	for _, s := range c.Steps {
		line := fmt.Sprintf("  %-12s ", s.Version)
		// The verdicts in the words the planner's target picker marks
		// checked releases with.
		switch v := view.PlanVerdict(s.Verdict); s.Verdict {
		case model.VerdictSafe, model.VerdictPossible:
			line += p.tone(v)
		case model.VerdictBreaking:
			line += p.tone(v) + " · " + count(s.Sites, "site")
		default:
			line += p.yellow(string(s.Verdict) + ": " + s.Reason)
		}
		fmt.Fprintln(w, line)
	}
	if c.Stopped != "" {
		fmt.Fprintf(w, "  %s %s\n", p.yellow("stopped:"), c.Stopped)
	}
}
