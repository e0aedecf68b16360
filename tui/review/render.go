package review

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/fix/unidiff"
	"github.com/uptide/uptide/view"
)

// sideBySide is the width from which a diff is shown in two columns.
const sideBySide = 120

func (m Model) counts() map[Status]int {
	c := map[Status]int{}
	for _, it := range m.items {
		c[it.Status]++
	}
	return c
}

func (m Model) viewQueue() []string {
	st := m.s.Styles
	c := m.counts()
	// Proposing is what is in flight (at most the fixer's two at a time);
	// the sites it has not reached yet are waiting, said apart.
	head := fmt.Sprintf("%d sites · %d accepted · %d validated · %d proposing", len(m.items), c[Accepted], c[Valid], c[Proposing])
	if n := c[Waiting]; n > 0 {
		head += fmt.Sprintf(" · %d waiting", n)
	}
	if n := c[Resolved]; n > 0 {
		head += fmt.Sprintf(" · %d resolved", n)
	}
	if n := c[Manual] + c[Invalid]; n > 0 {
		head += fmt.Sprintf(" · %d manual", n)
	}
	prov := m.src.Provider()
	if prov == "" {
		prov = "no provider configured: every site is manual, no calls are made"
	}
	out := []string{head, st.Muted.Render(prov)}
	if len(m.items) == 0 {
		return append(out, "", "The upgraded code has no error a patch could fix.", st.Muted.Render("enter hands off to fix"))
	}
	// The list, windowed around the cursor.
	listH := min(len(m.items), max(3, m.height/4))
	first := min(max(0, m.cursor-listH/2), len(m.items)-listH)
	for i := first; i < first+listH; i++ {
		it := m.items[i]
		mark := "  "
		if i == m.cursor {
			mark = st.Accent.Render("› ")
		}
		where := fmt.Sprintf("%s:%d", it.Site.File, it.Site.Line)
		line := fmt.Sprintf("%s%s %-28s %s", mark, m.glyph(it.Status), where, it.Site.RuleTitle)
		right := it.Status.String()
		if it.Attempts > 0 {
			// A retry with a hint is a call beyond the automatic three.
			right += fmt.Sprintf(" · %d/%d · $%.2f", it.Attempts, max(it.Attempts, 3), it.Cost)
		}
		pad := m.width - ansi.StringWidth(line) - ansi.StringWidth(right) - 1
		if pad < 1 {
			line = ansi.Truncate(line, max(10, m.width-ansi.StringWidth(right)-2), "…")
			pad = 1
		}
		if i == m.cursor {
			line = st.Bold.Render(line)
		}
		out = append(out, line+strings.Repeat(" ", pad)+st.Muted.Render(right))
	}
	out = append(out, st.RuleLine(m.width))
	it := m.items[m.cursor]
	out = append(out, st.Bold.Render(it.Site.RuleTitle)+st.Muted.Render(fmt.Sprintf("  %s:%d", it.Site.File, it.Site.Line)))
	if it.Site.Reason != "" && it.Site.Reason != it.Site.RuleTitle {
		out = append(out, it.Site.Reason)
	}
	for i, d := range it.Site.Errors {
		if i == 2 {
			out = append(out, st.Muted.Render(fmt.Sprintf("  + %d more errors", len(it.Site.Errors)-2)))
			break
		}
		out = append(out, st.Bad.Render(fmt.Sprintf("  TS%d", d.Code))+fmt.Sprintf(" %s:%d %s", d.File, d.Line, d.Message))
	}
	switch it.Status {
	case Valid:
		out = append(out, st.Good.Render("✓ validated")+st.Muted.Render(": applies exactly, no suppression, its errors are gone and no new one appears"))
	case Accepted:
		out = append(out, st.Good.Render("✓ accepted"))
	case Invalid, Manual:
		out = append(out, st.Warn.Render("✗ "+it.Status.String())+": "+it.Reason)
	case Proposing, Waiting:
		out = append(out, st.Muted.Render(m.s.Frame+" the fixer is on it"))
	case Resolved:
		out = append(out, st.Good.Render("✓ resolved")+st.Muted.Render(": an accepted patch already removed its errors"))
	default:
		out = append(out, st.Muted.Render(it.Status.String()))
		if it.Reason != "" {
			out = append(out, st.Muted.Render(it.Reason))
		}
	}
	if it.Explanation != "" {
		out = append(out, wrap(it.Explanation, m.width, 2)...)
	}
	if it.Diff == "" {
		return out
	}
	diff := m.diffLines(it.Diff, it.Site.File)
	room := m.height - len(out)
	if room <= 0 {
		return out
	}
	scroll := min(m.scroll, max(0, len(diff)-room))
	return append(out, diff[scroll:min(len(diff), scroll+room)]...)
}

