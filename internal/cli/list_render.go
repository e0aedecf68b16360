package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/uptide/uptide/view"
)

// renderList prints list's report as view.List words it: the table of
// decisions (majors first), groups, companion plans, skipped and
// not-checked entries.
func renderList(w io.Writer, v view.List, p palette, width int) {
	fmt.Fprintf(w, "%s · %s\n\n", p.bold("uptide"), v.Head)

	if len(v.Rows) == 0 {
		fmt.Fprintln(w, "  No major updates.")
	} else {
		t := &table{
			header:   []string{"PACKAGE", "WHERE", "INSTALLED → LATEST", "KIND", "FILES", "NOTES"},
			flexible: []bool{true, true, false, false, false, true},
			right:    []bool{false, false, false, false, true, false},
			keep:     3,
		}
		for _, r := range v.Rows {
			t.add(r.Name, r.Where, r.Versions, r.Kind.Text, r.Files, r.NotesText())
		}
		fmt.Fprint(w, t.render(width, "  ", func(row, col int, s string) string {
			switch {
			case row < 0:
				return p.dim(s)
			case col == 3:
				return p.tone(view.Span{Text: s, Tone: v.Rows[row].Kind.Tone})
			case col == 5:
				return p.tone(view.Span{Text: s, Tone: v.Rows[row].NotesTone()})
			}
			return s
		}))
	}
	if v.Hidden > 0 {
		fmt.Fprintf(w, "  %s\n", p.dim(fmt.Sprintf("%s hidden (--all shows them)", plural(v.Hidden, "minor/patch update"))))
	}

	if len(v.Groups) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.bold("Release groups"))
		for _, g := range v.Groups {
			fmt.Fprintf(w, "  %s  %s\n", p.cyan(g.Title), g.Members)
			fmt.Fprintf(w, "    %s\n", g.Why)
			fmt.Fprintf(w, "    %s\n", p.dim("check: "+g.Check))
		}
	}

	if len(v.Companions) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.bold("Companions"))
		for _, c := range v.Companions {
			fmt.Fprintf(w, "  %s\n", c.Head)
			companionTable(w, c.Rows, p, width, func(s string) string { return s })
		}
	}

	if len(v.Skipped) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.bold(fmt.Sprintf("Not from a registry (%d)", len(v.Skipped))))
		for _, s := range v.Skipped {
			fmt.Fprintf(w, "  %s %s  %s\n", s.Name, p.dim("("+s.Where+")"), s.Reason)
		}
	}
	if len(v.NotChecked) > 0 {
		n := 0
		for _, h := range v.NotChecked {
			n += len(h.Names)
		}
		fmt.Fprintf(w, "\n%s\n", p.red(fmt.Sprintf("Not checked (%d)", n)))
		for _, h := range v.NotChecked {
			fmt.Fprintf(w, "  %s: %s\n    %s\n", h.Host, h.Reason, strings.Join(h.Names, ", "))
		}
	}
	for _, l := range v.Unknown {
		fmt.Fprintln(w)
		p.lines(w, []view.Line{l})
	}
	if len(v.Problems) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.red("Problems"))
		for _, pr := range v.Problems {
			fmt.Fprintf(w, "  %s\n", pr)
		}
	}
	for _, n := range v.Notes {
		fmt.Fprintf(w, "\n%s\n", p.dim("note: "+n))
	}
}

func plural(n int, what string) string { return view.Count(n, what) }
