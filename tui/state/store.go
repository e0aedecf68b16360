package state

import (
	"slices"
	"strings"
	"time"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// Why a dependency's target is what it is.
const (
	WhyLatest = "the latest dist-tag"
	WhyPinned = "nothing newer than installed"
	WhyPicked = "picked in the target picker"
)

// whyTarget says why a row's own target is what it is.
func whyTarget(r model.DependencyRow) string {
	switch {
	case r.Target == r.Installed:
		return WhyPinned
	case r.TargetWhy != "":
		return r.TargetWhy
	}
	return WhyLatest
}

// WhyFollows says a group member's target follows the one picked for the
// member leading the move.
func WhyFollows(lead, to, why string) string {
	return "with " + lead + " " + to + ": " + why
}

// Dep is one dependency decision as the planner holds it.
type Dep struct {
	ID  int
	Row model.DependencyRow
	// Target is the version the upgrade goes to; the row's target until
	// the user picks another.
	Target    string
	TargetWhy string
	// Follows, on a group member, names the member whose picked target
	// this one's follows ("" otherwise); TargetWhy says it in words.
	Follows string
	// PickedTarget: Target was picked in the target picker (TargetWhy
	// says so in words).
	PickedTarget bool
	// Update is the update kind from installed to Target.
	Update model.UpdateKind
	// Plan is the companion plan of Target; nil when none was computed
	// (the engine plans majors only until a target is picked).
	Plan    *model.CompanionPlan
	PlanErr error
	// Replanning: a new target's companion plan is on its way.
	Replanning bool
	// Picked is the engine's plan of a picked target: the group members'
	// moves and conflicts, and the commands. Nil until a pick is planned.
	Picked *engine.TargetPlan
	// Conflict, on a group member, says why no release of it goes with
	// the target picked for the group ("" otherwise).
	Conflict string
	Selected bool
	Check    Check
	// Priorities are the plan's advisories and unsupported-line notices
	// on this decision's installed version (ApplyUpgrades).
	Priorities []model.Priority
}

// Group is a release group with the dependencies it holds.
type Group struct {
	model.Group
	// Members are dependency IDs, the lead first.
	Members []int
}

// Store is everything the screens read. The root model writes it, on the
// UI goroutine; the one exception is Dep.Selected, which belongs to the
// table that shows the marks.
type Store struct {
	Report *model.DiscoverReport
	Deps   []Dep
	Groups []Group
	// Discovering: Discover has not returned yet.
	Discovering bool
	// Progress counts registry answers while discovering.
	Done, Total int
	// Err is the discovery error, when Discover failed.
	Err error
	// Now is the clock publish ages are measured against.
	Now func() time.Time
	// groupOf[id] is the index in Groups of dependency id's group, or -1.
	groupOf []int
	// keys[id] is Key of dependency id, in a store Prepare built, for
	// Adopt to carry the selection over without building them on the UI
	// goroutine; nil otherwise.
	keys []string
}

// NewStore returns an empty store, discovering.
func NewStore(now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{Discovering: true, Now: now}
}

// Key names a dependency decision across reloads of the store (the rows
// discovery sends early, then its report): the package as declared, at
// one installed version, in a set of workspaces.
func Key(r model.DependencyRow) string {
	return r.Name + "\x00" + r.Package + "\x00" + r.Installed + "\x00" + r.Catalog + "\x00" + strings.Join(r.Workspaces, ",")
}

// SameDecision reports whether a and b have the same Key, without
// building it.
func SameDecision(a, b model.DependencyRow) bool {
	return a.Name == b.Name && a.Package == b.Package && a.Installed == b.Installed &&
		a.Catalog == b.Catalog && slices.Equal(a.Workspaces, b.Workspaces)
}

// Rows is a batch of the rows discovery knows before its report, as the
// progress pump delivers it.
type Rows struct {
	// Repository, when set, comes with All: every row, replacing what the
	// store holds.
	Repository *model.RepoSummary
	All        []model.DependencyRow
	// ByPackage: the rows of each package the registry answered for since,
	// replacing that package's rows.
	ByPackage map[string][]model.DependencyRow
}

// ApplyRows shows the rows discovery knows so far, while it runs. A
// package whose answer keeps its rows' shape (the usual case: the same
// decisions, now with a target) is updated in place and changed lists the
// IDs touched; otherwise Deps are rebuilt from the rows (reshaped), and
// what the user gave a dependency (its selection) follows it by Key.
// Groups and companions wait for the report.
func (s *Store) ApplyRows(b Rows) (changed []int, reshaped bool) {
	if !s.Discovering {
		return nil, false // the report is in; late rows would only undo it
	}
	if b.Repository != nil {
		s.Report = &model.DiscoverReport{Repository: *b.Repository, Rows: b.All}
		reshaped = true
	}
	if s.Report == nil {
		return nil, false // package rows before the first set: nothing to place them in
	}
	pkgs := lists.SortedKeys(b.ByPackage)
	rows := s.Report.Rows
	for _, p := range pkgs {
		with := b.ByPackage[p]
		if !reshaped {
			if ids, ok := s.updateInPlace(p, with); ok {
				changed = append(changed, ids...)
				continue
			}
			reshaped = true
		}
		rows = replacePackage(rows, p, with)
	}
	s.Report.Rows = rows
	if !reshaped {
		return changed, false
	}
	selected := s.selectedKeys()
	s.Deps = make([]Dep, len(rows))
	for i, r := range rows {
		s.Deps[i] = earlyDep(i, r, len(selected) > 0 && selected[Key(r)])
	}
	s.Groups = nil
	s.groupOf = nil
	return nil, true
}

// Mirror follows discovery's early rows as ApplyRows does, on the
// goroutine that delivers them rather than the UI's, to tell which batch
// changes the store's shape (the first set of rows, a package whose answer
// splits or merges its decisions) and to build that store there. It owns
// its rows: what it is given is copied in, what it builds is copied out.
type Mirror struct {
	repo *model.RepoSummary
	rows []model.DependencyRow
}

// Apply follows a batch and reports whether applying it to the store
// reshapes it (ApplyRows's reshaped).
func (m *Mirror) Apply(b Rows) (reshaped bool) {
	if b.Repository != nil {
		m.repo, m.rows, reshaped = b.Repository, slices.Clone(b.All), true
	}
	if m.repo == nil {
		return false
	}
	pkgs := lists.SortedKeys(b.ByPackage)
	for _, p := range pkgs {
		with := b.ByPackage[p]
		if !reshaped && m.inPlace(p, with) {
			continue
		}
		reshaped = true
		m.rows = replacePackage(m.rows, p, with)
	}
	return reshaped
}

// inPlace replaces pkg's rows where they are when the new ones are the
// same decisions, as updateInPlace does.
func (m *Mirror) inPlace(pkg string, with []model.DependencyRow) bool {
	var at []int
	for i := range m.rows {
		if m.rows[i].Package == pkg {
			at = append(at, i)
		}
	}
	if len(at) != len(with) {
		return false
	}
	for k, i := range at {
		if !SameDecision(m.rows[i], with[k]) {
			return false
		}
	}
	for k, i := range at {
		m.rows[i] = with[k]
	}
	return true
}

// Store builds the store the rows followed so far give while discovering,
// as ApplyRows rebuilds it, for Adopt (which carries the selection over);
// nil before the first set of rows.
func (m *Mirror) Store(now func() time.Time) *Store {
	if m.repo == nil {
		return nil
	}
	s := NewStore(now)
	rows := slices.Clone(m.rows)
	s.Report = &model.DiscoverReport{Repository: *m.repo, Rows: rows}
	s.Deps = make([]Dep, len(rows))
	s.keys = make([]string, len(rows))
	for i, r := range rows {
		s.Deps[i] = earlyDep(i, r, false)
		s.keys[i] = Key(r)
	}
	return s
}

func earlyDep(id int, r model.DependencyRow, selected bool) Dep {
	d := Dep{ID: id, Row: r, Target: r.Target, Update: r.Update, TargetWhy: whyTarget(r), Selected: selected}
	return d
}

// updateInPlace replaces the rows of pkg when the new ones are the same
// decisions (same keys, same order); it reports false otherwise.
func (s *Store) updateInPlace(pkg string, with []model.DependencyRow) ([]int, bool) {
	var ids []int
	for i := range s.Deps {
		if s.Deps[i].Row.Package == pkg {
			ids = append(ids, i)
		}
	}
	if len(ids) != len(with) {
		return nil, false
	}
	for k, id := range ids {
		if !SameDecision(s.Deps[id].Row, with[k]) {
			return nil, false
		}
	}
	for k, id := range ids {
		s.Deps[id] = earlyDep(id, with[k], s.Deps[id].Selected)
		s.Report.Rows[id] = with[k]
	}
	return ids, true
}

// replacePackage puts a package's new rows where its old ones began, so a
// row keeps its place while its target arrives.
func replacePackage(rows []model.DependencyRow, pkg string, with []model.DependencyRow) []model.DependencyRow {
	at := -1
	out := make([]model.DependencyRow, 0, len(rows)+len(with))
	for _, r := range rows {
		if r.Package != pkg {
			out = append(out, r)
		} else if at < 0 {
			at = len(out)
		}
	}
	if at < 0 {
		return append(out, with...)
	}
	return slices.Insert(out, at, with...)
}

func (s *Store) selectedKeys() map[string]bool {
	keys := map[string]bool{}
	for _, d := range s.Deps {
		if d.Selected {
			keys[Key(d.Row)] = true
		}
	}
	return keys
}

// Pending: discovery is still asking the registry about d's package.
func (s *Store) Pending(d *Dep) bool {
	return s.Discovering && d.Row.Target == "" && d.Row.Installed != "" && d.Row.Status != model.RowNotChecked
}

// Load fills the store from a discovery report: one Dep per row, the
// report's companion plans attached to the rows they plan. A selection
// made on the early rows follows its dependency.
func (s *Store) Load(rep *model.DiscoverReport) {
	selected := s.selectedKeys()
	s.Report = rep
	s.Discovering = false
	s.Deps = make([]Dep, len(rep.Rows))
	type planKey struct{ name, from, to string }
	plans := make(map[planKey]*model.CompanionPlan, len(rep.Companions))
	for i := range rep.Companions {
		c := &rep.Companions[i]
		plans[planKey{c.Name, c.From, c.To}] = c
	}
	for i, r := range rep.Rows {
		d := Dep{ID: i, Row: r, Target: r.Target, Update: r.Update, TargetWhy: whyTarget(r)}
		d.Plan = plans[planKey{r.Package, r.Installed, r.Target}]
		d.Selected = len(selected) > 0 && selected[Key(r)]
		s.Deps[i] = d
	}
	byTitle := map[string]int{}
	s.Groups = nil
	for _, g := range rep.Groups {
		byTitle[g.Title] = len(s.Groups)
		s.Groups = append(s.Groups, Group{Group: g})
	}
	s.groupOf = make([]int, len(s.Deps))
	for i, d := range s.Deps {
		s.groupOf[i] = -1
		if gi, ok := byTitle[d.Row.Group]; ok && d.Row.Group != "" {
			s.Groups[gi].Members = append(s.Groups[gi].Members, i)
			s.groupOf[i] = gi
		}
	}
	// The lead (the group's first member) goes first.
	for gi := range s.Groups {
		g := &s.Groups[gi]
		for k, id := range g.Members {
			if len(g.Group.Members) > 0 && s.Deps[id].Row.Package == g.Group.Members[0] {
				g.Members[0], g.Members[k] = g.Members[k], g.Members[0]
				break
			}
		}
	}
}

// Prepare builds the store a discovery report gives, with each release
// group planned at its lead's target (plans and planErrs by lead ID), on
// whatever goroutine delivers the report: it reads only its arguments,
// which nobody writes any more, and the store it returns is new. The UI
// goroutine then only swaps it in (Adopt).
func Prepare(rep *model.DiscoverReport, plans map[int]*engine.TargetPlan, planErrs map[int]error, now func() time.Time) *Store {
	s := NewStore(now)
	s.Load(rep)
	for id, err := range planErrs {
		if id < len(s.Deps) {
			s.Deps[id].PlanErr = err
		}
	}
	// In ID order: a member in two plans (it cannot be, groups are
	// disjoint, but) would follow the same lead on every run.
	ids := make([]int, 0, len(plans))
	for id := range plans {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if id < len(s.Deps) && plans[id] != nil {
			s.ApplyPlan(id, plans[id])
		}
	}
	s.keys = make([]string, len(s.Deps))
	for i, d := range s.Deps {
		s.keys[i] = Key(d.Row)
	}
	return s
}

// Adopt replaces what s holds with next, a store Prepare built that
// nothing else reads or writes any more, keeping what the user gave s
// while next was built: the selections, by Key, and the clock. It costs
// the UI goroutine a pass over the selection, not a rebuild.
func (s *Store) Adopt(next *Store) {
	var selected map[string]bool
	for _, d := range s.Deps {
		if d.Selected {
			if selected == nil {
				selected = map[string]bool{}
			}
			selected[Key(d.Row)] = true
		}
	}
	keys := next.keys
	if keys == nil && len(selected) > 0 {
		keys = make([]string, len(next.Deps))
		for i, d := range next.Deps {
			keys[i] = Key(d.Row)
		}
	}
	now, done, total := s.Now, s.Done, s.Total
	*s = *next
	s.Now, s.Done, s.Total, s.keys = now, done, total, nil
	if len(selected) == 0 {
		return
	}
	for i := range s.Deps {
		if selected[keys[i]] {
			s.Deps[i].Selected = true
		}
	}
}

// GroupIndex returns the index in Groups of dependency id's group, or -1.
func (s *Store) GroupIndex(id int) int {
	if id >= len(s.groupOf) {
		return -1
	}
	return s.groupOf[id]
}

// GroupOf returns the group holding dependency id, or nil.
func (s *Store) GroupOf(id int) *Group {
	if id >= len(s.groupOf) || s.groupOf[id] < 0 {
		return nil
	}
	return &s.Groups[s.groupOf[id]]
}

// SetTarget records a picked target: the update kind follows, the old
// companion plan and check result no longer apply.
func (s *Store) SetTarget(id int, target string) {
	d := &s.Deps[id]
	if target == d.Target && d.PickedTarget {
		return
	}
	d.Target, d.PickedTarget, d.Follows = target, true, ""
	d.TargetWhy = WhyPicked
	d.Update = semver.UpdateKind(d.Row.Installed, target)
	d.Plan, d.PlanErr, d.Picked, d.Conflict = nil, nil, nil, ""
	// Staying put drags nothing along, and the group stays with it.
	d.Replanning = target != d.Row.Installed
	if d.Check.Status == Done || d.Check.Status == Failed {
		d.Check = Check{}
	}
	if !d.Replanning {
		for _, m := range s.Followers(id) {
			if m != id {
				s.follow(m, d.Row.Name, s.Deps[m].Row.Installed, WhyFollows(d.Row.Name, target, "stays"), "")
			}
		}
	}
}

// Followers lists the dependencies of id's release group, id included;
// nil outside a group.
func (s *Store) Followers(id int) []int {
	if g := s.GroupOf(id); g != nil {
		return g.Members
	}
	return nil
}

// ApplyPlan records the plan of the target picked for id: its companions,
// and each group member at the version it moves to (or its conflict).
func (s *Store) ApplyPlan(id int, p *engine.TargetPlan) {
	d := &s.Deps[id]
	d.Picked = p
	d.Plan = &p.Companions
	for _, m := range s.Followers(id) {
		if m == id {
			continue
		}
		md := &s.Deps[m]
		for _, mv := range p.Members {
			if mv.Name == md.Row.Package && mv.From == md.Row.Installed {
				s.follow(m, d.Row.Name, mv.To, WhyFollows(d.Row.Name, p.To, mv.Why), "")
			}
		}
		for _, c := range p.MemberConflicts {
			if c.Name == md.Row.Package && c.From == md.Row.Installed {
				s.follow(m, d.Row.Name, md.Row.Installed, WhyFollows(d.Row.Name, p.To, "no release goes with it"), c.Why)
			}
		}
	}
}

// follow sets a group member's target to where the group's pick takes it;
// its own plan and result no longer apply.
func (s *Store) follow(id int, lead, target, why, conflict string) {
	md := &s.Deps[id]
	md.Target, md.TargetWhy, md.Follows, md.Conflict = target, why, lead, conflict
	md.PickedTarget = false
	md.Update = semver.UpdateKind(md.Row.Installed, target)
	md.Plan, md.PlanErr, md.Picked, md.Replanning = nil, nil, nil, false
	if md.Check.Status == Done || md.Check.Status == Failed {
		md.Check = Check{}
	}
}

// GroupMoves lists id's release group's other members at their targets,
// as the commands name them.
func (s *Store) GroupMoves(id int) []model.Companion {
	var out []model.Companion
	g := s.GroupOf(id)
	if g == nil {
		return nil
	}
	seen := map[string]bool{s.Deps[id].Row.Package: true}
	for _, m := range g.Members {
		md := s.Deps[m]
		if seen[md.Row.Package] {
			continue
		}
		seen[md.Row.Package] = true
		out = append(out, model.Companion{Name: md.Row.Package, From: md.Row.Installed, To: md.Target, Why: "release group " + g.Title,
			Reason: model.CompanionReason{Kind: model.CompanionGroupMember, Follows: s.Deps[id].Row.Package}})
	}
	return out
}

// Next are the check commands of id's upgrade at its target with
// its group at theirs: the engine's, from the plan of a pick, or made the
// same way for the discovered targets.
func (s *Store) Next(id int) []string {
	d := &s.Deps[id]
	if d.Picked != nil && d.Picked.To == d.Target {
		return d.Picked.Next
	}
	if d.Target == "" || d.Target == d.Row.Installed {
		return nil
	}
	return engine.NextCommands("", d.Row.Name, d.Target, s.GroupMoves(id), s.Conflicted(id))
}

// Conflicted: id's upgrade at its target has a companion or group member
// no release agrees with, which fix refuses.
func (s *Store) Conflicted(id int) bool {
	d := &s.Deps[id]
	if d.Picked != nil && d.Picked.To == d.Target {
		return len(d.Picked.Companions.Conflicts) > 0 || len(d.Picked.MemberConflicts) > 0
	}
	conflict := d.Plan != nil && len(d.Plan.Conflicts) > 0
	if g := s.GroupOf(id); g != nil {
		for _, m := range g.Members {
			conflict = conflict || s.Deps[m].Conflict != ""
		}
	}
	return conflict
}

// With lists what moves along with dependency id: its group's other
// members at their targets, then the companions of its plan.
func (s *Store) With(id int) []model.Companion {
	out := s.GroupMoves(id)
	seen := map[string]bool{s.Deps[id].Row.Package: true}
	for _, c := range out {
		seen[c.Name] = true
	}
	if p := s.Deps[id].Plan; p != nil {
		for _, c := range p.Companions {
			if !seen[c.Name] {
				seen[c.Name] = true
				out = append(out, c)
			}
		}
	}
	return out
}
