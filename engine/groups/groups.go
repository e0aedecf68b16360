package groups

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// node is one dependency at one installed version, whatever the number of
// workspaces declaring it.
type node struct {
	name, installed string
	// workspaces declaring it, cleaned, sorted.
	workspaces []string
	major      uint64
	hasMajor   bool
	inst       model.Release
	hasInst    bool
	target     string
	tgt        model.Release
	hasTgt     bool
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
//     peer-depending on one another, or by pinning the same package of the
//     scope exactly (@aws-sdk/* on @aws-sdk/core);
//     the unscoped package a scope is named after is of its family (nx and
//     @nx/*, prisma and @prisma/client);
//   - explicit: one family, one depending on the other, on another major,
//     with a range the other's installed version misses;
//   - peer: across scopes, released in lockstep: the target of one
//     peer-requires the other with a range its installed version does not
//     satisfy, anchored at the target's own version (react-dom 19.1.0
//     peer-requires react ^19.1.0). A wider peer range is a companion's
//     requirement, not a release train: a tool whose next major needs a
//     newer typescript or eslint is planned by Companions, and joins
//     neither (or every plugin would join its host, and through the host
//     every other plugin);
//   - shared pin: across scopes, both pin the same exact version of a
//     package of one of their scopes.
//
// Two packages are linked only when they can see each other: a workspace
// declaring one is, or is a directory above or below, a workspace
// declaring the other ("." is above every workspace; "packages/a" and
// "packages/b" see nothing of each other), and the lower of the two does
// not declare, itself or through a directory in between, another version
// of the upper one's package, which would be what it resolves. Siblings
// make separate decisions even when a rule would link their packages;
// a dependency is one node per installed version, whatever the number of
// workspaces declaring it, so one package at two versions can be in two
// groups.
//
// The @types scope forms no family: a types package moves with the package
// it types, which Companions plans.
//
// Groups are the connected components. A one-scope group is titled
// "@scope/* (N packages)" with members sorted, or after the package its
// scope is named after when that is a member ("nx (9 packages)", nx
// first); any other group is titled
// after its lead, listed first: an unscoped member if there is one, then
// the one linked to the most other members, then the one most members
// depend on, then the first by name.
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
	vis := sight{nodes, byName}
	var edges []edge
	edges = append(edges, scopeEdges(c, vis)...)
	edges = append(edges, peerEdges(c, vis)...)
	edges = append(edges, pinEdges(vis)...)

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
		if a, b := strings.Join(out[i].Members, ","), strings.Join(out[j].Members, ","); a != b {
			return a < b
		}
		return strings.Join(out[i].Versions, ",") < strings.Join(out[j].Versions, ",")
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
		if d.Name == "" {
			continue
		}
		if i, ok := seen[k]; ok {
			nodes[i].workspaces = append(nodes[i].workspaces, cleanWS(d.Workspace))
			continue
		}
		seen[k] = len(nodes)
		n := node{name: d.Name, installed: d.Installed, target: d.Target, workspaces: []string{cleanWS(d.Workspace)}}
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
	for i := range nodes {
		slices.Sort(nodes[i].workspaces)
		nodes[i].workspaces = slices.Compact(nodes[i].workspaces)
	}
	return nodes
}

// sight answers which nodes can see each other.
type sight struct {
	nodes  []node
	byName map[string][]int
}

// linked reports whether a and b are visible to each other: declared in
// one workspace, or one above the other without another version of the
// upper one's package declared on the way down (the lower workspace would
// resolve that version instead).
func (s sight) linked(a, b int) bool {
	for _, wa := range s.nodes[a].workspaces {
		for _, wb := range s.nodes[b].workspaces {
			switch {
			case wa == wb,
				above(wa, wb) && !s.hidden(a, wa, wb),
				above(wb, wa) && !s.hidden(b, wb, wa):
				return true
			}
		}
	}
	return false
}

// hidden reports whether node n, declared in high, is shadowed from low
// (below high) by another version of its package declared below high and
// at or above low.
func (s sight) hidden(n int, high, low string) bool {
	for _, o := range s.byName[s.nodes[n].name] {
		if o == n {
			continue
		}
		for _, w := range s.nodes[o].workspaces {
			if above(high, w) && (w == low || above(w, low)) {
				return true
			}
		}
	}
	return false
}

