package tui_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/view"
)

func breaking(n int) *tui.CheckResult {
	return &tui.CheckResult{Verdict: model.VerdictBreaking, Breaking: n, Possible: 1, Compiler: "the repo's TypeScript 5.4.5",
		Summary: fmt.Sprintf("✗ %d breaking · 1 possible", n), Coverage: "compiled 3 of 3 files with the repo's TypeScript 5.4.5 · 0 pre-existing errors",
		Files: 3, FilesTotal: 3, NextCommand: "uptide check react --target react@19.1.0 --details",
		Rules: []tui.PlanRule{
			{ID: "react/useRef-arg", Title: "useRef needs an argument", Severity: model.Breaking, Sites: 2, ByRule: 2,
				Findings: []model.Finding{
					{File: "packages/web/src/App.tsx", Line: 12, Reason: "useRef() now requires its initial value",
						Evidence:   []model.Diagnostic{{Code: 2554, Message: "Expected 1 arguments, but got 0."}},
						Downstream: []model.Diagnostic{{File: "packages/web/src/Form.tsx", Line: 9, Code: 7006, Message: "Parameter 'e' implicitly has an 'any' type."}}},
					{File: "packages/web/src/Form.tsx", Line: 4, Reason: "useRef() now requires its initial value"},
				}},
			{ID: "TS2322", Title: "TS2322 '_' is not assignable to '_'", Severity: model.Unverified, Sites: 1, ByAgent: 1,
				Findings: []model.Finding{{File: "packages/web/src/List.tsx", Line: 30, Reason: "the JSX element type changed"}}},
		}}
}

func TestCheckQueueRunsTwoAtATime(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)

	h.moveTo("react (2 packages)")
	h.press("space")
	h.moveTo("ai (2 packages)")
	h.press("space")
	h.moveTo("express")
	h.press("space", "c")

	first, second := h.nextStarted(f), h.nextStarted(f)
	got := map[string]bool{first.Row.Name: true, second.Row.Name: true}
	if !got["react"] || !got["ai"] {
		t.Fatalf("started %s and %s, want react and ai, the first two selected", first.Row.Name, second.Row.Name)
	}
	h.until("progress", func() bool {
		return strings.Contains(h.line("express"), "queued") && strings.Contains(h.line("react (2 packages)"), "compiling target 1/3")
	})
	wantIn(t, h.view(), "checking 0/3")
	wantNot(t, h.view(), "●") // queuing clears the selection
	select {
	case r := <-f.started:
		t.Fatalf("%s started while two checks run", r.Row.Name)
	default:
	}

	// The user keeps navigating while checks run.
	h.press("down", "enter", "esc")

	f.reply("react") <- checkReply{res: breaking(2)}
	if r := h.nextStarted(f); r.Row.Name != "express" {
		t.Fatalf("started %s, want express once a slot freed", r.Row.Name)
	}
	h.until("react's result", func() bool { return strings.Contains(h.line("react (2 packages)"), "✗ 2 breaking") })
	wantIn(t, h.view(), "checking 1/3")

	// A failed check of one package leaves the others working.
	f.reply("ai") <- checkReply{err: errors.New("tsc crashed: out of memory")}
	h.until("ai's failure", func() bool { return strings.Contains(h.line("ai (2 packages)"), "not analyzed: tsc crashed") })
	wantIn(t, h.view(), "✗ check of ai 4.0.0: tsc crashed: out of memory")
	wantIn(t, h.line("express"), "compiling target")

	f.reply("express") <- checkReply{res: &tui.CheckResult{Verdict: model.VerdictSafe}}
	h.until("express's result", func() bool { return strings.Contains(h.line("express"), "✓ safe") })
	wantNot(t, h.view(), "checking ")
}

func TestCheckRequestCarriesGroupAndCompanions(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("c")
	req := h.nextStarted(f)
	var with []string
	for _, c := range req.With {
		with = append(with, c.Name+"@"+c.To)
	}
	want := "react-dom@19.1.0,@types/react@19.1.2,@types/react-dom@19.1.1"
	if req.Row.Name != "react" || req.Target != "19.1.0" || strings.Join(with, ",") != want {
		t.Fatalf("request %s %s with %v, want react 19.1.0 with %s", req.Row.Name, req.Target, with, want)
	}
	h.press("c") // a queued or running check is not queued twice
	select {
	case r := <-f.started:
		t.Fatalf("%s checked twice", r.Row.Name)
	default:
	}
}

