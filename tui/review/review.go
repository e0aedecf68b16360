package review

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/unidiff"
	"github.com/uptide/uptide/tui/state"
)

// The messages the app sends the screen.
type (
	// PhaseMsg is one progress line of the fix run.
	PhaseMsg struct {
		Phase model.Phase
		Line  string
	}
	// ReadyMsg: the upgrade is installed in the private clone and the
	// sites are known; Resumed counts patches taken from a saved set.
	ReadyMsg struct {
		Source  Source
		Resumed int
	}
	// ChangedMsg: the source changed.
	ChangedMsg struct{}
	// DoneMsg is the fix run's end.
	DoneMsg struct {
		Report *fix.Report
		Err    error
	}
)

// The messages the screen sends the app.
type (
	// HandOffMsg: run the fix with these patches.
	HandOffMsg struct{ Patches []fix.Patch }
	// LeaveMsg: the user left the queue before the hand-off; the accepted
	// set stays on disk.
	LeaveMsg struct{}
	// editedMsg is the editor's result.
	editedMsg struct {
		id, before, after string
		err               error
	}
)

type mode int

const (
	preparing mode = iota
	queue
	summary
	running
	done
)

// Model is the review screen of one upgrade.
type Model struct {
	s             *state.Shared
	pkg, from     string
	target        string
	companions    []string
	width, height int
	mode          mode
	src           Source
	items         []Item
	cursor        int
	scroll        int // the diff's first line
	lines         []string
	resumed       int
	hint          textinput.Model
	hinting       bool
	note          string
	report        *fix.Report
	err           error
	// batch: the screen streams a batch (fix a b c), which has no review:
	// the moves it makes, pkg@version.
	batch []string
}

// New is the screen of the upgrade of pkg from to target, preparing until
// the app sends ReadyMsg. Companions are shown in the hand-off summary.
func New(s *state.Shared, pkg, from, target string, companions []string) Model {
	ti := textinput.New()
	ti.Placeholder = "what the fixer should know (enter sends, esc cancels)"
	ti.CharLimit = 400
	return Model{s: s, pkg: pkg, from: from, target: target, companions: companions, hint: ti}
}

// NewBatch is the screen of a batch fix of moves (pkg@version, in order),
// running from the start: a batch makes no edits, so nothing is reviewed.
func NewBatch(s *state.Shared, moves []string) Model {
	m := New(s, "", "", "", nil)
	m.batch, m.mode = moves, running
	return m
}

// SetSize sets the area the screen draws in.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.hint.Width = max(10, w-12)
}

// Title is the screen's title line.
func (m Model) Title() string {
	if m.batch != nil {
		return "fix · batch · " + strings.Join(m.batch, ", ")
	}
	switch m.mode {
	case summary:
		return "hand off · " + m.pkg + " → " + m.target
	case running, done:
		return "fix · " + m.pkg + " → " + m.target
	}
	return "review patches · " + m.pkg + " → " + m.target
}

// Right is the cost meter, always in the title line, led by the
// provider's name when the line has room for it beside the title.
func (m Model) Right() string {
	if m.src == nil {
		return ""
	}
	if m.src.Provider() == "" {
		return "no provider · $0.00"
	}
	meter := fmt.Sprintf("spent $%.2f of $%.2f", m.src.Spent(), m.src.Budget())
	named := m.src.Provider() + " · " + meter
	if ansi.StringWidth(m.Title())+ansi.StringWidth(named)+4 <= m.width {
		return named
	}
	return meter
}

// Capturing: the hint input has the keyboard.
func (m Model) Capturing() bool { return m.hinting }

// Batch: the screen streams a batch fix.
func (m Model) Batch() bool { return m.batch != nil }

// Running: the fix run is between its start and its report.
func (m Model) Running() bool { return m.mode == preparing || m.mode == running }

// Bindings is the help line.
func (m Model) Bindings() []key.Binding {
	k := m.s.Keys
	switch {
	case m.hinting:
		return []key.Binding{withHelp(k.ApplyFilter, "retry with the hint"), withHelp(k.ClearFilter, "cancel")}
	case m.mode == queue:
		return []key.Binding{k.Up, k.Down, k.Accept, k.Reject, k.Skip, k.Retry, k.Edit, k.AcceptRule, k.HandOff, k.Back}
	case m.mode == summary:
		return []key.Binding{withHelp(k.Choose, "run fix"), k.Back}
	}
	return []key.Binding{k.Back, k.Quit}
}

