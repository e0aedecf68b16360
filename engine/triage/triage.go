// Package triage owns the plan across upgrades (`uptide plan`): it turns
// the outdated direct dependencies, their releases, the registry's security
// advisories and whatever check results exist into steps — a package, a
// release group or a package with its companions, or the batch of upgrades
// checked ✓ no impact — ordered under their constraints (a TypeScript
// floor, a peer range that needs another upgrade first), with each step's
// priorities and effort. Cycles are reported, never guessed. It is pure:
// the same inputs give the same plan.
package triage

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// Input is what a plan is made from.
type Input struct {
	// Rows are discovery's dependency rows; the outdated ones are planned.
	Rows []model.DependencyRow
	// Only, when set, names the packages to plan (and what moves with
	// them); otherwise every outdated row is.
	Only []string
	// Releases are the packages' registry documents, by package name, with
	// publish times when the registry gave them; a missing one only leaves
	// its release-based priorities and constraints out.
	Releases map[string]*model.Packument
	// Advisories are the registry's advisories by package name, covering
	// the installed versions (AdvisoryStatus says whether they were asked).
	Advisories     map[string][]model.Advisory
	AdvisoryStatus model.AdvisoryStatus
	// Checks are check results by the package each checked: a report
	// covers its package, its release group's members and its companions.
	Checks map[string]*model.PackageReport
	// Now dates the unsupported-line rule (no release for 12 months).
	Now time.Time
}

// BatchID is the cheap batch's step id.
const BatchID = "cheap-batch"

// unsupportedAfter is how long a major line may go without a release,
// while a newer major exists, before it counts as no longer supported.
const unsupportedAfter = 365 * 24 * time.Hour

// Plan makes the plan.
func Plan(in Input) model.UpgradePlan {
	rows := planned(in)
	steps := buildSteps(in, rows)
	byName := map[string]*step{}
	for _, s := range steps {
		for _, m := range s.Moves {
			byName[m.Name] = s
		}
	}
	for _, s := range steps {
		constrain(in, s, byName)
	}
	for _, s := range steps {
		prioritize(in, s, rows)
	}
	steps = batch(steps)
	out := model.UpgradePlan{Steps: []model.PlanStep{}, Cycles: [][]string{}, Unchecked: []string{}, Advisories: in.AdvisoryStatus}
	ordered, cycles := order(steps)
	if len(cycles) > 0 {
		out.Cycles = cycles
	}
	for _, s := range ordered {
		sort.Slice(s.Priorities, func(i, j int) bool { return priorityLess(s.Priorities[i], s.Priorities[j]) })
		out.Steps = append(out.Steps, s.PlanStep)
		if !s.Checked {
			out.Unchecked = append(out.Unchecked, s.ID)
			continue
		}
		out.Totals.Sites += s.Effort.Sites
		out.Totals.ByRule += s.Effort.ByRule
		out.Totals.ByAgent += s.Effort.ByAgent
		out.Totals.Manual += s.Effort.Manual
		out.Totals.Files += s.Effort.Files
	}
	return out
}

// step is a plan step while it is built: the step and the constraints
// that point at other steps.
type step struct {
	model.PlanStep
	// after are the ids of the steps that must move first.
	after map[string]string
	// reports are the check results covering the step.
	reports []*model.PackageReport
}

// Planned are the outdated dependencies Plan's steps move, by package,
// from in's rows and checks (Releases and Advisories are not read): the
// registry documents Plan reads are theirs.
func Planned(in Input) []string {
	moves := map[string]bool{}
	for _, s := range buildSteps(in, planned(in)) {
		for _, m := range s.Moves {
			moves[m.Name] = true
		}
	}
	var out []string
	for _, r := range in.Rows {
		if r.Status == model.RowOK && !r.Update.IsZero() && moves[r.Name] && !slices.Contains(out, r.Package) {
			out = append(out, r.Package)
		}
	}
	slices.Sort(out)
	return out
}

