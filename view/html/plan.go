package html

import (
	"fmt"
	"io"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// planPage is an upgrade plan as the page lays it out.
type planPage struct {
	head
	Ceiling   *ceilingView
	Steps     []stepView
	Totals    string
	Unchecked string
	Cycles    []string
	Problems  []string
	Notes     []string
}

// ceilingView is --ceiling's answer and the checks that found it.
type ceilingView struct {
	Head    view.Span
	Checks  []view.Span
	Stopped string
}

// stepView is one step: its title, its check's verdict, what it moves,
// what it waits for and why it matters now.
type stepView struct {
	N          int
	Title      string
	Verdict    string
	Tone       view.Tone
	Effort     string
	Moves      []model.StepMove
	Blocked    string
	After      []string
	Priorities []view.Span
}

// Plan writes an upgrade plan as a page.
func Plan(w io.Writer, rep *model.UpgradePlanReport) error {
	return render(w, "plan", planView(rep))
}

func planView(rep *model.UpgradePlanReport) planPage {
	plan := rep.Plan
	name := rep.Repository.Name
	if name == "" {
		name = rep.Repository.Root
	}
	sub := fmt.Sprintf("%s · %s · %d checked", name, plural(len(plan.Steps), "step"), len(plan.Steps)-len(plan.Unchecked))
	if !plan.Advisories.Asked {
		sub += " · no advisories: " + plan.Advisories.Reason
	}
	page := planPage{head: head{Command: "plan", Title: "uptide plan · " + name, Sub: []string{sub}}, Notes: rep.Notes}
	if c := rep.Ceiling; c != nil {
		page.Ceiling = ceiling(*c)
	}
	for i, s := range plan.Steps {
		sv := stepView{N: i + 1, Title: view.PlanStepTitle(s), Moves: s.Moves, Blocked: s.Blocked}
		sv.Verdict, sv.Tone = stepVerdict(s)
		if s.Verdict == model.VerdictBreaking {
			sv.Effort = view.EffortLine(s.Effort) + " · " + plural(s.Effort.Files, "file")
		}
		for _, a := range s.After {
			sv.After = append(sv.After, "after "+a.Step+": "+a.Why)
		}
		for _, p := range s.Priorities {
			sv.Priorities = append(sv.Priorities, priority(p))
		}
		page.Steps = append(page.Steps, sv)
	}
	if len(plan.Steps) > 0 {
		page.Totals = fmt.Sprintf("%s · %s (the checked steps)", view.EffortLine(plan.Totals), plural(plan.Totals.Files, "file"))
	}
	if len(plan.Unchecked) > 0 {
		page.Unchecked = strings.Join(plan.Unchecked, ", ") + ": uptide plan --check checks them"
	}
	for _, c := range plan.Cycles {
		if len(c) > 0 {
			page.Cycles = append(page.Cycles, strings.Join(append(append([]string{}, c...), c[0]), " → ")+": each needs another moved first; upgrade them together by hand")
		}
	}
	for _, p := range rep.Problems {
		page.Problems = append(page.Problems, view.ProblemLine(p))
	}
	return page
}

// stepVerdict is the step's verdict in plan's words.
func stepVerdict(s model.PlanStep) (string, view.Tone) {
	switch s.Verdict {
	case model.VerdictUnchecked:
		return "unchecked", view.Dim
	case model.VerdictSafe:
		return "✓ no impact", view.Good
	case model.VerdictBreaking:
		return "✗ breaking", view.Bad
	case model.VerdictPossible:
		return "? possible impact", view.Warn
	}
	return joinNonEmpty(": ", string(s.Verdict), s.Reason), view.Warn
}

// priority is why a step matters now; an advisory's address is shown as
// text, never linked: the page makes no request, even on a click.
func priority(p model.Priority) view.Span {
	var text string
	tone := view.Warn
	switch p.Kind {
	case model.PriorityAdvisory:
		text, tone = "! advisory "+p.Reason, view.Bad
		if p.Severity != "" {
			text += " · " + p.Severity
		}
		if p.FixedIn != "" {
			text += " · fixed in " + p.FixedIn
		}
		if p.URL != "" {
			text += " · " + p.URL
		}
	case model.PriorityDeprecated, model.PriorityUnsupported:
		text = "! " + string(p.Kind) + " " + p.Reason
	default:
		text, tone = "· "+p.Reason, view.Dim
	}
	return view.Span{Text: text, Tone: tone}
}

// ceiling says --ceiling's answer in plan's words.
func ceiling(c model.Ceiling) *ceilingView {
	v := &ceilingView{Stopped: c.Stopped}
	switch {
	case c.Version == "":
		v.Head = view.Span{Text: fmt.Sprintf("%s %s: no ceiling known", c.Package, c.Installed), Tone: view.Warn}
	case c.Version == c.Installed && c.Latest != c.Installed:
		v.Head = view.Span{Text: fmt.Sprintf("%s %s: ceiling %s — the first release above it already has impact (latest %s)", c.Package, c.Installed, c.Version, c.Latest), Tone: view.Warn}
	default:
		v.Head = view.Span{Text: fmt.Sprintf("%s %s: ceiling %s (latest %s)", c.Package, c.Installed, c.Version, c.Latest), Tone: view.Good}
	}
	for _, s := range c.Steps {
		verdict, tone := stepVerdict(model.PlanStep{Verdict: s.Verdict, Reason: s.Reason})
		if s.Verdict == model.VerdictBreaking {
			verdict += " · " + plural(s.Sites, "site")
		}
		v.Checks = append(v.Checks, view.Span{Text: s.Version + " " + verdict, Tone: tone})
	}
	return v
}
