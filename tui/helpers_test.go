package tui_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fixtures"
	"github.com/uptide/uptide/internal/testkit/testregistry"
	"github.com/uptide/uptide/tui"
)

// now is the clock of every test: publish ages are measured against it.
var now = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

// demoLive is the real engine over the demo repository and the fixture
// registry, as `uptide demo` runs it.
func demoLive(t testing.TB) *tui.Live {
	t.Helper()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "acme")
	if err := os.CopyFS(dir, fixtures.DemoRepo()); err != nil {
		t.Fatal(err)
	}
	reg, err := testregistry.New(fixtures.Registry())
	if err != nil {
		t.Fatal(err)
	}
	url, err := reg.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	userrc := filepath.Join(tmp, "npmrc")
	if err := os.WriteFile(userrc, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := registry.LoadConfig(dir, []string{"npm_config_registry=" + url, "NPM_CONFIG_USERCONFIG=" + userrc})
	if err != nil {
		t.Fatal(err)
	}
	return &tui.Live{Cwd: dir, Client: registry.New(registry.Options{Config: cfg, CacheDir: filepath.Join(tmp, "cache")}), Now: func() time.Time { return now }}
}

// checkReply is what a fake check returns when the test releases it.
type checkReply struct {
	res *tui.CheckResult
	err error
}

// fakeEngine is the real engine for discovery, versions and companions
// (or a scripted discovery), with checks the test drives: each Check
// announces itself on started, emits a phase, then waits for its reply or
// its context.
type fakeEngine struct {
	live *tui.Live
	// discover, when set, replaces the live discovery.
	discover func(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error)

	// fix, when set, is the fix run.
	fix func(ctx context.Context, req tui.CheckRequest, progress func(model.Phase, string), rv tui.Review) (*fix.Report, error)
	// upgrades, when set, replaces the live plan across upgrades.
	upgrades func(ctx context.Context, only []string) (*model.UpgradePlanReport, error)
	// checked, when set, replaces the live reading of the checks made.
	checked func(row model.DependencyRow, versions []string) (map[string]model.Verdict, *model.Ceiling, error)
	// fixBatch, when set, is the batch fix run.
	fixBatch func(ctx context.Context, packages []string, targets map[string]string, progress func(model.Phase, string)) (*fix.Report, error)

	started   chan tui.CheckRequest
	cancelled chan string
	mu        sync.Mutex
	replies   map[string]chan checkReply
}

func newFake(live *tui.Live) *fakeEngine {
	return &fakeEngine{live: live, started: make(chan tui.CheckRequest, 100), cancelled: make(chan string, 100), replies: map[string]chan checkReply{}}
}

func (f *fakeEngine) reply(pkg string) chan checkReply {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := f.replies[pkg]
	if ch == nil {
		ch = make(chan checkReply, 1)
		f.replies[pkg] = ch
	}
	return ch
}

func (f *fakeEngine) Discover(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error) {
	if f.discover != nil {
		return f.discover(ctx, events)
	}
	return f.live.Discover(ctx, events)
}

func (f *fakeEngine) Versions(ctx context.Context, pkg string) (*model.Packument, error) {
	return f.live.Versions(ctx, pkg)
}

func (f *fakeEngine) Plan(ctx context.Context, row model.DependencyRow, target string) (*engine.TargetPlan, error) {
	return f.live.Plan(ctx, row, target)
}

func (f *fakeEngine) Check(ctx context.Context, req tui.CheckRequest, events func(tui.CheckEvent)) (*tui.CheckResult, error) {
	f.started <- req
	events(tui.CheckEvent{Phase: "compiling target", Done: 1, Total: 3})
	select {
	case r := <-f.reply(req.Row.Package):
		return r.res, r.err
	case <-ctx.Done():
		f.cancelled <- req.Row.Package
		return nil, ctx.Err()
	}
}

// Fix runs the test's fix: fix, when set, else an error.
func (f *fakeEngine) Fix(ctx context.Context, req tui.CheckRequest, progress func(model.Phase, string), rv tui.Review) (*fix.Report, error) {
	if f.fix == nil {
		return nil, errors.New("this test has no fix")
	}
	return f.fix(ctx, req, progress, rv)
}

