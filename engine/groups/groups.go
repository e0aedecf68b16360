package groups

import (
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
)

// node is one dependency at one installed version, whatever the number of
// workspaces declaring it.
type node struct {
	name, installed string
	major           uint64
	hasMajor        bool
	inst            model.Release
	hasInst         bool
	target          string
	tgt             model.Release
	hasTgt          bool
}

// edge is one reason two nodes move together.
type edge struct {
	a, b   int
	kind   model.GroupKind
	why    string
	shared string // family: the same-scope package both depend on
	pin    string // shared pin: "name\x00version"
}

// ReleaseGroups finds the sets of direct dependencies that must be upgraded
// together, reading each one's installed manifest (and its target's, for
// peer links):
//
//   - family: one scope, one installed major, linked by depending or
//     peer-depending on one another or on the same package of the scope;
//   - explicit: one scope, one depending on the other whatever the majors;
//   - peer: across scopes, the target of one peer-requires the other with a
//     range its installed version does not satisfy (a peer range that is
//     already satisfied links nothing, or every React library would join
//     react);
//   - shared pin: across scopes, both pin the same exact version of a
//     package of one of their scopes.
//
// The @types scope forms no family: a types package moves with the package
// it types, which Companions plans.
//
// Groups are the connected components. A one-scope group is titled
// "@scope/* (N packages)" with members sorted; any other group is titled
// after its lead, listed first: an unscoped member if there is one, the
// one most members depend on, then the first by name.
func ReleaseGroups(deps []Dep, p Packuments) []model.Group {
	return NewIndex(p).ReleaseGroups(deps)
}

// ReleaseGroups is the package-level ReleaseGroups over the index's packuments.
func (ix *Index) ReleaseGroups(deps []Dep) []model.Group {
	c, p := ix.c, ix.c.p
	nodes := buildNodes(deps, p)
	byName := map[string][]int{}
	for i, n := range nodes {
		byName[n.name] = append(byName[n.name], i)
	}
	var edges []edge
	edges = append(edges, scopeEdges(nodes, byName)...)
	edges = append(edges, peerEdges(c, nodes, byName)...)
	edges = append(edges, pinEdges(nodes)...)

	uf := newUnionFind(len(nodes))
	for _, e := range edges {
		uf.union(e.a, e.b)
	}
	comps := map[int][]int{}
	for i := range nodes {
		comps[uf.find(i)] = append(comps[uf.find(i)], i)
	}
	compEdges := map[int][]edge{}
	for _, e := range edges {
		r := uf.find(e.a)
		compEdges[r] = append(compEdges[r], e)
	}
	out := []model.Group{}
	for root, members := range comps {
		if g, ok := describe(nodes, members, compEdges[root]); ok {
			out = append(out, g)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Title != out[j].Title {
			return out[i].Title < out[j].Title
		}
		return strings.Join(out[i].Members, ",") < strings.Join(out[j].Members, ",")
	})
	return out
}

func buildNodes(deps []Dep, p Packuments) []node {
	type key struct{ name, installed string }
	seen := map[key]int{}
	var nodes []node
	sorted := append([]Dep(nil), deps...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Name != sorted[j].Name {
			return sorted[i].Name < sorted[j].Name
		}
		if sorted[i].Installed != sorted[j].Installed {
			return sorted[i].Installed < sorted[j].Installed
		}
		return sorted[i].Target > sorted[j].Target
	})
	for _, d := range sorted {
		k := key{d.Name, d.Installed}
		if _, ok := seen[k]; ok || d.Name == "" {
			continue
		}
		seen[k] = len(nodes)
		n := node{name: d.Name, installed: d.Installed, target: d.Target}
		if v, err := semver.Parse(d.Installed); err == nil {
			n.major, n.hasMajor = v.Major(), true
		}
		n.inst, n.hasInst = p.release(d.Name, d.Installed)
		if n.target == "" {
			n.target = latest(p[d.Name])
		}
		if n.target == "" || semver.Compare(n.target, d.Installed) < 0 {
			n.target = d.Installed
		}
		n.tgt, n.hasTgt = p.release(d.Name, n.target)
		nodes = append(nodes, n)
	}
	return nodes
}

