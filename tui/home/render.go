package home

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/view"
)

// Columns of the table.
const (
	colPackage = iota
	colWhere
	colVersions
	colKind
	colFiles
	colCheck
	numCols
)

var headers = [numCols]string{"PACKAGE", "WHERE", "INSTALLED → TARGET", "KIND", "FILES", "CHECK"}

// dropOrder: the columns given up, first to last, when the terminal is too
// narrow. Package, versions, kind and check always stay.
var dropOrder = []int{colWhere, colFiles}

// minWidth is how far a column shrinks (with an ellipsis) before the next
// column is dropped.
var minWidth = [numCols]int{colPackage: 16, colWhere: 10, colVersions: 18, colKind: 5, colFiles: 5, colCheck: 10}

const (
	gutter = 2 // cursor and selection marks
	gap    = 2
)

// cells is one line's text per column, plain, before styling.
type cells [numCols]string

// row is a dependency's words as list shows them (view.Row), moving to
// the target picked here.
func row(d *state.Dep) view.ListRow {
	r := d.Row
	r.Target, r.Update = d.Target, d.Update
	return view.Row(r)
}

// lineCells computes an item's text.
func lineCells(s *state.Shared, it item) cells {
	d := s.Deps[it.id]
	r := row(&d)
	var c cells
	switch {
	case it.parent:
		g := s.Groups[it.group]
		c[colPackage] = "▾ " + g.Title
		c[colWhere] = model.Where(g.Workspaces)
		c[colFiles] = strconv.Itoa(groupFiles(s.Store, g.Members))
	case it.member:
		c[colPackage] = "    " + r.Name
		c[colWhere] = r.Where
		c[colFiles] = r.Files
	default:
		c[colPackage] = r.Name
		c[colWhere] = r.Where
		c[colFiles] = r.Files
	}
	c[colVersions] = r.Versions
	if s.Pending(&d) {
		c[colVersions] += " → …"
	}
	c[colKind] = r.Kind.Text
	if !it.member {
		c[colCheck] = checkText(s, d)
	} else if d.Row.Status == model.RowNotChecked {
		c[colCheck] = r.Look.Text
	}
	return c
}

// markers follow the package name: companions the target drags along
// (beyond a group's own members), conflicts, an advisory or an unsupported
// line on the installed version (the plan's priorities), a deprecated
// installed version, an alias. Members show only their own facts: the plan is the
// group's. The words are list's (view.Row, view.PlanMarks); the planner's
// own states (re-planning, no plan) are its own.
func markers(s *state.Store, it item) []view.Span {
	d := s.Deps[it.id]
	var m []view.Span
	if !it.member {
		inGroup := map[string]bool{}
		if it.parent {
			for _, id := range s.Groups[it.group].Members {
				inGroup[s.Deps[id].Row.Package] = true
			}
		}
		if d.Replanning {
			m = append(m, view.Span{Text: "re-planning…", Tone: view.Dim})
		} else {
			m = append(m, view.PlanMarks(d.Plan, inGroup)...)
		}
		if d.PlanErr != nil {
			m = append(m, view.Span{Text: "no companion plan", Tone: view.Bad})
		}
		if it.parent {
			return m
		}
	}
	m = append(m, view.PriorityMarks(d.Priorities)...)
	for _, n := range row(&d).Notes {
		// A group is drawn as a group here, not as a note.
		if n.Kind != view.NoteGroup {
			m = append(m, n.Mark)
		}
	}
	return m
}

// cellWidth is the display width of plain cell text. Table text is mostly
// ASCII and a few one-column symbols (arrows, box drawing, ✗, …, ×), whose
// width is their rune count; grapheme segmentation, which is most of the
// cost of deriving 1,000 lines, is left to whatever else there is.
func cellWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x20 && r < 0x7f, r == 0xd7,
			r >= 0x2010 && r <= 0x2027,                // dashes, quotes, bullet, ellipsis
			r >= 0x2190 && r <= 0x21ff,                // arrows
			r >= 0x2500 && r <= 0x25fc,                // box drawing, blocks, geometric shapes
			r == 0x2713 || r == 0x2717 || r == 0x276f, // ✓ ✗ ❯
			r >= 0x2800 && r <= 0x28ff:                // braille (the spinner)
			n++
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

func markerText(ms []view.Span) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(" ")
		b.WriteString(m.Text)
	}
	return b.String()
}

func checkText(s *state.Shared, d state.Dep) string {
	if look := row(&d).Look; look.Text != "" {
		return look.Text
	}
	switch {
	case d.Check.Status == state.Running:
		return s.Frame + " " + d.Check.Label()
	}
	return d.Check.Label()
}

// comfortable is the width a flexible column gets before optional
// columns are considered; what is left goes to it up to its natural width.
var comfortable = [numCols]int{colPackage: 28, colWhere: 16, colCheck: 18}

// flexible columns, in the order they receive spare room and give it up
// (in reverse) when the terminal is too narrow: the check status says most.
var flexible = []int{colCheck, colPackage, colWhere}

