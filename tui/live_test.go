package tui_test

import (
	"reflect"
	"testing"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui"
)

func TestCheckOptionsOfARequest(t *testing.T) {
	req := tui.CheckRequest{
		Row:    model.DependencyRow{Name: "react", Package: "react", Workspaces: []string{"packages/web"}, Installed: "18.3.1", Group: "react"},
		Target: "19.1.0",
		With: []model.Companion{
			{Name: "react-dom", From: "18.3.1", To: "19.1.0", Why: "release group react",
				Reason: model.CompanionReason{Kind: model.CompanionGroupMember, Follows: "react"}},
			{Name: "@types/react", From: "18.3.12", To: "19.1.2", Why: "peer range of react-dom",
				Reason: model.CompanionReason{Kind: model.CompanionRule, Follows: "react-dom"}},
			// The words decide nothing: only the reason makes a member.
			{Name: "@types/react-dom", From: "18.3.1", To: "19.1.1", Why: "release group react",
				Reason: model.CompanionReason{Kind: model.CompanionRule, Follows: "react-dom"}},
		},
	}
	got := tui.CheckOptionsOf(req)
	want := engine.CheckOptions{
		Packages: []string{"react"},
		// Companions outside the group are fix's to resolve.
		Targets: map[string]string{"react": "19.1.0", "react-dom": "19.1.0"},
		Group:   true, Compile: true,
		// The planner's check runs the runtime probe, as uptide check does.
		Runtime: true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("checkOptions:\n got %+v\nwant %+v", got, want)
	}
	// An alias is asked about by the name the manifests use.
	alias := tui.CheckOptionsOf(tui.CheckRequest{Row: model.DependencyRow{Name: "old-react", Package: "react"}, Target: "17.0.2"})
	if !reflect.DeepEqual(alias.Packages, []string{"old-react"}) || alias.Targets["old-react"] != "17.0.2" || alias.Group {
		t.Errorf("alias options = %+v", alias)
	}
}

func TestReportForPicksTheRowsReport(t *testing.T) {
	rep := &model.CheckReport{Packages: []model.PackageReport{
		{Title: "zod", Package: "zod", Installed: "3.22.4", Workspaces: []string{"packages/api"}, Summary: "api"},
		{Title: "zod", Package: "zod", Installed: "3.25.76", Workspaces: []string{"packages/web"}, Summary: "web"},
	}}
	for _, tc := range []struct {
		name string
		row  model.DependencyRow
		want string
		err  bool
	}{
		{"the web copy", model.DependencyRow{Name: "zod", Package: "zod", Installed: "3.25.76", Workspaces: []string{"packages/web"}}, "web", false},
		{"the api copy", model.DependencyRow{Name: "zod", Package: "zod", Installed: "3.22.4", Workspaces: []string{"packages/api"}}, "api", false},
		{"an unknown package", model.DependencyRow{Name: "left-pad", Package: "left-pad"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tui.ReportFor(rep, tui.CheckRequest{Row: tc.row})
			if tc.err {
				if err == nil {
					t.Fatalf("got %+v, want an error", got)
				}
				return
			}
			if err != nil || got.Summary != tc.want {
				t.Fatalf("got %+v, %v; want the %s report", got, err, tc.want)
			}
		})
	}
	// A group's report is found by its title.
	grp := &model.CheckReport{Packages: []model.PackageReport{{Title: "react (2 packages)", Package: "react-dom", Summary: "group"}, {Title: "x", Package: "x"}}}
	got, err := tui.ReportFor(grp, tui.CheckRequest{Row: model.DependencyRow{Name: "react", Package: "react", Group: "react (2 packages)"}})
	if err != nil || got.Summary != "group" {
		t.Fatalf("group report: %+v, %v", got, err)
	}
}

func TestPhaseLabels(t *testing.T) {
	for p, want := range map[engine.Phase]string{
		engine.PhaseRegistry: "fetching", engine.PhaseFetch: "fetching",
		engine.PhaseSurface: "reading declarations", engine.PhaseUsages: "finding usages",
		engine.PhaseCompile: "compiling target", engine.PhaseInstall: "checking install",
	} {
		if got := tui.PhaseLabel(p); got != want {
			t.Errorf("phase %s reads %q, want %q", p, got, want)
		}
	}
}
