package home_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/home"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/view"
)

// The planner's title counts what list's header counts on the same
// report (issue 25 item 7): a group member held at its installed version
// by the group's plan is still behind, and a row the registry did not
// answer for is not counted.
func TestTitleCountsAsList(t *testing.T) {
	row := func(name, installed, target, update, group string) model.DependencyRow {
		var kind model.UpdateKind
		_ = kind.UnmarshalText([]byte(update)) // "": up to date
		return model.DependencyRow{Name: name, Package: name, Workspaces: []string{"."}, Installed: installed,
			Target: target, Latest: target, Update: kind, Group: group, Status: "ok"}
	}
	rep := &model.DiscoverReport{
		Repository: model.RepoSummary{Name: "acme", PackageManager: "npm", Workspaces: []string{"."}},
		Rows: []model.DependencyRow{
			row("lead", "1.0.0", "2.0.0", "major", "lead (2 packages)"),
			row("member", "1.0.0", "2.0.0", "major", "lead (2 packages)"),
			row("minor-one", "1.0.0", "1.1.0", "minor", ""),
			row("current", "1.0.0", "1.0.0", "", ""),
			{Name: "unanswered", Package: "unanswered", Workspaces: []string{"."}, Installed: "1.0.0", Update: model.UpdateKind{Level: model.LevelMinor}, Status: "not-checked"},
			{Name: "unanswered-too", Package: "unanswered-too", Workspaces: []string{"."}, Installed: "1.0.0", Update: model.UpdateKind{Level: model.LevelMinor}, Status: "not-checked"},
		},
		Groups: []model.Group{{Title: "lead (2 packages)", Members: []string{"lead", "member"}}},
	}
	plans := map[int]*engine.TargetPlan{0: {Name: "lead", From: "1.0.0", To: "2.0.0", Group: "lead (2 packages)",
		MemberConflicts: []model.Conflict{{Name: "member", From: "1.0.0", Why: "no release goes with lead 2.0.0"}}}}
	s := state.Prepare(rep, plans, nil, nil)
	if !s.Deps[1].Update.IsZero() {
		t.Fatalf("the held member's update is %q: the fixture no longer holds it", s.Deps[1].Update)
	}
	m := home.New(&state.Shared{Store: s})
	behind, majors := view.Behind(rep.Rows)
	if behind != 3 || majors != 2 {
		t.Fatalf("view.Behind = %d, %d; want 3 behind, 2 major", behind, majors)
	}
	if want := fmt.Sprintf("%d behind, %d major", behind, majors); !strings.Contains(m.Title(), want) {
		t.Errorf("title %q; want list's %q", m.Title(), want)
	}
}
