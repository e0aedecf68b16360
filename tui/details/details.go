// Package details is the details screen of one dependency decision (or the
// group it leads): its versions and why this target, the group members,
// the companions and conflicts of the target, the check summary and the
// per-rule plan, whose rules expand to their sites.
package details

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
)

// Model is the details screen of one dependency.
type Model struct {
	s             *state.Shared
	id            int
	width, height int
	vp            viewport.Model
	// rule is the plan row under the cursor; expanded rules show sites.
	rule     int
	expanded map[int]bool
	// ruleLine is the content line of each plan row, to keep the cursor
	// in view.
	ruleLine []int
}

// New returns the details of dependency id.
func New(s *state.Shared, id int) Model {
	m := Model{s: s, id: id, vp: viewport.New(0, 0), expanded: map[int]bool{}}
	m.vp.KeyMap = viewport.KeyMap{} // keys are read from the one KeyMap
	return m
}

// ID is the dependency shown.
func (m Model) ID() int { return m.id }

// SetSize sets the area the screen draws in.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.vp.Width, m.vp.Height = width, height
	m.render()
}

// Title is the screen's title line.
func (m Model) Title() string {
	d := m.s.Deps[m.id]
	t := d.Row.Name + " " + versionsOf(d) + " · " + model.Where(d.Row.Workspaces)
	if d.Target != "" && d.Target == d.Row.Latest {
		t += " · latest"
	}
	return t
}

// Bindings is the help line.
func (m Model) Bindings() []key.Binding { return m.s.Keys.DetailsHelp() }

func (m Model) rules() []state.PlanRule {
	if r := m.s.Deps[m.id].Check.Result; r != nil {
		return r.Rules
	}
	return nil
}

// Update handles keys and store changes.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case state.TickMsg:
		if d := m.s.Deps[m.id]; d.Check.Status == state.Running || d.Replanning {
			m.render()
		}
	case state.ChangedMsg, state.RowsChangedMsg:
		if m.rule >= len(m.rules()) {
			m.rule = 0
		}
		m.render()
	case tea.KeyMsg:
		k := m.s.Keys
		rules := m.rules()
		switch {
		case key.Matches(msg, k.Back) && m.anyExpanded():
			// Back from a rule's sites is the details they were opened
			// from, the cursor on that rule; the next esc leaves.
			m.expanded = map[int]bool{}
			m.render()
			m.follow()
		case key.Matches(msg, k.Back):
			return m, send(state.BackMsg{})
		case key.Matches(msg, k.Check):
			return m, send(state.CheckMsg{IDs: []int{m.id}})
		case key.Matches(msg, k.Target):
			return m, send(state.OpenPickerMsg{ID: m.id})
		case key.Matches(msg, k.Review):
			return m, send(state.OpenReviewMsg{ID: m.id})
		case key.Matches(msg, k.Up) && len(rules) > 0:
			m.rule = max(0, m.rule-1)
			m.render()
			m.follow()
		case key.Matches(msg, k.Down) && len(rules) > 0:
			m.rule = min(len(rules)-1, m.rule+1)
			m.render()
			m.follow()
		case key.Matches(msg, k.Up):
			m.vp.ScrollUp(1)
		case key.Matches(msg, k.Down):
			m.vp.ScrollDown(1)
		case key.Matches(msg, k.PageUp):
			m.vp.PageUp()
		case key.Matches(msg, k.PageDown):
			m.vp.PageDown()
		case key.Matches(msg, k.Top):
			m.vp.GotoTop()
		case key.Matches(msg, k.Bottom):
			m.vp.GotoBottom()
		case key.Matches(msg, k.Choose) && len(rules) > 0:
			m.expanded[m.rule] = !m.expanded[m.rule]
			m.render()
			m.follow()
			if m.expanded[m.rule] {
				m.showSites()
			}
		}
	}
	return m, nil
}

// anyExpanded reports whether a rule shows its sites.
func (m Model) anyExpanded() bool {
	for _, open := range m.expanded {
		if open {
			return true
		}
	}
	return false
}

// follow scrolls so the plan row under the cursor is visible.
func (m *Model) follow() {
	if m.rule >= len(m.ruleLine) {
		return
	}
	line := m.ruleLine[m.rule]
	switch {
	case line < m.vp.YOffset:
		m.vp.SetYOffset(line)
	case line >= m.vp.YOffset+m.vp.Height:
		m.vp.SetYOffset(line - m.vp.Height + 1)
	}
}

// showSites scrolls the sites a rule just opened into view, as many as
// the screen holds under the rule's own line, which stays in view.
func (m *Model) showSites() {
	if m.rule >= len(m.ruleLine) {
		return
	}
	end := m.vp.TotalLineCount()
	if m.rule+1 < len(m.ruleLine) {
		end = m.ruleLine[m.rule+1]
	}
	m.vp.SetYOffset(min(m.ruleLine[m.rule], max(m.vp.YOffset, end-m.vp.Height)))
}

// render lays the content out for the current width.
func (m *Model) render() {
	if m.width <= 0 {
		return
	}
	content, ruleLine := m.content()
	m.ruleLine = ruleLine
	y := m.vp.YOffset
	m.vp.SetContent(content)
	// Content taller than the screen gives up its last line to the hint
	// of what is below.
	m.vp.Height = m.height
	if m.overflows() {
		m.vp.Height = max(1, m.height-1)
	}
	m.vp.SetYOffset(y)
}

// overflows reports whether the content is taller than the screen.
func (m Model) overflows() bool { return m.vp.TotalLineCount() > m.height }

// View draws the scrollable content, and under it, when the content goes
// on below the screen, how much more there is and the key that shows it.
func (m Model) View() string {
	if !m.overflows() {
		return m.vp.View()
	}
	hint := ""
	if below := m.vp.TotalLineCount() - m.vp.YOffset - m.vp.Height; below > 0 {
		hint = m.s.Styles.Muted.Render(fmt.Sprintf("↓ %s below · pgdn", plural(below, "more line")))
	}
	return m.vp.View() + "\n" + hint
}

func versionsOf(d state.Dep) string {
	inst := d.Row.Installed
	if inst == "" {
		inst = "?"
	}
	if d.Target == "" || d.Target == d.Row.Installed {
		return inst
	}
	return inst + " → " + d.Target
}

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// Right is the check summary the title line shows on the right.
func (m Model) Right() string {
	c := m.s.Deps[m.id].Check
	if c.Status == state.Done && c.Result != nil {
		r := c.Result
		if r.Verdict == model.VerdictBreaking && r.Possible > 0 {
			return fmt.Sprintf("✗ %d breaking · %d possible", r.Breaking, r.Possible)
		}
	}
	if c.Status == state.Running {
		return m.s.Frame + " " + c.Label()
	}
	return c.Label()
}
