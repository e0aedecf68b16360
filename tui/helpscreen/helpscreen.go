// Package helpscreen is the full key help, drawn by bubbles/help from the
// one KeyMap, with a few words on what the planner shows.
package helpscreen

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/tui/state"
)

// Model is the help screen.
type Model struct {
	s             *state.Shared
	help          help.Model
	width, height int
}

// New returns the help screen.
func New(s *state.Shared) Model {
	h := help.New()
	h.Styles = s.Styles.Help
	h.ShowAll = true
	return Model{s: s, help: h}
}

// SetSize sets the area the screen draws in.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.help.Width = width - 2
}

// Title is the screen's title line.
func (m Model) Title() string { return "Keys" }

// Bindings is the help line.
func (m Model) Bindings() []key.Binding { return m.s.Keys.HelpHelp() }

// Update closes the screen on esc, ? or q.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if key.Matches(k, m.s.Keys.Back, m.s.Keys.Help) {
			return m, func() tea.Msg { return state.BackMsg{} }
		}
	}
	return m, nil
}

var legend = []string{
	"KIND     major (red) crosses a breaking line; ×N counts the lines crossed; minor, patch",
	"▾ / ▸    a release group: its packages must move together (→ expands, ← collapses)",
	"+N       companions the target drags along; ✗ N conflicts: no release agrees",
	"CHECK    queued · running phase · ✗ breaking · ? possible · ✓ safe · partial · not analyzed",
	"●        selected: c checks them (two at a time, in the background);",
	"         p plans them as uptide plan does (none: every outdated one)",
	"! advisory  a security advisory covers the installed version; such rows",
	"         sort first, and the mark names the release that fixes them all",
	"! unsupported line  no release of the installed major for 12 months",
	"         while a newer major exists",
}

// View draws the full help and the legend.
func (m Model) View() string {
	st := m.s.Styles
	lines := []string{""}
	for _, l := range strings.Split(m.help.View(m.s.Keys), "\n") {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "", "  "+st.Section.Render("What the table shows"))
	for _, l := range legend {
		lines = append(lines, "  "+st.Muted.Render(l))
	}
	if len(lines) > m.height {
		lines = lines[:max(0, m.height)]
	}
	return strings.Join(lines, "\n")
}
