package view

import (
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
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
