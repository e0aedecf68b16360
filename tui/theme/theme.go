// Package theme turns a palette of adaptive colors into the planner's one
// Styles value. Styles are made by a lipgloss.Renderer, so the color profile
// (NO_COLOR, --no-color, a pinned profile in tests) and the terminal's
// light or dark background are decided once, where the renderer is made,
// not by package globals.
package theme

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// Theme is the palette. Each color has a light- and a dark-background value.
type Theme struct {
	Text, Muted, Faint, Accent, Cursor lipgloss.AdaptiveColor
	Major, Minor, Patch                lipgloss.AdaptiveColor
	Bad, Warn, Good, Info              lipgloss.AdaptiveColor
}

// Default is the planner's palette: saturated on dark backgrounds, darker
// shades of the same hues on light ones so they keep their contrast.
func Default() Theme {
	return Theme{
		Text:   lipgloss.AdaptiveColor{Light: "#1f2328", Dark: "#e6edf3"},
		Muted:  lipgloss.AdaptiveColor{Light: "#57606a", Dark: "#8b949e"},
		Faint:  lipgloss.AdaptiveColor{Light: "#b1bac4", Dark: "#30363d"},
		Accent: lipgloss.AdaptiveColor{Light: "#0969da", Dark: "#58a6ff"},
		Cursor: lipgloss.AdaptiveColor{Light: "#ddf4ff", Dark: "#1f3a5f"},
		Major:  lipgloss.AdaptiveColor{Light: "#cf222e", Dark: "#ff7b72"},
		Minor:  lipgloss.AdaptiveColor{Light: "#9a6700", Dark: "#e3b341"},
		Patch:  lipgloss.AdaptiveColor{Light: "#1a7f37", Dark: "#3fb950"},
		Bad:    lipgloss.AdaptiveColor{Light: "#cf222e", Dark: "#ff7b72"},
		Warn:   lipgloss.AdaptiveColor{Light: "#9a6700", Dark: "#d29922"},
		Good:   lipgloss.AdaptiveColor{Light: "#1a7f37", Dark: "#3fb950"},
		Info:   lipgloss.AdaptiveColor{Light: "#8250df", Dark: "#d2a8ff"},
	}
}

// Styles is every style the screens use.
type Styles struct {
	Renderer *lipgloss.Renderer
	Theme    Theme

	Title, Muted, Faint, Bold, Accent lipgloss.Style
	Header                            lipgloss.Style // column headers
	Cursor                            lipgloss.Style // the current row
	Selected                          lipgloss.Style // the selection mark
	Major, Minor, Patch               lipgloss.Style
	Bad, Warn, Good, Info             lipgloss.Style
	Conflict                          lipgloss.Style
	Section                           lipgloss.Style
	Rule                              lipgloss.Style
	Error                             lipgloss.Style
	Help                              help.Styles
}

// New builds the styles of t with renderer r.
func New(r *lipgloss.Renderer, t Theme) Styles {
	fg := func(c lipgloss.AdaptiveColor) lipgloss.Style { return r.NewStyle().Foreground(c) }
	s := Styles{
		Renderer: r,
		Theme:    t,
		Title:    fg(t.Text).Bold(true),
		Muted:    fg(t.Muted),
		Faint:    fg(t.Faint),
		Bold:     r.NewStyle().Bold(true),
		Accent:   fg(t.Accent),
		Header:   fg(t.Muted).Bold(true),
		Cursor:   r.NewStyle().Background(t.Cursor),
		Selected: fg(t.Accent).Bold(true),
		Major:    fg(t.Major).Bold(true),
		Minor:    fg(t.Minor),
		Patch:    fg(t.Patch),
		Bad:      fg(t.Bad),
		Warn:     fg(t.Warn),
		Good:     fg(t.Good),
		Info:     fg(t.Info),
		Conflict: fg(t.Bad).Bold(true),
		Section:  fg(t.Accent).Bold(true),
		Rule:     fg(t.Faint),
		Error:    fg(t.Bad).Bold(true),
	}
	s.Help = help.Styles{
		ShortKey:       fg(t.Text).Bold(true),
		ShortDesc:      fg(t.Muted),
		ShortSeparator: fg(t.Faint),
		Ellipsis:       fg(t.Faint),
		FullKey:        fg(t.Text).Bold(true),
		FullDesc:       fg(t.Muted),
		FullSeparator:  fg(t.Faint),
	}
	return s
}

// Update colors an update kind: majors red, minor yellow, patch green.
func (s Styles) Update(kind model.UpdateKind) lipgloss.Style {
	switch kind.Level {
	case model.LevelMajor:
		return s.Major
	case model.LevelMinor:
		return s.Minor
	case model.LevelPatch:
		return s.Patch
	}
	return s.Muted
}

// Tone is the style of a view's tone: the planner's colours for the words
// the CLI colours with its palette.
func (s Styles) Tone(t view.Tone) lipgloss.Style {
	switch t {
	case view.Good:
		return s.Good
	case view.Bad:
		return s.Bad
	case view.Warn:
		return s.Warn
	case view.Dim:
		return s.Muted
	case view.Strong:
		return s.Bold
	}
	return lipgloss.Style{}
}

// Verdict is the style of a check's verdict: breaking red, safe green,
// anything short of either (possible impact, partial, not analyzed) a
// warning.
func (s Styles) Verdict(v model.Verdict) lipgloss.Style {
	switch v {
	case model.VerdictBreaking:
		return s.Bad
	case model.VerdictSafe:
		return s.Good
	}
	return s.Warn
}

// RuleLine is a horizontal rule of width cells.
func (s Styles) RuleLine(width int) string {
	if width <= 0 {
		return ""
	}
	return s.Rule.Render(strings.Repeat("─", width))
}

// Pad widens s with spaces to w display cells; a wider s stays as it is.
func Pad(s string, w int) string {
	if n := w - ansi.StringWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// OrUnknown is s, or "?" where it is not known.
func OrUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}