// Upgrades is the test's plan (f.live.Upgrades for the real one), else
// a plan without priorities: the demo's advisory would sort legacy-lodash
// above the rows the tests of other screens start from.
func (f *fakeEngine) Upgrades(ctx context.Context, only []string) (*model.UpgradePlanReport, error) {
	if f.upgrades != nil {
		return f.upgrades(ctx, only)
	}
	return &model.UpgradePlanReport{Plan: model.UpgradePlan{Steps: []model.PlanStep{}, Advisories: model.AdvisoryStatus{Asked: true}}}, nil
}

// Checked is the test's reading of the checks made, else the live one.
func (f *fakeEngine) Checked(ctx context.Context, row model.DependencyRow, versions []string) (map[string]model.Verdict, *model.Ceiling, error) {
	if f.checked != nil {
		return f.checked(row, versions)
	}
	return f.live.Checked(ctx, row, versions)
}

// FixBatch runs the test's batch: fixBatch, when set, else an error.
func (f *fakeEngine) FixBatch(ctx context.Context, packages []string, targets map[string]string, progress func(model.Phase, string)) (*fix.Report, error) {
	if f.fixBatch == nil {
		return nil, errors.New("this test has no batch fix")
	}
	return f.fixBatch(ctx, packages, targets, progress)
}

// asciiRenderer pins the color profile, so views are plain text.
func asciiRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.Ascii))
	r.SetHasDarkBackground(true)
	return r
}

// harness drives the app's Update directly: commands run on goroutines
// as Bubble Tea runs them, their messages come back through inbox, and
// the test feeds them to Update until the condition it waits for holds.
type harness struct {
	t     *testing.T
	app   *tui.App
	eng   tui.Engine
	inbox chan tea.Msg
	quit  bool
}

// newHarness starts the app at width×height and waits for discovery.
func newHarness(t *testing.T, eng tui.Engine, width, height int) *harness {
	t.Helper()
	h := &harness{t: t, eng: eng, inbox: make(chan tea.Msg, 4096)}
	h.app = tui.New(tui.Options{Engine: eng, Renderer: asciiRenderer(), Now: func() time.Time { return now }})
	t.Cleanup(func() {
		if !h.app.Wait(10 * time.Second) {
			t.Error("engine calls still running after quit")
		}
	})
	h.send(tea.WindowSizeMsg{Width: width, Height: height})
	h.do(h.app.Init())
	return h
}

func (h *harness) do(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			h.inbox <- msg
		}
	}()
}

// send delivers a message as the program would: batches are unpacked,
// quitting is recorded.
func (h *harness) send(msg tea.Msg) {
	switch m := msg.(type) {
	case tea.BatchMsg:
		for _, c := range m {
			h.do(c)
		}
		return
	case tea.QuitMsg:
		h.quit = true
		return
	}
	_, cmd := h.app.Update(msg)
	h.do(cmd)
}

// until processes messages until cond holds; the deadline only turns a
// hang into a failure.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case m := <-h.inbox:
			h.send(m)
		case <-time.After(5 * time.Millisecond): // cond may watch the engine too
		case <-deadline:
			h.t.Fatalf("waiting for %s; the screen is:\n%s", what, h.app.View())
		}
	}
}

// settle processes what is pending (the intents a key produced) without
// waiting for engine work.
func (h *harness) settle() {
	for {
		select {
		case m := <-h.inbox:
			h.send(m)
		case <-time.After(30 * time.Millisecond):
			return
		}
	}
}

func (h *harness) view() string { return h.app.View() }

func (h *harness) contains(s string) bool { return strings.Contains(h.view(), s) }

// press sends keys by name and processes the intents they produce.
func (h *harness) press(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.send(keyMsg(k))
		h.settle()
	}
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// cursorLine is the table line under the cursor.
func (h *harness) cursorLine() string {
	for _, l := range strings.Split(h.view(), "\n") {
		if strings.HasPrefix(l, "❯") {
			return l
		}
	}
	return ""
}

// line returns the first screen line containing s.
func (h *harness) line(s string) string {
	for _, l := range strings.Split(h.view(), "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// discovered is the condition "the table is on screen".
func (h *harness) discovered() bool { return h.contains(" behind, ") && !h.contains("discovering") }

func keyMsgSize(s [2]int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: s[0], Height: s[1]} }

// nextStarted processes messages until the fake engine starts a check.
func (h *harness) nextStarted(f *fakeEngine) tui.CheckRequest {
	h.t.Helper()
	var req tui.CheckRequest
	h.until("a check to start", func() bool {
		select {
		case req = <-f.started:
			return true
		default:
			return false
		}
	})
	return req
}
