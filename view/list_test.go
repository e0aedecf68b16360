package view_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// list's report as shown, every row cell, note and tone, held by a
// golden: `uptide list` draws exactly this, and the planner's table
// takes its rows' words from view.Row.
func TestListGolden(t *testing.T) {
	for name, r := range listReports() {
		for _, all := range []bool{false, true} {
			name := name
			if all {
				name += "-all"
			}
			t.Run(name, func(t *testing.T) {
				golden(t, filepath.Join("testdata", "list-"+name+".golden"), drawList(view.NewList(r, all)))
			})
		}
	}
}

// drawList writes a list view with its tones marked.
func drawList(v view.List) string {
	var b strings.Builder
	b.WriteString("uptide · " + v.Head + "\n== rows\n")
	for _, r := range v.Rows {
		notes := make([]string, len(r.Notes))
		for i, n := range r.Notes {
			notes[i] = fmt.Sprintf("%d:%s", n.Kind, marked(view.Line{n.Mark}))
			if n.Detail != "" {
				notes[i] += "(" + n.Detail + ")"
			}
		}
		fmt.Fprintf(&b, "%s | %s | %s | %s | files %q | notes %s [%s] | look %s\n", r.Name, r.Where, r.Versions, marked(view.Line{r.Kind}),
			r.Files, marked(view.Line{{Text: r.NotesText(), Tone: r.NotesTone()}}), strings.Join(notes, ", "), marked(view.Line{r.Look}))
	}
	fmt.Fprintf(&b, "hidden %d\n== groups\n", v.Hidden)
	for _, g := range v.Groups {
		fmt.Fprintf(&b, "%s: %s | %s | %s\n", g.Title, g.Members, g.Why, g.Check)
	}
	b.WriteString("== companions\n")
	for _, c := range v.Companions {
		b.WriteString(c.Head + "\n")
		for _, r := range c.Rows {
			fmt.Fprintf(&b, "  %s | %s | %s | conflict %v\n", r.Name, r.Versions, r.Why, r.Conflict)
		}
	}
	b.WriteString("== skipped\n")
	for _, s := range v.Skipped {
		fmt.Fprintf(&b, "%s (%s) %s\n", s.Name, s.Where, s.Reason)
	}
	b.WriteString("== not checked\n")
	for _, h := range v.NotChecked {
		fmt.Fprintf(&b, "%s: %s: %s\n", h.Host, h.Reason, strings.Join(h.Names, ", "))
	}
	b.WriteString("== unknown\n")
	for _, l := range v.Unknown {
		b.WriteString(marked(l) + "\n")
	}
	b.WriteString("== problems\n" + strings.Join(v.Problems, "\n") + "\n== notes\n" + strings.Join(v.Notes, "\n") + "\n")
	return b.String()
}

// The planner's marks for a companion plan: the companions beyond the
// group's own members, the conflicts.
func TestPlanMarks(t *testing.T) {
	p := &model.CompanionPlan{Companions: []model.Companion{{Name: "a"}, {Name: "b"}, {Name: "c"}}, Conflicts: []model.Conflict{{Name: "x"}}}
	got := marked(view.PlanMarks(p, map[string]bool{"a": true}))
	if want := "[dim]+2 companions[/][bad]✗ 1 conflict[/]"; got != want {
		t.Errorf("PlanMarks = %q, want %q", got, want)
	}
	if got := view.PlanMarks(nil, nil); got != nil {
		t.Errorf("PlanMarks(nil) = %v", got)
	}
}

