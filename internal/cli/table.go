package cli

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// table lays out rows of cells in columns fitted to a width. Columns marked
// flexible shrink (with an ellipsis) when the table is too wide; then the
// last columns are dropped, but never the first keep ones: a line wider
// than the terminal beats a table without its versions.
type table struct {
	header []string
	// columns, for a table without a header, is how many it has: no
	// header line is drawn then.
	columns  int
	rows     [][]string
	flexible []bool
	right    []bool
	keep     int
}

// minFlexible is the narrowest a flexible column shrinks to.
const minFlexible = 8

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) render(width int, indent string, style func(row, col int, s string) string) string {
	n := max(len(t.header), t.columns)
	widths := make([]int, n)
	measure := func(cells []string) {
		for i := 0; i < n && i < len(cells); i++ {
			if w := runewidth.StringWidth(cells[i]); w > widths[i] {
				widths[i] = w
			}
		}
	}
	measure(t.header)
	for _, r := range t.rows {
		measure(r)
	}
	total := func(cols int) int {
		s := len(indent)
		for i := 0; i < cols; i++ {
			s += widths[i] + 2
		}
		return s
	}
	cols := n
	for total(cols) > width {
		shrunk := false
		for i := 0; i < cols; i++ {
			if i < len(t.flexible) && t.flexible[i] && widths[i] > minFlexible {
				widths[i]--
				shrunk = true
				if total(cols) <= width {
					break
				}
			}
		}
		if !shrunk {
			if cols <= max(t.keep, 1) {
				break
			}
			cols--
		}
	}
	var out strings.Builder
	line := func(ri int, cells []string) {
		var b strings.Builder
		defer func() { out.WriteString(strings.TrimRight(b.String(), " ") + "\n") }()
		b.WriteString(indent)
		for i := 0; i < cols; i++ {
			cell := ""
			if i < len(cells) {
				cell = cells[i]
			}
			cell = runewidth.Truncate(cell, widths[i], "…")
			pad := strings.Repeat(" ", widths[i]-runewidth.StringWidth(cell))
			if style != nil {
				cell = style(ri, i, cell)
			}
			if i < len(t.right) && t.right[i] {
				b.WriteString(pad + cell)
			} else if i == cols-1 {
				b.WriteString(cell)
			} else {
				b.WriteString(cell + pad)
			}
			if i < cols-1 {
				b.WriteString("  ")
			}
		}
	}
	if len(t.header) > 0 {
		line(-1, t.header)
	}
	for i, r := range t.rows {
		line(i, r)
	}
	return out.String()
}
