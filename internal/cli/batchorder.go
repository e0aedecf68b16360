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

// ready: no package still to place moves in a step n's step comes after.
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

// batchInPlanOrder plans the named packages as uptide plan does (kept
// checks, no advisories: only the order is read) and returns them in its
// order; when the plan cannot be made the order named stands.
func batchInPlanOrder(ctx context.Context, g *Globals, names []string) []string {
	disc, _, err := engine.Discover(ctx, engine.DiscoverOptions{Cwd: g.Cwd, Env: g.Env})
	if err != nil {
		return names
	}
	targets := map[string]string{}
	for _, r := range disc.Rows {
		targets[r.Name] = r.Target
	}
	rep, err := engine.PlanUpgrades(ctx, engine.PlanOptions{Cwd: g.Cwd, Env: g.Env, Discovered: disc, Only: names, NoAdvisories: true,
		Now: time.Now(), Checks: openCheckStore(g.Env, disc.Repository.Root).load(targets)})
	if err != nil {
		return names
	}
	return planOrder(rep.Plan, names)
}
