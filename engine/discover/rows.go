package discover

import (
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/groups"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// buildRows merges declarations into dependency decisions: the same package
// at the same installed version and target across workspaces is one row, a
// catalog: dependency is one row, different installed versions stay apart.
func buildRows(decls []decl, packs groups.Packuments, failures map[string]error) []model.DependencyRow {
	rows := map[string]*model.DependencyRow{}
	var order []string
	for _, d := range decls {
		row := model.DependencyRow{
			Name: d.d.Name, Package: d.d.Package, Catalog: d.d.Catalog,
			Installed: d.version, InstalledSource: d.source, Status: model.RowOK, Reason: d.reason,
		}
		if p := packs[d.d.Package]; p != nil {
			fillAvailable(&row, d, p)
		} else if err := failures[d.d.Package]; err != nil {
			row.Status, row.Reason = model.RowNotChecked, err.Error()
		}
		key := strings.Join([]string{row.Name, row.Package, row.Installed, row.Target}, "\x00")
		if row.Catalog != "" {
			key = "catalog\x00" + row.Catalog + "\x00" + key
		}
		r := rows[key]
		if r == nil {
			r = &row
			rows[key] = r
			order = append(order, key)
		}
		r.Workspaces = lists.AppendUnique(r.Workspaces, d.ws)
		r.Types = lists.AppendUnique(r.Types, d.d.Type)
		r.Specs = lists.AppendUnique(r.Specs, d.d.Spec)
	}
	out := make([]model.DependencyRow, 0, len(order))
	for _, k := range order {
		r := rows[k]
		sort.Strings(r.Workspaces)
		sort.Strings(r.Specs)
		sort.Slice(r.Types, func(i, j int) bool { return r.Types[i] < r.Types[j] })
		r.Shared = len(r.Workspaces) > 1
		r.ImportingFiles = []string{}
		out = append(out, *r)
	}
	return out
}

// fillAvailable sets latest, target, update kind and deprecation from the
// packument. A dist-tag specifier targets its own tag; a version above latest
// (a prerelease already installed) is its own target.
func fillAvailable(row *model.DependencyRow, d decl, p *model.Packument) {
	row.Latest = p.DistTags["latest"]
	row.Target = row.Latest
	if d.d.Kind == model.SpecTag {
		if v, ok := p.DistTags[d.d.Range]; ok {
			row.Target = v
		}
	}
	if row.Installed == "" {
		return
	}
	if row.Target == "" || semver.Compare(row.Target, row.Installed) < 0 {
		row.Target = row.Installed
	}
	row.Update = semver.UpdateKind(row.Installed, row.Target)
	if rel, ok := p.Versions[row.Installed]; ok {
		row.Deprecated = rel.Deprecated
	}
	if rel, ok := p.Versions[row.Target]; ok && row.Target != row.Installed {
		row.TargetDeprecated = rel.Deprecated
	}
}

// groupDeps is the input of the group and companion rules: every registry
// dependency whose installed version and metadata are known.
func groupDeps(decls []decl, packs groups.Packuments) []groups.Dep {
	var deps []groups.Dep
	for _, d := range decls {
		if d.version == "" || packs[d.d.Package] == nil {
			continue
		}
		deps = append(deps, groups.Dep{Name: d.d.Package, Installed: d.version, Workspace: d.ws})
	}
	return deps
}

// markGroups gives each row the group holding its package at its installed
// version: the same package at another version is another decision, in
// another group or none.
func markGroups(rows []model.DependencyRow, gs []model.Group) {
	member := map[string]string{}
	for _, g := range gs {
		for i, m := range g.Members {
			if i < len(g.Versions) {
				member[m+"@"+g.Versions[i]] = g.Title
			}
		}
	}
	for i := range rows {
		rows[i].Group = member[rows[i].Package+"@"+rows[i].Installed]
	}
}

// sharedTargets holds the rows of a lockstep group whose member tops out
// below the others' latest (storybook 10 exists, its addon-essentials
// stops at 8.6.19) at the newest release every member has
// (groups.Index.SharedTarget), so list, the planner and check all move
// the group to a state an install of the family can have. A row whose
// target is not its latest (a dist-tag specifier) is left as it is.
func sharedTargets(rows []model.DependencyRow, gs []model.Group, packs groups.Packuments) {
	ix := groups.NewIndex(packs)
	byMember := map[string]int{}
	for i, r := range rows {
		byMember[r.Package+"@"+r.Installed] = i
	}
	for _, g := range gs {
		var idx []int
		for i, m := range g.Members {
			if i >= len(g.Versions) {
				break
			}
			if r, ok := byMember[m+"@"+g.Versions[i]]; ok && rows[r].Target == rows[r].Latest && rows[r].Target != "" {
				idx = append(idx, r)
			}
		}
		if len(idx) != len(g.Members) {
			continue
		}
		lead := rows[idx[0]]
		to, why := ix.SharedTarget(g, groups.Dep{Name: lead.Package, Installed: lead.Installed, Workspace: lead.Workspaces[0], Target: lead.Target}, lead.Target)
		if why == "" {
			continue
		}
		for _, i := range idx {
			if semver.Compare(rows[i].Target, to) <= 0 {
				continue
			}
			rows[i].Target, rows[i].TargetWhy = to, why
			rows[i].Update = semver.UpdateKind(rows[i].Installed, to)
			rows[i].TargetDeprecated = ""
			if rel, ok := packs[rows[i].Package].Versions[to]; ok {
				rows[i].TargetDeprecated = rel.Deprecated
			}
		}
	}
}

// companionPlans plans the latest target of every major upgrade.
func companionPlans(rows []model.DependencyRow, deps []groups.Dep, packs groups.Packuments) []model.CompanionPlan {
	var plans []model.CompanionPlan
	seen := map[string]bool{}
	ix := groups.NewIndex(packs)
	for _, r := range rows {
		if r.Status != model.RowOK || !r.Update.IsMajor() {
			continue
		}
		key := r.Package + "@" + r.Installed + ">" + r.Target
		if seen[key] {
			continue
		}
		seen[key] = true
		target := groups.Dep{Name: r.Package, Installed: r.Installed, Workspace: r.Workspaces[0], Target: r.Target}
		plans = append(plans, ix.Companions(target, r.Target, deps))
	}
	sort.Slice(plans, func(i, j int) bool {
		if plans[i].Name != plans[j].Name {
			return plans[i].Name < plans[j].Name
		}
		return plans[i].From < plans[j].From
	})
	return plans
}

// importerScan is the text scan of the sources for importing files, run
// beside the registry requests: it needs only the declared names.
type importerScan struct {
	done chan struct{}
	byWS map[string]map[string][]string
	err  error
}

func scanImporters(r *model.Repository, decls []decl) *importerScan {
	var names []string
	seen := map[string]bool{}
	for _, d := range decls {
		if !seen[d.d.Name] {
			seen[d.d.Name] = true
			names = append(names, d.d.Name)
		}
	}
	s := &importerScan{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.byWS, s.err = repo.ImportersByWorkspace(r, names)
	}()
	return s
}

// addImporters fills each row's importing files from the scan of the
// workspaces the row belongs to (each file read once).
func addImporters(rows []model.DependencyRow, scan *importerScan) error {
	<-scan.done
	if scan.err != nil {
		return scan.err
	}
	for i, row := range rows {
		for _, ws := range row.Workspaces {
			rows[i].ImportingFiles = mergeSorted(rows[i].ImportingFiles, scan.byWS[ws][row.Name])
		}
	}
	return nil
}

// partialRows builds the rows Discover shows before its report, from the
// same declarations and by the same merge as the report's rows.
type partialRows struct {
	decls []decl
	byPkg map[string][]decl
}

func newPartialRows(decls []decl) *partialRows {
	p := &partialRows{decls: decls, byPkg: map[string][]decl{}}
	for _, d := range decls {
		p.byPkg[d.d.Package] = append(p.byPkg[d.d.Package], d)
	}
	return p
}

// all is every row with its installed version and no target yet.
func (p *partialRows) all() []model.DependencyRow {
	return p.finish(buildRows(p.decls, nil, nil))
}

// of is the rows of one package once the registry answered for it (pk)
// or failed (err).
func (p *partialRows) of(name string, pk *model.Packument, err error) []model.DependencyRow {
	packs, failures := groups.Packuments{}, map[string]error{}
	if err != nil {
		failures[name] = err
	} else if pk != nil {
		packs[name] = pk
	}
	return p.finish(buildRows(p.byPkg[name], packs, failures))
}

func (p *partialRows) finish(rows []model.DependencyRow) []model.DependencyRow {
	for i := range rows {
		rows[i].ImportingFiles = nil // not scanned yet, which an empty list would deny
	}
	sortRows(rows)
	return rows
}

func mergeSorted(a, b []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range append(append([]string{}, a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// urgency orders update kinds: majors first (more majors crossed first),
// then minor, patch, up to date, unknown, not checked.
func urgency(r model.DependencyRow) int {
	switch {
	case r.Status != model.RowOK:
		return 1000
	case r.Installed == "":
		return 900
	case r.Update.IsMajor():
		return 0
	case r.Update.Level == model.LevelMinor:
		return 100
	case r.Update.Level == model.LevelPatch:
		return 200
	case r.Update.Level == model.LevelPrerelease:
		return 250
	}
	return 300
}

// sortRows puts majors first, then by importing files, then by name.
func sortRows(rows []model.DependencyRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if ua, ub := urgency(a), urgency(b); ua != ub {
			return ua < ub
		}
		if len(a.ImportingFiles) != len(b.ImportingFiles) {
			return len(a.ImportingFiles) > len(b.ImportingFiles)
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Installed != b.Installed {
			return semver.Compare(a.Installed, b.Installed) < 0
		}
		return strings.Join(a.Workspaces, ",") < strings.Join(b.Workspaces, ",")
	})
}
