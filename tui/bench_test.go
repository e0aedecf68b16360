package tui_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/tui"
	"github.com/uptide/uptide/tui/state"
)

// bigReport is a repository of n dependency decisions: majors, minors and
// current rows across ten workspaces, one release group per 20 rows, a
// companion plan per major.
func bigReport(n int) *model.DiscoverReport {
	rep := &model.DiscoverReport{Repository: model.RepoSummary{Name: "big", PackageManager: "pnpm", Workspaces: []string{"."}}}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("@scope%d/package-%04d", i/20, i)
		r := model.DependencyRow{Name: name, Package: name, Workspaces: []string{fmt.Sprintf("packages/app-%d", i%10)},
			Installed: "1.2.3", InstalledSource: model.FromLockfile, Status: model.RowOK, ImportingFiles: make([]string, i%37)}
		switch i % 3 {
		case 0:
			r.Target, r.Latest, r.Update = "2.0.0", "2.0.0", model.Major(1)
			rep.Companions = append(rep.Companions, model.CompanionPlan{Name: name, From: "1.2.3", To: "2.0.0",
				Companions: []model.Companion{{Name: "@types/x", From: "1.0.0", To: "2.0.0", Why: "types of it"}}})
		case 1:
			r.Target, r.Latest, r.Update = "1.4.0", "1.4.0", model.UpdateKind{Level: model.LevelMinor}
		default:
			r.Target, r.Latest = "1.2.3", "1.2.3"
		}
		if i%20 < 3 {
			r.Group = fmt.Sprintf("@scope%d/* (3 packages)", i/20)
		}
		rep.Rows = append(rep.Rows, r)
	}
	for g := 0; g*20 < n; g++ {
		var members, versions []string
		for i := g * 20; i < g*20+3 && i < n; i++ {
			members = append(members, rep.Rows[i].Package)
			versions = append(versions, "1.2.3")
		}
		rep.Groups = append(rep.Groups, model.Group{Title: fmt.Sprintf("@scope%d/* (3 packages)", g), Kind: model.GroupFamily,
			Members: members, Versions: versions, Why: "same scope"})
	}
	return rep
}

type idleEngine struct{}

func (idleEngine) Discover(context.Context, func(engine.Event)) (*model.DiscoverReport, error) {
	return nil, nil
}
func (idleEngine) Versions(context.Context, string) (*model.Packument, error) { return nil, nil }
func (idleEngine) Plan(context.Context, model.DependencyRow, string) (*engine.TargetPlan, error) {
	return nil, nil
}
func (idleEngine) Check(context.Context, tui.CheckRequest, func(tui.CheckEvent)) (*tui.CheckResult, error) {
	return nil, nil
}
func (idleEngine) Fix(context.Context, tui.CheckRequest, func(model.Phase, string), tui.Review) (*fix.Report, error) {
	return nil, nil
}
func (idleEngine) Upgrades(context.Context, []string) (*model.UpgradePlanReport, error) {
	return nil, nil
}
func (idleEngine) Checked(context.Context, model.DependencyRow, []string) (map[string]model.Verdict, *model.Ceiling, error) {
	return nil, nil, nil
}
func (idleEngine) FixBatch(context.Context, []string, map[string]string, func(model.Phase, string)) (*fix.Report, error) {
	return nil, nil
}

// loaded is an app showing 1,000 rows with every row visible (m) and two
// checks running; commands are not run, so nothing changes behind the
// benchmark's back.
func loaded(b *testing.B) *tui.App {
	app := tui.New(tui.Options{Engine: idleEngine{}, Renderer: asciiRenderer(), Now: func() time.Time { return now }})
	b.Cleanup(func() { app.Wait(time.Second) })
	app.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	app.Update(state.DiscoveredMsg{Report: bigReport(1000)})
	app.Update(keyMsg("m"))
	app.Update(state.CheckMsg{IDs: []int{0, 3, 6}})
	return app
}

func BenchmarkView1000Rows(b *testing.B) {
	app := loaded(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = app.View()
	}
}

func BenchmarkUpdateKeyDown1000Rows(b *testing.B) {
	app := loaded(b)
	down, up := keyMsg("down"), keyMsg("up")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%200 < 100 {
			app.Update(down)
		} else {
			app.Update(up)
		}
		i++
	}
}

// A batch of check progress, as the pump delivers it while two checks run.
func BenchmarkUpdateCheckProgress1000Rows(b *testing.B) {
	app := loaded(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		app.Update(tui.ProgressMsg{Checks: map[int]state.CheckEvent{
			0: {Phase: "compiling target", Done: i % 40, Total: 40},
			3: {Phase: "extracting surfaces", Done: i % 7, Total: 7},
		}})
	}
}