func (m Model) glyph(s Status) string {
	st := m.s.Styles
	switch s {
	case Accepted, Resolved:
		return st.Good.Render("✓")
	case Valid:
		return st.Good.Render("●")
	case Rejected:
		return st.Bad.Render("✗")
	case Invalid, Manual:
		return st.Warn.Render("!")
	case Proposing:
		return m.s.Frame
	}
	return st.Muted.Render("·")
}

// diffLines draws a diff colored: unified below sideBySide columns, two
// columns (old left, new right) from there.
func (m Model) diffLines(diff, file string) []string {
	st := m.s.Styles
	hunks, err := unidiff.Parse(diff, file)
	if err != nil {
		return []string{st.Warn.Render("the diff does not parse: " + err.Error())}
	}
	var out []string
	if m.width < sideBySide || !changesFit(hunks, (m.width-3)/2) {
		for _, h := range hunks {
			out = append(out, st.Accent.Render(fmt.Sprintf("@@ -%d +%d @@", h.OldStart, h.NewStart)))
			for _, l := range h.Lines {
				switch l.Op {
				case '-':
					out = append(out, st.Bad.Render("-"+l.Text))
				case '+':
					out = append(out, st.Good.Render("+"+l.Text))
				default:
					out = append(out, st.Faint.Render(" "+l.Text))
				}
			}
		}
		return out
	}
	col := (m.width - 3) / 2
	cell := func(s string, style lipgloss.Style) string {
		s = ansi.Truncate(s, col, "…")
		return style.Render(s) + strings.Repeat(" ", max(0, col-ansi.StringWidth(s)))
	}
	for _, h := range hunks {
		out = append(out, st.Accent.Render(fmt.Sprintf("@@ -%d +%d @@", h.OldStart, h.NewStart)))
		oldN, newN := h.OldStart, h.NewStart
		var dels, adds []string
		flush := func() {
			for i := 0; i < max(len(dels), len(adds)); i++ {
				l, r := "", ""
				if i < len(dels) {
					l = dels[i]
				}
				if i < len(adds) {
					r = adds[i]
				}
				out = append(out, cell(l, st.Bad)+" │ "+cell(r, st.Good))
			}
			dels, adds = nil, nil
		}
		for _, l := range h.Lines {
			switch l.Op {
			case '-':
				dels = append(dels, fmt.Sprintf("%4d -%s", oldN, l.Text))
				oldN++
			case '+':
				adds = append(adds, fmt.Sprintf("%4d +%s", newN, l.Text))
				newN++
			default:
				flush()
				out = append(out, cell(fmt.Sprintf("%4d  %s", oldN, l.Text), st.Faint)+" │ "+cell(fmt.Sprintf("%4d  %s", newN, l.Text), st.Faint))
				oldN++
				newN++
			}
		}
		flush()
	}
	return out
}

// changesFit: every added and removed line fits its column whole (with
// its line number), so two columns hide nothing of the change; a cut
// context line is fine.
func changesFit(hunks []unidiff.Hunk, col int) bool {
	for _, h := range hunks {
		for _, l := range h.Lines {
			// The widest line number is the hunk's last.
			if l.Op != ' ' && ansi.StringWidth(fmt.Sprintf("%4d -%s", h.OldStart+len(h.Lines), l.Text)) > col {
				return false
			}
		}
	}
	return true
}