// planned are the rows to plan, by name: outdated ones the registry
// answered for, narrowed to Only.
func planned(in Input) map[string]model.DependencyRow {
	only := map[string]bool{}
	for _, n := range in.Only {
		only[n] = true
	}
	out := map[string]model.DependencyRow{}
	for _, r := range in.Rows {
		if r.Status != model.RowOK || r.Update.IsZero() || r.Target == "" || r.Target == r.Installed {
			continue
		}
		if _, seen := out[r.Name]; seen {
			continue
		}
		out[r.Name] = r
	}
	if len(only) == 0 {
		return out
	}
	// What moves with a named package is planned with it.
	keep := map[string]bool{}
	for n := range only {
		keep[n] = true
		if r, ok := out[n]; ok && r.Group != "" {
			for m, o := range out {
				if o.Group == r.Group {
					keep[m] = true
				}
			}
		}
		if rep := in.Checks[n]; rep != nil {
			for _, c := range covered(rep) {
				keep[c] = true
			}
		}
	}
	for n := range out {
		if !keep[n] {
			delete(out, n)
		}
	}
	return out
}

// covered are the packages a check report moves.
func covered(rep *model.PackageReport) []string {
	names := []string{rep.Package}
	for _, m := range rep.Members {
		names = append(names, m.Name)
	}
	for _, c := range rep.Companions.Companions {
		names = append(names, c.Name)
	}
	return names
}

// buildSteps joins the rows that must move together: a release group's
// members, and a checked package with its companions.
func buildSteps(in Input, rows map[string]model.DependencyRow) []*step {
	parent := map[string]string{}
	var find func(string) string
	find = func(n string) string {
		if p, ok := parent[n]; ok && p != n {
			r := find(p)
			parent[n] = r
			return r
		}
		parent[n] = n
		return n
	}
	union := func(a, b string) {
		ra, rb := find(a), find(b)
		if ra != rb {
			if rb < ra {
				ra, rb = rb, ra
			}
			parent[rb] = ra
		}
	}
	names := lists.SortedKeys(rows)
	groups := map[string]string{}
	for _, n := range names {
		find(n)
		if g := rows[n].Group; g != "" {
			if first, ok := groups[g]; ok {
				union(first, n)
			} else {
				groups[g] = n
			}
		}
	}
	reports := map[string]*model.PackageReport{}
	for _, n := range names {
		rep := in.Checks[n]
		if rep == nil || rep.Target != "" && rep.Target != rows[n].Target {
			// A check of another target says nothing of this one.
			continue
		}
		reports[n] = rep
		for _, c := range covered(rep) {
			if _, ok := rows[c]; ok {
				union(n, c)
			}
		}
	}
	sets := map[string][]string{}
	for _, n := range names {
		r := find(n)
		sets[r] = append(sets[r], n)
	}
	var out []*step
	for _, root := range lists.SortedKeys(sets) {
		members := sets[root]
		s := &step{PlanStep: model.PlanStep{ID: lead(members, reports), Moves: []model.StepMove{}, After: []model.StepAfter{}, Priorities: []model.Priority{}},
			after: map[string]string{}}
		moved := map[string]bool{}
		for _, n := range members {
			r := rows[n]
			why := "the upgrade"
			if n != s.ID {
				why = "moves with " + s.ID
				if r.Group != "" && r.Group == rows[s.ID].Group {
					why = "release group " + r.Group
				}
			}
			s.Moves = append(s.Moves, model.StepMove{Name: n, From: r.Installed, To: r.Target, Update: r.Update, Why: why})
			moved[n] = true
			if rep := reports[n]; rep != nil {
				s.reports = append(s.reports, rep)
			}
		}
		// Companions that are no direct dependency move too: the check
		// says so, and fix moves them.
		for _, rep := range s.reports {
			for _, c := range rep.Companions.Companions {
				if moved[c.Name] {
					continue
				}
				moved[c.Name] = true
				s.Moves = append(s.Moves, model.StepMove{Name: c.Name, From: c.From, To: c.To, Why: c.Why})
			}
		}
		s.reports = authoritative(s.reports)
		judge(s, rows)
		out = append(out, s)
	}
	return out
}

