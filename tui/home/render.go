package home

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
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

// lineCells computes an item's text.
func lineCells(s *state.Shared, it item) cells {
	d := s.Deps[it.id]
	var c cells
	switch {
	case it.parent:
		g := s.Groups[it.group]
		c[colPackage] = "▾ " + g.Title
		c[colWhere] = engine.Where(g.Workspaces)
		c[colFiles] = strconv.Itoa(groupFiles(s.Store, g.Members))
	case it.member:
		c[colPackage] = "    " + d.Row.Name
		c[colWhere] = where(d)
		c[colFiles] = files(d)
	default:
		c[colPackage] = d.Row.Name
		c[colWhere] = where(d)
		c[colFiles] = files(d)
	}
	c[colVersions] = versions(d)
	if s.Pending(&d) {
		c[colVersions] += " → …"
	}
	c[colKind] = d.Update.String()
	if !it.member {
		c[colCheck] = checkText(s, d)
	} else if d.Row.Status == model.RowNotChecked {
		c[colCheck] = "not checked: " + d.Row.Reason
	}
	return c
}

// markers follow the package name: companions the target drags along
// (beyond a group's own members), conflicts, a deprecated installed
// version, an alias. Members show only their own facts: the plan is the
// group's.
func markers(s *state.Store, it item) []marker {
	d := s.Deps[it.id]
	var m []marker
	if !it.member {
		inGroup := map[string]bool{}
		if it.parent {
			for _, id := range s.Groups[it.group].Members {
				inGroup[s.Deps[id].Row.Package] = true
			}
		}
		if d.Replanning {
			m = append(m, marker{"re-planning…", mMuted})
		} else if p := d.Plan; p != nil {
			n := 0
			for _, c := range p.Companions {
				if !inGroup[c.Name] {
					n++
				}
			}
			if n > 0 {
				m = append(m, marker{"+" + plural(n, "companion"), mMuted})
			}
			if n := len(p.Conflicts); n > 0 {
				m = append(m, marker{"✗ " + plural(n, "conflict"), mBad})
			}
		}
		if d.PlanErr != nil {
			m = append(m, marker{"no companion plan", mBad})
		}
		if it.parent {
			return m
		}
	}
	if d.Row.Deprecated != "" {
		m = append(m, marker{"deprecated", mWarn})
	}
	if d.Row.Package != d.Row.Name {
		m = append(m, marker{"alias of " + d.Row.Package, mMuted})
	}
	return m
}

type markerKind int

const (
	mMuted markerKind = iota
	mBad
	mWarn
)

type marker struct {
	text string
	kind markerKind
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

func markerText(ms []marker) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(" ")
		b.WriteString(m.text)
	}
	return b.String()
}

func where(d state.Dep) string {
	s := engine.Where(d.Row.Workspaces)
	if d.Row.Catalog != "" {
		return "catalog:" + strings.TrimPrefix(d.Row.Catalog, "default") + " " + s
	}
	return s
}

// files is the importing files count; blank while discovery has not
// scanned the sources yet (nil), which is not zero.
func files(d state.Dep) string {
	if d.Row.ImportingFiles == nil {
		return ""
	}
	return strconv.Itoa(len(d.Row.ImportingFiles))
}

func versions(d state.Dep) string {
	inst := d.Row.Installed
	if inst == "" {
		inst = "?"
	}
	if d.Target == "" || d.Target == d.Row.Installed {
		return inst
	}
	return inst + " → " + d.Target
}

func checkText(s *state.Shared, d state.Dep) string {
	switch {
	case d.Row.Status == model.RowNotChecked:
		return "not checked: " + d.Row.Reason
	case d.Row.Installed == "" && d.Row.Reason != "":
		return "unknown version: " + d.Row.Reason
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

// joinCells lays plain cells out in their widths.
func joinCells(c cells, w [numCols]int, prefix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	first := true
	for col := 0; col < numCols; col++ {
		if w[col] == 0 {
			continue
		}
		if !first {
			b.WriteString(strings.Repeat(" ", gap))
		}
		first = false
		b.WriteString(fit(c[col], w[col], col == colFiles))
	}
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
func renderLine(s *state.Shared, it item, c cells, ms []marker, w [numCols]int, width int, cursor, collapsed bool) string {
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
	first := true
	for col := 0; col < numCols; col++ {
		if w[col] == 0 {
			continue
		}
		if !first {
			b.WriteString(strings.Repeat(" ", gap))
		}
		first = false
		b.WriteString(styleCell(s, d, it, col, c[col], ms, w[col]))
	}
	return ansi.Truncate(b.String(), width, "")
}

func styleCell(s *state.Shared, d state.Dep, it item, col int, text string, ms []marker, width int) string {
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
func packageCell(s *state.Shared, it item, name string, ms []marker, width int) string {
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
		b.WriteString(markerStyle(s, m.kind).Render(m.text))
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

func markerStyle(s *state.Shared, k markerKind) lipgloss.Style {
	switch k {
	case mBad:
		return s.Styles.Conflict
	case mWarn:
		return s.Styles.Warn
	}
	return s.Styles.Muted
}

func checkStyle(s *state.Shared, d state.Dep) lipgloss.Style {
	st := s.Styles
	switch {
	case d.Row.Status == model.RowNotChecked:
		return st.Bad
	case d.Row.Installed == "" && d.Row.Reason != "":
		return st.Warn
	}
	switch d.Check.Status {
	case state.Queued:
		return st.Muted
	case state.Running:
		return st.Accent
	case state.Failed:
		return st.Warn
	case state.Done:
		switch d.Check.Result.Verdict {
		case model.VerdictBreaking:
			return st.Bad
		case model.VerdictPossible, model.VerdictPartial, model.VerdictNone:
			return st.Warn
		case model.VerdictSafe:
			return st.Good
		}
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
