// Package home is the planner's dependencies table: one line per
// dependency decision, release groups as collapsible parent lines, with the
// filter, sort, minor/patch toggle and selection that feed checks.
package home

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/view"
)

// Model is the dependencies table.
type Model struct {
	s             *state.Shared
	width, height int

	items []item
	// ix and the line caches are derived from the store when it changes;
	// re-listing (filter, sort, toggles) only reads them.
	ix        *index
	top       []line // by dependency ID: the line outside a group
	member    []line // by dependency ID: the line under a group's parent
	parents   []line // by group
	widths    [numCols]int
	natural   [numCols]int
	cursor    int
	offset    int
	sort      SortMode
	all       bool
	collapsed map[int]bool
	// hidden counts the top-level lines the minor/patch toggle hides.
	hidden int

	filter    textinput.Model
	filtering bool
	// moved: the user has moved the cursor, so a reload keeps it on its
	// dependency.
	moved bool
}

// New returns the table over the shared store.
func New(s *state.Shared) Model {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "filter by name"
	ti.CharLimit = 100
	m := Model{s: s, collapsed: map[int]bool{}, filter: ti}
	m.Refresh()
	return m
}

// SetSize sets the area the table draws in.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.filter.Width = max(10, width-4)
	m.widths = layout(m.natural, width)
	m.scroll()
}

// line is one table line's text, markers and natural column widths.
type line struct {
	c     cells
	marks []view.Span
	w     [numCols]int
}

func newLine(s *state.Shared, it item) line {
	l := line{c: lineCells(s, it), marks: markers(s.Store, it)}
	for col, text := range l.c {
		w := cellWidth(text)
		if col == colPackage {
			w += cellWidth(markerText(l.marks))
		}
		if col == colCheck && s.Deps[it.id].Check.Status == state.Running {
			w = max(w, 24) // room for the phase as it changes
		}
		l.w[col] = w
	}
	return l
}

func (m *Model) line(it item) *line {
	switch {
	case it.parent:
		return &m.parents[it.group]
	case it.member:
		return &m.member[it.id]
	}
	return &m.top[it.id]
}

// Refresh re-derives the lines after the store changed, then re-lists
// them.
func (m *Model) Refresh() {
	s := m.s
	at := m.place() // in the old keys: the IDs may change now
	if !m.moved {
		// Rows arriving reorder the table; a cursor the user never moved
		// stays at the top rather than riding one row down the list.
		at = place{}
	}
	m.ix = newIndex(s.Store)
	// The slices are reused: every line a dependency shows is rewritten
	// below, and the others are never read.
	m.top = resize(m.top, len(s.Deps))
	m.member = resize(m.member, len(s.Deps))
	m.parents = make([]line, len(s.Groups))
	deriveLines(s, m.top, m.member, m.parents)
	m.relistFrom(at)
}

// deriveLines writes the line of every dependency outside a group into
// top, of every group member into member and of every group into parent.
func deriveLines(s *state.Shared, top, member, parent []line) {
	for i := range s.Deps {
		if s.GroupOf(i) == nil {
			top[i] = newLine(s, item{id: i, group: -1})
		}
	}
	for gi, g := range s.Groups {
		if len(g.Members) == 0 {
			continue
		}
		parent[gi] = newLine(s, item{id: g.Members[0], group: gi, parent: true})
		for _, id := range g.Members {
			member[id] = newLine(s, item{id: id, group: gi, member: true})
		}
	}
}

// refreshRows re-derives the lines of dependencies whose rows (or check
// state) changed in place, with their group's parent line, and re-lists.
func (m *Model) refreshRows(ids []int) {
	if m.ix == nil || len(m.top) != len(m.s.Deps) {
		m.Refresh()
		return
	}
	for _, id := range ids {
		if id >= len(m.s.Deps) {
			m.Refresh()
			return
		}
	}
	at := m.place()
	if !m.moved {
		at = place{}
	}
	for _, id := range ids {
		m.ix.update(m.s.Store, id)
		g := m.s.GroupOf(id)
		if g == nil {
			m.top[id] = newLine(m.s, item{id: id, group: -1})
			continue
		}
		gi := m.s.GroupIndex(id)
		m.member[id] = newLine(m.s, item{id: id, group: gi, member: true})
		m.parents[gi] = newLine(m.s, item{id: g.Members[0], group: gi, parent: true})
	}
	m.relistFrom(at)
}

