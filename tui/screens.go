package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/tui/details"
	"github.com/uptide/uptide/tui/helpscreen"
	"github.com/uptide/uptide/tui/home"
	"github.com/uptide/uptide/tui/picker"
	"github.com/uptide/uptide/tui/planview"
)

// screen is one entry of the stack. The components keep the Elm shape
// (Update returns the new value); these adapters hold them so the stack is
// a slice of one interface and a new screen (the patch review queue) is
// one more adapter, not another case in a switch.
type screen interface {
	update(tea.Msg) tea.Cmd
	view() string
	setSize(w, h int)
	title() (left, right string)
	bindings() []key.Binding
	// capturing: a text input has the keyboard, so q and ? are text.
	capturing() bool
	// status is the status line's text when nothing more urgent shows.
	status() string
}

type homeScreen struct{ m home.Model }

func (s *homeScreen) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.m, cmd = s.m.Update(msg)
	return cmd
}
func (s *homeScreen) view() string            { return s.m.View() }
func (s *homeScreen) setSize(w, h int)        { s.m.SetSize(w, h) }
func (s *homeScreen) title() (string, string) { return s.m.Title(), "" }
func (s *homeScreen) bindings() []key.Binding { return s.m.Bindings() }
func (s *homeScreen) capturing() bool         { return s.m.Capturing() }
func (s *homeScreen) status() string          { return s.m.Status() }

type detailsScreen struct{ m details.Model }

func (s *detailsScreen) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.m, cmd = s.m.Update(msg)
	return cmd
}
func (s *detailsScreen) view() string            { return s.m.View() }
func (s *detailsScreen) setSize(w, h int)        { s.m.SetSize(w, h) }
func (s *detailsScreen) title() (string, string) { return s.m.Title(), s.m.Right() }
func (s *detailsScreen) bindings() []key.Binding { return s.m.Bindings() }
func (s *detailsScreen) capturing() bool         { return false }
func (s *detailsScreen) status() string          { return "" }

type pickerScreen struct{ m picker.Model }

func (s *pickerScreen) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.m, cmd = s.m.Update(msg)
	return cmd
}
func (s *pickerScreen) view() string            { return s.m.View() }
func (s *pickerScreen) setSize(w, h int)        { s.m.SetSize(w, h) }
func (s *pickerScreen) title() (string, string) { return s.m.Title(), "" }
func (s *pickerScreen) bindings() []key.Binding { return s.m.Bindings() }
func (s *pickerScreen) capturing() bool         { return false }
func (s *pickerScreen) status() string {
	return "choosing a target re-plans its companions; c re-checks"
}

type helpScreen struct{ m helpscreen.Model }

func (s *helpScreen) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.m, cmd = s.m.Update(msg)
	return cmd
}
func (s *helpScreen) view() string            { return s.m.View() }
func (s *helpScreen) setSize(w, h int)        { s.m.SetSize(w, h) }
func (s *helpScreen) title() (string, string) { return s.m.Title(), "" }
func (s *helpScreen) bindings() []key.Binding { return s.m.Bindings() }
func (s *helpScreen) capturing() bool         { return false }
func (s *helpScreen) status() string          { return "" }

type planScreen struct{ m planview.Model }

func (s *planScreen) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.m, cmd = s.m.Update(msg)
	return cmd
}
func (s *planScreen) view() string            { return s.m.View() }
func (s *planScreen) setSize(w, h int)        { s.m.SetSize(w, h) }
func (s *planScreen) title() (string, string) { return s.m.Title(), s.m.Right() }
func (s *planScreen) bindings() []key.Binding { return s.m.Bindings() }
func (s *planScreen) capturing() bool         { return false }
func (s *planScreen) status() string          { return s.m.Status() }
