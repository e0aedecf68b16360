package groups

import (
	"fmt"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
)

// MemberTargets decides where the other members of release group g go
// when lead moves from its installed version to the version to, among the
// candidates deps (every direct dependency, as for Companions). A group's
// members are never left where an install would not put them: a member
// at its own latest next to a lead held back is the mixed state the group
// exists to prevent.
//
// Each member, never below what it has installed, goes by the first rule
// that applies:
//
//  1. the lead stays at what is installed: the member stays too;
//  2. in a one-scope group (family, explicit), whose packages are released
//     together: its release at the very version to, the same release;
//  3. the version the companion rules give it when the lead moves (a pin,
//     a lockstep release, a peer range, a range that refuses the new lead,
//     a shared pin), or a conflict when they link it but no release agrees;
//  4. in a family (one installed major): its newest release in to's major
//     that a plan may move it to (not deprecated, no prerelease, not above
//     its latest dist-tag);
//  5. otherwise it stays: nothing ties it to this target.
//
// Moves are returned in the group's member order, with To equal to From
// for a member that stays.
func (ix *Index) MemberTargets(g model.Group, lead Dep, to string, deps []Dep) ([]model.Companion, []model.Conflict) {
	moves := []model.Companion{}
	conflicts := []model.Conflict{}
	var rules *model.CompanionPlan
	toV, _ := semver.Parse(to)
	oneScope := g.Kind == model.GroupFamily || g.Kind == model.GroupExplicit
	for i, name := range g.Members {
		if name == lead.Name || i >= len(g.Versions) {
			continue
		}
		from := g.Versions[i]
		member := model.CompanionReason{Kind: model.CompanionGroupMember, Follows: lead.Name}
		stay := func(why string) {
			moves = append(moves, model.Companion{Name: name, From: from, To: from, Why: why, Reason: member})
		}
		move := func(v, why string) {
			if semver.Compare(v, from) <= 0 {
				stay(fmt.Sprintf("stays: %s %s is not above its installed %s", name, v, from))
				return
			}
			moves = append(moves, model.Companion{Name: name, From: from, To: v, Why: why, Reason: member})
		}
		if semver.Compare(to, lead.Installed) == 0 {
			stay(fmt.Sprintf("stays with %s %s", lead.Name, lead.Installed))
			continue
		}
		if oneScope {
			if _, ok := ix.c.p.release(name, to); ok {
				move(to, fmt.Sprintf("the same release as %s %s", lead.Name, to))
				continue
			}
		}
		if rules == nil {
			p := ix.Companions(Dep{Name: lead.Name, Installed: lead.Installed, Workspace: lead.Workspace, Target: to}, to, deps)
			rules = &p
		}
		if c, ok := companionNamed(rules, name); ok {
			move(c.To, c.Why)
			continue
		}
		if c, ok := conflictNamed(rules, name); ok {
			conflicts = append(conflicts, model.Conflict{Name: name, From: from, Why: c.Why})
			continue
		}
		if g.Kind == model.GroupFamily && toV != nil {
			f := &mover{name: lead.Name, from: lead.Installed, to: to, toV: toV}
			found := false
			for rv := range eligible(ix.c, &candidate{name: name, installed: from}, f) {
				if rv.v.Major() == toV.Major() {
					move(rv.raw, fmt.Sprintf("its newest %d.x: no release at %s, the family moves to %d", toV.Major(), to, toV.Major()))
					found = true
					break
				}
			}
			if found {
				continue
			}
		}
		stay(fmt.Sprintf("stays: nothing ties it to %s %s", lead.Name, to))
	}
	return moves, conflicts
}

func companionNamed(p *model.CompanionPlan, name string) (model.Companion, bool) {
	for _, c := range p.Companions {
		if c.Name == name {
			return c, true
		}
	}
	return model.Companion{}, false
}

func conflictNamed(p *model.CompanionPlan, name string) (model.Conflict, bool) {
	for _, c := range p.Conflicts {
		if c.Name == name {
			return c, true
		}
	}
	return model.Conflict{}, false
}

// SharedTarget is the version a lockstep group goes to when its lead's
// target is to. Members installed at one version are released together;
// when one of them tops out below to (storybook 10 exists,
// @storybook/addon-essentials stops at 8.6.19), moving the others there
// leaves it behind in a state no install of the family has. The group then goes to
// the newest version at or below to that every member has released, not
// deprecated, no prerelease unless to is one, and above the installed one;
// why says so. Otherwise, and when no such version exists, it is to.
func (ix *Index) SharedTarget(g model.Group, lead Dep, to string) (target, why string) {
	toV, err := semver.Parse(to)
	if err != nil || len(g.Members) < 2 || len(g.Versions) != len(g.Members) {
		return to, ""
	}
	for _, v := range g.Versions {
		if v != g.Versions[0] {
			return to, ""
		}
	}
	has := func(name, version string) bool {
		r, ok := ix.c.p.release(name, version)
		return ok && r.Deprecated == ""
	}
	// A member that tops out below to; one that only skipped the version
	// (a family whose members release on their own) follows its own
	// line through MemberTargets.
	missing, top := "", ""
	for _, name := range g.Members {
		for _, rv := range ix.c.releases(name) {
			if rv.rel.Deprecated != "" || rv.v.IsPrerelease() && !toV.IsPrerelease() {
				continue
			}
			if rv.v.Compare(toV) < 0 && missing == "" {
				missing, top = name, rv.raw
			}
			break
		}
	}
	if missing == "" {
		return to, ""
	}
	for _, rv := range ix.c.releases(lead.Name) {
		if semver.Compare(rv.raw, lead.Installed) <= 0 {
			break
		}
		if rv.v.Compare(toV) > 0 || rv.v.IsPrerelease() && !toV.IsPrerelease() {
			continue
		}
		all := true
		for _, name := range g.Members {
			all = all && has(name, rv.raw)
		}
		if all {
			return rv.raw, fmt.Sprintf("%s stops at %s: %s is the newest release every member of the group has", missing, top, rv.raw)
		}
	}
	return to, ""
}