// authoritative drops the report of a package another report of the
// step covers: the check that moved it along (react's, for react-dom; a
// package's, for the @types package it removes) judged it in context,
// where its own check judged it alone.
func authoritative(reports []*model.PackageReport) []*model.PackageReport {
	var out []*model.PackageReport
	for _, r := range reports {
		inner := false
		for _, o := range reports {
			if o == r || o.Package == r.Package {
				continue
			}
			for _, c := range covered(o) {
				if c == r.Package {
					inner = true
				}
			}
		}
		if !inner {
			out = append(out, r)
		}
	}
	return out
}

// lead is the step's name: the checked package whose report covers the
// most of the step, else the first name.
func lead(members []string, reports map[string]*model.PackageReport) string {
	best, most := members[0], -1
	for _, n := range members {
		rep := reports[n]
		if rep == nil {
			continue
		}
		if c := len(covered(rep)); c > most {
			best, most = n, c
		}
	}
	return best
}

// judge sets the step's check state: checked when a report covers every
// direct dependency it moves, the worst verdict, the effort summed.
func judge(s *step, rows map[string]model.DependencyRow) {
	cov := map[string]bool{}
	for _, rep := range s.reports {
		for _, c := range covered(rep) {
			cov[c] = true
		}
	}
	s.Checked = len(s.reports) > 0
	for _, m := range s.Moves {
		if _, direct := rows[m.Name]; direct && !cov[m.Name] {
			s.Checked = false
		}
	}
	s.Verdict = model.VerdictUnchecked
	if !s.Checked {
		return
	}
	files := map[string]bool{}
	worst := -1
	for _, rep := range s.reports {
		if w := verdictRank(rep); w > worst {
			worst, s.Verdict, s.Reason = w, VerdictOf(rep), ""
			if w == 2 {
				s.Reason = rep.Reason
			}
		}
		t := rep.Plan.Totals
		s.Effort.Sites += t.Sites
		s.Effort.ByRule += t.ByRule
		s.Effort.ByAgent += t.ByAgent
		s.Effort.Manual += t.Manual
		inRule := map[string]bool{}
		for _, r := range rep.Plan.Rules {
			for _, id := range r.Findings {
				inRule[id] = true
			}
		}
		for _, f := range rep.Findings {
			if inRule[f.ID] && f.File != "" {
				files[f.File] = true
			}
		}
	}
	s.Effort.Files = len(files)
}

// VerdictOf is a report's verdict in the plan's words.
func VerdictOf(rep *model.PackageReport) model.Verdict {
	switch {
	case rep.Status == model.StatusNotAnalyzed:
		return model.VerdictUnknown
	case rep.Verdict == model.VerdictNone && rep.Status == model.StatusSkipped:
		return model.VerdictSafe
	case rep.Verdict == model.VerdictNone:
		return model.VerdictUnknown
	}
	return rep.Verdict
}

// verdictRank orders reports from the best verdict to the worst.
func verdictRank(rep *model.PackageReport) int { return VerdictOf(rep).Rank() }

// constrain finds what must move before s: the TypeScript its targets'
// declarations need, and the packages their peer ranges need moved first.
func constrain(in Input, s *step, byName map[string]*step) {
	for _, rep := range s.reports {
		for _, f := range rep.Findings {
			min, ok := strings.CutPrefix(f.Replacement, "typescript@>=")
			if f.Change != "newer-typescript" || !ok {
				continue
			}
			ts := byName["typescript"]
			switch {
			case ts == nil:
				s.block(fmt.Sprintf("%s needs TypeScript ≥ %s, and typescript is not an upgrade this plan can make", rep.Package, min))
			case ts == s:
			case !satisfiesMin(moveOf(ts, "typescript").To, min):
				s.block(fmt.Sprintf("%s needs TypeScript ≥ %s; typescript goes only to %s", rep.Package, min, moveOf(ts, "typescript").To))
			default:
				s.needs(ts, fmt.Sprintf("%s %s's declarations need TypeScript ≥ %s", rep.Package, rep.Target, min))
			}
		}
	}
	for _, m := range s.Moves {
		rel := release(in, m.Name, m.To)
		if rel == nil {
			continue
		}
		for _, peer := range lists.SortedKeys(rel.PeerDependencies) {
			rng := rel.PeerDependencies[peer]
			other := byName[peer]
			if other == nil || other == s || rel.PeerDependenciesMeta[peer].Optional {
				continue
			}
			pm := moveOf(other, peer)
			if semver.Satisfies(pm.From, rng) {
				continue
			}
			if !semver.Satisfies(pm.To, rng) {
				s.block(fmt.Sprintf("%s %s peer-requires %s %s, which neither %s nor the planned %s satisfies", m.Name, m.To, peer, rng, pm.From, pm.To))
				continue
			}
			s.needs(other, fmt.Sprintf("%s %s peer-requires %s %s", m.Name, m.To, peer, rng))
		}
	}
}