// Status is the status line's text.
func (m Model) Status() string {
	if m.hinting {
		return "hint: " + m.hint.View()
	}
	if m.note != "" {
		return m.note
	}
	switch {
	case m.batch != nil && m.mode == running:
		return "fix is upgrading in a private clone; your checkout gains only the branch (esc stops it)"
	}
	switch m.mode {
	case preparing:
		return "fix is installing the upgrade in a private clone; your checkout is never touched"
	case queue:
		return "proposals are made ahead of the cursor, two at a time; only validated patches can be accepted"
	}
	return ""
}

func (m *Model) current() (Item, bool) {
	if m.cursor < 0 || m.cursor >= len(m.items) {
		return Item{}, false
	}
	return m.items[m.cursor], true
}

func (m *Model) refresh() {
	if m.src == nil {
		return
	}
	m.items = m.src.Items()
	if m.cursor >= len(m.items) {
		m.cursor = max(0, len(m.items)-1)
	}
}

func (m *Model) focus() {
	if it, ok := m.current(); ok && m.src != nil {
		m.src.Focus(it.Site.ID)
	}
}

// Update handles the app's messages and the keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case PhaseMsg:
		m.lines = append(m.lines, string(msg.Phase)+": "+msg.Line)
		if len(m.lines) > 200 {
			m.lines = m.lines[len(m.lines)-200:]
		}
	case ReadyMsg:
		m.src, m.resumed, m.mode = msg.Source, msg.Resumed, queue
		m.refresh()
		m.focus()
		if m.resumed > 0 {
			m.note = fmt.Sprintf("resumed: %d patches accepted earlier are accepted again", m.resumed)
		}
	case ChangedMsg:
		m.refresh()
	case DoneMsg:
		m.mode, m.report, m.err, m.scroll = done, msg.Report, msg.Err, 0
	case editedMsg:
		switch {
		case msg.err != nil:
			m.note = "editor: " + msg.err.Error()
		case msg.after == msg.before:
			m.note = "the edit leaves the file as it was: nothing to validate"
		default:
			it, _ := m.current()
			m.src.Replace(msg.id, unidiff.Make(it.Site.File, msg.before, msg.after, 3))
			m.note = "validating your edit"
		}
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.s.Keys
	if m.hinting {
		switch {
		case key.Matches(msg, k.ApplyFilter):
			if it, ok := m.current(); ok && strings.TrimSpace(m.hint.Value()) != "" {
				m.src.Retry(it.Site.ID, m.hint.Value())
				m.note = "retrying with your hint"
			}
			m.hinting = false
			m.hint.Blur()
			m.hint.SetValue("")
			return m, nil
		case key.Matches(msg, k.ClearFilter):
			m.hinting = false
			m.hint.Blur()
			return m, nil
		}
		var cmd tea.Cmd
		m.hint, cmd = m.hint.Update(msg)
		return m, cmd
	}
	m.note = ""
	switch m.mode {
	case preparing, running:
		if key.Matches(msg, k.Back) {
			return m, send(LeaveMsg{})
		}
	case done:
		switch {
		case key.Matches(msg, k.Back) || key.Matches(msg, k.Choose):
			return m, send(state.BackMsg{})
		case key.Matches(msg, k.Down):
			m.scroll++
		case key.Matches(msg, k.Up):
			m.scroll = max(0, m.scroll-1)
		case key.Matches(msg, k.PageDown):
			m.scroll += max(1, m.height/2)
		case key.Matches(msg, k.PageUp):
			m.scroll = max(0, m.scroll-max(1, m.height/2))
		}
	case summary:
		switch {
		case key.Matches(msg, k.Back):
			m.mode = queue
		case key.Matches(msg, k.Choose):
			m.mode = running
			m.lines = nil
			return m, send(HandOffMsg{Patches: m.accepted()})
		}
	case queue:
		it, ok := m.current()
		switch {
		case key.Matches(msg, k.Back):
			return m, send(LeaveMsg{})
		case key.Matches(msg, k.Up):
			m.cursor, m.scroll = max(0, m.cursor-1), 0
			m.focus()
		case key.Matches(msg, k.Down):
			m.cursor, m.scroll = min(len(m.items)-1, m.cursor+1), 0
			m.focus()
		case key.Matches(msg, k.PageDown):
			m.scroll += max(1, m.height/2)
		case key.Matches(msg, k.PageUp):
			m.scroll = max(0, m.scroll-max(1, m.height/2))
		case key.Matches(msg, k.HandOff):
			m.mode = summary
		case !ok:
		case key.Matches(msg, k.Accept):
			if it.Status != Valid {
				m.note = "only a validated patch can be accepted (" + it.Status.String() + ")"
				break
			}
			m.src.Accept(it.Site.ID)
			m.next()
		case key.Matches(msg, k.Reject):
			m.src.Reject(it.Site.ID)
			m.next()
		case key.Matches(msg, k.Skip):
			m.src.Skip(it.Site.ID)
			m.next()
		case key.Matches(msg, k.Retry):
			if m.src.Provider() == "" {
				m.note = "no provider is configured: nobody to retry"
				break
			}
			m.hinting = true
			return m, m.hint.Focus()
		case key.Matches(msg, k.AcceptRule):
			n := m.src.AcceptRule(it.Site.Rule)
			m.note = fmt.Sprintf("accepted %d validated patches of %s", n, it.Site.RuleTitle)
		case key.Matches(msg, k.Edit):
			return m, m.edit(it)
		}
		m.refresh()
	}
	return m, nil
}

