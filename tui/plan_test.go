package tui_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/internal/checkstore"
	"github.com/uptide/uptide/tui"
	"github.com/uptide/uptide/view"
)

// withLivePlan is the fake over the demo with the real plan across
// upgrades: the registry's documents and its advisories (legacy-lodash is
// lodash 4.17.20, which two advisories cover).
func withLivePlan(t *testing.T) *fakeEngine {
	f := newFake(demoLive(t))
	f.upgrades = f.live.Upgrades
	return f
}

func TestAdvisoryRowsComeFirstWithTheirMark(t *testing.T) {
	h := newHarness(t, withLivePlan(t), 120, 36)
	h.until("discovery", h.discovered)
	// A patch upgrade, yet shown without m and above every major: an
	// advisory covers the installed version.
	first := firstRow(h.view())
	wantIn(t, first, "legacy-lodash")
	wantIn(t, first, "! 2 advisories (fixed in 4.17.21)")
	// A line without a release for 12 months while a newer major exists.
	wantIn(t, h.line("@ai-sdk/react"), "! unsupported line")
	// The other zod row is another installed version: not the plan's.
	for _, l := range strings.Split(h.view(), "\n") {
		if strings.Contains(l, "3.25.76 → ") {
			wantNot(t, l, "unsupported")
		}
	}
	// Sorted by name, the advisory row takes its place among the rest.
	h.press("s")
	wantNot(t, firstRow(h.view()), "legacy-lodash")
}

func TestPlanScreenOfTheSelection(t *testing.T) {
	h := newHarness(t, withLivePlan(t), 120, 36)
	h.until("discovery", h.discovered)
	h.press("space") // legacy-lodash, the first row
	h.moveTo("react (2 packages)")
	h.press("space", "p")
	h.until("the plan", func() bool { return h.contains("Steps") })
	v := h.view()
	wantIn(t, v, "Plan · 2 selected")
	wantIn(t, v, "2 steps · 0 checked")
	// The priorities first, each advisory with the release that fixes it.
	if strings.Index(v, "Priorities") > strings.Index(v, "Steps") {
		t.Errorf("the priorities should come before the steps:\n%s", v)
	}
	wantIn(t, h.line("Command Injection"), "1  ! advisory legacy-lodash: Command Injection in lodash (high) covers 4.17.20; fixed in 4.17.21")
	wantIn(t, v, "! unsupported react 18.3.1: no 18.x release for over 12 months")
	// The steps in order, in uptide plan's words.
	rep, err := h.eng.Upgrades(context.Background(), []string{"legacy-lodash", "react"})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range rep.Plan.Steps {
		verdict, _ := view.StepVerdict(s)
		wantIn(t, h.line(view.PlanStepTitle(s)), []string{" 1  ", " 2  "}[i]+view.PlanStepTitle(s)+"  "+verdict.Text)
	}
	wantIn(t, v, "· 1 major behind (react 18.3.1 → 19.1.0)")
	wantIn(t, v, "Totals     0 sites: 0 by rule, 0 by agent, 0 manual · 0 files (the checked steps)")
	wantIn(t, v, "Unchecked  legacy-lodash, react: c checks them")
	wantIn(t, v, "c check unchecked • enter fix batch • esc back")
	// The selection stays for the way back.
	h.press("esc")
	wantIn(t, h.view(), "2 selected")
}

func TestPlanScreenChecksWhatItLacks(t *testing.T) {
	f := newFake(demoLive(t))
	var checked atomic.Bool
	f.upgrades = func(ctx context.Context, only []string) (*model.UpgradePlanReport, error) {
		s := model.PlanStep{ID: "react", Verdict: model.VerdictUnchecked,
			Moves: []model.StepMove{{Name: "react", From: "18.3.1", To: "19.1.0"}, {Name: "react-dom", From: "18.3.1", To: "19.1.0"}}}
		p := model.UpgradePlan{Steps: []model.PlanStep{s}, Unchecked: []string{"react"}, Advisories: model.AdvisoryStatus{Asked: true}}
		if checked.Load() {
			s.Checked, s.Verdict, s.Effort = true, model.VerdictBreaking, model.Effort{Sites: 3, ByRule: 1, ByAgent: 2, Files: 2}
			p.Steps, p.Unchecked, p.Totals = []model.PlanStep{s}, []string{}, s.Effort
		}
		return &model.UpgradePlanReport{Plan: p}, nil
	}
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("p")
	h.until("the plan", func() bool { return h.contains("Unchecked  react: c checks them") })
	wantIn(t, h.view(), "Plan · every outdated dependency")
	h.press("c")
	if r := h.nextStarted(f); r.Row.Name != "react" || r.Target != "19.1.0" {
		t.Fatalf("checked %s %s, want react 19.1.0", r.Row.Name, r.Target)
	}
	// In the background: the screen stays, and says where the check is.
	h.until("the running check", func() bool { return strings.Contains(h.line("react 18.3.1 → 19.1.0"), "compiling target 1/3") })
	wantIn(t, h.view(), "Steps")
	checked.Store(true)
	f.reply("react") <- checkReply{res: breaking(3)}
	h.until("the new plan", func() bool { return h.contains("1 steps · 1 checked") || h.contains("1 step · 1 checked") })
	wantIn(t, h.line("react 18.3.1 → 19.1.0"), "✗ breaking · 3 sites: 1 by rule, 2 by agent, 0 manual · 2 files")
	wantNot(t, h.view(), "Unchecked")
}

