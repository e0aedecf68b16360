package discover

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/groups"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/plan"
	"github.com/uptide/uptide/engine/registry"
)

// TargetPlan is the upgrade of one dependency decision to a chosen target:
// where the other members of its release group go with it, what the whole
// move drags along, and the commands that check and apply it.
type TargetPlan struct {
	Name, From, To string
	// Group is the title of the row's release group, "" without one.
	Group string
	// Members are the group's other members, each with the version it
	// moves to (To == From when it stays) and why; in the group's order.
	Members []model.Companion
	// MemberConflicts are members no release of agrees with the target.
	MemberConflicts []model.Conflict
	// Companions plans the packages outside the group that move: the
	// lead's companions and those of every moving member, merged by name.
	Companions model.CompanionPlan
	// Next are the `uptide check` commands of this move.
	Next []string
}

// PlanTargetOptions configures PlanTarget.
type PlanTargetOptions struct {
	// Report is the discovery the row comes from.
	Report *model.DiscoverReport
	// Client answers for the registry documents; Discover's client has
	// them in memory.
	Client *registry.Client
	// CwdArg is --cwd as the user wrote it, for the commands; empty when
	// Uptide ran inside the repository.
	CwdArg string
}

// PlanTarget re-plans row's upgrade for target: the members of its release
// group follow (see groups.Index.MemberTargets) and the companions of the
// lead and of every moving member are planned, over the dependencies
// Discover planned with.
func PlanTarget(ctx context.Context, opts PlanTargetOptions, row model.DependencyRow, target string) (*TargetPlan, error) {
	rep := opts.Report
	if rep == nil {
		return nil, fmt.Errorf("plan of %s: discovery has not finished", row.Name)
	}
	if row.Installed == "" || len(row.Workspaces) == 0 {
		return nil, fmt.Errorf("plan of %s: its installed version is unknown; run the package manager's install", row.Name)
	}
	packs, deps, err := PlannedDeps(ctx, opts.Client, rep.Rows)
	if err != nil {
		return nil, fmt.Errorf("plan of %s: %w", row.Name, err)
	}
	if _, ok := packs[row.Package]; !ok {
		return nil, fmt.Errorf("plan of %s: the registry did not answer for it", row.Name)
	}
	ix := groups.NewIndex(packs)
	lead := groups.Dep{Name: row.Package, Installed: row.Installed, Workspace: row.Workspaces[0], Target: target}
	tp := &TargetPlan{Name: row.Name, From: row.Installed, To: target, Members: []model.Companion{}, MemberConflicts: []model.Conflict{}}

	inGroup := map[string]bool{row.Package: true}
	movers := []groups.Dep{lead}
	if g := groupOfRow(rep, row); g != nil {
		tp.Group = g.Title
		for _, m := range g.Members {
			inGroup[m] = true
		}
		tp.Members, tp.MemberConflicts = ix.MemberTargets(*g, lead, target, deps)
		for _, m := range tp.Members {
			if m.To != m.From {
				movers = append(movers, groups.Dep{Name: m.Name, Installed: m.From, Workspace: workspaceOf(rep, m.Name, m.From, lead.Workspace), Target: m.To})
			}
		}
	}
	tp.Companions = model.CompanionPlan{Name: row.Package, From: row.Installed, To: target, Companions: []model.Companion{}, Conflicts: []model.Conflict{}}
	seen := map[string]bool{}
	for _, m := range movers {
		p := ix.Companions(m, m.Target, deps)
		for _, c := range p.Companions {
			if !inGroup[c.Name] && !seen[c.Name] {
				seen[c.Name] = true
				tp.Companions.Companions = append(tp.Companions.Companions, c)
			}
		}
		for _, c := range p.Conflicts {
			if !inGroup[c.Name] && !seen[c.Name] {
				seen[c.Name] = true
				tp.Companions.Conflicts = append(tp.Companions.Conflicts, c)
			}
		}
	}
	sort.Slice(tp.Companions.Companions, func(i, j int) bool { return tp.Companions.Companions[i].Name < tp.Companions.Companions[j].Name })
	sort.Slice(tp.Companions.Conflicts, func(i, j int) bool { return tp.Companions.Conflicts[i].Name < tp.Companions.Conflicts[j].Name })
	tp.Next = NextCommands(opts.CwdArg, row.Name, target, tp.Members, len(tp.Companions.Conflicts)+len(tp.MemberConflicts) > 0)
	return tp, nil
}

// NextCommands are the `uptide check … --details` and `uptide fix` commands moving name to
// target with the members that move along (a member whose To equals its
// From stays and is not named); with a companion conflict, which fix
// refuses, only the check command.
func NextCommands(cwdArg, name, target string, members []model.Companion, conflict bool) []string {
	var ms []plan.Target
	for _, m := range members {
		if m.To != "" && m.To != m.From {
			ms = append(ms, plan.Target{Name: m.Name, Version: m.To})
		}
	}
	// Members moving along need --group unless they share the lead's
	// scope (a one-scope group, which check takes with any member).
	group := false
	for _, m := range ms {
		group = group || scopeOf(m.Name) == "" || scopeOf(m.Name) != scopeOf(name)
	}
	return plan.Next(plan.Repo{Cwd: cwdArg, Group: group, Conflict: conflict}, name, target, ms)
}

// groupOfRow is the release group holding row's package at its installed
// version.
func groupOfRow(rep *model.DiscoverReport, row model.DependencyRow) *model.Group {
	if row.Group == "" {
		return nil
	}
	for i := range rep.Groups {
		g := &rep.Groups[i]
		if g.Title != row.Group {
			continue
		}
		for k, m := range g.Members {
			if m == row.Package && k < len(g.Versions) && g.Versions[k] == row.Installed {
				return g
			}
		}
	}
	return nil
}

// workspaceOf is a workspace declaring pkg at installed, preferring from:
// a member's companions are looked for from where it is declared.
func workspaceOf(rep *model.DiscoverReport, pkg, installed, from string) string {
	for _, r := range rep.Rows {
		if r.Package != pkg || r.Installed != installed || len(r.Workspaces) == 0 {
			continue
		}
		for _, w := range r.Workspaces {
			if w == from {
				return w
			}
		}
		return r.Workspaces[0]
	}
	return from
}

// PlannedDeps are what companion plans and group moves are planned over:
// the registry document of every row with an installed version, and each
// row as a dependency of each of its workspaces. err is the first registry
// failure; the documents that did come are returned with it.
func PlannedDeps(ctx context.Context, client *registry.Client, rows []model.DependencyRow) (groups.Packuments, []groups.Dep, error) {
	packs := groups.Packuments{}
	var deps []groups.Dep
	var first error
	for _, r := range rows {
		if r.Installed == "" || r.Status != model.RowOK {
			continue
		}
		if _, ok := packs[r.Package]; !ok {
			p, err := client.Packument(ctx, r.Package, false)
			if err != nil {
				if first == nil {
					first = err
				}
				continue
			}
			packs[r.Package] = p
		}
		for _, ws := range r.Workspaces {
			deps = append(deps, groups.Dep{Name: r.Package, Installed: r.Installed, Workspace: ws})
		}
	}
	return packs, deps, first
}

// scopeOf is the npm scope of a package name ("@aws-sdk"), "" without one.
func scopeOf(name string) string {
	if scope, _, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(scope, "@") {
		return scope
	}
	return ""
}