func (m Model) viewSummary() []string {
	st := m.s.Styles
	out := []string{st.Section.Render("Hand off to fix"), ""}
	up := "  Upgrade     " + m.pkg + " " + m.from + " → " + m.target
	out = append(out, up)
	if len(m.companions) > 0 {
		out = append(out, "  Companions  "+strings.Join(m.companions, ", "))
	}
	byRule := map[string]int{}
	for _, it := range m.items {
		if it.Status == Accepted {
			byRule[it.Site.RuleTitle]++
		}
	}
	var rules []string
	for r := range byRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	out = append(out, "", st.Bold.Render(fmt.Sprintf("  Accepted patches (%d)", len(m.accepted()))))
	for _, r := range rules {
		out = append(out, fmt.Sprintf("    %-40s %d", r, byRule[r]))
	}
	if len(rules) == 0 {
		out = append(out, st.Muted.Render("    none: fix upgrades and verifies, the sites stay yours"))
	}
	var left []string
	for _, it := range m.items {
		switch it.Status {
		case Accepted, Resolved:
		default:
			left = append(left, fmt.Sprintf("    %-32s %-10s %s", fmt.Sprintf("%s:%d", it.Site.File, it.Site.Line), it.Status, it.Site.RuleTitle))
		}
	}
	out = append(out, "", st.Bold.Render(fmt.Sprintf("  Left for you (%d)", len(left))))
	out = append(out, left...)
	spent := 0.0
	if m.src != nil {
		spent = m.src.Spent()
	}
	out = append(out, "", fmt.Sprintf("  Estimated cost spent  $%.2f", spent))
	if pf, ok := m.src.(interface{ PatchesFile() string }); ok && pf.PatchesFile() != "" {
		out = append(out, "  Patches file  "+pf.PatchesFile(), st.Muted.Render("                (the accepted set, as uptide fix --patches takes it)"))
	}
	out = append(out, "",
		st.Muted.Render("  enter runs fix in a private clone with the accepted set; the branch is all your checkout gains"))
	return out
}

func (m Model) viewDone() []string {
	st := m.s.Styles
	if m.err != nil {
		return []string{st.Error.Render("fix could not run: " + m.err.Error())}
	}
	r := m.report
	if r == nil {
		return []string{st.Error.Render("fix ended without a report")}
	}
	// The same words as uptide fix prints: view.Fix decides them.
	v := view.Fix(r)
	var body []string
	if v.Reason != "" {
		body = append(body, wrapIndented("  "+v.Reason, m.width, "  ")...)
	}
	for _, s := range v.Sections {
		if s.Title != "" {
			head := st.Bold.Render(s.Title)
			if s.Aside.Text != "" {
				head += "  " + m.tone(s.Aside)
			}
			body = append(body, "", head)
		}
		for _, l := range s.Lines {
			body = append(body, m.line(l))
		}
	}
	// Where the work is stays under the verdict: the branch is what the
	// run leaves the user, whatever the report scrolls to.
	out := []string{m.tone(v.Verdict) + "  " + st.Bold.Render(v.Head)}
	for i, l := range v.Where {
		if i == 0 || !strings.HasPrefix(l.Text(), " ") {
			// A label's text wraps after it; a command on a line of its
			// own never does, so it copies whole.
			out = append(out, wrapIndented(m.line(l), m.width, "        ")...)
			continue
		}
		out = append(out, m.line(l))
	}
	// The report scrolls under them; the footer says how.
	room := max(1, m.height-len(out)-2)
	top := min(m.scroll, max(0, len(body)-room))
	end := min(len(body), top+room)
	out = append(out, body[top:end]...)
	foot := "esc back"
	if len(body) > room {
		foot = fmt.Sprintf("↑/↓ scroll (%d–%d of %d) • esc back", top+1, end, len(body))
	}
	return append(out, "", st.Muted.Render(foot))
}

// tone draws a span in the theme's style for its tone.
func (m Model) tone(s view.Span) string {
	if s.Tone == view.Plain {
		return s.Text
	}
	return m.s.Styles.Tone(s.Tone).Render(s.Text)
}

// line draws a view's line, its first line only: a multi-line message
// shows its first line here (the CLI and --json have it whole).
func (m Model) line(l view.Line) string {
	var b strings.Builder
	for _, s := range l {
		if i := strings.IndexByte(s.Text, '\n'); i >= 0 {
			b.WriteString(m.tone(view.Span{Text: s.Text[:i], Tone: s.Tone}))
			break
		}
		b.WriteString(m.tone(s))
	}
	return b.String()
}

// wrapIndented wraps a line whose first len(indent) bytes are its label
// ("Branch  ") to width, the wrapped text aligned after the label.
func wrapIndented(line string, width int, indent string) []string {
	if len(line) <= len(indent) {
		return []string{line}
	}
	lines := wrap(line[len(indent):], max(20, width-len(indent)), 4)
	for i := range lines {
		if i == 0 {
			lines[i] = line[:len(indent)] + lines[i]
		} else {
			lines[i] = indent + lines[i]
		}
	}
	return lines
}

// wrap breaks text into at most n lines of width.
func wrap(text string, width, n int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && ansi.StringWidth(line)+1+ansi.StringWidth(w) > width {
			out = append(out, line)
			line = ""
			if len(out) == n {
				out[n-1] = ansi.Truncate(out[n-1]+" "+w, width, "…")
				return out
			}
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