func TestPlanScreenHandsTheBatchToFix(t *testing.T) {
	f := withLivePlan(t)
	got := make(chan []string, 1)
	release := make(chan struct{})
	f.fixBatch = func(ctx context.Context, packages []string, targets map[string]string, progress func(model.Phase, string)) (*fix.Report, error) {
		var moves []string
		for _, p := range packages {
			moves = append(moves, p+"@"+targets[p])
		}
		got <- moves
		progress("install", "added 3 packages")
		<-release
		return &fix.Report{Package: strings.Join(packages, " "), Status: fix.StatusFailed, Reason: "the batch's test run failed at react"}, nil
	}
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("space")
	h.moveTo("react (2 packages)")
	h.press("space", "p")
	h.until("the plan", func() bool { return h.contains("Steps") })
	h.press("enter")
	// What `uptide fix legacy-lodash react react-dom` would be given: the
	// direct dependencies of the steps, in the plan's order.
	if moves := <-got; !slices.Equal(moves, []string{"legacy-lodash@4.17.21", "react@19.1.0", "react-dom@19.1.0"}) {
		t.Fatalf("fix got %v", moves)
	}
	h.until("the progress", func() bool { return h.contains("install: added 3 packages") })
	wantIn(t, h.view(), "fix · batch · legacy-lodash@4.17.21, react@19.1.0, react-dom@19.1.0")
	wantIn(t, h.view(), "one commit per package, verified once")
	close(release)
	h.until("the report", func() bool { return h.contains("the batch's test run failed at react") })
}

func TestPickerMarksCheckedReleasesAndTheCeiling(t *testing.T) {
	f := newFake(demoLive(t))
	f.checked = func(row model.DependencyRow, versions []string) (map[string]model.Verdict, *model.Ceiling, error) {
		if row.Name != "react" || !slices.Contains(versions, "19.1.0") {
			t.Errorf("asked about %s %v", row.Name, versions)
		}
		return map[string]model.Verdict{"19.0.0": model.VerdictSafe, "19.1.0": model.VerdictBreaking},
			&model.Ceiling{Package: "react", Installed: "18.3.1", Version: "19.0.0", Latest: "19.1.0"}, nil
	}
	h := newHarness(t, f, 120, 36)
	h.until("discovery", h.discovered)
	h.press("t")
	h.until("versions", func() bool { return h.contains("VERSION") })
	wantIn(t, h.view(), "CHECK")
	wantIn(t, h.cursorLine(), "19.1.0")
	wantIn(t, h.cursorLine(), "✗ breaking")
	wantIn(t, h.line("19.0.0   "), "✓ no impact")
	wantIn(t, h.line("19.0.0   "), "safe ceiling")
	wantNot(t, h.line("18.3.1   "), "no impact")
}

