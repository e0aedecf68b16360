package state

import "github.com/uptide/uptide/engine/model"

// UpgradesMsg: the engine's plan across upgrades (`uptide plan`'s) of the
// named packages, every outdated one when Only is empty. Seq tells the
// answer to the latest ask from a superseded one.
type UpgradesMsg struct {
	Only   []string
	Seq    int
	Report *model.UpgradePlanReport
	Err    error
}

// OpenPlanMsg opens the plan of the given dependencies (every outdated
// one when none is given).
type OpenPlanMsg struct{ IDs []int }

// FixBatchMsg hands packages to fix as one verified batch, in order, each
// at its target: what `uptide fix a b c --target a@x …` runs.
type FixBatchMsg struct {
	Packages []string
	Targets  map[string]string
}

// ApplyUpgrades gives each dependency the priorities of the plan that
// concern it (an advisory, a line no longer supported), for the table's
// marks and urgency sort. A priority is the row's whose name and installed
// version its step moves from: other rows of the package are other
// decisions.
func (s *Store) ApplyUpgrades(p *model.UpgradePlan) (changed []int) {
	type decision struct{ name, from string }
	by := map[decision][]model.Priority{}
	for _, st := range p.Steps {
		from := map[string]string{}
		for _, m := range st.Moves {
			from[m.Name] = m.From
		}
		for _, pr := range st.Priorities {
			if pr.Kind == model.PriorityAdvisory || pr.Kind == model.PriorityUnsupported {
				k := decision{pr.Package, from[pr.Package]}
				by[k] = append(by[k], pr)
			}
		}
	}
	for i := range s.Deps {
		d := &s.Deps[i]
		prs := by[decision{d.Row.Name, d.Row.Installed}]
		if len(prs) == 0 && len(d.Priorities) == 0 {
			continue
		}
		d.Priorities = prs
		changed = append(changed, i)
	}
	return changed
}

// Advisory reports whether a security advisory covers d's installed
// version.
func (d *Dep) Advisory() bool {
	for _, p := range d.Priorities {
		if p.Kind == model.PriorityAdvisory {
			return true
		}
	}
	return false
}
