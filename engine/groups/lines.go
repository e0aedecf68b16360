package groups

import (
	"fmt"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
)

// A release line is what an install treats as one compatible series: the
// major, or the major.minor of a 0.y version (a caret range on 0.378
// admits no 0.379). A companion moves as little as possible: it stays on
// the line it has installed and crosses to another only when no release
// on its own agrees.
type line struct {
	major, minor uint64
}

func lineOf(v *semver.Version) line {
	if v.Major() == 0 {
		return line{0, v.Minor()}
	}
	return line{v.Major(), 0}
}

func (l line) String() string {
	if l.major == 0 {
		return fmt.Sprintf("0.%d.x", l.minor)
	}
	return fmt.Sprintf("%d.x", l.major)
}

func (l line) less(o line) bool {
	if l.major != o.major {
		return l.major < o.major
	}
	return l.minor < o.minor
}

// crossing says what leaving the installed line is called.
func (l line) crossing() string {
	if l.major == 0 {
		return "crosses a minor"
	}
	return "crosses a major"
}

// choice is the release a rule picked, and the line it left when it had
// to (nil: it stayed on the installed line, or nothing was installed).
type choice struct {
	rv   relVersion
	left *line
}

// crossNote is the clause a plan adds when a companion leaves its line:
// "; crosses a major: no 8.x accepts react 19.0.0".
func (ch choice) crossNote(what string) string {
	if ch.left == nil {
		return ""
	}
	return fmt.Sprintf("; %s: no %s %s", ch.left.crossing(), ch.left, what)
}

// pick chooses the release of cand a rule moves it to among the eligible
// ones that satisfy agree and agree with every mover: the newest on the
// installed line, else the newest on the nearest line above it that has
// one. The releases come newest first, so lines only descend. When no
// release agrees with a mover of its family through a plain dependency
// (@radix-ui/react-dialog 1.3.1 pins the react-slot 1.5.0 of its release
// while react-slot itself moves to 1.5.1), the manager nests the
// package's own copy: only peer links then bind.
func pick(c *cache, cand *candidate, f *mover, movers map[string]*mover, agree func(relVersion) bool) (choice, bool) {
	if ch, ok := pickAgreeing(c, cand, f, movers, agree, false); ok {
		return ch, true
	}
	return pickAgreeing(c, cand, f, movers, agree, true)
}

func pickAgreeing(c *cache, cand *candidate, f *mover, movers map[string]*mover, agree func(relVersion) bool, peersOnly bool) (choice, bool) {
	inst, err := semver.Parse(cand.installed)
	var best relVersion
	var bestLine line
	found := false
	for rv := range eligible(c, cand, f) {
		if err != nil {
			if agree(rv) && agreesWithMovers(c, cand.name, rv, movers, peersOnly) {
				return choice{rv: rv}, true
			}
			continue
		}
		l := lineOf(rv.v)
		onLine := l == lineOf(inst)
		if found && !onLine && !l.less(bestLine) {
			continue // an older release of the line already chosen
		}
		if !agree(rv) || !agreesWithMovers(c, cand.name, rv, movers, peersOnly) {
			continue
		}
		if onLine {
			return choice{rv: rv}, true
		}
		best, bestLine, found = rv, l, true
	}
	if !found {
		return choice{}, false
	}
	left := lineOf(inst)
	return choice{rv: best, left: &left}, true
}

// agreesWithMovers reports whether a release of name agrees with every
// package the plan moves: its binding links to each accept that one's new
// version (its peer links alone when peersOnly), and each one's new
// manifest peer range on name admits it.
func agreesWithMovers(c *cache, name string, rv relVersion, movers map[string]*mover, peersOnly bool) bool {
	for _, m := range movers {
		if m.name == name {
			continue
		}
		if m.toV != nil {
			if peersOnly && !peerAccepts(c, *rv.rel, m.name, m.toV) || !peersOnly && !bindsAccept(c, *rv.rel, name, m.name, m.toV) {
				return false
			}
		}
		if m.hasToRel {
			if r := c.rng(m.toRel.PeerDependencies[name]); r != nil && !r.SatisfiesVersion(rv.v) {
				return false
			}
		}
	}
	return true
}

// bindingLinks are the entries of r (a release of name) naming pkg that
// tie the two together in one install: a peer entry, which resolves to the
// repository's copy, or a dependency within one family (a release train:
// one scope, or a scope and the package it is named after, @nx/workspace
// pinning nx).
// A plain dependency on a package of another scope gets its own nested
// copy when the versions disagree, so it is never a reason to move name.
func bindingLinks(r model.Release, name, pkg string) []link {
	ls := linksTo(r, pkg)
	out := ls[:0:0]
	for _, l := range ls {
		if l.field == model.Peer || family(name) == family(pkg) {
			out = append(out, l)
		}
	}
	return out
}

// bindingPin is the version r (a release of name) pins pkg at exactly
// through a binding link, peer entries first.
func bindingPin(r model.Release, name, pkg string) (string, bool) {
	for _, l := range bindingLinks(r, name, pkg) {
		if v, ok := semver.Exact(l.spec); ok {
			return v, true
		}
	}
	return "", false
}

// bindsAccept is c.accepts over bindingLinks(r, name, pkg) without building
// the list: it runs for every release a pick reads, against every mover.
func bindsAccept(c *cache, r model.Release, name, pkg string, v *semver.Version) bool {
	if !peerAccepts(c, r, pkg, v) {
		return false
	}
	if family(name) != family(pkg) {
		return true
	}
	return specAccepts(c, r.Dependencies, pkg, v) && specAccepts(c, r.OptionalDependencies, pkg, v)
}

// peerAccepts reports whether r's peer entry on pkg, if any, admits v.
func peerAccepts(c *cache, r model.Release, pkg string, v *semver.Version) bool {
	return specAccepts(c, r.PeerDependencies, pkg, v)
}

// specAccepts reports whether the entry of deps on pkg, if any, admits v
// (a range it cannot read admits everything).
func specAccepts(c *cache, deps map[string]string, pkg string, v *semver.Version) bool {
	spec, has := deps[pkg]
	if !has {
		return true
	}
	rg := c.rng(spec)
	return rg == nil || (v != nil && rg.SatisfiesVersion(v))
}