func TestNothingToCheck(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("m")
	h.moveTo("chalk")
	h.press("c")
	wantIn(t, h.view(), "nothing to check for chalk (no newer target)")
}

// The demo repository as copied has no node_modules: the real engine says
// so in the row, and names the install command, instead of judging.
func TestLiveCheckOfAnUninstalledRepository(t *testing.T) {
	h := newHarness(t, demoLive(t), 120, 36)
	h.until("discovery", h.discovered)
	h.moveTo("react (2 packages)")
	h.press("c")
	h.until("the check's answer", func() bool {
		return strings.Contains(h.line("react (2 packages)"), "not analyzed: node_modules does not")
	})
	wantIn(t, h.view(), "✗ check of react 19.1.0: node_modules does not hold react (packages/web)")
	wantNot(t, h.view(), "✓ safe")
}

func TestQuitCancelsRunningChecks(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("c")
	h.nextStarted(f)
	h.press("q")
	if !h.quit {
		t.Fatal("q did not quit")
	}
	if pkg := <-f.cancelled; pkg != "react" {
		t.Fatalf("cancelled %s, want react", pkg)
	}
	if !h.app.Wait(10e9) {
		t.Fatal("the check did not return after quit")
	}
}

func TestTargetPickerReplansCompanions(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("t")
	h.until("versions", func() bool { return h.contains("VERSION") })
	wantIn(t, h.cursorLine(), "19.1.0")
	wantIn(t, h.cursorLine(), "latest · newest 19.x")
	wantIn(t, h.cursorLine(), "9 months ago")
	wantIn(t, h.line("18.3.1   "), "newest 18.x (installed line) · installed")
	wantIn(t, h.view(), "19.0.0")
	wantNot(t, h.view(), "18.2.0") // older than installed, in the installed line

	h.press("down", "enter")
	wantIn(t, h.view(), "PACKAGE")
	h.until("the new plan", func() bool { return !h.contains("re-planning") })
	wantIn(t, h.line("react (2 packages)"), "18.3.1 → 19.0.0")
	h.press("enter")
	wantIn(t, h.view(), "Companions  of react 18.3.1 → 19.0.0")
	wantIn(t, h.view(), "picked in the target picker")
	h.press("c")
	if r := h.nextStarted(f); r.Target != "19.0.0" {
		t.Fatalf("checked %s, want the picked 19.0.0", r.Target)
	}
}

func TestTargetChangeWithdrawsTheCheck(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("c")
	h.nextStarted(f)
	h.press("t")
	h.until("versions", func() bool { return h.contains("VERSION") })
	h.press("down", "enter")
	if pkg := <-f.cancelled; pkg != "react" {
		t.Fatalf("cancelled %s, want react", pkg)
	}
	h.until("the new plan", func() bool { return !h.contains("re-planning") })
	wantNot(t, h.line("react (2 packages)"), "compiling")
	wantNot(t, h.view(), "checking ")
}

type failingVersions struct{ *fakeEngine }

func (failingVersions) Versions(context.Context, string) (*model.Packument, error) {
	return nil, errors.New("registry.example: 503 Service Unavailable")
}

func TestTargetPickerShowsRegistryErrors(t *testing.T) {
	h := newHarness(t, failingVersions{newFake(demoLive(t))}, 120, 36)
	h.until("discovery", h.discovered)
	h.press("t")
	h.until("the error", func() bool { return h.contains("no versions:") })
	wantIn(t, h.view(), "✗ versions of react: registry.example: 503")
}

func TestDetailsPlanExpandsSites(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("c")
	h.nextStarted(f)
	f.reply("react") <- checkReply{res: breaking(2)}
	h.until("the result", func() bool { return h.contains("✗ 2 breaking") })
	h.press("enter")
	wantIn(t, h.view(), "✗ 2 breaking · 1 possible")
	wantIn(t, h.view(), "compiled 3 of 3 files with the repo's TypeScript 5.4.5 · 0 pre-existing errors")
	wantIn(t, h.cursorLine(), "✗ useRef needs an argument")
	wantIn(t, h.view(), "Next  uptide check react --target react@19.1.0 --details")
	wantNot(t, h.view(), "packages/web/src/App.tsx:12")

	h.press("enter")
	wantIn(t, h.view(), "packages/web/src/App.tsx:12  useRef() now requires its initial value")
	wantIn(t, h.view(), "TS2554 Expected 1 arguments, but got 0.")
	wantIn(t, h.view(), "packages/web/src/Form.tsx:9 TS7006 Parameter 'e' implicitly has an 'any' type.")
	h.press("down")
	wantIn(t, h.cursorLine(), "? TS2322")
	h.press("enter")
	wantIn(t, h.view(), "packages/web/src/List.tsx:30")
	h.press("up", "enter")
	wantNot(t, h.view(), "packages/web/src/App.tsx:12")
}

