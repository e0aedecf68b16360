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