// keptDemo is the demo as a git repository whose kept checks (what
// `uptide check` saved for this state of it) say react 19.0.0 is ✓ and
// 19.1.0 breaks 3 sites.
func keptDemo(t *testing.T) *tui.Live {
	live := demoLive(t)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "demo"}} {
		if out, err := exec.Command("git", append([]string{"-C", live.Cwd}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cache := filepath.Join(t.TempDir(), "cache")
	live.Env = append(os.Environ(), "UPTIDE_CACHE_DIR="+cache)
	if _, err := live.Discover(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	rep, err := live.Upgrades(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	store := checkstore.Open(live.Env, rep.Repository.Root)
	if store == "" {
		t.Fatalf("no check store for %s", rep.Repository.Root)
	}
	react := func(target string, v model.Verdict, sites int) model.PackageReport {
		return model.PackageReport{Package: "react", Installed: "18.3.1", Target: target, Verdict: v, Status: model.StatusAnalyzed,
			Members: []model.MemberReport{{Name: "react", Installed: "18.3.1", Target: target, Status: model.StatusAnalyzed},
				{Name: "react-dom", Installed: "18.3.1", Target: target, Status: model.StatusAnalyzed}},
			Compile:      model.CompileReport{Status: model.StatusAnalyzed},
			ModuleFormat: model.ModuleFormatReport{Status: model.StatusAnalyzed},
			Plan:         model.Plan{Totals: model.PlanTotals{Sites: sites, ByRule: sites}}}
	}
	store.Save(&model.CheckReport{Packages: []model.PackageReport{react("19.0.0", model.VerdictSafe, 0), react("19.1.0", model.VerdictBreaking, 3)}})
	if n := len(store.Load(map[string]string{"react": "19.1.0"})); n != 1 {
		t.Fatalf("the store gives back %d checks of react 19.1.0, want the one kept", n)
	}
	return live
}

func TestLiveReadsTheKeptChecks(t *testing.T) {
	live := keptDemo(t)
	ctx := context.Background()
	var row model.DependencyRow
	rep, _ := live.Upgrades(ctx, []string{"react"})
	for _, s := range rep.Plan.Steps {
		if s.ID == "react" {
			if s.Verdict != model.VerdictBreaking || s.Effort.Sites != 3 {
				t.Errorf("the plan's react step is %s with %d sites, want the kept check's breaking with 3", s.Verdict, s.Effort.Sites)
			}
		}
	}
	d, err := live.Discover(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range d.Rows {
		if r.Name == "react" {
			row = r
		}
	}
	p, err := live.Versions(ctx, "react")
	if err != nil {
		t.Fatal(err)
	}
	var versions []string
	for v := range p.Versions {
		versions = append(versions, v)
	}
	verdicts, ceiling, err := live.Checked(ctx, row, versions)
	if err != nil {
		t.Fatal(err)
	}
	if verdicts["19.0.0"] != model.VerdictSafe || verdicts["19.1.0"] != model.VerdictBreaking || len(verdicts) != 2 {
		t.Errorf("verdicts %v, want 19.0.0 safe and 19.1.0 breaking", verdicts)
	}
	// 19.1.0 breaks and 19.0.0, the only release between, is safe: plan
	// --ceiling's bisection needs no other check.
	if ceiling == nil || ceiling.Version != "19.0.0" {
		t.Errorf("ceiling %+v, want 19.0.0", ceiling)
	}
}

func TestGoldenPlanScreen(t *testing.T) {
	runGolden(t, screenplay{width: 100, height: 30,
		before: func(f *fakeEngine) { f.upgrades = f.live.Upgrades },
		steps: []step{
			// legacy-lodash (first: an advisory covers it), then the react group.
			{keys: []string{"space", "space", "p"}, waitFor: "Totals"},
		}})
}

// A check the planner makes is kept as uptide check keeps it: plan, the
// picker and the next run read it instead of checking again.
func TestLiveKeepsItsChecks(t *testing.T) {
	live := keptDemo(t)
	ctx := context.Background()
	d, err := live.Discover(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var row model.DependencyRow
	for _, r := range d.Rows {
		if r.Name == "legacy-lodash" {
			row = r
		}
	}
	if row.Name == "" || row.Target == "" {
		t.Fatalf("the demo has no outdated legacy-lodash row: %+v", d.Rows)
	}
	// check reads what is installed: npm ci the demo from the test registry
	// (node_modules ignored, as a repository ignores it: the state stays).
	if err := os.WriteFile(filepath.Join(live.Cwd, ".git", "info", "exclude"), []byte("node_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	rc := filepath.Join(home, "npmrc")
	if err := os.WriteFile(rc, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	install := exec.Command("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	install.Dir = live.Cwd
	install.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "NPM_CONFIG_USERCONFIG=" + rc,
		"npm_config_cache=" + filepath.Join(home, "npm-cache"), "npm_config_replace_registry_host=always", "npm_config_fetch_retries=0",
		"npm_config_registry=" + live.Client.Config().RegistryFor(row.Package)}
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	store := checkstore.Open(live.Env, d.Repository.Root)
	if n := len(store.Load(map[string]string{row.Name: row.Target})); n != 0 {
		t.Fatalf("a check of %s %s is kept before any was made", row.Name, row.Target)
	}
	if _, err := live.Check(ctx, tui.CheckRequest{Row: row, Target: row.Target}, nil); err != nil {
		t.Fatal(err)
	}
	kept := store.Load(map[string]string{row.Name: row.Target})[row.Name]
	if kept == nil || kept.Target != row.Target {
		t.Fatalf("the planner's check of %s %s was not kept: %+v", row.Name, row.Target, kept)
	}
}