// Table is what Refresh derives from a store (the lines, the names and
// sort keys, every sort order), built by Prepare off the UI goroutine so
// that the discovery report, which replaces every row, costs Update a
// swap and a re-list rather than a rebuild.
type Table struct {
	ix                  *index
	top, member, parent []line
}

// Prepare derives the table of s's store. It reads only s's store (and
// none of the live fields of s: the spinner's frame), so it may run on any
// goroutine while nothing writes that store; the result belongs to the
// Model that Reloads it.
func Prepare(s *state.Shared) *Table {
	t := &Table{ix: newIndex(s.Store), top: make([]line, len(s.Deps)), member: make([]line, len(s.Deps)), parent: make([]line, len(s.Groups))}
	deriveLines(s, t.top, t.member, t.parent)
	// Every order is sorted now, so no sort key (s) waits for the UI.
	for mode := SortMode(0); mode < sortModes; mode++ {
		for _, e := range t.ix.sorted(s.Store, mode) {
			if e.parent {
				t.ix.memberOrder(s.Store, e)
			}
		}
	}
	return t
}

// Reload swaps in a new store and the table Prepare derived from it: swap
// replaces the store the Model reads. The cursor stays on its dependency
// (when the user moved it), the filter, sort and toggles stay, as after
// Refresh. A nil table is derived here.
func (m *Model) Reload(t *Table, swap func()) {
	if t == nil {
		swap()
		m.Refresh()
		return
	}
	at := m.place() // in the old keys: the IDs change with the store
	if !m.moved {
		at = place{}
	}
	swap()
	if len(t.top) != len(m.s.Deps) || len(t.parent) != len(m.s.Groups) {
		m.Refresh() // not the table of this store
		return
	}
	m.ix, m.top, m.member, m.parents = t.ix, t.top, t.member, t.parent
	m.relistFrom(at)
}

func resize(ls []line, n int) []line {
	if cap(ls) >= n {
		return ls[:n]
	}
	return make([]line, n)
}

// place is where the cursor is, in terms that survive a reload of the
// store: the dependency's key and the kind of line.
type place struct {
	row            model.DependencyRow
	parent, member bool
	index          int
	ok             bool
}

func (m *Model) place() place {
	if m.cursor >= len(m.items) {
		return place{}
	}
	it := m.items[m.cursor]
	if it.id >= len(m.s.Deps) {
		return place{}
	}
	return place{row: m.s.Deps[it.id].Row, parent: it.parent, member: it.member, index: m.cursor, ok: true}
}

// relist lists the lines after the filter, the sort or the toggles
// changed, keeping the cursor on the same dependency when it is still
// shown. It reads only the caches Refresh built.
func (m *Model) relist() {
	m.relistFrom(m.place())
}

func (m *Model) relistFrom(at place) {
	if m.s.Report == nil {
		m.items, m.hidden = nil, 0
	} else {
		m.items, m.hidden = build(m.s.Store, m.ix, m.sort, m.all, m.filter.Value(), m.collapsed)
	}
	m.natural = [numCols]int{}
	for _, it := range m.items {
		w := &m.line(it).w
		for col := range w {
			m.natural[col] = max(m.natural[col], w[col])
		}
	}
	m.widths = layout(m.natural, m.width)
	m.cursor = 0
	if at.ok {
		same := -1
		for i, it := range m.items {
			if !state.SameDecision(m.s.Deps[it.id].Row, at.row) {
				continue
			}
			if it.parent == at.parent && it.member == at.member {
				same = i
				break
			}
			if same < 0 {
				same = i
			}
		}
		switch {
		case same >= 0:
			m.cursor = same
		case len(m.items) > 0:
			// Its line is gone (filtered, hidden): the cursor stays
			// where it was on screen rather than jumping to the top.
			m.cursor = min(at.index, len(m.items)-1)
		}
	}
	m.scroll()
}