// esc from a rule's sites closes them and stays in the details, the
// cursor on the rule; the next esc leaves the details (issue 25 item 7).
func TestEscFromSitesReturnsToDetails(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("c")
	h.nextStarted(f)
	f.reply("react") <- checkReply{res: breaking(2)}
	h.until("the result", func() bool { return h.contains("✗ 2 breaking") })
	h.press("enter", "down", "enter")
	wantIn(t, h.view(), "packages/web/src/List.tsx:30")
	h.press("esc")
	wantIn(t, h.view(), "✗ 2 breaking · 1 possible")
	wantNot(t, h.view(), "packages/web/src/List.tsx:30")
	wantIn(t, h.cursorLine(), "? TS2322")
	h.press("esc")
	if !h.discovered() || h.contains("Compiled against") {
		t.Errorf("the second esc did not leave the details:\n%s", h.view())
	}
}

// The details of a checked dependency list the workspaces that import it
// without declaring it, as the check reported them, under the summary.
func TestDetailsShowUndeclaredImporters(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("c")
	h.nextStarted(f)
	h.press("enter")
	wantNot(t, h.view(), "without declaring it") // not before the check returns
	res := breaking(2)
	res.Importers = []string{
		"packages/ui · imports react without declaring it (resolved via @acme/web)",
		"(root) · imports react without declaring it: skipped, its import of react does not resolve",
	}
	f.reply("react") <- checkReply{res: res}
	h.until("the result in the details", func() bool { return h.contains("✗ 2 breaking · 1 possible") })
	lines := strings.Split(h.view(), "\n")
	summary, first, second := -1, -1, -1
	for i, l := range lines {
		switch {
		case strings.Contains(l, "compiled 3 of 3 files"):
			summary = i
		case strings.Contains(l, "  packages/ui · imports react without declaring it (resolved via @acme/web)"):
			first = i
		case strings.Contains(l, "  (root) · imports react without declaring it: skipped, its import of react does not"):
			second = i
		}
	}
	if summary < 0 || first != summary+1 || second != first+1 {
		t.Fatalf("want the two importer lines right under the summary (lines %d, %d, %d):\n%s", summary, first, second, h.view())
	}
}

func TestResizeAtAnyMoment(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("enter")
	for _, size := range [][2]int{{80, 24}, {100, 30}, {60, 15}, {200, 50}, {80, 24}} {
		for _, screen := range []string{"details", "home"} {
			h.send(keyMsgSize(size))
			view := h.view()
			lines := strings.Split(view, "\n")
			if len(lines) != size[1] {
				t.Errorf("%s at %dx%d: %d lines", screen, size[0], size[1], len(lines))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%s at %dx%d: a line of %d cells: %q", screen, size[0], size[1], w, l)
				}
			}
			if screen == "details" {
				h.press("esc")
			} else {
				h.press("enter")
			}
		}
	}
	h.send(keyMsgSize([2]int{30, 8}))
	wantIn(t, h.view(), "uptide needs at least 40×10; this terminal is 30×8.")
}

func TestNarrowTableDropsColumnsByPriority(t *testing.T) {
	h := newHarness(t, newFake(demoLive(t)), 80, 24)
	h.until("discovery", h.discovered)
	header := h.line("PACKAGE")
	for _, col := range []string{"PACKAGE", "INSTALLED → TARGET", "KIND", "CHECK"} {
		wantIn(t, header, col)
	}
	wantNot(t, header, "WHERE")
	h.press("c")
	h.until("the check's phase", func() bool { return h.contains("compiling") })
	wantIn(t, h.line("react (2 packages)"), "18.3.1 → 19.1.0")
}

func TestDiscoveryProgressThenRows(t *testing.T) {
	live := demoLive(t)
	f := newFake(live)
	release := make(chan struct{})
	f.discover = func(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error) {
		events(engine.Event{Phase: engine.PhaseRegistry, Total: 3})
		events(engine.Event{Phase: engine.PhaseRegistry, Done: 1, Total: 3, Package: "react"})
		<-release
		return live.Discover(ctx, nil)
	}
	h := newHarness(t, f, 100, 30)
	h.until("progress", func() bool { return h.contains("registry 1/3") })
	wantIn(t, h.view(), "Asking the registry… 1 of 3 packages answered.")
	wantIn(t, h.view(), "discovering")
	h.press("down", "enter", "c", "t", "space") // keys before rows do nothing
	close(release)
	h.until("rows", h.discovered)
	wantIn(t, h.cursorLine(), "react (2 packages)")
}