// scopeEdges links packages of one scope: a direct dependency whatever the
// majors (explicit, or family on one major), and a shared same-scope
// dependency on one major (family).
func scopeEdges(nodes []node, byName map[string][]int) []edge {
	var out []edge
	type bucket struct {
		scope string
		major uint64
	}
	sharers := map[bucket]map[string][]int{}
	for i, n := range nodes {
		s := scope(n.name)
		// @types packages move with the package they type (see
		// Companions); as a family they would only share @types/node.
		if s == "" || s == "@types" || !n.hasInst {
			continue
		}
		for _, dep := range names(n.inst) {
			if scope(dep) != s || dep == n.name {
				continue
			}
			for _, j := range byName[dep] {
				m := nodes[j]
				ls := linksTo(n.inst, dep)
				kind := model.GroupExplicit
				why := fmt.Sprintf("%s %s %s %s %s (%s installed)", n.name, n.installed, verb(ls[0].field), dep, ls[0].spec, m.installed)
				if n.hasMajor && m.hasMajor && n.major == m.major {
					kind = model.GroupFamily
					why = fmt.Sprintf("same scope, major %d, %s %s %s", n.major, n.name, verb(ls[0].field), dep)
				}
				out = append(out, edge{a: i, b: j, kind: kind, why: why})
			}
			if n.hasMajor {
				b := bucket{s, n.major}
				if sharers[b] == nil {
					sharers[b] = map[string][]int{}
				}
				sharers[b][dep] = append(sharers[b][dep], i)
			}
		}
	}
	for b, byDep := range sharers {
		for dep, idx := range byDep {
			for _, j := range idx[1:] {
				out = append(out, edge{a: idx[0], b: j, kind: model.GroupFamily, shared: dep,
					why: fmt.Sprintf("same scope, major %d, share %s", b.major, dep)})
			}
		}
	}
	return out
}

// peerEdges links across scopes a package whose target peer-requires
// another with a range that the other's installed version does not meet.
func peerEdges(c *cache, nodes []node, byName map[string][]int) []edge {
	var out []edge
	for i, n := range nodes {
		if !n.hasTgt {
			continue
		}
		for _, dep := range sortedKeys(n.tgt.PeerDependencies) {
			spec := n.tgt.PeerDependencies[dep]
			r := c.rng(spec)
			for _, j := range byName[dep] {
				m := nodes[j]
				if sameScope(n.name, dep) || r == nil || r.Satisfies(m.installed) {
					continue
				}
				out = append(out, edge{a: i, b: j, kind: model.GroupPeer,
					why: fmt.Sprintf("%s %s peer-requires %s %s", n.name, n.target, dep, spec)})
			}
		}
	}
	return out
}

// pinEdges links across scopes packages pinning the same exact version of
// a package of one of their scopes.
func pinEdges(nodes []node) []edge {
	byPin := map[string][]int{}
	for i, n := range nodes {
		if !n.hasInst {
			continue
		}
		for dep, v := range pins(n.inst) {
			byPin[dep+"\x00"+v] = append(byPin[dep+"\x00"+v], i)
		}
	}
	var out []edge
	for _, pin := range sortedKeys(byPin) {
		idx := byPin[pin]
		dep, v := splitPin(pin)
		for x := 0; x < len(idx); x++ {
			for y := x + 1; y < len(idx); y++ {
				a, b := nodes[idx[x]].name, nodes[idx[y]].name
				if a == b || sameScope(a, b) || !pinWorthSharing(dep, a, b) {
					continue
				}
				out = append(out, edge{a: idx[x], b: idx[y], kind: model.GroupSharedPin, pin: pin,
					why: fmt.Sprintf("both pin %s %s exactly", dep, v)})
			}
		}
	}
	return out
}

// splitPin reads a "name\x00version" key; the NUL sorts a name before
// any longer name it prefixes.
func splitPin(pin string) (string, string) {
	dep, v, _ := strings.Cut(pin, "\x00")
	return dep, v
}