// Title is the title line: the repository and how far behind it is.
func (m Model) Title() string {
	rep := m.s.Report
	if rep == nil {
		return "uptide"
	}
	r := rep.Repository
	if m.s.Discovering {
		// How far behind is known once every answer is in.
		return fmt.Sprintf("uptide · %s (%s, %s) · %s",
			r.Name, r.PackageManager, plural(len(r.Workspaces), "workspace"), plural(len(rep.Rows), "dependency"))
	}
	behind, majors := view.Behind(rep.Rows)
	return fmt.Sprintf("uptide · %s (%s, %s) · %s · %d behind, %d major",
		r.Name, r.PackageManager, plural(len(r.Workspaces), "workspace"), plural(len(rep.Rows), "dependency"), behind, majors)
}

// Capturing reports whether the filter input has the keyboard.
func (m Model) Capturing() bool { return m.filtering }

// Current is the dependency under the cursor (a group line: its lead).
func (m Model) Current() (int, bool) {
	if m.cursor >= len(m.items) {
		return 0, false
	}
	return m.items[m.cursor].id, true
}

// Bindings is the help line.
func (m Model) Bindings() []key.Binding {
	if m.filtering {
		return m.s.Keys.FilterHelp()
	}
	return m.s.Keys.ShortHelp()
}

// Status is the status line's text when nothing more urgent is shown.
func (m Model) Status() string {
	if m.s.Report == nil {
		return ""
	}
	selected := 0
	for _, d := range m.s.Deps {
		if d.Selected {
			selected++
		}
	}
	parts := []string{fmt.Sprintf("sort: %s", m.sort)}
	if f := m.filter.Value(); f != "" {
		parts = append(parts, "filter: "+f)
	}
	if m.hidden > 0 {
		parts = append(parts, fmt.Sprintf("%d minor/patch/current hidden (m)", m.hidden))
	}
	if selected > 0 {
		parts = append(parts, fmt.Sprintf("%d selected", selected))
	}
	return strings.Join(parts, " · ")
}

// Update handles keys and store changes.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case state.ChangedMsg:
		m.Refresh()
		return m, nil
	case state.RowsChangedMsg:
		m.refreshRows(msg.IDs)
		return m, nil
	case tea.KeyMsg:
		if m.filtering {
			return m.updateFilter(msg)
		}
		return m.updateKey(msg)
	}
	return m, nil
}

func (m Model) updateFilter(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.s.Keys
	switch {
	case key.Matches(msg, k.ClearFilter):
		m.filtering = false
		m.filter.Blur()
		m.filter.SetValue("")
		m.relist()
		return m, nil
	case key.Matches(msg, k.ApplyFilter):
		m.filtering = false
		m.filter.Blur()
		return m, nil
	}
	var cmd tea.Cmd
	before := m.filter.Value()
	m.filter, cmd = m.filter.Update(msg)
	if m.filter.Value() != before {
		m.relist()
	}
	return m, cmd
}

func (m Model) updateKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.s.Keys
	switch {
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-max(1, m.rows()-1))
	case key.Matches(msg, k.PageDown):
		m.move(max(1, m.rows()-1))
	case key.Matches(msg, k.Top):
		m.move(-len(m.items))
	case key.Matches(msg, k.Bottom):
		m.move(len(m.items))
	case key.Matches(msg, k.Filter):
		m.filtering = true
		return m, m.filter.Focus()
	case key.Matches(msg, k.ClearFilter):
		if m.filter.Value() != "" {
			m.filter.SetValue("")
			m.relist()
		}
	case key.Matches(msg, k.Sort):
		m.sort = (m.sort + 1) % sortModes
		m.relist()
	case key.Matches(msg, k.Minor):
		m.all = !m.all
		m.relist()
	case key.Matches(msg, k.Expand), key.Matches(msg, k.Collapse):
		m.toggleGroup(key.Matches(msg, k.Collapse))
	case len(m.items) == 0:
		return m, nil
	case key.Matches(msg, k.Select):
		id, _ := m.Current()
		m.s.Deps[id].Selected = !m.s.Deps[id].Selected
		m.move(1)
	case key.Matches(msg, k.Check):
		if m.s.Discovering {
			return m, send(state.CheckMsg{}) // refused for now; the selection stays
		}
		return m, send(state.CheckMsg{IDs: m.checkIDs()})
	case key.Matches(msg, k.Plan):
		return m, send(state.OpenPlanMsg{IDs: m.selectedIDs()})
	case key.Matches(msg, k.Details):
		id, _ := m.Current()
		return m, send(state.OpenDetailsMsg{ID: id})
	case key.Matches(msg, k.Target):
		id, _ := m.Current()
		return m, send(state.OpenPickerMsg{ID: id})
	}
	return m, nil
}