// scopeEdges links packages of one family (see family): a direct
// dependency whatever the majors (explicit, or family on one major), and a
// dependency of the family both pin exactly, on one major (family).
func scopeEdges(c *cache, vis sight) []edge {
	nodes, byName := vis.nodes, vis.byName
	var out []edge
	type bucket struct {
		scope string
		major uint64
	}
	sharers := map[bucket]map[string][]int{}
	for i, n := range nodes {
		s := family(n.name)
		// @types packages move with the package they type (see
		// Companions); as a family they would only share @types/node.
		if s == "@types" || !n.hasInst {
			continue
		}
		for _, dep := range names(n.inst) {
			if family(dep) != s || dep == n.name {
				continue
			}
			for _, j := range byName[dep] {
				if !vis.linked(i, j) {
					continue
				}
				m := nodes[j]
				ls := linksTo(n.inst, dep)
				sameMajor := n.hasMajor && m.hasMajor && n.major == m.major
				if mv, err := semver.Parse(m.installed); !sameMajor && err == nil && c.accepts(ls, mv) {
					// Across majors only a link the installed copy misses
					// is a train to reconcile (@bull-board/express 5
					// pinning the api 5.21.0 next to api 6): @swc/core
					// accepting any @swc/helpers ties nothing.
					continue
				}
				kind := model.GroupExplicit
				why := fmt.Sprintf("%s %s %s %s %s (%s installed)", n.name, n.installed, verb(ls[0].field), dep, ls[0].spec, m.installed)
				if sameMajor {
					kind = model.GroupFamily
					tie := "same scope"
					if scope(dep) != scope(n.name) {
						tie = "one family"
					}
					why = fmt.Sprintf("%s, major %d, %s %s %s", tie, n.major, n.name, verb(ls[0].field), dep)
				}
				out = append(out, edge{a: i, b: j, kind: kind, why: why})
			}
			// Sharing binds only at an exact version (the @aws-sdk clients
			// pin the @aws-sdk/core of their release): @nestjs/schedule 6
			// and @nestjs/throttler 6 both accepting any @nestjs/common
			// 10 or 11 are released apart.
			if n.hasMajor && pinsExactly(linksTo(n.inst, dep)) {
				b := bucket{s, n.major}
				if sharers[b] == nil {
					sharers[b] = map[string][]int{}
				}
				sharers[b][dep] = append(sharers[b][dep], i)
			}
		}
	}
	// Every visible pair, not a chain from the first sharer: the first
	// may see none of the others.
	for b, byDep := range sharers {
		for dep, idx := range byDep {
			for x := range idx {
				for _, j := range idx[x+1:] {
					if !vis.linked(idx[x], j) {
						continue
					}
					out = append(out, edge{a: idx[x], b: j, kind: model.GroupFamily, shared: dep,
						why: fmt.Sprintf("same scope, major %d, share %s", b.major, dep)})
				}
			}
		}
	}
	return out
}

// pinsExactly reports whether every entry names an exact version.
func pinsExactly(ls []link) bool {
	for _, l := range ls {
		if !semver.IsExact(l.spec) {
			return false
		}
	}
	return len(ls) > 0
}

// peerEdges links across scopes a package released in lockstep with
// another: its target peer-requires the other with a range that the
// other's installed version does not meet, the other has a release at the
// very same version, and the range is anchored there, admitting that
// release and none of an earlier line (react-dom 19.1.0 peer-requires react
// ^19.1.0). A wider range is a companion's requirement, not a release
// train: nx 24 peer-requires typescript ^5.8.0 and @nx/eslint 23
// peer-requires eslint ^9 || ^10, but typescript and eslint are released on
// their own, so moving them never needs nx (Companions plans what moving nx
// drags along).
func peerEdges(c *cache, vis sight) []edge {
	nodes, byName := vis.nodes, vis.byName
	var out []edge
	for i, n := range nodes {
		if !n.hasTgt {
			continue
		}
		for _, dep := range lists.SortedKeys(n.tgt.PeerDependencies) {
			spec := n.tgt.PeerDependencies[dep]
			r := c.rng(spec)
			if len(byName[dep]) == 0 || r == nil || sameScope(n.name, dep) || dep == n.name || !c.anchoredAt(r, dep, n.target) {
				continue
			}
			for _, j := range byName[dep] {
				if r.Satisfies(nodes[j].installed) || !vis.linked(i, j) {
					continue
				}
				out = append(out, edge{a: i, b: j, kind: model.GroupPeer,
					why: fmt.Sprintf("%s %s peer-requires %s %s", n.name, n.target, dep, spec)})
			}
		}
	}
	return out
}

