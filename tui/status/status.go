// Package status draws the planner's frame: the title line on top (what
// the screen shows, and on the right what runs in the background) and the
// status line at the bottom (an error, a message, the discovery progress
// bar, or the screen's own summary).
package status

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/tui/state"
)

// Model is the frame's state: the message the status line shows.
type Model struct {
	s     *state.Shared
	width int
	bar   progress.Model
	text  string
	isErr bool
}

// New returns an empty status line.
func New(s *state.Shared) Model {
	r := s.Styles.Renderer
	fill := s.Styles.Theme.Accent.Light
	if r.HasDarkBackground() {
		fill = s.Styles.Theme.Accent.Dark
	}
	bar := progress.New(progress.WithSolidFill(fill), progress.WithoutPercentage(), progress.WithColorProfile(r.ColorProfile()))
	return Model{s: s, bar: bar}
}

// SetSize sets the frame's width.
func (m *Model) SetSize(width int) {
	m.width = width
	m.bar.Width = max(10, min(40, width/3))
}

// Set shows a message until the next one, or until Clear.
func (m *Model) Set(text string, isErr bool) { m.text, m.isErr = text, isErr }

// Clear removes the message.
func (m *Model) Clear() { m.text, m.isErr = "", false }

// Message is the message shown, if any.
func (m Model) Message() (string, bool) { return m.text, m.isErr }

// Title draws the title line: left, then right-aligned activity.
func (m Model) Title(left, right string) string {
	st := m.s.Styles
	left = fitTitle(left, max(0, m.width-ansi.StringWidth(right)-3))
	gap := max(1, m.width-ansi.StringWidth(left)-ansi.StringWidth(right)-2)
	return " " + st.Title.Render(left) + strings.Repeat(" ", gap) + st.Accent.Render(right)
}

// fitTitle shortens a title of " · " parts to room columns. Its first
// parts name what is shown and its last says the most about it (the
// planner's "N behind, M major"), so the last is kept whole: the parts
// between the second and the last go first, then the second is cut (or
// dropped), then the first.
func fitTitle(title string, room int) string {
	parts := strings.Split(title, " · ")
	fits := func() bool { return ansi.StringWidth(strings.Join(parts, " · ")) <= room }
	for len(parts) > 3 && !fits() {
		parts = append(parts[:len(parts)-2], parts[len(parts)-1])
	}
	if len(parts) >= 2 && !fits() {
		cut := len(parts) - 2 // the second of three, the first of two
		whole := parts[cut]
		parts[cut] = ""
		if keep := room - ansi.StringWidth(strings.Join(parts, " · ")); keep >= 4 {
			parts[cut] = ansi.Truncate(whole, keep, "…")
		} else {
			parts = append(parts[:cut], parts[cut+1:]...)
		}
	}
	return ansi.Truncate(strings.Join(parts, " · "), room, "…")
}

// Line draws the status line: the message, else discovery progress, else
// the screen's summary.
func (m Model) Line(summary string) string {
	st := m.s.Styles
	switch {
	case m.isErr:
		return " " + st.Error.Render(ansi.Truncate("✗ "+m.text, m.width-2, "…"))
	case m.text != "":
		return " " + ansi.Truncate(m.text, m.width-2, "…")
	case m.s.Discovering && m.s.Total > 0:
		label := fmt.Sprintf(" registry %d/%d ", m.s.Done, m.s.Total)
		return " " + m.bar.ViewAs(float64(m.s.Done)/float64(m.s.Total)) + st.Muted.Render(label)
	case m.s.Discovering:
		return " " + st.Muted.Render(m.s.Frame+" reading the repository")
	}
	return " " + st.Muted.Render(ansi.Truncate(summary, m.width-2, "…"))
}
