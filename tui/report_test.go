package tui_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/tui"
	"github.com/uptide/uptide/tui/state"
)

// earlyOf is rep's rows as discovery sends them before any registry
// answer: installed versions, no targets, no groups.
func earlyOf(rep *model.DiscoverReport) []model.DependencyRow {
	early := make([]model.DependencyRow, len(rep.Rows))
	for i, r := range rep.Rows {
		r.Target, r.Latest, r.Update, r.Group, r.ImportingFiles = "", "", model.UpdateKind{}, "", nil
		early[i] = r
	}
	return early
}

var pkgName = regexp.MustCompile(`@scope\d+/package-\d+`)

// cursorName is the package on the cursor line ("" when none).
func cursorName(app *tui.App) string {
	for _, l := range strings.Split(app.View(), "\n") {
		if strings.HasPrefix(l, "❯") {
			return pkgName.FindString(l)
		}
	}
	return ""
}

// selectedNames lists the packages marked selected on screen.
func selectedNames(app *tui.App) string {
	var names []string
	for _, l := range strings.Split(app.View(), "\n") {
		if strings.HasPrefix(l, "●") || strings.HasPrefix(l, "❯●") || strings.HasPrefix(l, " ●") {
			names = append(names, pkgName.FindString(l))
		}
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// A report prepared off the UI goroutine, after the user moved, selected,
// filtered and sorted the early rows, lands as the report applied on the
// UI goroutine lands: same screen, the cursor on its dependency, the
// selection, filter and sort kept.
func TestPreparedReportKeepsWhatTheUserDid(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		// want on screen after the report
		want []string
		// cursorKept: the cursor stays on the dependency it was on;
		// otherwise it is on the first row.
		cursorKept bool
	}{
		{name: "untouched cursor goes to the top", keys: []string{"m"}},
		{name: "moved cursor stays on its dependency", keys: []string{"m", "down", "down", "down", "down", "down"}, cursorKept: true},
		{name: "cursor on a group member stays on it", keys: []string{"m", "down", "down"}, cursorKept: true},
		{name: "selection follows its dependency", keys: []string{"m", "down", "down", "down", "down", "space", "space", "up"}, want: []string{"2 selected"}, cursorKept: true},
		{name: "filter stays", keys: []string{"m", "/", "0", "4", "enter", "down", "down", "down"}, want: []string{"filter: 04", "package-0049"}, cursorKept: true},
		{name: "sort stays", keys: []string{"m", "s", "down", "down"}, want: []string{"sort: name"}, cursorKept: true},
		{name: "minor and patch hidden again", keys: []string{"m", "m"}, want: []string{"minor/patch/current hidden"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := bigReport(60)
			apps := make([]*tui.App, 2)
			before, selBefore := "", ""
			for i := range apps {
				app := tui.New(tui.Options{Engine: idleEngine{}, Renderer: asciiRenderer(), Now: func() time.Time { return now }})
				t.Cleanup(func() { app.Wait(time.Second) })
				app.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
				app.Update(tui.ProgressMsg{Rows: &state.Rows{Repository: &rep.Repository, All: earlyOf(rep)}})
				for _, k := range tc.keys {
					app.Update(keyMsg(k))
				}
				before, selBefore = cursorName(app), selectedNames(app)
				apps[i] = app
			}
			// Prepared as the discovery command does, before the UI
			// goroutine sees it; the other app applies it where it lands.
			prepared := tui.PreparedReport(apps[0], state.DiscoveredMsg{Report: rep})
			apps[0].Update(prepared)
			apps[1].Update(state.DiscoveredMsg{Report: rep})

			got := apps[0].View()
			if other := apps[1].View(); got != other {
				t.Fatalf("prepared report:\n%s\napplied on the UI goroutine:\n%s", got, other)
			}
			wantIn(t, got, " behind, ")
			for _, w := range tc.want {
				wantIn(t, got, w)
			}
			after := cursorName(apps[0])
			switch {
			case tc.cursorKept && after != before:
				t.Errorf("cursor moved from %s to %s:\n%s", before, after, got)
			case !tc.cursorKept && !strings.Contains(firstRow(got), after):
				t.Errorf("cursor on %s, want the first row:\n%s", after, got)
			}
			if sel := selectedNames(apps[0]); sel != selBefore {
				t.Errorf("selected %q after the report, %q before:\n%s", sel, selBefore, got)
			}
		})
	}
}

// The discovery command prepares the report while the UI goroutine keeps
// handling keys and progress over the early rows; under -race this is
// the proof that the preparation reads nothing the UI writes.
func TestReportPreparedWhileTheUIRuns(t *testing.T) {
	rep := bigReport(1000)
	release := make(chan struct{})
	f := scriptedEngine(func(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error) {
		events(engine.Event{Phase: engine.PhaseLockfile, Finished: true, Rows: &engine.PartialRows{Repository: &rep.Repository, Rows: earlyOf(rep)}})
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return rep, nil
	})
	h := newHarness(t, f, 140, 40)
	h.until("the early rows", func() bool { return h.contains("package-0000") })
	h.press("m", "down", "down", "space")
	close(release)
	keys := []string{"down", "up", "s", "down", "s", "s"}
	for i := 0; !h.discovered(); i++ {
		if i > 100000 {
			t.Fatalf("no report; the screen is:\n%s", h.view())
		}
		h.send(keyMsg(keys[i%len(keys)]))
		select {
		case m := <-h.inbox:
			h.send(m)
		default:
		}
	}
	wantIn(t, h.view(), "1 selected")
	wantIn(t, h.view(), "1000 dependencies")
}

// scriptedEngine discovers with a script; nothing else answers.
type scriptedEngine func(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error)

func (s scriptedEngine) Discover(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error) {
	return s(ctx, events)
}
func (scriptedEngine) Versions(context.Context, string) (*model.Packument, error) { return nil, nil }
func (scriptedEngine) Plan(context.Context, model.DependencyRow, string) (*engine.TargetPlan, error) {
	return nil, nil
}
func (scriptedEngine) Check(context.Context, tui.CheckRequest, func(tui.CheckEvent)) (*tui.CheckResult, error) {
	return nil, nil
}
func (scriptedEngine) Fix(context.Context, tui.CheckRequest, func(model.Phase, string), tui.Review) (*fix.Report, error) {
	return nil, nil
}
func (scriptedEngine) Upgrades(context.Context, []string) (*model.UpgradePlanReport, error) {
	return &model.UpgradePlanReport{}, nil
}
func (scriptedEngine) Checked(context.Context, model.DependencyRow, []string) (map[string]model.Verdict, *model.Ceiling, error) {
	return nil, nil, nil
}
func (scriptedEngine) FixBatch(context.Context, []string, map[string]string, func(model.Phase, string)) (*fix.Report, error) {
	return nil, nil
}
