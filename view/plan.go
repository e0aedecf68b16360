package view

import (
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
)

// PlanStepTitle is a plan step's one-line name: its lead's move and what
// moves with it.
func PlanStepTitle(s model.PlanStep) string {
	if s.Batch {
		return fmt.Sprintf("cheap batch (%d upgrades checked ✓ no impact)", len(s.Moves))
	}
	var lead model.StepMove
	var with []string
	for _, m := range s.Moves {
		if m.Name == s.ID {
			lead = m
			continue
		}
		with = append(with, m.Name)
	}
	t := fmt.Sprintf("%s %s → %s", lead.Name, lead.From, lead.To)
	if len(with) > 0 {
		sort.Strings(with)
		shown := strings.Join(with, ", ")
		if len(with) > 3 {
			shown = fmt.Sprintf("%s and %d more", strings.Join(with[:3], ", "), len(with)-3)
		}
		t += fmt.Sprintf(" (+ %s)", shown)
	}
	return t
}

// EffortLine is what a check counted: "4 sites: 1 by rule, 1 by agent, 2
// manual".
func EffortLine(e model.Effort) string {
	return fmt.Sprintf("%s: %d by rule, %d by agent, %d manual", Count(e.Sites, "site"), e.ByRule, e.ByAgent, e.Manual)
}

// StepVerdict is a step's verdict as plan prints it: the verdict in its
// tone and, for a breaking step, what its check counted ("4 sites: 1 by
// rule, … · 2 files"), "" otherwise.
func StepVerdict(s model.PlanStep) (Span, string) {
	v := PlanVerdict(s.Verdict)
	switch s.Verdict {
	case model.VerdictBreaking:
		return v, PlanEffort(s.Effort)
	case model.VerdictUnchecked, model.VerdictSafe, model.VerdictPossible:
	default:
		if s.Reason != "" {
			v.Text += ": " + s.Reason
		}
	}
	return v, ""
}

// PlanVerdict is a plan verdict in plan's words: "✓ no impact", "✗
// breaking", "? possible impact", "unchecked", else the verdict itself.
func PlanVerdict(v model.Verdict) Span {
	switch v {
	case model.VerdictUnchecked:
		return Span{Text: "unchecked", Tone: Dim}
	case model.VerdictSafe:
		return Span{Text: "✓ no impact", Tone: Good}
	case model.VerdictBreaking:
		return Span{Text: "✗ breaking", Tone: Bad}
	case model.VerdictPossible:
		return Span{Text: "? possible impact", Tone: Warn}
	}
	return Span{Text: string(v), Tone: Warn}
}

// PlanEffort is a step's (or the plan's) effort with its files: "4 sites:
// 1 by rule, 1 by agent, 2 manual · 2 files".
func PlanEffort(e model.Effort) string { return EffortLine(e) + " · " + Count(e.Files, "file") }

// PriorityLabel is the word a priority's line starts with ("! advisory");
// a priority that is no warning (majors behind, blocking) is a dim "·".
func PriorityLabel(pr model.Priority) Span {
	switch pr.Kind {
	case model.PriorityAdvisory:
		return Span{Text: "! advisory", Tone: Bad}
	case model.PriorityDeprecated:
		return Span{Text: "! deprecated", Tone: Warn}
	case model.PriorityUnsupported:
		return Span{Text: "! unsupported", Tone: Warn}
	}
	return Span{Text: "·", Tone: Dim}
}

// PriorityMarks are the marks a dependency's row carries for the
// priorities the row alone does not show: the advisories on its installed
// version with the release that fixes them all, a major line no longer
// supported.
func PriorityMarks(prs []model.Priority) []Span {
	var out []Span
	advisories, fixedIn, unfixed := 0, "", false
	for _, pr := range prs {
		if pr.Kind != model.PriorityAdvisory {
			continue
		}
		advisories++
		switch {
		case pr.FixedIn == "":
			unfixed = true
		case fixedIn == "" || semver.Compare(pr.FixedIn, fixedIn) > 0:
			fixedIn = pr.FixedIn
		}
	}
	if advisories > 0 {
		t := "! advisory"
		if advisories > 1 {
			t = fmt.Sprintf("! %d advisories", advisories)
		}
		if fixedIn != "" && !unfixed {
			t += " (fixed in " + fixedIn + ")"
		}
		out = append(out, Span{Text: t, Tone: Bad})
	}
	for _, pr := range prs {
		if pr.Kind == model.PriorityUnsupported {
			out = append(out, Span{Text: "! unsupported line", Tone: Warn})
			break
		}
	}
	return out
}

// CycleLine says what a cycle of steps means: "a → b → a: each needs
// another moved first; upgrade them together by hand".
func CycleLine(c []string) string {
	if len(c) == 0 {
		return ""
	}
	return strings.Join(append(append([]string{}, c...), c[0]), " → ") + ": each needs another moved first; upgrade them together by hand"
}