// next moves to the next site still waiting for a decision.
func (m *Model) next() {
	m.refresh()
	for i := m.cursor + 1; i < len(m.items); i++ {
		switch m.items[i].Status {
		case Accepted, Rejected, Skipped, Resolved:
			continue
		}
		m.cursor, m.scroll = i, 0
		break
	}
	m.focus()
}

// edit opens the site's file with the proposal applied in $EDITOR; what
// the user saves is diffed against the file and validated like a
// proposal.
func (m Model) edit(it Item) tea.Cmd {
	before, after, err := m.src.Files(it.Site.ID)
	if err != nil {
		return send(editedMsg{err: err})
	}
	dir, err := os.MkdirTemp("", "uptide-edit-")
	if err != nil {
		return send(editedMsg{err: err})
	}
	file := filepath.Join(dir, filepath.Base(it.Site.File))
	if err := os.WriteFile(file, []byte(after), 0o600); err != nil {
		os.RemoveAll(dir)
		return send(editedMsg{err: err})
	}
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	argv := strings.Fields(editor)
	c := exec.Command(argv[0], append(argv[1:], file)...)
	id := it.Site.ID
	return tea.ExecProcess(c, func(err error) tea.Msg {
		defer os.RemoveAll(dir)
		if err != nil {
			return editedMsg{id: id, err: fmt.Errorf("%s: %w", editor, err)}
		}
		data, rerr := os.ReadFile(file)
		if rerr != nil {
			return editedMsg{id: id, err: rerr}
		}
		return editedMsg{id: id, before: before, after: string(data)}
	})
}

// accepted is the accepted set as the patches file holds it.
func (m Model) accepted() []fix.Patch {
	var out []fix.Patch
	for _, it := range m.items {
		if it.Status == Accepted {
			out = append(out, PatchOf(it))
		}
	}
	return out
}

// PatchOf is an accepted item as fix applies it.
func PatchOf(it Item) fix.Patch {
	return fix.Patch{Finding: it.Site.ID, Rule: it.Site.RuleTitle, File: it.Site.File, Line: it.Site.Line,
		Diff: it.Diff, Explanation: it.Explanation}
}

// View draws the screen.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var lines []string
	switch m.mode {
	case preparing:
		lines = m.viewPhases("Preparing the upgrade")
	case queue:
		lines = m.viewQueue()
	case summary:
		lines = m.viewSummary()
	case running:
		head := "Running fix with the accepted patches"
		if m.batch != nil {
			head = "Running fix on the batch: one commit per package, verified once"
		}
		lines = m.viewPhases(head)
	case done:
		lines = m.viewDone()
	}
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.width, "…")
	}
	return strings.Join(lines, "\n")
}

func (m Model) viewPhases(head string) []string {
	st := m.s.Styles
	out := []string{st.Section.Render(head), ""}
	tail := m.lines
	if n := m.height - 3; len(tail) > n && n > 0 {
		tail = tail[len(tail)-n:]
	}
	for _, l := range tail {
		out = append(out, "  "+l)
	}
	if len(m.lines) == 0 {
		out = append(out, "  "+m.s.Frame+" starting")
	}
	return out
}

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

func withHelp(b key.Binding, desc string) key.Binding {
	h := b.Help()
	b.SetHelp(h.Key, desc)
	return b
}
