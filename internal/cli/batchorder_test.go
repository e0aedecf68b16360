package cli

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func TestPlanOrder(t *testing.T) {
	step := func(id string, moves []string, after ...string) model.PlanStep {
		s := model.PlanStep{ID: id}
		for _, m := range moves {
			s.Moves = append(s.Moves, model.StepMove{Name: m})
		}
		for _, a := range after {
			s.After = append(s.After, model.StepAfter{Step: a, Why: "needs " + a})
		}
		return s
	}
	// zod's declarations need a newer TypeScript; @scope/plugin
	// peer-requires the new core; react and react-dom are one group.
	plan := model.UpgradePlan{Steps: []model.PlanStep{
		step("typescript", []string{"typescript"}),
		step("core", []string{"core"}),
		step("react", []string{"react", "react-dom"}),
		step("zod", []string{"zod"}, "typescript"),
		step("@scope/plugin", []string{"@scope/plugin"}, "core"),
	}}
	for _, tc := range []struct{ named, want string }{
		{"zod typescript", "typescript zod"},
		{"@scope/plugin chalk core", "chalk core @scope/plugin"},
		{"react-dom react zod", "react-dom react zod"},
		{"chalk postcss", "chalk postcss"},
		{"zod @scope/plugin typescript core", "typescript zod core @scope/plugin"},
	} {
		if got := strings.Join(planOrder(plan, strings.Fields(tc.named)), " "); got != tc.want {
			t.Errorf("fix %s: order %q, want %q", tc.named, got, tc.want)
		}
	}
	// A cycle (each after the other) keeps its packages as named, after
	// those free to move.
	cycle := model.UpgradePlan{Steps: []model.PlanStep{step("a", []string{"a"}, "b"), step("b", []string{"b"}, "a")}}
	if got := strings.Join(planOrder(cycle, []string{"b", "a", "c"}), " "); got != "c b a" {
		t.Errorf("cycle: %q", got)
	}
}
