package home_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/home"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/view"
)

// The planner's dependency table says what list says of each row (issue
// 25 item 3): the words come from view.Row, so a shared row is "shared:"
// on both, and a deprecated alias carries list's marks.
func TestRowsSpeakAsList(t *testing.T) {
	rows := []model.DependencyRow{
		{Name: "is-number", Package: "is-number", Workspaces: []string{".", "packages/web"}, Shared: true, Installed: "6.0.0", Target: "7.0.0", Update: model.Major(1), Status: model.RowOK, ImportingFiles: []string{"a.ts"}},
		{Name: "old-lodash", Package: "lodash", Workspaces: []string{"packages/api"}, Installed: "3.10.1", Target: "4.17.21", Update: model.Major(1), Status: model.RowOK, ImportingFiles: []string{}, Deprecated: "use lodash 4"},
		{Name: "ghost", Package: "ghost", Workspaces: []string{"."}, Target: "2.0.0", Status: model.RowOK, Reason: "not in package-lock.json", ImportingFiles: []string{}},
		{Name: "private", Package: "private", Workspaces: []string{"."}, Installed: "1.0.0", Status: model.RowNotChecked, Reason: "401 Unauthorized"},
	}
	rep := &model.DiscoverReport{Repository: model.RepoSummary{Name: "acme", PackageManager: "npm", Workspaces: []string{".", "packages/web", "packages/api"}}, Rows: rows}
	m := home.New(&state.Shared{Store: state.Prepare(rep, nil, nil, nil)})
	m.SetSize(200, 20)
	screen := ansi.Strip(m.View())
	for _, r := range rows {
		v := view.Row(r)
		var line string
		for _, l := range strings.Split(screen, "\n") {
			if strings.Contains(l, " "+r.Name+" ") {
				line = l
			}
		}
		if line == "" {
			t.Fatalf("no line for %s in:\n%s", r.Name, screen)
		}
		want := []string{v.Where, v.Versions, v.Kind.Text, v.Look.Text}
		for _, n := range v.Notes {
			want = append(want, n.Mark.Text)
		}
		for _, w := range want {
			if !strings.Contains(line, w) {
				t.Errorf("%s's line %q lacks list's %q", r.Name, line, w)
			}
		}
	}
}