func TestDiscoveryErrorInTheStatusLine(t *testing.T) {
	f := newFake(nil)
	f.discover = func(context.Context, func(engine.Event)) (*model.DiscoverReport, error) {
		return nil, fmt.Errorf("no package.json in /tmp/x or any parent: run uptide inside a JavaScript project (or pass --cwd)")
	}
	h := newHarness(t, f, 100, 30)
	h.until("the error", func() bool { return h.contains("discovery failed") })
	wantIn(t, h.view(), "✗ discovery failed: no package.json in /tmp/x")
	h.press("down", "enter", "m", "s")
	wantIn(t, h.view(), "discovery failed")
}

func TestRowsShowTheirOwnErrors(t *testing.T) {
	f := newFake(nil)
	f.discover = func(context.Context, func(engine.Event)) (*model.DiscoverReport, error) {
		return &model.DiscoverReport{
			Repository: model.RepoSummary{Name: "acme", PackageManager: "pnpm", Workspaces: []string{"."}},
			Rows: []model.DependencyRow{
				{Name: "private-ui", Package: "private-ui", Workspaces: []string{"."}, Installed: "1.0.0", Status: model.RowNotChecked, Reason: "registry.corp: 401 Unauthorized"},
				{Name: "left-pad", Package: "left-pad", Workspaces: []string{"."}, Status: model.RowOK, Reason: "not in pnpm-lock.yaml: run pnpm install", Latest: "1.3.0", Target: "1.3.0"},
				{Name: "zod", Package: "zod", Workspaces: []string{"."}, Installed: "3.0.0", Target: "4.0.0", Latest: "4.0.0", Update: model.Major(1), Status: model.RowOK},
			},
			NotChecked: []model.NotChecked{{Name: "private-ui", Host: "registry.corp", Reason: "401 Unauthorized"}},
		}, nil
	}
	h := newHarness(t, f, 120, 30)
	h.until("rows", h.discovered)
	wantIn(t, h.line("private-ui"), "not checked: registry.corp: 401 Unauthorized")
	wantIn(t, h.line("left-pad"), "? → 1.3.0")
	wantIn(t, h.line("left-pad"), "unknown version: not in pnpm-lock.yaml")
	wantIn(t, h.view(), "✗ 1 package not checked")
	h.moveTo("private-ui")
	h.press("c")
	wantIn(t, h.view(), "nothing to check for private-ui (installed version unknown)")
}

// Details taller than the screen say how much is below and how to see it;
// the sites a rule opens scroll into view under it (issue 25 item 7).
func TestDetailsHintMoreBelow(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 80, 24)
	h.until("discovery", h.discovered)
	h.press("c")
	h.nextStarted(f)
	f.reply("react") <- checkReply{res: breaking(2)}
	h.until("the result", func() bool { return h.contains("✗ 2 breaking") })
	h.press("enter")
	wantIn(t, h.view(), "more lines below · pgdn")
	h.press("down", "enter")
	wantIn(t, h.view(), "packages/web/src/List.tsx:30")
	h.press("G")
	wantNot(t, h.view(), "below · pgdn")
	wantIn(t, h.view(), "Next  uptide check react")
}

// The plan's title column is as wide as its titles as far as the screen
// holds them: a long rule title is whole on a wide screen, cut only where
// the counts beside it would not fit, and the counts stay under their
// headers (issue 25 item 7).
func TestPlanTableUsesTheWidth(t *testing.T) {
	const long = "useRef needs an argument: pass undefined where no initial value was given"
	for _, width := range []int{80, 140} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			f := newFake(demoLive(t))
			h := newHarness(t, f, width, 40)
			h.until("discovery", h.discovered)
			h.press("c")
			h.nextStarted(f)
			res := breaking(2)
			res.Rules[0].Title = long
			f.reply("react") <- checkReply{res: res}
			h.until("the result", func() bool { return h.contains("✗ 2 breaking") })
			h.press("enter")
			row, header := h.cursorLine(), h.line("by agent")
			if w := ansi.StringWidth(row); w > width {
				t.Errorf("the rule's row is %d wide on a %d-column screen", w, width)
			}
			whole := width-39 >= len(long)+2
			if got := strings.Contains(row, long); got != whole {
				t.Errorf("at %d columns the whole title shown: %v, want %v\n%s", width, got, whole, row)
			}
			if !whole && !strings.Contains(row, "…") {
				t.Errorf("a cut title without an ellipsis: %q", row)
			}
			col := func(s, sub string) int { return ansi.StringWidth(s[:max(0, strings.Index(s, sub))]) }
			if col(header, "sites")+len("sites") != col(row, " 2  ")+2 {
				t.Errorf("the count is not under its header:\n%s\n%s", header, row)
			}
		})
	}
}

