package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/tui/details"
	"github.com/uptide/uptide/tui/helpscreen"
	"github.com/uptide/uptide/tui/home"
	"github.com/uptide/uptide/tui/keys"
	"github.com/uptide/uptide/tui/picker"
	"github.com/uptide/uptide/tui/review"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/tui/status"
	"github.com/uptide/uptide/tui/theme"
)

// Options configures the app.
type Options struct {
	Engine Engine
	// Context bounds every engine call; quitting cancels it too.
	Context context.Context
	// Renderer decides the color profile and the background; nil is
	// lipgloss's default renderer (stdout, NO_COLOR honoured).
	Renderer *lipgloss.Renderer
	// Now is the clock publish ages are measured with; nil is time.Now.
	Now func() time.Time
	// MaxChecks is how many checks run at once; 0 means 2.
	MaxChecks int
}

// frame is what the app draws around the screens: the title line and a
// rule above, the status and help lines below.
const frame = 4

// Minimum usable size; below it the app asks for a bigger terminal.
const minWidth, minHeight = 40, 10

// App is the root model.
type App struct {
	eng    Engine
	ctx    context.Context
	cancel context.CancelFunc
	s      *state.Shared
	home   *homeScreen
	stack  []screen
	status status.Model
	help   help.Model
	spin   spinner.Model
	// ticking: a spinner tick is in flight; it stops when nothing runs.
	ticking       bool
	pump          *pump
	work          *work
	width, height int

	queue   []int
	running map[int]running
	// touched: dependencies whose check state changed, for the next
	// RowsChangedMsg.
	touched   []int
	seq       int
	maxChecks int
	// batchDone of batchTotal checks finished since the queue was last empty.
	batchDone, batchTotal int
	// planSeq numbers the plans asked for the plan screens.
	planSeq  int
	quitting bool
}

// New returns the app; Init starts discovery.
func New(o Options) *App {
	parent := o.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	r := o.Renderer
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	s := &state.Shared{Store: state.NewStore(o.Now), Styles: theme.New(r, theme.Default()), Keys: keys.Default()}
	sp := spinner.New(spinner.WithSpinner(spinner.MiniDot))
	s.Frame = sp.Spinner.Frames[0]
	h := help.New()
	h.Styles = s.Styles.Help
	a := &App{
		eng: o.Engine, ctx: ctx, cancel: cancel, s: s,
		status: status.New(s), help: h, spin: sp,
		pump: newPump(s.Styles, s.Now), work: &work{}, running: map[int]running{},
		maxChecks: o.MaxChecks, width: 80, height: 24,
	}
	if a.maxChecks <= 0 {
		a.maxChecks = 2
	}
	a.home = &homeScreen{screenFor(home.New(s))}
	a.stack = []screen{a.home}
	a.resize(a.width, a.height)
	return a
}

// Init starts discovery, the progress pump and the spinner.
func (a *App) Init() tea.Cmd {
	a.ticking = true
	return tea.Batch(a.discover(), a.pump.next(), a.spin.Tick)
}

// Wait cancels background work and waits up to d for the engine calls in
// flight to return, so no node or tsc process outlives the app. It reports
// whether they all returned.
func (a *App) Wait(d time.Duration) bool {
	a.cancel()
	a.pump.close()
	return a.work.closeAndWait(d)
}

func (a *App) top() screen { return a.stack[len(a.stack)-1] }

func (a *App) push(s screen) {
	s.setSize(a.width, a.bodyHeight())
	a.stack = append(a.stack, s)
}

func (a *App) bodyHeight() int { return max(1, a.height-frame) }

func (a *App) resize(w, h int) {
	a.width, a.height = w, h
	a.status.SetSize(w)
	for _, s := range a.stack {
		s.setSize(w, a.bodyHeight())
	}
}

// Update routes a message: keys to the top screen (after the global
// ones), engine results into the store, intents to the stack and queue.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		return a, a.key(msg)
	case spinner.TickMsg:
		if !a.busy() {
			a.ticking = false
			return a, nil
		}
		var cmd tea.Cmd
		a.spin, cmd = a.spin.Update(msg)
		a.s.Frame = a.spin.View()
		return a, tea.Batch(cmd, a.broadcast(state.TickMsg{}))
	case ProgressMsg:
		return a, tea.Batch(a.pump.next(), a.progress(msg))
	case state.DiscoveredMsg:
		return a, a.discovered(reportMsg{DiscoveredMsg: msg})
	case reportMsg:
		return a, a.discovered(msg)
	case state.VersionsMsg:
		if msg.Err != nil {
			a.status.Set(fmt.Sprintf("versions of %s: %v", a.s.Deps[msg.ID].Row.Name, msg.Err), true)
		}
		return a, a.broadcast(msg)
	case state.CompanionsMsg:
		return a, a.companions(msg)
	case state.CheckDoneMsg:
		return a, a.checkDone(msg)
	case state.UpgradesMsg:
		return a, a.upgradesDone(msg)
	case state.OpenDetailsMsg, state.OpenPickerMsg, state.CheckMsg, state.OpenReviewMsg, state.OpenPlanMsg, state.FixBatchMsg:
		if a.s.Discovering {
			// Dependency IDs change when the report replaces the early
			// rows; these wait for it.
			a.status.Set("still asking the registry: details, targets and checks work once discovery finishes", false)
			return a, nil
		}
	}
	switch msg := msg.(type) {
	case state.OpenDetailsMsg:
		a.push(&detailsScreen{screenFor(details.New(a.s, msg.ID))})
	case state.OpenPickerMsg:
		a.push(&pickerScreen{screenFor(picker.New(a.s, msg.ID))})
		return a, tea.Batch(a.versions(msg.ID), a.tick())
	case state.OpenHelpMsg:
		a.push(&helpScreen{screenFor(helpscreen.New(a.s))})
	case state.BackMsg:
		if len(a.stack) > 1 {
			a.stack = a.stack[:len(a.stack)-1]
		}
	case state.CheckMsg:
		return a, a.enqueue(msg.IDs)
	case state.ChooseTargetMsg:
		return a, a.chooseTarget(msg)
	case state.OpenReviewMsg:
		return a, a.openReview(msg.ID)
	case state.OpenPlanMsg:
		return a, a.openPlan(msg.IDs)
	case state.FixBatchMsg:
		return a, a.openBatch(msg)
	case sessionMsg:
		return a, a.sessionEvent(msg)
	case review.HandOffMsg:
		return a, a.handOff(msg)
	case review.LeaveMsg:
		return a, a.leaveReview()
	}
	return a, nil
}