// selectedIDs are the selected dependencies in table order, then the
// selected ones the table does not show; the selection stays.
func (m Model) selectedIDs() []int {
	var ids []int
	seen := map[int]bool{}
	for _, it := range m.items {
		if m.s.Deps[it.id].Selected && !seen[it.id] {
			ids = append(ids, it.id)
			seen[it.id] = true
		}
	}
	for i := range m.s.Deps {
		if m.s.Deps[i].Selected && !seen[i] {
			ids = append(ids, i)
		}
	}
	return ids
}

// checkIDs are the selected dependencies (their selection cleared), or the
// current one.
func (m Model) checkIDs() []int {
	var ids []int
	// Table order first: the user reads the queue top to bottom.
	for _, it := range m.items {
		if d := &m.s.Deps[it.id]; d.Selected {
			ids = append(ids, it.id)
			d.Selected = false
		}
	}
	for i := range m.s.Deps {
		if m.s.Deps[i].Selected {
			ids = append(ids, i)
			m.s.Deps[i].Selected = false
		}
	}
	if len(ids) == 0 {
		id, _ := m.Current()
		ids = []int{id}
	}
	return ids
}

func (m *Model) toggleGroup(collapse bool) {
	if m.cursor >= len(m.items) {
		return
	}
	it := m.items[m.cursor]
	if it.group < 0 || m.collapsed[it.group] == collapse {
		return
	}
	m.collapsed[it.group] = collapse
	m.relist()
	// A member collapsing into its parent keeps the cursor on the parent.
	for i, x := range m.items {
		if x.group == it.group && x.parent {
			m.cursor = i
			break
		}
	}
	m.scroll()
}

func (m *Model) move(n int) {
	m.moved = true
	m.cursor = max(0, min(len(m.items)-1, m.cursor+n))
	m.scroll()
}

// rows is how many table lines fit under the header (and the filter).
func (m Model) rows() int {
	h := m.height - 1
	if m.filtering || m.filter.Value() != "" {
		h--
	}
	return max(1, h)
}

func (m *Model) scroll() {
	m.offset = state.Scrolled(m.offset, m.cursor, m.rows(), len(m.items))
}

// View draws the table: the header, the visible lines, the filter input.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var lines []string
	lines = append(lines, renderHeader(m.s, m.widths))
	switch {
	case m.s.Err != nil:
		lines = append(lines, "", "  "+m.s.Styles.Error.Render("discovery failed"), "  "+wrap(m.s.Err.Error(), m.width-2))
	case m.s.Discovering && len(m.items) == 0 && m.filter.Value() == "":
		lines = append(lines, "", "  "+m.s.Styles.Muted.Render(discovering(m.s.Store)))
	case len(m.items) == 0:
		lines = append(lines, "", "  "+m.s.Styles.Muted.Render(m.empty()))
	}
	end := min(len(m.items), m.offset+m.rows())
	for i := m.offset; i < end; i++ {
		it := m.items[i]
		l := m.line(it)
		lines = append(lines, renderLine(m.s, it, l.c, l.marks, m.widths, m.width, i == m.cursor, it.parent && m.collapsed[it.group]))
	}
	for len(lines) < m.rows()+1 {
		lines = append(lines, "")
	}
	if m.filtering || m.filter.Value() != "" {
		lines = append(lines, m.filter.View())
	}
	return strings.Join(lines, "\n")
}

func (m Model) empty() string {
	switch {
	case m.filter.Value() != "":
		return fmt.Sprintf("No dependency matches %q (esc clears the filter).", m.filter.Value())
	case !m.all && len(m.s.Deps) > 0:
		return "No major updates. m shows minor and patch updates."
	}
	return "No registry dependencies."
}

func discovering(s *state.Store) string {
	if s.Total > 0 {
		return fmt.Sprintf("Asking the registry… %d of %d packages answered.", s.Done, s.Total)
	}
	return "Reading the repository…"
}

func wrap(s string, width int) string {
	return ansi.Wordwrap(s, max(20, width), " ")
}

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