// anchoredAt reports whether range r names the release train of version of
// pkg: pkg has a release at version, r admits it, and r admits none of
// pkg's releases on an earlier line (major.minor).
func (c *cache) anchoredAt(r *semver.Range, pkg, version string) bool {
	t, err := semver.Parse(version)
	if err != nil {
		return false
	}
	rel, ok := c.p.release(pkg, version)
	if !ok || rel.Deprecated != "" || !r.SatisfiesVersion(t) {
		return false
	}
	for _, rv := range c.releases(pkg) {
		if rv.v.Major() < t.Major() || rv.v.Major() == t.Major() && rv.v.Minor() < t.Minor() {
			if r.SatisfiesVersion(rv.v) {
				return false
			}
		}
	}
	return true
}

// pinEdges links across scopes packages pinning the same exact version of
// a package of one of their scopes.
func pinEdges(vis sight) []edge {
	nodes := vis.nodes
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
	for _, pin := range lists.SortedKeys(byPin) {
		idx := byPin[pin]
		dep, v := splitPin(pin)
		for x := 0; x < len(idx); x++ {
			for y := x + 1; y < len(idx); y++ {
				a, b := nodes[idx[x]].name, nodes[idx[y]].name
				if a == b || sameScope(a, b) || !pinWorthSharing(dep, a, b) || !vis.linked(idx[x], idx[y]) {
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
	if len(members) < 2 {
		return model.Group{}, false
	}
	members = append([]int(nil), members...)
	sort.Slice(members, func(x, y int) bool {
		a, b := nodes[members[x]], nodes[members[y]]
		if a.name != b.name {
			return a.name < b.name
		}
		return semver.Compare(a.installed, b.installed) < 0 ||
			semver.Compare(a.installed, b.installed) == 0 && a.installed < b.installed
	})
	majors := map[uint64]bool{}
	s := family(nodes[members[0]].name)
	oneScope, namesake := true, ""
	for _, i := range members {
		if nodes[i].hasMajor {
			majors[nodes[i].major] = true
		}
		if family(nodes[i].name) != s {
			oneScope = false
		}
		if scope(nodes[i].name) == "" {
			namesake = nodes[i].name
		}
	}
	g := model.Group{}
	if oneScope {
		g.Title = fmt.Sprintf("%s/* (%d packages)", s, len(members))
		if namesake != "" {
			// nx and @nx/*: named after the package, which leads.
			g.Title = fmt.Sprintf("%s (%d packages)", namesake, len(members))
			sort.SliceStable(members, func(x, y int) bool {
				return nodes[members[x]].name == namesake && nodes[members[y]].name != namesake
			})
		}
		g.Kind = model.GroupFamily
		if len(majors) > 1 {
			g.Kind = model.GroupExplicit
		}
	} else {
		lead := leadOf(nodes, members, edges)
		g.Title = fmt.Sprintf("%s (%d packages)", lead, len(members))
		// Stable: the lead's nodes move to the front in version order.
		sort.SliceStable(members, func(x, y int) bool {
			return nodes[members[x]].name == lead && nodes[members[y]].name != lead
		})
		g.Kind = model.GroupPeer
		for _, e := range edges {
			if e.kind == model.GroupSharedPin {
				g.Kind = model.GroupSharedPin
			}
		}
	}
	ws := map[string]bool{}
	for _, i := range members {
		g.Members = append(g.Members, nodes[i].name)
		g.Versions = append(g.Versions, nodes[i].installed)
		for _, w := range nodes[i].workspaces {
			ws[w] = true
		}
	}
	g.Workspaces = lists.SortedKeys(ws)
	g.Why = why(g.Kind, nodes, members, edges)
	return g, true
}

// leadOf picks the member a cross-scope group is named after: unscoped
// first (ai, not @ai-sdk/openai), then the one linked to the most other
// members (ai pins with the providers and peer-requires zod; zod is only
// required), then the one most members depend on (react, which react-dom
// peer-requires), then the first by name.
func leadOf(nodes []node, members []int, edges []edge) string {
	inGroup := map[string]bool{}
	for _, i := range members {
		inGroup[nodes[i].name] = true
	}
	names := lists.SortedKeys(inGroup)
	linkedTo := map[string]map[string]bool{}
	mark := func(m map[string]map[string]bool, a, b string) {
		if m[a] == nil {
			m[a] = map[string]bool{}
		}
		m[a][b] = true
	}
	for _, e := range edges {
		a, b := nodes[e.a].name, nodes[e.b].name
		if a != b {
			mark(linkedTo, a, b)
			mark(linkedTo, b, a)
		}
	}
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
					mark(dependedOn, dep, n.name)
				}
			}
		}
	}
	better := func(n, best string) bool {
		if nu, bu := scope(n) == "", scope(best) == ""; nu != bu {
			return nu
		}
		if a, b := len(linkedTo[n]), len(linkedTo[best]); a != b {
			return a > b
		}
		return len(dependedOn[n]) > len(dependedOn[best])
	}
	best := names[0]
	for _, n := range names[1:] {
		if better(n, best) {
			best = n
		}
	}
	return best
}

