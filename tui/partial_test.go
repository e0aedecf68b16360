package tui_test

import (
	"context"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
)

// scriptedDiscovery sends the early rows of three packages, then one step
// per value received on next: a package's answer, and finally the report.
type scriptedDiscovery struct {
	next chan struct{}
}

func row(name, installed, target, update string) model.DependencyRow {
	var kind model.UpdateKind
	_ = kind.UnmarshalText([]byte(update)) // "": up to date
	return model.DependencyRow{Name: name, Package: name, Workspaces: []string{"."}, Installed: installed,
		InstalledSource: model.FromLockfile, Latest: target, Target: target, Update: kind, Status: model.RowOK,
		Types: []model.DepType{model.Prod}, Specs: []string{"^" + installed}}
}

func (s *scriptedDiscovery) run(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error) {
	repo := model.RepoSummary{Name: "acme", PackageManager: "npm", Workspaces: []string{"."}}
	events(engine.Event{Phase: engine.PhaseLockfile, Finished: true, Rows: &engine.PartialRows{Repository: &repo, Rows: []model.DependencyRow{
		row("alpha", "1.0.0", "", ""), row("beta", "1.0.0", "", ""), row("gamma", "1.0.0", "", ""),
	}}})
	answers := []model.DependencyRow{row("alpha", "1.0.0", "2.0.0", "major"), row("beta", "1.0.0", "1.1.0", "minor"), row("gamma", "1.0.0", "3.0.0", "major ×2")}
	for i, a := range answers {
		select {
		case <-s.next:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		events(engine.Event{Phase: engine.PhaseRegistry, Done: i + 1, Total: 3, Package: a.Name, Rows: &engine.PartialRows{Package: a.Name, Rows: []model.DependencyRow{a}}})
	}
	select {
	case <-s.next:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	rep := &model.DiscoverReport{Repository: repo}
	for _, a := range answers {
		a.ImportingFiles = []string{}
		rep.Rows = append(rep.Rows, a)
	}
	return rep, nil
}

// Rows show as soon as the repository is read and update in place as
// answers arrive, keeping the cursor, the selection and the filter.
func TestEarlyRowsUpdateInPlace(t *testing.T) {
	sd := &scriptedDiscovery{next: make(chan struct{})}
	f := newFake(nil)
	f.discover = sd.run
	h := newHarness(t, f, 100, 20)
	h.until("the early rows", func() bool { return h.contains("gamma") })

	if h.contains(" behind, ") {
		t.Errorf("the title counts what is behind before any answer:\n%s", h.view())
	}
	for _, name := range []string{"alpha", "beta", "gamma"} {
		if l := h.line(name); !strings.Contains(l, "1.0.0 → …") {
			t.Errorf("early row of %s is %q, want its installed version and an unknown target", name, l)
		}
	}
	if !h.contains("registry 0/3") && !h.contains("reading the repository") {
		t.Logf("status line: %s", h.view())
	}

	// Waiting rows are usable: the cursor moves, space selects, and what
	// needs the report waits for it.
	h.moveTo("beta")
	h.press("space") // selects beta, the cursor goes on to gamma
	wantIn(t, h.cursorLine(), "gamma")
	h.press("c")
	wantIn(t, h.view(), "still asking the registry")
	select {
	case req := <-f.started:
		t.Fatalf("a check of %s started before discovery finished", req.Row.Name)
	default:
	}

	answer := func(what string, cond func() bool) {
		t.Helper()
		sd.next <- struct{}{}
		h.until(what, cond)
	}
	answer("alpha's target", func() bool { return strings.Contains(h.line("alpha"), "2.0.0") })
	wantIn(t, h.line("alpha"), "major")
	wantIn(t, h.cursorLine(), "gamma")
	if !strings.Contains(h.line("beta"), "●") {
		t.Errorf("beta lost its selection: %q", h.line("beta"))
	}

	// beta is a minor update now: hidden until m, still selected.
	answer("beta's answer hiding it", func() bool { return !h.contains("beta") })
	wantIn(t, h.cursorLine(), "gamma")

	// A filter typed while answers arrive stays.
	h.press("/", "g", "a", "m", "enter")
	answer("gamma's target", func() bool { return strings.Contains(h.line("gamma"), "3.0.0") })
	if h.contains("alpha") {
		t.Errorf("the filter was lost:\n%s", h.view())
	}
	wantIn(t, h.cursorLine(), "gamma")

	answer("the report", h.discovered)
	wantIn(t, h.view(), "filter: gam")
	wantIn(t, h.view(), "1 selected")
	wantIn(t, h.cursorLine(), "gamma")
	h.press("esc", "m")
	if !strings.Contains(h.line("beta"), "●") {
		t.Errorf("beta lost its selection to the report: %q", h.line("beta"))
	}

	// Now checks run: the selected one.
	h.press("c")
	if req := h.nextStarted(f); req.Row.Name != "beta" {
		t.Errorf("checked %s, want the selected beta", req.Row.Name)
	}
}

// A cursor the user never moved stays at the top while rows reorder.
func TestEarlyRowsCursorStaysOnTopUntilMoved(t *testing.T) {
	sd := &scriptedDiscovery{next: make(chan struct{})}
	f := newFake(nil)
	f.discover = sd.run
	h := newHarness(t, f, 100, 20)
	h.until("the early rows", func() bool { return h.contains("gamma") })
	wantIn(t, h.cursorLine(), "alpha")
	for _, c := range []func() bool{
		func() bool { return strings.Contains(h.line("alpha"), "2.0.0") },
		func() bool { return !h.contains("beta") },
		// gamma crosses two majors: it is the most urgent line now.
		func() bool { return strings.Contains(firstRow(h.view()), "gamma") },
	} {
		sd.next <- struct{}{}
		h.until("an answer", c)
	}
	wantIn(t, h.cursorLine(), "gamma")
	sd.next <- struct{}{}
	h.until("the report", h.discovered)
	wantIn(t, h.cursorLine(), "gamma")
}