// layout decides the column widths for a terminal width. The fixed
// columns (versions, kind, files) take their natural width; the flexible
// ones a comfortable width; optional columns drop, by priority, while that
// does not fit; spare room then widens the flexible columns up to their
// natural width, and a shortfall shrinks them down to their minimum.
// Whatever is still too wide is cut at the right edge by the caller.
func layout(natural [numCols]int, width int) [numCols]int {
	var w [numCols]int
	for i := range natural {
		natural[i] = max(natural[i], ansi.StringWidth(headers[i]))
		w[i] = natural[i]
	}
	for _, col := range flexible {
		w[col] = min(natural[col], max(comfortable[col], minWidth[col]))
	}
	total := func() int {
		t, n := gutter, 0
		for _, x := range w {
			if x > 0 {
				t += x
				n++
			}
		}
		return t + gap*max(n-1, 0)
	}
	for _, col := range dropOrder {
		if total() > width {
			w[col] = 0
		}
	}
	for _, col := range flexible {
		if spare := width - total(); spare > 0 && w[col] > 0 {
			w[col] = min(natural[col], w[col]+spare)
		}
	}
	for i := len(flexible) - 1; i >= 0; i-- {
		col := flexible[i]
		if over := total() - width; over > 0 && w[col] > minWidth[col] {
			w[col] = max(minWidth[col], w[col]-over)
		}
	}
	return w
}

// renderHeader renders the column header line.
func renderHeader(s *state.Shared, w [numCols]int) string {
	var c cells
	copy(c[:], headers[:])
	return s.Styles.Header.Render(joinCells(c, w, "  "))
}

// writeCols writes the shown columns (a zero width hides one) gap apart,
// each drawn by cell.
func writeCols(b *strings.Builder, w [numCols]int, cell func(col int) string) {
	first := true
	for col := 0; col < numCols; col++ {
		if w[col] == 0 {
			continue
		}
		if !first {
			b.WriteString(strings.Repeat(" ", gap))
		}
		first = false
		b.WriteString(cell(col))
	}
}

// joinCells lays plain cells out in their widths.
func joinCells(c cells, w [numCols]int, prefix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	writeCols(&b, w, func(col int) string { return fit(c[col], w[col], col == colFiles) })
	return b.String()
}

// fit truncates s to width with an ellipsis and pads it (right-aligned
// when right).
func fit(s string, width int, right bool) string {
	if ansi.StringWidth(s) > width {
		s = ansi.Truncate(s, width, "…")
	}
	pad := width - ansi.StringWidth(s)
	if pad <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", pad) + s
	}
	return s + strings.Repeat(" ", pad)
}

// renderLine renders one item. The cursor line is drawn in one style over
// its whole width, so inner colors never break its background.
func renderLine(s *state.Shared, it item, c cells, ms []view.Span, w [numCols]int, width int, cursor, collapsed bool) string {
	d := s.Deps[it.id]
	mark := " "
	if cursor {
		mark = "❯"
	}
	sel := " "
	if d.Selected {
		sel = "●"
	}
	if it.parent && collapsed {
		c[colPackage] = "▸" + strings.TrimPrefix(c[colPackage], "▾")
	}
	if !it.member {
		// Drawn live: a running check's phase and spinner change between
		// rebuilds of the table.
		c[colCheck] = checkText(s, d)
	}
	if cursor {
		c[colPackage] += markerText(ms)
		line := fit(joinCells(c, w, mark+sel), width, false)
		return s.Styles.Cursor.Render(line)
	}
	st := s.Styles
	var b strings.Builder
	b.WriteString(st.Accent.Render(mark))
	b.WriteString(st.Selected.Render(sel))
	writeCols(&b, w, func(col int) string { return styleCell(s, d, it, col, c[col], ms, w[col]) })
	return ansi.Truncate(b.String(), width, "")
}

func styleCell(s *state.Shared, d state.Dep, it item, col int, text string, ms []view.Span, width int) string {
	st := s.Styles
	switch col {
	case colPackage:
		return packageCell(s, it, text, ms, width)
	case colKind:
		return st.Update(d.Update).Render(fit(text, width, false))
	case colVersions, colWhere:
		if it.member || col == colWhere {
			return st.Muted.Render(fit(text, width, false))
		}
		return fit(text, width, false)
	case colFiles:
		return st.Muted.Render(fit(text, width, true))
	case colCheck:
		return checkStyle(s, d).Render(fit(text, width, false))
	}
	return fit(text, width, false)
}

// packageCell renders the name with its markers. The name stays whole
// while it fits; the markers are cut first.
func packageCell(s *state.Shared, it item, name string, ms []view.Span, width int) string {
	nameStyle := s.Styles.Bold
	if it.member {
		nameStyle = lipgloss.Style{}
	}
	if ansi.StringWidth(name) >= width {
		return nameStyle.Render(fit(name, width, false))
	}
	var b strings.Builder
	b.WriteString(nameStyle.Render(name))
	for _, m := range ms {
		b.WriteString(" ")
		b.WriteString(markerStyle(s, m.Tone).Render(m.Text))
	}
	out := b.String()
	if ansi.StringWidth(out) > width {
		out = ansi.Truncate(out, width, "…")
	}
	if pad := width - ansi.StringWidth(out); pad > 0 {
		out += strings.Repeat(" ", pad)
	}
	return out
}

func markerStyle(s *state.Shared, t view.Tone) lipgloss.Style {
	switch t {
	case view.Bad:
		return s.Styles.Conflict
	case view.Warn:
		return s.Styles.Warn
	}
	return s.Styles.Muted
}

func checkStyle(s *state.Shared, d state.Dep) lipgloss.Style {
	st := s.Styles
	if t := row(&d).Look.Tone; t == view.Bad || t == view.Warn {
		return st.Tone(t)
	}
	switch d.Check.Status {
	case state.Queued:
		return st.Muted
	case state.Running:
		return st.Accent
	case state.Failed:
		return st.Warn
	case state.Done:
		return st.Verdict(d.Check.Result.Verdict)
	}
	return st.Muted
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(what, "y"))
	}
	return fmt.Sprintf("%d %ss", n, what)
}