// clause is one sentence of a group's why and the links it stands for.
type clause struct {
	key   string // identity and tie-break order
	kind  model.GroupKind
	text  string // "" for a shared pin, worded once its sharers are known
	pin   string
	nodes map[int]bool
	edges []edge
}

// maxClauses keeps a why to a line; links beyond are counted.
const maxClauses = 3

// why says what holds the group together: the link of the group's kind
// that most members share, then, while members remain apart, the link that
// joins the most of them, whatever its kind, at most maxClauses in all.
// A link that joins nobody new (two @ai-sdk packages sharing a dependency
// when all three already pin it) is left out.
func why(kind model.GroupKind, nodes []node, members []int, edges []edge) string {
	byKey := map[string]*clause{}
	for _, e := range edges {
		var k string
		switch {
		case e.pin != "":
			k = "pin\x00" + e.pin
		case e.shared != "":
			k = "share\x00" + e.why
		default:
			k = "link\x00" + e.why
		}
		c := byKey[k]
		if c == nil {
			c = &clause{key: k, kind: e.kind, pin: e.pin, nodes: map[int]bool{}}
			if e.pin == "" {
				c.text = e.why
			}
			byKey[k] = c
		}
		c.nodes[e.a], c.nodes[e.b] = true, true
		c.edges = append(c.edges, e)
	}
	var clauses []*clause
	for _, k := range lists.SortedKeys(byKey) {
		clauses = append(clauses, byKey[k])
	}
	uf := newUnionFind(len(nodes))
	parts := len(members)
	// joins counts the parts a clause's links would merge; its members
	// need not be linked among themselves (two pairs of sharers in two
	// workspaces that each see the root).
	joins := func(c *clause) int {
		parent := map[int]int{}
		find := func(x int) int {
			x = uf.find(x)
			for p, ok := parent[x]; ok; p, ok = parent[x] {
				x = p
			}
			return x
		}
		n := 0
		for _, e := range c.edges {
			if a, b := find(e.a), find(e.b); a != b {
				parent[a] = b
				n++
			}
		}
		return n
	}
	var picked []*clause
	pick := func(c *clause) {
		parts -= joins(c)
		for _, e := range c.edges {
			uf.union(e.a, e.b)
		}
		picked = append(picked, c)
	}
	// The first clause is of the group's kind, so the why agrees with it.
	var first *clause
	for _, c := range clauses {
		if c.kind == kind && (first == nil || len(c.nodes) > len(first.nodes)) {
			first = c
		}
	}
	if first != nil {
		pick(first)
	}
	more := 0
	for parts > 1 {
		var best *clause
		bestJ := 0
		for _, c := range clauses {
			j := joins(c)
			if j > bestJ || j == bestJ && j > 0 && c.kind == kind && best.kind != kind {
				best, bestJ = c, j
			}
		}
		if best == nil {
			break
		}
		if len(picked) == maxClauses {
			more++
			parts -= joins(best)
			for _, e := range best.edges {
				uf.union(e.a, e.b)
			}
			continue
		}
		pick(best)
	}
	if len(picked) == 0 {
		return "released together"
	}
	texts := make([]string, 0, len(picked)+1)
	for _, c := range picked {
		texts = append(texts, c.sentence(nodes, members))
	}
	if more > 0 {
		texts = append(texts, fmt.Sprintf("+%d more %s", more, plural(more, "link", "links")))
	}
	return strings.Join(texts, "; ")
}

// sentence words a clause; a shared pin counts its sharers, or names the
// two in the group's order (lead first) when others do not share it.
func (c *clause) sentence(nodes []node, members []int) string {
	if c.pin == "" {
		return c.text
	}
	dep, v := splitPin(c.pin)
	n, size := len(c.nodes), len(members)
	var who string
	switch {
	case n == size && n == 2:
		who = "both"
	case n == size:
		who = fmt.Sprintf("all %d", n)
	case n == 2:
		var names []string
		for _, i := range members {
			if c.nodes[i] {
				names = append(names, nodes[i].name)
			}
		}
		who = names[0] + " and " + names[1]
	default:
		who = fmt.Sprintf("%d of them", n)
	}
	return fmt.Sprintf("%s pin %s %s exactly", who, dep, v)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
