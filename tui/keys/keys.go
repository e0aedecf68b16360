// Package keys is the planner's one KeyMap: every binding of every screen,
// with the help text the short help line and the help screen show.
package keys

import "github.com/charmbracelet/bubbles/key"

// KeyMap holds every binding. Screens read the bindings they handle from
// it, so one change here changes both behaviour and help.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Expand, Collapse                        key.Binding
	Select, Check, Details, Target, Plan    key.Binding
	Filter, Sort, Minor                     key.Binding
	Choose, Back, Help, Quit, ForceQuit     key.Binding
	ClearFilter, ApplyFilter                key.Binding
	// The patch review.
	Review, Accept, Reject, Skip, Retry, Edit, AcceptRule, HandOff key.Binding
}

// Default is the planner's key map.
func Default() KeyMap {
	return KeyMap{
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:      key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:         key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "top")),
		Bottom:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "bottom")),
		Expand:      key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "expand group")),
		Collapse:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "collapse group")),
		Select:      key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "select")),
		Check:       key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check")),
		Details:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),
		Target:      key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "target")),
		Plan:        key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "plan")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Sort:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Minor:       key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "minor/patch")),
		Choose:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:        key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		ApplyFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		Review:      key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "fix")),
		Accept:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept")),
		Reject:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "reject")),
		Skip:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "skip")),
		Retry:       key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "retry with a hint")),
		Edit:        key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit")),
		AcceptRule:  key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "accept the rule")),
		HandOff:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "hand off")),
	}
}

// ShortHelp is the home screen's help line.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Select, k.Plan, k.Check, k.Details, k.Target, k.Filter, k.Minor, k.Help, k.Quit}
}

// FullHelp is every binding, by screen, for the help screen.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Select, withHelp(k.Plan, "plan the selected"), k.Check, k.Details, k.Target, k.Expand, k.Collapse},
		{k.Filter, k.Sort, k.Minor, k.Back, k.Help, k.Quit},
		// The plan screen.
		{withHelp(k.Check, "check what the plan lacks"), withHelp(k.Choose, "fix the plan as one batch")},
		{k.Review, k.Accept, k.Reject, k.Skip, k.Retry, k.Edit, k.AcceptRule, k.HandOff},
	}
}

// DetailsHelp is the details screen's help line.
func (k KeyMap) DetailsHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, withHelp(k.Choose, "sites"), k.Check, k.Target, k.Review, k.Back, k.Quit}
}

// PlanHelp is the plan screen's help line.
func (k KeyMap) PlanHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, withHelp(k.Check, "check unchecked"), withHelp(k.Choose, "fix batch"), k.Back, k.Quit}
}

// PickerHelp is the target picker's help line.
func (k KeyMap) PickerHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Choose, k.Back, k.Quit}
}

// FilterHelp is the help line while typing a filter.
func (k KeyMap) FilterHelp() []key.Binding {
	return []key.Binding{k.ApplyFilter, k.ClearFilter, k.ForceQuit}
}

// HelpHelp is the help screen's own help line.
func (k KeyMap) HelpHelp() []key.Binding {
	return []key.Binding{k.Back, k.Quit}
}

func withHelp(b key.Binding, desc string) key.Binding {
	h := b.Help()
	b.SetHelp(h.Key, desc)
	return b
}
