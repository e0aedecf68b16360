package cli

import (
	"fmt"
	"io"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/view"
)

// renderFix prints fix's report as view.Fix words it: the verdict, its
// sections, where the work is.
func renderFix(w io.Writer, r *fix.Report, p palette) {
	v := view.Fix(r)
	fmt.Fprintf(w, "%s  %s\n", p.tone(v.Verdict), p.bold(v.Head))
	if v.Reason != "" {
		fmt.Fprintf(w, "  %s\n", v.Reason)
	}
	for _, s := range v.Sections {
		if s.Title != "" {
			fmt.Fprintf(w, "\n%s", s.Title)
			if s.Aside.Text != "" {
				fmt.Fprintf(w, "  %s", p.tone(s.Aside))
			}
			fmt.Fprintln(w)
		}
		p.lines(w, s.Lines)
	}
	fmt.Fprintln(w)
	p.lines(w, v.Where)
}

// tone draws a span in the palette's colour for its tone.
func (p palette) tone(s view.Span) string {
	switch s.Tone {
	case view.Good:
		return p.green(s.Text)
	case view.Bad:
		return p.red(s.Text)
	case view.Warn:
		return p.yellow(s.Text)
	case view.Dim:
		return p.dim(s.Text)
	case view.Strong:
		return p.bold(s.Text)
	}
	return s.Text
}

// lines prints a view's lines, one per line.
func (p palette) lines(w io.Writer, ls []view.Line) {
	for _, l := range ls {
		for _, s := range l {
			fmt.Fprint(w, p.tone(s))
		}
		fmt.Fprintln(w)
	}
}

func count(n int, noun string) string { return view.Count(n, noun) }