// describe turns a component into a group: title, kind, members, why.
func describe(nodes []node, members []int, edges []edge) (model.Group, bool) {
	nameSet := map[string]bool{}
	majors := map[uint64]bool{}
	for _, i := range members {
		nameSet[nodes[i].name] = true
		if nodes[i].hasMajor {
			majors[nodes[i].major] = true
		}
	}
	names := sortedKeys(nameSet)
	if len(names) < 2 {
		return model.Group{}, false
	}
	s := scope(names[0])
	oneScope := s != ""
	for _, n := range names {
		if scope(n) != s {
			oneScope = false
		}
	}
	g := model.Group{}
	if oneScope {
		g.Title = fmt.Sprintf("%s/* (%d packages)", s, len(names))
		g.Members = names
		g.Kind = model.GroupFamily
		if len(majors) > 1 {
			g.Kind = model.GroupExplicit
		}
	} else {
		lead := leadOf(nodes, members, names)
		g.Title = fmt.Sprintf("%s (%d packages)", lead, len(names))
		g.Members = append([]string{lead}, without(names, lead)...)
		g.Kind = model.GroupPeer
		for _, e := range edges {
			if e.kind == model.GroupSharedPin {
				g.Kind = model.GroupSharedPin
			}
		}
	}
	g.Why = why(g.Kind, len(names), edges)
	return g, true
}

// leadOf picks the member a cross-scope group is named after.
func leadOf(nodes []node, members []int, names []string) string {
	dependedOn := map[string]map[string]bool{}
	for _, i := range members {
		n := nodes[i]
		for _, r := range []struct {
			ok  bool
			rel model.Release
		}{{n.hasInst, n.inst}, {n.hasTgt, n.tgt}} {
			if !r.ok {
				continue
			}
			for _, dep := range names {
				if dep != n.name && len(linksTo(r.rel, dep)) > 0 {
					if dependedOn[dep] == nil {
						dependedOn[dep] = map[string]bool{}
					}
					dependedOn[dep][n.name] = true
				}
			}
		}
	}
	best := ""
	for _, n := range names {
		if best == "" {
			best = n
			continue
		}
		bu, nu := scope(best) == "", scope(n) == ""
		switch {
		case nu && !bu:
			best = n
		case nu == bu && len(dependedOn[n]) > len(dependedOn[best]):
			best = n
		}
	}
	return best
}

// why says in one sentence what holds the group together: the link of the
// group's kind that most members share, then the first by text.
func why(kind model.GroupKind, size int, edges []edge) string {
	count := map[string]map[int]bool{}
	add := func(k string, e edge) {
		if count[k] == nil {
			count[k] = map[int]bool{}
		}
		count[k][e.a], count[k][e.b] = true, true
	}
	var texts []string
	for _, e := range edges {
		if e.kind != kind {
			continue
		}
		switch {
		case e.pin != "":
			add("pin\x00"+e.pin, e)
		case e.shared != "":
			add("share\x00"+e.why, e)
		default:
			texts = append(texts, e.why)
		}
	}
	best, bestN := "", 0
	for _, k := range sortedKeys(count) {
		if len(count[k]) > bestN {
			best, bestN = k, len(count[k])
		}
	}
	if best != "" {
		kind, detail, _ := strings.Cut(best, "\x00")
		if kind == "share" {
			return detail
		}
		dep, v := splitPin(detail)
		who := "both"
		switch {
		case bestN == size && size > 2:
			who = fmt.Sprintf("all %d", size)
		case bestN > 2:
			who = fmt.Sprintf("%d of them", bestN)
		}
		return fmt.Sprintf("%s pin %s %s exactly", who, dep, v)
	}
	sort.Strings(texts)
	if len(texts) > 0 {
		return texts[0]
	}
	return "released together"
}

func without(list []string, x string) []string {
	var out []string
	for _, s := range list {
		if s != x {
			out = append(out, s)
		}
	}
	return out
}

type unionFind struct{ parent []int }

func newUnionFind(n int) *unionFind {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return &unionFind{p}
}

func (u *unionFind) find(x int) int {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

// union keeps the smaller index as root so components do not depend on
// the order edges arrive in.
func (u *unionFind) union(a, b int) {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return
	}
	if rb < ra {
		ra, rb = rb, ra
	}
	u.parent[rb] = ra
}