func (a *App) key(msg tea.KeyMsg) tea.Cmd {
	k := a.s.Keys
	if key.Matches(msg, k.ForceQuit) {
		return a.quit()
	}
	top := a.top()
	if !top.capturing() {
		switch {
		case key.Matches(msg, k.Quit):
			return a.quit()
		case key.Matches(msg, k.Help):
			if _, open := top.(*helpScreen); !open {
				a.push(&helpScreen{screenFor(helpscreen.New(a.s))})
				return nil
			}
		}
	}
	if _, isErr := a.status.Message(); !isErr {
		a.status.Clear()
	}
	return top.update(msg)
}

func (a *App) quit() tea.Cmd {
	a.quitting = true
	a.cancel()
	for _, r := range a.running {
		r.cancel()
	}
	a.pump.close()
	return tea.Quit
}

// broadcast sends a message to every screen, so a screen under the top
// one is current when it is uncovered.
func (a *App) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(a.stack))
	for _, s := range a.stack {
		cmds = append(cmds, s.update(msg))
	}
	return tea.Batch(cmds...)
}

// busy: something the spinner stands for is running.
func (a *App) busy() bool {
	if a.s.Discovering || len(a.running) > 0 {
		return true
	}
	for _, d := range a.s.Deps {
		if d.Replanning {
			return true
		}
	}
	switch t := a.top().(type) {
	case *pickerScreen:
		return true
	case *planScreen:
		return t.m.Waiting()
	}
	return false
}

// tick restarts the spinner when it stopped.
func (a *App) tick() tea.Cmd {
	if a.ticking {
		return nil
	}
	a.ticking = true
	return a.spin.Tick
}

// View draws the frame around the top screen.
func (a *App) View() string {
	if a.quitting {
		return ""
	}
	if a.width < minWidth || a.height < minHeight {
		return fmt.Sprintf("uptide needs at least %d×%d; this terminal is %d×%d.", minWidth, minHeight, a.width, a.height)
	}
	top := a.top()
	left, right := top.title()
	if act := a.activity(); act != "" {
		if right != "" {
			right += " · "
		}
		right += act
	}
	var b strings.Builder
	b.WriteString(a.status.Title(left, right))
	b.WriteString("\n")
	b.WriteString(a.s.Styles.RuleLine(a.width))
	b.WriteString("\n")
	b.WriteString(fitLines(top.view(), a.width, a.bodyHeight()))
	b.WriteString("\n")
	b.WriteString(a.status.Line(top.status()))
	b.WriteString("\n")
	b.WriteString(" " + a.shortHelp(top.bindings()))
	return b.String()
}

// shortHelp is the help line, cut binding by binding to the width with an
// ellipsis (help.Model's own cut lets a line overflow when the ellipsis
// itself does not fit after the last binding). The ways out (help, back,
// quit) stay whatever is cut: a narrow terminal still says how to leave.
func (a *App) shortHelp(bindings []key.Binding) string {
	room := a.width - 2
	var rest, out []key.Binding
	for _, b := range bindings {
		if a.wayOut(b) {
			out = append(out, b)
		} else {
			rest = append(rest, b)
		}
	}
	if v := a.help.ShortHelpView(bindings); ansi.StringWidth(v) <= room {
		return v
	}
	for n := len(rest) - 1; n >= 0; n-- {
		parts := []string{a.s.Styles.Faint.Render("…")}
		if n > 0 {
			parts = slices.Insert(parts, 0, a.help.ShortHelpView(rest[:n]))
		}
		if len(out) > 0 {
			parts = append(parts, a.help.ShortHelpView(out))
		}
		if v := strings.Join(parts, " "); ansi.StringWidth(v) <= room {
			return v
		}
	}
	return ansi.Truncate(a.help.ShortHelpView(out), room, "…")
}

// wayOut reports whether b leaves a screen or the planner, or says how.
func (a *App) wayOut(b key.Binding) bool {
	k := a.s.Keys
	for _, w := range []key.Binding{k.Help, k.Back, k.Quit, k.ForceQuit} {
		if b.Help().Key == w.Help().Key {
			return true
		}
	}
	return false
}

// activity is the title line's right side: what runs in the background.
func (a *App) activity() string {
	switch {
	case a.s.Discovering:
		return "discovering " + a.s.Frame
	case a.batchTotal > 0:
		return fmt.Sprintf("checking %d/%d %s", a.batchDone, a.batchTotal, a.s.Frame)
	}
	return ""
}

// fitLines makes s exactly height lines, none wider than width.
func fitLines(s string, width, height int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "")
		}
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