// Typing into the filter rebuilds the table on every key.
func BenchmarkUpdateFilterKey1000Rows(b *testing.B) {
	app := loaded(b)
	app.Update(keyMsg("/"))
	typed, erase := keyMsg("7"), keyMsg("backspace")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			app.Update(typed)
		} else {
			app.Update(erase)
		}
		i++
	}
}

// One registry answer while discovery runs: a package's rows replace its
// early ones among 1,000, and the table re-derives its lines.
func BenchmarkUpdateEarlyRows1000Rows(b *testing.B) {
	app := tui.New(tui.Options{Engine: idleEngine{}, Renderer: asciiRenderer(), Now: func() time.Time { return now }})
	b.Cleanup(func() { app.Wait(time.Second) })
	app.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	rep := bigReport(1000)
	early := earlyOf(rep)
	app.Update(tui.ProgressMsg{Rows: &state.Rows{Repository: &rep.Repository, All: early}})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// Every op moves a row (its sort keys change), as a real answer
		// does: the answer, then the same row pending again.
		r := rep.Rows[(i/2)%len(rep.Rows)]
		r.Group = ""
		if i%2 == 1 {
			r = early[(i/2)%len(early)]
		}
		app.Update(tui.ProgressMsg{Rows: &state.Rows{ByPackage: map[string][]model.DependencyRow{r.Package: {r}}}})
		i++
	}
}

// The report arriving, as the discovery command delivers it: the store
// and the table were built off the UI goroutine (BenchmarkPrepareReport),
// so Update swaps them in and re-lists 1,000 rows. The same message is
// applied on every op; applying it is the same work each time.
func BenchmarkUpdateReport1000Rows(b *testing.B) {
	app := loaded(b)
	msg := tui.PreparedReport(app, state.DiscoveredMsg{Report: bigReport(1000)})
	b.ReportAllocs()
	for b.Loop() {
		app.Update(msg)
	}
}

// What the discovery command does with the report before Update sees it,
// on the command's goroutine: the store (rows, groups, plans) and every
// line, index and sort order of the table.
func BenchmarkPrepareReport1000Rows(b *testing.B) {
	app := loaded(b)
	rep := bigReport(1000)
	b.ReportAllocs()
	for b.Loop() {
		_ = tui.PreparedReport(app, state.DiscoveredMsg{Report: rep})
	}
}

// The report applied where it arrives, the way it was before it was
// prepared off the UI goroutine (and still is when a test sends
// DiscoveredMsg itself): the comparison for BenchmarkUpdateReport.
func BenchmarkUpdateReportUnprepared1000Rows(b *testing.B) {
	app := loaded(b)
	rep := bigReport(1000)
	b.ReportAllocs()
	for b.Loop() {
		app.Update(state.DiscoveredMsg{Report: rep})
	}
}

// A check finishing (the next queued one starts) and another queued: two
// messages per op, each re-deriving only the lines whose check changed.
func BenchmarkUpdateCheckDone1000Rows(b *testing.B) {
	app := loaded(b) // 0 and 3 running (seq 1, 2), 6 queued
	type run struct{ id, seq int }
	running, queue, next := []run{{0, 1}, {3, 2}}, []int{6}, 3
	safe := &tui.CheckResult{Verdict: model.VerdictSafe}
	b.ReportAllocs()
	for b.Loop() {
		r := running[0]
		running = running[1:]
		app.Update(state.CheckDoneMsg{ID: r.id, Seq: r.seq, Target: "2.0.0", Result: safe})
		running = append(running, run{queue[0], next})
		next++
		queue = append(queue[1:], r.id)
		app.Update(state.CheckMsg{IDs: []int{r.id}})
	}
}

// Discovery's first rows: every dependency at once, before any registry
// answer (once per run), as the pump delivers them: with the store and
// table built on its goroutine (BenchmarkPrepareEarlyRows), swapped in.
func BenchmarkUpdateEarlyRowsFirstSet1000Rows(b *testing.B) {
	app := tui.New(tui.Options{Engine: idleEngine{}, Renderer: asciiRenderer(), Now: func() time.Time { return now }})
	b.Cleanup(func() { app.Wait(time.Second) })
	app.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	rep := bigReport(1000)
	msg := tui.PreparedRows(app, state.Rows{Repository: &rep.Repository, All: earlyOf(rep)})
	b.ReportAllocs()
	for b.Loop() {
		app.Update(msg)
	}
}

// What the pump does with the first rows before Update sees them.
func BenchmarkPrepareEarlyRows1000Rows(b *testing.B) {
	app := tui.New(tui.Options{Engine: idleEngine{}, Renderer: asciiRenderer(), Now: func() time.Time { return now }})
	b.Cleanup(func() { app.Wait(time.Second) })
	rep := bigReport(1000)
	early := earlyOf(rep)
	b.ReportAllocs()
	for b.Loop() {
		_ = tui.PreparedRows(app, state.Rows{Repository: &rep.Repository, All: early})
	}
}
