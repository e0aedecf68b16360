// Package picker is the target picker: the versions of one dependency worth
// upgrading to, from its full registry document, with tags, lines, publish
// age and deprecations. Choosing one sets the dependency's target, which
// re-plans its companions.
package picker

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/tui/theme"
	"github.com/uptide/uptide/view"
)

// Model is the target picker of one dependency.
type Model struct {
	s             *state.Shared
	id            int
	width, height int
	options       []Option
	loading       bool
	err           error
	cursor        int
	offset        int
	// checked are the verdicts of the checks already made, by version;
	// ceiling is the safe ceiling they decide, nil while they do not.
	checked map[string]model.Verdict
	ceiling *model.Ceiling
}

// New returns a picker waiting for the dependency's versions.
func New(s *state.Shared, id int) Model {
	return Model{s: s, id: id, loading: true}
}

// ID is the dependency the picker is for.
func (m Model) ID() int { return m.id }

// SetSize sets the area the picker draws in.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.scroll()
}

// Title is the screen's title line.
func (m Model) Title() string {
	d := m.s.Deps[m.id]
	return fmt.Sprintf("Target for %s · installed %s · now %s", d.Row.Name, theme.OrUnknown(d.Row.Installed), theme.OrUnknown(d.Target))
}

// Bindings is the help line.
func (m Model) Bindings() []key.Binding { return m.s.Keys.PickerHelp() }

// Update handles the versions arriving and the keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case state.VersionsMsg:
		if msg.ID != m.id {
			return m, nil
		}
		m.loading = false
		if msg.Err != nil {
			m.err = msg.Err
			return m, nil
		}
		d := m.s.Deps[m.id]
		m.options = Options(msg.Packument, d.Row.Installed, d.Target)
		m.checked, m.ceiling = msg.Checked, msg.Ceiling
		if c := m.ceiling; c != nil {
			for i := range m.options {
				if m.options[i].Version == c.Version {
					m.options[i].Labels = append(m.options[i].Labels, CeilingLabel)
				}
			}
		}
		m.cursor = 0
		for i, o := range m.options {
			if o.Current {
				m.cursor = i
			}
		}
		m.scroll()
	case tea.KeyMsg:
		k := m.s.Keys
		switch {
		case key.Matches(msg, k.Back):
			return m, send(state.BackMsg{})
		case key.Matches(msg, k.Up):
			m.move(-1)
		case key.Matches(msg, k.Down):
			m.move(1)
		case key.Matches(msg, k.PageUp):
			m.move(-m.rows())
		case key.Matches(msg, k.PageDown):
			m.move(m.rows())
		case key.Matches(msg, k.Top):
			m.move(-len(m.options))
		case key.Matches(msg, k.Bottom):
			m.move(len(m.options))
		case key.Matches(msg, k.Choose):
			if m.cursor < len(m.options) {
				return m, tea.Batch(
					send(state.ChooseTargetMsg{ID: m.id, Version: m.options[m.cursor].Version}),
					send(state.BackMsg{}))
			}
		}
	}
	return m, nil
}

func (m *Model) move(n int) {
	m.cursor = max(0, min(len(m.options)-1, m.cursor+n))
	m.scroll()
}

func (m Model) rows() int { return max(1, m.height-3) }

func (m *Model) scroll() {
	m.offset = state.Scrolled(m.offset, m.cursor, m.rows(), len(m.options))
}

// View lists the options, the current target marked.
func (m Model) View() string {
	st := m.s.Styles
	lines := []string{""}
	switch {
	case m.loading:
		lines = append(lines, "  "+st.Muted.Render(m.s.Frame+" asking the registry for every version…"))
	case m.err != nil:
		lines = append(lines, "  "+st.Error.Render("no versions: ")+ansi.Wordwrap(m.err.Error(), max(20, m.width-16), " "))
	case len(m.options) == 0:
		lines = append(lines, "  "+st.Muted.Render("The registry lists no version to pick."))
	default:
		check := ""
		if len(m.checked) > 0 {
			check = fmt.Sprintf("%-*s  ", verdictWidth, "CHECK")
		}
		lines = append(lines, st.Header.Render(fmt.Sprintf("  %-*s  %s%-*s  %s", versionWidth, "VERSION", check, m.labelWidth(), "WHY", "PUBLISHED")))
		end := min(len(m.options), m.offset+m.rows())
		for i := m.offset; i < end; i++ {
			lines = append(lines, m.line(m.options[i], i == m.cursor))
		}
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:max(0, min(len(lines), m.height))], "\n")
}

const versionWidth = 14

// CeilingLabel marks the safe ceiling: the newest release whose check is
// ✓ no impact, as `uptide plan --ceiling` bisects the checks made.
const CeilingLabel = "safe ceiling"

// verdictWidth is the CHECK column's, shown once a version was checked.
const verdictWidth = 17

func (m Model) labelWidth() int {
	w := 20
	for _, o := range m.options {
		w = max(w, ansi.StringWidth(strings.Join(o.Labels, " · ")))
	}
	return min(w, max(12, m.width/2))
}

func (m Model) line(o Option, cursor bool) string {
	st := m.s.Styles
	mark := " "
	if cursor {
		mark = "❯"
	}
	cur := " "
	if o.Current {
		cur = "•"
	}
	labels := strings.Join(o.Labels, " · ")
	age := Age(o.Published, m.s.Now())
	if o.Deprecated != "" {
		age = strings.TrimSpace(age + "  deprecated: " + o.Deprecated)
	}
	lw := m.labelWidth()
	check, verdict := "", view.Span{}
	if len(m.checked) > 0 {
		if v, ok := m.checked[o.Version]; ok {
			verdict = view.PlanVerdict(v)
		}
		check = theme.Pad(verdict.Text, verdictWidth) + "  "
	}
	text := fmt.Sprintf("%s%s%-*s  %s%s  %s", mark, cur, versionWidth, ansi.Truncate(o.Version, versionWidth, "…"), check, theme.Pad(ansi.Truncate(labels, lw, "…"), lw), age)
	text = ansi.Truncate(text, m.width, "…")
	switch {
	case cursor:
		return st.Cursor.Render(theme.Pad(text, m.width))
	case verdict.Text != "":
		// The verdict in its tone; the rest as the line would be.
		head := fmt.Sprintf("%s%s%-*s  ", mark, cur, versionWidth, ansi.Truncate(o.Version, versionWidth, "…"))
		rest := strings.TrimPrefix(text, head+check)
		return head + st.Tone(verdict.Tone).Render(theme.Pad(verdict.Text, verdictWidth)) + "  " + rest
	case o.Deprecated != "":
		return st.Warn.Render(text)
	case o.Installed:
		return st.Muted.Render(text)
	}
	return text
}

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
