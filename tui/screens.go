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

// screenOf holds a screen's model and gives the screen what every model
// offers alike; each screen adds its title, capturing and status.
type screenOf[M screenModel[M], P sizable[M]] struct{ m M }

// sizable is a component's pointer: SetSize changes the model in place.
type sizable[M any] interface {
	*M
	SetSize(w, h int)
}

// screenModel is a component in the Elm shape.
type screenModel[M any] interface {
	Update(tea.Msg) (M, tea.Cmd)
	View() string
	Bindings() []key.Binding
}

// screenFor wraps a component's model: screenFor(details.New(...)).
func screenFor[M screenModel[M], P sizable[M]](m M) screenOf[M, P] {
	return screenOf[M, P]{m: m}
}

func (s *screenOf[M, P]) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.m, cmd = s.m.Update(msg)
	return cmd
}
func (s *screenOf[M, P]) view() string            { return s.m.View() }
func (s *screenOf[M, P]) setSize(w, h int)        { P(&s.m).SetSize(w, h) }
func (s *screenOf[M, P]) bindings() []key.Binding { return s.m.Bindings() }

type homeScreen struct {
	screenOf[home.Model, *home.Model]
}

func (s *homeScreen) title() (string, string) { return s.m.Title(), "" }
func (s *homeScreen) capturing() bool         { return s.m.Capturing() }
func (s *homeScreen) status() string          { return s.m.Status() }

type detailsScreen struct {
	screenOf[details.Model, *details.Model]
}

func (s *detailsScreen) title() (string, string) { return s.m.Title(), s.m.Right() }
func (s *detailsScreen) capturing() bool         { return false }
func (s *detailsScreen) status() string          { return "" }

type pickerScreen struct {
	screenOf[picker.Model, *picker.Model]
}

func (s *pickerScreen) title() (string, string) { return s.m.Title(), "" }
func (s *pickerScreen) capturing() bool         { return false }
func (s *pickerScreen) status() string {
	return "choosing a target re-plans its companions; c re-checks"
}

type helpScreen struct {
	screenOf[helpscreen.Model, *helpscreen.Model]
}

func (s *helpScreen) title() (string, string) { return s.m.Title(), "" }
func (s *helpScreen) capturing() bool         { return false }
func (s *helpScreen) status() string          { return "" }

type planScreen struct {
	screenOf[planview.Model, *planview.Model]
}

func (s *planScreen) title() (string, string) { return s.m.Title(), s.m.Right() }
func (s *planScreen) capturing() bool         { return false }
func (s *planScreen) status() string          { return s.m.Status() }