// needs records that first must move before s, and that first blocks s.
func (s *step) needs(first *step, why string) {
	if _, ok := s.after[first.ID]; ok {
		return
	}
	s.after[first.ID] = why
	s.After = append(s.After, model.StepAfter{Step: first.ID, Why: why})
	for i, p := range first.Priorities {
		if p.Kind == model.PriorityBlocking {
			first.Priorities[i].Count++
			first.Priorities[i].Reason = fmt.Sprintf("%s wait for it", plural(first.Priorities[i].Count, "step"))
			return
		}
	}
	first.Priorities = append(first.Priorities, model.Priority{Kind: model.PriorityBlocking, Package: first.ID, Count: 1,
		Reason: s.ID + " waits for it: " + why})
}

func (s *step) block(why string) {
	if s.Blocked == "" {
		s.Blocked = why
	}
}

func moveOf(s *step, name string) model.StepMove {
	for _, m := range s.Moves {
		if m.Name == name {
			return m
		}
	}
	return model.StepMove{}
}

func release(in Input, name, version string) *model.Release {
	p := in.Releases[name]
	if p == nil {
		return nil
	}
	r, ok := p.Versions[version]
	if !ok {
		return nil
	}
	return &r
}

func satisfiesMin(v, min string) bool { return semver.Satisfies(v, ">="+min) }

// prioritize says why each step matters now.
func prioritize(in Input, s *step, rows map[string]model.DependencyRow) {
	for _, m := range s.Moves {
		r, direct := rows[m.Name]
		if !direct {
			continue
		}
		for _, a := range in.Advisories[m.Name] {
			if !semver.Satisfies(r.Installed, a.VulnerableVersions) {
				continue
			}
			p := model.Priority{Kind: model.PriorityAdvisory, Package: m.Name, Severity: a.Severity, URL: a.URL,
				FixedIn: fixedIn(in, m.Name, r.Installed, a.VulnerableVersions)}
			p.Reason = fmt.Sprintf("%s (%s) covers %s", a.Title, a.Severity, r.Installed)
			switch {
			case p.FixedIn == "":
				p.Reason += "; no release outside its range is known"
			case semver.Satisfies(m.To, a.VulnerableVersions):
				p.Reason += fmt.Sprintf("; fixed in %s, and the target %s is still covered", p.FixedIn, m.To)
			default:
				p.Reason += "; fixed in " + p.FixedIn
			}
			s.Priorities = append(s.Priorities, p)
		}
		if r.Deprecated != "" {
			s.Priorities = append(s.Priorities, model.Priority{Kind: model.PriorityDeprecated, Package: m.Name,
				Reason: fmt.Sprintf("%s %s is deprecated: %s", m.Name, r.Installed, r.Deprecated)})
		}
		if why := unsupported(in, m.Name, r.Installed); why != "" {
			s.Priorities = append(s.Priorities, model.Priority{Kind: model.PriorityUnsupported, Package: m.Name, Reason: why})
		}
		if n := r.Update.Majors; n > 0 {
			s.Priorities = append(s.Priorities, model.Priority{Kind: model.PriorityBehind, Package: m.Name, Count: n,
				Reason: fmt.Sprintf("%s behind (%s %s → %s)", plural(n, "major"), m.Name, r.Installed, r.Target)})
		}
	}
}

