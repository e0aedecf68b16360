package cli

import (
	"context"
	"slices"
	"time"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
)

// planOrder puts the packages of `fix a b c` in the plan's order where the
// plan binds it: a package whose step must come after another named one's
// (a TypeScript floor, a peer chain) moves after it; the others keep the
// order they were named in. The packages of a cycle come last, as named
// (plan reports the cycle; fix's bisection finds the step that breaks).
func planOrder(plan model.UpgradePlan, names []string) []string {
	stepOf := map[string]string{}
	after := map[string][]string{}
	for _, s := range plan.Steps {
		for _, m := range s.Moves {
			stepOf[m.Name] = s.ID
		}
		for _, a := range s.After {
			after[s.ID] = append(after[s.ID], a.Step)
		}
	}
	out := make([]string, 0, len(names))
	rest := slices.Clone(names)
	for len(rest) > 0 {
		next := -1
		for i, n := range rest {
			if ready(n, rest, stepOf, after) {
				next = i
				break
			}
		}
		if next < 0 {
			return append(out, rest...)
		}
		out = append(out, rest[next])
		rest = slices.Delete(rest, next, next+1)
	}
	return out
}

// ready: no other package still to place moves in a step that n's step
// must come after.
func ready(n string, rest []string, stepOf map[string]string, after map[string][]string) bool {
	for _, first := range after[stepOf[n]] {
		for _, m := range rest {
			if m != n && stepOf[m] == first && stepOf[m] != stepOf[n] {
				return false
			}
		}
	}
	return true
}

// batchInPlanOrder returns the named packages in the order of their plan
// (only the order is read: no advisories are asked for); when the plan
// cannot be made, the order named stands and fix reports what stops it.
func batchInPlanOrder(ctx context.Context, g *Globals, names []string) []string {
	_, rep, err := keptPlan(ctx, g, names, true)
	if err != nil {
		return names
	}
	return planOrder(rep.Plan, names)
}

// keptPlan is the plan uptide plan makes without --check (of only, or of
// every outdated dependency): discovery's rows with the checks kept for
// their targets. targets are the rows' by declared name.
func keptPlan(ctx context.Context, g *Globals, only []string, noAdvisories bool) (targets map[string]string, rep *model.UpgradePlanReport, err error) {
	disc, _, err := engine.Discover(ctx, engine.DiscoverOptions{Cwd: g.Cwd, Env: g.Env})
	if err != nil {
		return nil, nil, err
	}
	targets = map[string]string{}
	for _, r := range disc.Rows {
		targets[r.Name] = r.Target
	}
	rep, err = engine.PlanUpgrades(ctx, engine.PlanOptions{Cwd: g.Cwd, Env: g.Env, Discovered: disc, Only: only, NoAdvisories: noAdvisories,
		Now: time.Now(), Checks: openCheckStore(g.Env, disc.Repository.Root).load(targets)})
	return targets, rep, err
}
