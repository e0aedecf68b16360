package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/tui/state"
)

// The request mapping and report selection of Live.Check, for the tests.
var (
	CheckOptionsOf = checkOptions
	ReportFor      = reportFor
	PhaseLabel     = phaseLabel
)

// PreparedReport is msg as the discovery command delivers it: the store
// and the table already built, off the UI goroutine.
func PreparedReport(app *App, msg state.DiscoveredMsg) tea.Msg {
	return prepareReport(msg, app.s.Styles, app.s.Now)
}

// PreparedRows is a batch of early rows as the pump delivers it to an app
// that has seen no rows yet: with the store and table it gives when it
// reshapes the store.
func PreparedRows(app *App, rows state.Rows) tea.Msg {
	p := newPump(app.s.Styles, app.s.Now)
	defer p.close()
	p.rows = &rows
	p.poke()
	return p.next()()
}