// fixedIn is the smallest release above installed that the advisory's
// range does not cover.
func fixedIn(in Input, name, installed, vulnerable string) string {
	p := in.Releases[name]
	if p == nil {
		return ""
	}
	var best *semver.Version
	from, err := semver.Parse(installed)
	if err != nil {
		return ""
	}
	for v := range p.Versions {
		sv, err := semver.Parse(v)
		if err != nil || sv.Prerelease() != "" || sv.Compare(from) <= 0 || semver.Satisfies(v, vulnerable) {
			continue
		}
		if best == nil || sv.Compare(best) < 0 {
			best = sv
		}
	}
	if best == nil {
		return ""
	}
	return best.String()
}

// unsupported says why the installed major line counts as no longer
// supported: no release on it for 12 months while a newer major exists.
func unsupported(in Input, name, installed string) string {
	p := in.Releases[name]
	if p == nil || len(p.Time) == 0 || in.Now.IsZero() {
		return ""
	}
	cur, err := semver.Parse(installed)
	if err != nil {
		return ""
	}
	var last time.Time
	newer := ""
	for v := range p.Versions {
		sv, err := semver.Parse(v)
		if err != nil || sv.Prerelease() != "" {
			continue
		}
		switch {
		case sv.Major() == cur.Major():
			if t, err := time.Parse(time.RFC3339, p.Time[v]); err == nil && t.After(last) {
				last = t
			}
		case sv.Major() > cur.Major() && (newer == "" || sv.Major() > mustMajor(newer)):
			newer = strconv.FormatUint(sv.Major(), 10)
		}
	}
	if newer == "" || last.IsZero() || in.Now.Sub(last) < unsupportedAfter {
		return ""
	}
	// The reason names the date, not the months since: the same inputs
	// say the same words whatever day the plan is made.
	return fmt.Sprintf("%s %s: no %d.x release for over 12 months (the last on %s) while %s.x exists", name, installed, cur.Major(), last.Format("2006-01-02"), newer)
}

func mustMajor(s string) uint64 {
	n, _ := strconv.ParseUint(s, 10, 64)
	return n
}

// batch joins the steps checked ✓ no impact, free to move at once, into
// the cheap batch (when there are two or more).
func batch(steps []*step) []*step {
	var cheap, rest []*step
	for _, s := range steps {
		if s.Checked && s.Verdict == model.VerdictSafe && len(s.After) == 0 && s.Blocked == "" {
			cheap = append(cheap, s)
		} else {
			rest = append(rest, s)
		}
	}
	if len(cheap) < 2 {
		return steps
	}
	b := &step{PlanStep: model.PlanStep{ID: BatchID, Batch: true, Checked: true, Verdict: model.VerdictSafe, Moves: []model.StepMove{},
		After: []model.StepAfter{}, Priorities: []model.Priority{}}, after: map[string]string{}}
	joined := map[string]bool{}
	for _, s := range cheap {
		joined[s.ID] = true
		b.Moves = append(b.Moves, s.Moves...)
		b.Priorities = append(b.Priorities, s.Priorities...)
		b.Effort.Files += s.Effort.Files
	}
	for _, s := range rest {
		for i, a := range s.After {
			if joined[a.Step] {
				delete(s.after, a.Step)
				s.After[i].Step = BatchID
				s.after[BatchID] = a.Why
			}
		}
	}
	return append([]*step{b}, rest...)
}

// order places the steps: a step after those it needs, the most urgent
// first among those free to move. Steps in a cycle, or after a blocked
// one, come last, blocked, and the cycles are returned.
func order(steps []*step) ([]*step, [][]string) {
	byID := map[string]*step{}
	for _, s := range steps {
		byID[s.ID] = s
	}
	placed := map[string]bool{}
	var out []*step
	for {
		var free []*step
		for _, s := range steps {
			if placed[s.ID] || s.Blocked != "" {
				continue
			}
			ready := true
			for id := range s.after {
				if !placed[id] {
					ready = false
				}
			}
			if ready {
				free = append(free, s)
			}
		}
		if len(free) == 0 {
			break
		}
		sort.Slice(free, func(i, j int) bool { return urgent(free[i], free[j]) })
		placed[free[0].ID] = true
		out = append(out, free[0])
	}
	cycles := findCycles(steps, placed)
	inCycle := map[string][]string{}
	for _, c := range cycles {
		for _, id := range c {
			inCycle[id] = c
		}
	}
	var rest []*step
	for _, s := range steps {
		if placed[s.ID] {
			continue
		}
		switch c := inCycle[s.ID]; {
		case s.Blocked != "":
		case c != nil:
			s.Blocked = "cycle: " + strings.Join(append(append([]string{}, c...), c[0]), " → ")
		default:
			for _, a := range s.After {
				if !placed[a.Step] {
					s.Blocked = "after " + a.Step + ", which cannot move"
					break
				}
			}
		}
		rest = append(rest, s)
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].ID < rest[j].ID })
	return append(out, rest...), cycles
}

