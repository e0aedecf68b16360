package groups

import (
	"fmt"
	"iter"
	"slices"
	"sort"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// candidate is one visible direct dependency the plan may move.
type candidate struct {
	name, installed string
	workspaces      []string
}

// mover is the target or a companion, at the version it moves to.
type mover struct {
	name, from, to string
	toV            *semver.Version // nil when to is not a version
	workspaces     []string
	toRel          model.Release
	hasToRel       bool
}

type verdict int

const (
	none     verdict = iota // unrelated, or already agreeing
	wait                    // a types package waiting for the package it types
	move                    // a companion
	conflict                // linked, but no release agrees
	remove                  // made needless by the upgrade
)

type decision struct {
	verdict verdict
	to, why string
}

// Companions plans what upgrading target to version to drags along among
// candidates: every direct dependency of every workspace; only those
// declared in the target's workspace or an ancestor of it count, and a
// companion's own companions must be visible from its workspaces.
//
// Each linked candidate moves to the version that agrees with the package
// it follows, by the first rule that applies:
//
//  1. the version the followed package's new manifest pins exactly with a
//     link that binds them (see below);
//  2. @types/<pkg> of a moving <pkg>: see TypesRelease; removed instead
//     when <pkg>'s new version ships its own types (see OwnTypesFrom);
//  3. lockstep: its release at the followed version exists and asks for
//     that version (react-dom 19.0.0 for react 19.0.0), even when the
//     installed range would accept it;
//  4. the followed package's new manifest peer-requires it with a range its
//     installed version misses: its newest release in that range;
//  5. its installed manifest links to the followed package with a range that
//     refuses the new version: its newest release whose range accepts it
//     (an exact one "pins"), else its newest release that no longer names it;
//  6. its installed manifest pins a package the followed one now pins at
//     another version: its newest release that agrees, pinning or
//     accepting the same version or no longer depending on it.
//
// Rules 4 to 6 read only releases above the installed one, neither
// deprecated nor prereleases (unless the target is one) nor above the latest
// dist-tag, and move as little as possible: the newest release of the
// installed line (its major; its minor for a 0.y version) that agrees with
// the followed package and with every other mover, else the newest of the
// nearest line above that has one, and then the reason says it crosses
// ("crosses a major: no 8.x accepts react 19.0.0"). Only links that tie two
// packages to one copy count in rules 1, 3, 5 and 6: a peer entry, or a
// dependency within one scope; a package's plain dependency on a package of
// another scope gets its own nested copy and never moves it (next 15 pins
// postcss 8.4.31 for itself, whatever postcss the repository has). A companion a
// later mover disagrees with is placed again. A candidate linked by rule 1,
// 4, 5 or 6 with no agreeing release is a conflict. The closure is transitive; a types package whose package
// is a candidate waits for that package's decision before its own manifest
// may place it.
func Companions(target Dep, to string, candidates []Dep, p Packuments) model.CompanionPlan {
	return NewIndex(p).Companions(target, to, candidates)
}

// Companions is the package-level Companions over the index's packuments.
func (ix *Index) Companions(target Dep, to string, candidates []Dep) model.CompanionPlan {
	plan := model.CompanionPlan{Name: target.Name, From: target.Installed, To: to,
		Companions: []model.Companion{}, Conflicts: []model.Conflict{}}
	c := ix.c
	p := c.p
	cands := ix.candidatesFor(target, candidates)
	byName := map[string]*candidate{}
	for i := range cands {
		byName[cands[i].name] = &cands[i]
	}
	movers := map[string]*mover{}
	decided := map[string]bool{target.Name: true}
	first := newMover(p, target.Name, target.Installed, to, []string{cleanWS(target.Workspace)})
	movers[target.Name] = first
	queue := []*mover{first}
	order := []*mover{first}

	// redo re-runs, per companion, the rule that placed it: a pick agrees
	// with the movers known at the time, and a later one may disagree.
	redo := map[string]func() decision{}
	settle := func(f *mover, cand *candidate, d decision) {
		switch d.verdict {
		case move:
			decided[cand.name] = true
			plan.Companions = append(plan.Companions, model.Companion{Name: cand.name, From: cand.installed, To: d.to, Why: d.why,
				Reason: model.CompanionReason{Kind: model.CompanionRule, Follows: f.name}})
			m := newMover(p, cand.name, cand.installed, d.to, cand.workspaces)
			movers[cand.name] = m
			queue = append(queue, m)
			order = append(order, m)
			redo[cand.name] = func() decision { return evaluate(c, f, cand, movers, byName, true) }
		case conflict:
			decided[cand.name] = true
			plan.Conflicts = append(plan.Conflicts, model.Conflict{Name: cand.name, From: cand.installed, Why: d.why})
		case remove:
			decided[cand.name] = true
			plan.Companions = append(plan.Companions, model.Companion{Name: cand.name, From: cand.installed, Why: d.why, Remove: true,
				Reason: model.CompanionReason{Kind: model.CompanionRemoval, Follows: f.name}})
		}
	}
	for {
		for len(queue) > 0 {
			f := queue[0]
			queue = queue[1:]
			for i := range cands {
				cand := &cands[i]
				if decided[cand.name] || !seenFrom(cand, f) {
					continue
				}
				settle(f, cand, evaluate(c, f, cand, movers, byName, false))
			}
		}
		// Types packages still waiting follow their own manifests now that
		// the packages they type have settled without moving.
		for _, f := range order {
			for i := range cands {
				cand := &cands[i]
				if decided[cand.name] || !seenFrom(cand, f) || TypedPackage(cand.name) == "" {
					continue
				}
				settle(f, cand, evaluate(c, f, cand, movers, byName, true))
			}
		}
		if len(queue) == 0 {
			break
		}
	}
	reconcile(c, &plan, movers, redo)
	sort.Slice(plan.Companions, func(i, j int) bool { return plan.Companions[i].Name < plan.Companions[j].Name })
	sort.Slice(plan.Conflicts, func(i, j int) bool { return plan.Conflicts[i].Name < plan.Conflicts[j].Name })
	return plan
}

// reconcile re-places every companion whose release disagrees with a
// mover decided after it, until the plan agrees with itself; one that no
// release reconciles becomes a conflict.
func reconcile(c *cache, plan *model.CompanionPlan, movers map[string]*mover, redo map[string]func() decision) {
	for round := 0; round <= len(plan.Companions); round++ {
		changed := false
		kept := plan.Companions[:0]
		for _, cp := range plan.Companions {
			m := movers[cp.Name]
			if cp.Remove {
				kept = append(kept, cp)
				continue
			}
			if m.toV == nil || !m.hasToRel || agreesWithMovers(c, m.name, relVersion{m.to, m.toV, &m.toRel}, movers, false) {
				kept = append(kept, cp)
				continue
			}
			d := redo[cp.Name]()
			switch {
			case d.verdict == move && d.to != m.to:
				changed = true
				cp.To, cp.Why = d.to, d.why
				movers[cp.Name] = newMover(c.p, m.name, m.from, d.to, m.workspaces)
				kept = append(kept, cp)
			case d.verdict == move:
				kept = append(kept, cp)
			default:
				changed = true
				delete(movers, cp.Name)
				why := d.why
				if d.verdict != conflict {
					why = fmt.Sprintf("no release of %s agrees with every package the upgrade moves", cp.Name)
				}
				plan.Conflicts = append(plan.Conflicts, model.Conflict{Name: cp.Name, From: cp.From, Why: why})
			}
		}
		plan.Companions = kept
		if !changed {
			return
		}
	}
}

func newMover(p Packuments, name, from, to string, ws []string) *mover {
	m := &mover{name: name, from: from, to: to, workspaces: ws}
	m.toV, _ = semver.Parse(to)
	m.toRel, m.hasToRel = p.release(name, to)
	return m
}

// visibleCandidates keeps, per name, the declaration nearest the target's
// workspace (what the resolver would find from there), with every visible
// workspace declaring that same version.
func visibleCandidates(target Dep, deps []Dep) []candidate {
	from := cleanWS(target.Workspace)
	byName := map[string][]Dep{}
	for _, d := range deps {
		if d.Name == target.Name || d.Name == "" {
			continue
		}
		d.Workspace = cleanWS(d.Workspace)
		if visible(d.Workspace, from) {
			byName[d.Name] = append(byName[d.Name], d)
		}
	}
	out := make([]candidate, 0, len(byName))
	for _, name := range lists.SortedKeys(byName) {
		decls := byName[name]
		b := decls[0]
		for _, d := range decls[1:] {
			if depth(d.Workspace) > depth(b.Workspace) ||
				(depth(d.Workspace) == depth(b.Workspace) && semver.Compare(d.Installed, b.Installed) > 0) {
				b = d
			}
		}
		c := candidate{name: name, installed: b.Installed}
		for _, d := range decls {
			if d.Installed == b.Installed && !slices.Contains(c.workspaces, d.Workspace) {
				c.workspaces = append(c.workspaces, d.Workspace)
			}
		}
		sort.Strings(c.workspaces)
		out = append(out, c)
	}
	return out
}

// seenFrom reports whether the candidate is visible from a workspace of
// the package it would follow.
func seenFrom(c *candidate, f *mover) bool {
	for _, w := range c.workspaces {
		for _, fw := range f.workspaces {
			if visible(w, fw) {
				return true
			}
		}
	}
	return false
}

func evaluate(c *cache, f *mover, cand *candidate, movers map[string]*mover, byName map[string]*candidate, final bool) decision {
	if d, ok := pinnedBy(c, f, cand); ok {
		return d
	}
	if typed := TypedPackage(cand.name); typed != "" {
		if m := movers[typed]; m != nil && seenFrom(cand, m) {
			if shipsOwnTypes(ownTypesFrom(c.releases(cand.name)), m.to) {
				return decision{verdict: remove, why: fmt.Sprintf("%s %s ships its own types", typed, m.to)}
			}
			to, how := typesRelease(c.releases(cand.name), m.to, cand.installed)
			if to == "" {
				return decision{}
			}
			return decision{move, to, fmt.Sprintf("types of %s, %s", typed, how)}
		}
		if m := movers[typed]; m == nil && byName[typed] != nil && !final {
			return decision{verdict: wait}
		}
	}
	if d, ok := lockstep(c, f, cand); ok {
		return d
	}
	if d, ok := requiredByPeer(c, f, cand, movers); ok {
		return d
	}
	inst, hasInst := c.p.release(cand.name, cand.installed)
	if !hasInst {
		return decision{}
	}
	if d, ok := namesFollowed(c, f, cand, inst, movers); ok {
		return d
	}
	if d, ok := sharedPins(c, f, cand, inst, movers); ok {
		return d
	}
	return decision{}
}

// pinnedBy: the followed package's new manifest pins the candidate with a
// link that binds them to one copy (a peer, or a dependency within one
// scope). A plain dependency on a package of another scope is the followed
// package's own nested copy (next pinning postcss 8.4.31 next to the
// repository's 8.4.38): it neither moves the candidate nor conflicts with it.
func pinnedBy(c *cache, f *mover, cand *candidate) (decision, bool) {
	if !f.hasToRel {
		return decision{}, false
	}
	v, ok := bindingPin(f.toRel, f.name, cand.name)
	if !ok {
		return decision{}, false
	}
	switch d := semver.Compare(v, cand.installed); {
	case d == 0:
		return decision{}, true
	case d < 0:
		return decision{conflict, "", fmt.Sprintf("%s %s pins %s %s, below the installed %s", f.name, f.to, cand.name, v, cand.installed)}, true
	}
	if c.p[cand.name] != nil {
		if _, ok := c.p.release(cand.name, v); !ok {
			return decision{conflict, "", fmt.Sprintf("%s %s pins %s %s, which the registry does not list", f.name, f.to, cand.name, v)}, true
		}
	}
	return decision{move, v, fmt.Sprintf("pinned by %s %s", f.name, f.to)}, true
}

// lockstep: the candidate has a release at the followed version that asks
// for exactly that release train.
func lockstep(c *cache, f *mover, cand *candidate) (decision, bool) {
	if semver.Compare(f.to, cand.installed) <= 0 {
		return decision{}, false
	}
	rel, ok := c.p.release(cand.name, f.to)
	if !ok {
		return decision{}, false
	}
	ls := bindingLinks(rel, cand.name, f.name)
	if len(ls) == 0 || !c.accepts(ls, f.toV) {
		return decision{}, false
	}
	return decision{move, f.to, fmt.Sprintf("released in lockstep (%s %s %s %s)", f.to, verb(ls[0].field), f.name, ls[0].spec)}, true
}

// requiredByPeer: the followed package's new manifest peer-requires the
// candidate with a range its installed version misses.
func requiredByPeer(c *cache, f *mover, cand *candidate, movers map[string]*mover) (decision, bool) {
	if !f.hasToRel {
		return decision{}, false
	}
	spec, ok := f.toRel.PeerDependencies[cand.name]
	r := c.rng(spec)
	if !ok || r == nil || r.Satisfies(cand.installed) {
		return decision{}, false
	}
	ch, ok := pick(c, cand, f, movers, func(rv relVersion) bool { return r.SatisfiesVersion(rv.v) })
	if !ok {
		return decision{conflict, "", fmt.Sprintf("no release of %s satisfies %s %s's peer range %s", cand.name, f.name, f.to, spec)}, true
	}
	why := fmt.Sprintf("%s %s peer-requires %s %s", f.name, f.to, cand.name, spec) + ch.crossNote("satisfies "+spec)
	return decision{move, ch.rv.raw, why}, true
}

// namesFollowed: the candidate's installed manifest links to the followed
// package (a peer, or a dependency within one scope) with a range that
// refuses its new version. It moves to the newest release on its line that
// accepts the new version or no longer names it, crossing the line only
// when none there does.
func namesFollowed(c *cache, f *mover, cand *candidate, inst model.Release, movers map[string]*mover) (decision, bool) {
	ls := bindingLinks(inst, cand.name, f.name)
	if len(ls) == 0 || c.accepts(ls, f.toV) {
		return decision{}, false
	}
	ch, ok := pick(c, cand, f, movers, func(rv relVersion) bool {
		return bindsAccept(c, *rv.rel, cand.name, f.name, f.toV)
	})
	if ok {
		note := ch.crossNote(fmt.Sprintf("accepts %s %s", f.name, f.to))
		nl := bindingLinks(*ch.rv.rel, cand.name, f.name)
		if len(nl) == 0 {
			return decision{move, ch.rv.raw, fmt.Sprintf("no longer %s %s", verb(ls[0].field), f.name) + note}, true
		}
		why := fmt.Sprintf("accepts %s %s (%s %s)", f.name, f.to, fieldWord(nl[0].field), nl[0].spec)
		if v, ok := semver.Exact(nl[0].spec); ok {
			why = fmt.Sprintf("pins %s %s", f.name, v)
		}
		return decision{move, ch.rv.raw, why + note}, true
	}
	why := fmt.Sprintf("no release of %s accepts %s %s", cand.name, f.name, f.to)
	if l := latest(c.p[cand.name]); l != "" {
		if rel, ok := c.p.release(cand.name, l); ok {
			if nl := bindingLinks(rel, cand.name, f.name); len(nl) > 0 {
				why += fmt.Sprintf(" (latest %s %s %s)", l, verb(nl[0].field), nl[0].spec)
			}
		}
	}
	return decision{conflict, "", why}, true
}

// sharedPins: the candidate pins, exactly, a package of its or the
// followed package's scope that the followed package now pins at another
// version. It moves to a release that no longer disagrees: one pinning or
// accepting the same version, or one that stopped depending on it
// (@storybook/addon-essentials 8.6 no longer names @storybook/manager-api).
func sharedPins(c *cache, f *mover, cand *candidate, inst model.Release, movers map[string]*mover) (decision, bool) {
	if !f.hasToRel {
		return decision{}, false
	}
	want := map[string]string{}
	for dep, v := range pins(f.toRel) {
		if pinWorthSharing(dep, f.name, cand.name) {
			want[dep] = v
		}
	}
	disagree := ""
	have := pins(inst)
	for _, dep := range lists.SortedKeys(want) {
		if v, ok := have[dep]; ok && semver.Compare(v, want[dep]) != 0 {
			disagree = dep
			break
		}
	}
	if disagree == "" {
		return decision{}, false
	}
	ch, ok := pick(c, cand, f, movers, func(rv relVersion) bool {
		agree, _, _ := c.pinsAgree(*rv.rel, want)
		// Only a binding link refuses the followed package: a plain
		// dependency on another scope's package nests its own copy.
		return agree && bindsAccept(c, *rv.rel, cand.name, f.name, f.toV)
	})
	if !ok {
		return decision{conflict, "", fmt.Sprintf("no release of %s pins %s %s like %s %s", cand.name, disagree, want[disagree], f.name, f.to)}, true
	}
	_, on, l := c.pinsAgree(*ch.rv.rel, want)
	var why, what string
	switch {
	case on == "":
		why = fmt.Sprintf("no longer depends on %s, which %s %s pins at %s", disagree, f.name, f.to, want[disagree])
		what = fmt.Sprintf("agrees with %s %s", f.name, f.to)
	case l.spec == want[on]:
		why = fmt.Sprintf("pins %s %s like %s %s", on, want[on], f.name, f.to)
		what = fmt.Sprintf("pins %s %s", on, want[on])
	default:
		why = fmt.Sprintf("accepts %s %s like %s %s (%s %s)", on, want[on], f.name, f.to, fieldWord(l.field), l.spec)
		what = fmt.Sprintf("accepts %s %s", on, want[on])
	}
	return decision{move, ch.rv.raw, why + ch.crossNote(what)}, true
}

// pinsAgree reports whether release r agrees with the pins want: every
// package of want that r names, it pins at the same version or requires
// with a range admitting it. A release naming none of them agrees (it
// stopped depending on them). on names the package r agrees on, one it
// pins alike first, with its entry; "" when it names none.
func (c *cache) pinsAgree(r model.Release, want map[string]string) (agree bool, on string, how link) {
	for _, dep := range lists.SortedKeys(want) {
		ls := linksTo(r, dep)
		if len(ls) == 0 {
			continue
		}
		v, err := semver.Parse(want[dep])
		if err != nil || !c.accepts(ls, v) {
			return false, "", link{}
		}
		exact, _ := semver.Exact(ls[0].spec)
		if on == "" || exact == want[dep] && how.spec != want[on] {
			on, how = dep, ls[0]
			if exact == want[dep] {
				how.spec = exact
			}
		}
	}
	return true, on, how
}

// eligible yields, newest first, the releases of the candidate a plan may
// move it to: above what is installed, not deprecated, no prerelease unless
// the followed version or the installed one is one, and not above the
// latest dist-tag, which is what an install would pick.
func eligible(c *cache, cand *candidate, f *mover) iter.Seq[relVersion] {
	inst, instErr := semver.Parse(cand.installed)
	allowPre := (instErr == nil && inst.IsPrerelease()) || (f.toV != nil && f.toV.IsPrerelease())
	var ceiling *semver.Version
	if l := latest(c.p[cand.name]); l != "" && !allowPre {
		ceiling, _ = semver.Parse(l)
	}
	if ceiling != nil && instErr == nil && ceiling.Compare(inst) <= 0 {
		ceiling = nil // a prerelease or a tag below what is installed bounds nothing
	}
	return func(yield func(relVersion) bool) {
		for _, rv := range c.releases(cand.name) {
			switch {
			case instErr == nil && rv.v.Compare(inst) <= 0:
				return // newest first: nothing further is above installed
			case rv.rel.Deprecated != "",
				rv.v.IsPrerelease() && !allowPre,
				ceiling != nil && rv.v.Compare(ceiling) > 0:
				continue
			}
			if !yield(rv) {
				return
			}
		}
	}
}