// The planner's plan table has `uptide check`'s words: the sections
// under the same headings (a noted use under "Noted", not a manual row),
// "1 fix, 12 errors" where an edit stands for more errors than sites, and
// the rule's review note once; the cursor moves over the rule rows only
// (issue 25 item 3).
func TestPlanTableHasTheCLIsWords(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 140, 60)
	h.until("discovery", h.discovered)
	h.press("c")
	h.nextStarted(f)
	res := state.ResultOf(&model.PackageReport{
		Status: model.StatusAnalyzed, Verdict: model.VerdictBreaking, Summary: "✗ 12 breaking", Counts: model.FindingCounts{Breaking: 12},
		Plan: model.Plan{
			Rules: []model.PlanRule{{ID: "cause", Title: "one edit at tsconfig.json:4", Sites: 1, Manual: 1, Errors: 12}},
			Noted: []model.PlanRule{{ID: "note:render", Title: "render's return changed", Sites: 2, Review: []string{"read the guide's render part"}}},
		},
	})
	f.reply("react") <- checkReply{res: res}
	h.until("the result", func() bool { return h.contains("✗ 12 breaking") })
	h.press("enter")
	h.until("the details", func() bool { return h.contains("by agent") })
	for _, want := range []string{"1 fix, 12 errors", view.HeadingNoted, "· render's return changed", "render's return changed: read the guide's render part"} {
		if !h.contains(want) {
			t.Errorf("the details lack %q:\n%s", want, h.view())
		}
	}
	h.press("down")
	if row := h.cursorLine(); !strings.Contains(row, "· render's return changed") {
		t.Errorf("down from the first rule: cursor on %q, want the noted rule (the heading is skipped)", row)
	}
}

// The details screen shows under a site what check --details prints there
// (view.SiteEvidence): the finding counted with it, and what the runtime
// probe saw the site meet, on which Node (issue 27 item 7).
func TestDetailsShowTheProbesEvidence(t *testing.T) {
	f := newFake(demoLive(t))
	h := newHarness(t, f, 200, 40)
	h.until("discovery", h.discovered)
	h.press("c")
	h.nextStarted(f)
	res := state.ResultOf(&model.PackageReport{
		Package: "react", Status: model.StatusAnalyzed, Verdict: model.VerdictBreaking, Summary: "✗ 1 breaking", Counts: model.FindingCounts{Breaking: 1},
		Findings: []model.Finding{{ID: "m1", Package: "react", Change: "module-format", Severity: model.Breaking, File: "index.js", Line: 3,
			Reason: "react ships \".\" as ESM only",
			Runtime: []model.RuntimeChange{{Kind: model.RuntimeKeyRemoved, Loader: model.LoaderRequire, Key: "red", OnDefault: true,
				Detail: "require() of 19.1.0 returns a module namespace: red is only on its default export"}},
			Folded: []model.FoldedFinding{{ID: "r1", Change: "removed", Severity: model.Breaking, File: "index.js", Line: 3, Reason: "default.Tint#red was removed"}}}},
		Runtime: []model.RuntimeResult{{Package: "react", Node: model.RuntimeNode{Version: "v20.20.2"}, Status: model.RuntimeCompared}},
		Plan:    model.Plan{Rules: []model.PlanRule{{ID: "module-format", Title: "ESM only", Sites: 1, Manual: 1, Findings: []string{"m1"}}}},
	})
	f.reply("react") <- checkReply{res: res}
	h.until("the result", func() bool { return h.contains("✗ 1 breaking") })
	h.press("enter")
	h.until("the details", func() bool { return h.contains("by agent") })
	h.press("enter")
	for _, want := range []string{
		"index.js:3",
		"also: default.Tint#red was removed",
		"runtime: require() of 19.1.0 returns a module namespace: red is only on its default export (Node v20.20.2)",
	} {
		if !h.contains(want) {
			t.Errorf("the expanded site lacks %q:\n%s", want, h.view())
		}
	}
}