// findCycles are the strongly connected sets of two or more unplaced steps
// (Tarjan), each from its smallest id, in order.
func findCycles(steps []*step, placed map[string]bool) [][]string {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var out [][]string
	byID := map[string]*step{}
	for _, s := range steps {
		byID[s.ID] = s
	}
	n := 0
	var visit func(id string)
	visit = func(id string) {
		index[id], low[id] = n, n
		n++
		stack = append(stack, id)
		onStack[id] = true
		for _, next := range lists.SortedKeys(byID[id].after) {
			if placed[next] || byID[next] == nil {
				continue
			}
			if _, seen := index[next]; !seen {
				visit(next)
				low[id] = min(low[id], low[next])
			} else if onStack[next] {
				low[id] = min(low[id], index[next])
			}
		}
		if low[id] == index[id] {
			var scc []string
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				scc = append(scc, top)
				if top == id {
					break
				}
			}
			if len(scc) > 1 {
				out = append(out, cycleOrder(scc, byID))
			}
		}
	}
	for _, s := range steps {
		if _, seen := index[s.ID]; !seen && !placed[s.ID] {
			visit(s.ID)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// cycleOrder walks a cycle's steps from its smallest id along "needs".
func cycleOrder(scc []string, byID map[string]*step) []string {
	in := map[string]bool{}
	for _, id := range scc {
		in[id] = true
	}
	sort.Strings(scc)
	out := []string{scc[0]}
	seen := map[string]bool{scc[0]: true}
	for cur := scc[0]; ; {
		next := ""
		for _, id := range lists.SortedKeys(byID[cur].after) {
			if in[id] && !seen[id] {
				next = id
				break
			}
		}
		if next == "" {
			break
		}
		seen[next] = true
		out = append(out, next)
		cur = next
	}
	for _, id := range scc {
		if !seen[id] {
			out = append(out, id)
		}
	}
	return out
}

// urgent orders the steps free to move: advisories (by severity), then
// deprecated, unsupported, blocking and majors behind; then the cheap
// batch; then by id.
func urgent(a, b *step) bool {
	ka, kb := rank(a), rank(b)
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] > kb[i]
		}
	}
	if a.Batch != b.Batch {
		return a.Batch
	}
	return a.ID < b.ID
}

func rank(s *step) [5]int {
	var k [5]int
	for _, p := range s.Priorities {
		switch p.Kind {
		case model.PriorityAdvisory:
			k[0] = max(k[0], severityRank(p.Severity))
		case model.PriorityDeprecated:
			k[1] = 1
		case model.PriorityUnsupported:
			k[2] = 1
		case model.PriorityBlocking:
			k[3] += p.Count
		case model.PriorityBehind:
			k[4] = max(k[4], p.Count)
		}
	}
	return k
}

func severityRank(s string) int {
	switch s {
	case "critical":
		return 4
	case "high":
		return 3
	case "moderate":
		return 2
	case "low":
		return 1
	}
	return 0
}

var kindRank = map[model.PriorityKind]int{model.PriorityAdvisory: 0, model.PriorityDeprecated: 1, model.PriorityUnsupported: 2,
	model.PriorityBlocking: 3, model.PriorityBehind: 4}

func priorityLess(a, b model.Priority) bool {
	if a.Kind != b.Kind {
		return kindRank[a.Kind] < kindRank[b.Kind]
	}
	if a.Kind == model.PriorityAdvisory && a.Severity != b.Severity {
		return severityRank(a.Severity) > severityRank(b.Severity)
	}
	if a.Package != b.Package {
		return a.Package < b.Package
	}
	return a.Reason < b.Reason
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return strconv.Itoa(n) + " " + w + "s"
}