func listReports() map[string]*model.DiscoverReport {
	files := []string{"src/a.ts", "src/b.ts"}
	rich := &model.DiscoverReport{
		Repository: model.RepoSummary{Name: "mono", PackageManager: "pnpm", Lockfile: "pnpm-lock.yaml", Workspaces: []string{".", "packages/web", "packages/api"}},
		Rows: []model.DependencyRow{
			{Name: "zod", Package: "zod", Workspaces: []string{"."}, Installed: "3.23.8", Target: "4.0.17", Update: model.Major(1), Status: model.RowOK, ImportingFiles: files, Deprecated: "use v4", Group: "zod"},
			{Name: "react", Package: "react", Workspaces: []string{".", "packages/web"}, Shared: true, Installed: "17.0.2", Target: "19.1.0", Update: model.Major(2), Status: model.RowOK, ImportingFiles: []string{}, Group: "react"},
			{Name: "old-lodash", Package: "lodash", Workspaces: []string{"packages/api"}, Installed: "3.10.1", Target: "4.17.21", Update: model.Major(1), Status: model.RowOK, ImportingFiles: files},
			{Name: "typescript", Package: "typescript", Workspaces: []string{"."}, Catalog: "default", Installed: "5.4.5", Target: "5.8.3", Update: model.UpdateKind{Level: model.LevelMinor}, Status: model.RowOK, ImportingFiles: []string{}},
			{Name: "vite", Package: "vite", Workspaces: []string{"packages/web"}, Catalog: "build", Installed: "5.0.0", Target: "5.0.3", Update: model.UpdateKind{Level: model.LevelPatch}, Status: model.RowOK},
			{Name: "left-pad", Package: "left-pad", Workspaces: []string{"."}, Installed: "1.3.0", Target: "1.3.0", Status: model.RowOK, ImportingFiles: []string{}, Deprecated: "use String.prototype.padStart"},
			{Name: "ghost", Package: "ghost", Workspaces: []string{"packages/api"}, Target: "2.0.0", Status: model.RowOK, Reason: "not in pnpm-lock.yaml", ImportingFiles: []string{}},
			{Name: "pre", Package: "pre", Workspaces: []string{"."}, Installed: "1.0.0", Target: "1.0.1-rc.1", Update: model.UpdateKind{Level: model.LevelPrerelease}, Status: model.RowOK, ImportingFiles: []string{}},
			{Name: "private-a", Package: "private-a", Workspaces: []string{"."}, Installed: "1.0.0", Status: model.RowNotChecked, Reason: "401 Unauthorized"},
		},
		Groups: []model.Group{
			{Title: "react", Kind: model.GroupFamily, Members: []string{"react", "react-dom"}, Why: "released together"},
			{Title: "zod and friends", Kind: "peer", Members: []string{"zod", "@hookform/resolvers"}, Why: "peers"},
		},
		Companions: []model.CompanionPlan{
			{Name: "zod", From: "3.23.8", To: "4.0.17",
				Companions: []model.Companion{{Name: "@hookform/resolvers", From: "3.9.0", To: "5.1.1", Why: "peer zod ^4"}, {Name: "@types/zod", From: "1.0.0", Remove: true, Why: "zod ships its types"}, {Name: "zod-new", To: "1.0.0", Why: "new peer"}, {Name: "zod-q", Why: "no release"}},
				Conflicts:  []model.Conflict{{Name: "zod-form", From: "1.0.0", Why: "no release accepts zod 4"}}},
			{Name: "react", From: "17.0.2", To: "19.1.0"},
		},
		Skipped:    []model.Skipped{{Name: "local", Workspace: "packages/web", Spec: "link:../local", Reason: "a local link"}, {Name: "gh", Workspace: ".", Spec: "github:a/b", Reason: "a git dependency"}},
		NotChecked: []model.NotChecked{{Name: "private-a", Host: "npm.corp.example", Reason: "401 Unauthorized"}, {Name: "private-b", Host: "npm.corp.example", Reason: "401 Unauthorized"}, {Name: "c", Reason: "timeout"}},
		Problems:   []model.Problem{{File: "packages/web/package.json", Line: 3, Message: "bad spec"}, {File: ".npmrc", Message: "unreadable"}},
		Notes:      []string{"a note"},
	}
	broken := &model.DiscoverReport{Repository: model.RepoSummary{Name: "e", PackageManager: "yarn", Workspaces: []string{"."}},
		Problems: []model.Problem{{File: "yarn.lock", Message: "cannot parse"}}}
	return map[string]*model.DiscoverReport{"rich": rich, "broken-lockfile": broken}
}

// What list's table shows without --all is what the planner shows before
// `m`: a major, or an unknown installed version.
func TestUrgent(t *testing.T) {
	for _, tc := range []struct {
		k         model.UpdateKind
		installed string
		want      bool
	}{
		{model.Major(2), "1.0.0", true},
		{model.UpdateKind{Level: model.LevelMinor}, "", true},
		{model.UpdateKind{Level: model.LevelMinor}, "1.0.0", false},
		{model.UpdateKind{}, "1.0.0", false},
	} {
		if got := view.Urgent(tc.k, tc.installed); got != tc.want {
			t.Errorf("Urgent(%v, %q) = %v", tc.k, tc.installed, got)
		}
	}
}
