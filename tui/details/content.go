package details

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/tui/theme"
	"github.com/uptide/uptide/view"
)

// content renders every section and returns the line of each plan row.
func (m Model) content() (string, []int) {
	s := m.s
	st := s.Styles
	d := s.Deps[m.id]
	var b lines
	b.width = m.width

	b.field(st.Muted, "Installed", theme.OrUnknown(d.Row.Installed)+installedFrom(d.Row))
	if d.Target != "" && d.Target != d.Row.Installed {
		b.field(st.Muted, "Target", fmt.Sprintf("%s  %s (%s)", d.Target, st.Update(d.Update).Render(d.Update.String()), d.TargetWhy))
	} else {
		b.field(st.Muted, "Target", "stays at "+theme.OrUnknown(d.Row.Installed)+" ("+d.TargetWhy+")")
	}
	if d.Row.Latest != "" && d.Row.Latest != d.Target {
		b.field(st.Muted, "Latest", d.Row.Latest)
	}
	b.field(st.Muted, "Where", model.Where(d.Row.Workspaces)+specs(d.Row))
	if d.Row.Deprecated != "" {
		b.field(st.Muted, "Deprecated", st.Warn.Render(d.Row.Deprecated))
	}
	if d.Row.TargetDeprecated != "" && d.Target == d.Row.Target {
		b.field(st.Muted, "Target note", st.Warn.Render("deprecated: "+d.Row.TargetDeprecated))
	}
	if d.Row.Reason != "" {
		b.field(st.Muted, "Note", st.Warn.Render(d.Row.Reason))
	}

	if g := s.GroupOf(m.id); g != nil {
		b.blank()
		b.add(st.Section.Render("Release group ") + st.Bold.Render(g.Title))
		b.wrapped("  ", g.Why, st.Muted)
		var rows [][3]string
		conflict := map[int]bool{}
		for i, id := range g.Members {
			md := s.Deps[id]
			why := md.Update.String()
			if md.Follows != "" && id != m.id {
				// A member following a picked target says why it goes there.
				why = strings.TrimSpace(why + "  " + md.TargetWhy)
			}
			name := md.Row.Name
			if md.Conflict != "" {
				name, why = "✗ "+name, "conflict: "+md.Conflict
				conflict[i] = true
			}
			rows = append(rows, [3]string{name, versionsOf(md), why})
		}
		b.table("  ", rows, func(i int) lipgloss.Style {
			if conflict[i] {
				return st.Conflict
			}
			return lipgloss.Style{}
		})
	}

	b.blank()
	m.companions(&b, d)
	b.blank()
	m.check(&b, d)
	b.blank()
	ruleLines := m.plan(&b, d)

	if n := len(d.Row.ImportingFiles); n > 0 {
		b.blank()
		b.add(st.Section.Render(fmt.Sprintf("Importing files (%d)", n)))
		for _, f := range d.Row.ImportingFiles {
			b.add("  " + f)
		}
	}
	next := ""
	if r := d.Check.Result; r != nil && d.Check.Status == state.Done {
		for _, n := range r.Notes {
			b.blank()
			b.wrapped("", "Note  "+n, st.Muted)
		}
		next = r.NextCommand
	}
	if next == "" && !d.Replanning {
		// Before a check (or when it offered none): the commands of the
		// targets as they stand, the group's members at theirs.
		if cmds := s.Next(m.id); len(cmds) > 0 {
			next = cmds[0]
		}
	}
	if next != "" {
		if s.Conflicted(m.id) {
			next += "  (a conflict stops fix)"
		}
		// Wrapped, never cut: the command is meant to be copied whole.
		b.blank()
		b.wrapped("", st.Section.Render("Next  ")+next, lipgloss.Style{})
	}
	return strings.Join(b.out, "\n"), ruleLines
}

func (m Model) companions(b *lines, d state.Dep) {
	st := m.s.Styles
	switch {
	case d.Replanning:
		b.add(st.Section.Render("Companions") + st.Muted.Render("  planning "+d.Target+"…"))
		return
	case d.PlanErr != nil:
		b.add(st.Section.Render("Companions"))
		b.wrapped("  ", "no plan: "+d.PlanErr.Error(), st.Error)
		return
	case d.Target == "" || d.Target == d.Row.Installed:
		b.add(st.Section.Render("Companions") + st.Muted.Render("  none: no upgrade"))
		return
	case d.Plan == nil:
		b.add(st.Section.Render("Companions") + st.Muted.Render("  none planned: Discover plans majors only; t picks a target and plans it"))
		return
	}
	p := d.Plan
	b.add(st.Section.Render("Companions") + st.Muted.Render(fmt.Sprintf("  of %s %s → %s", p.Name, p.From, p.To)))
	if len(p.Companions)+len(p.Conflicts) == 0 {
		b.add(st.Muted.Render("  nothing moves with it"))
		return
	}
	// The words are list's and check's: "new → 10.4.0", "remove …".
	var rows [][3]string
	for _, r := range view.CompanionRows(*p) {
		rows = append(rows, [3]string{r.Name, r.Versions, r.Why})
	}
	b.table("  ", rows, func(i int) lipgloss.Style {
		if i >= len(p.Companions) {
			return st.Conflict
		}
		return lipgloss.Style{}
	})
}

func (m Model) check(b *lines, d state.Dep) {
	st := m.s.Styles
	b.add(st.Section.Render("Check"))
	c := d.Check
	switch c.Status {
	case state.Unchecked:
		with := len(m.s.With(m.id))
		what := d.Row.Name + " " + versionsOf(d)
		if with > 0 {
			what += " with " + plural(with, "package") + " moving along"
		}
		b.wrapped("  ", "not checked yet · c checks "+what, st.Muted)
	case state.Queued:
		b.add("  " + st.Muted.Render("queued: two checks run at a time"))
	case state.Running:
		b.add("  " + st.Accent.Render(m.s.Frame+" "+c.Label()))
	case state.Failed:
		b.wrapped("  ", c.Label(), st.Warn)
	case state.Done:
		r := c.Result
		// The verdict and the compile in check's words (view.Check), in
		// the planner's tone: a clean verdict over partial coverage is
		// partial, and says why.
		b.wrapped("  ", r.Summary, st.Verdict(r.Verdict))
		if r.Verdict == model.VerdictPartial && r.Reason != "" && r.Reason != r.Summary {
			b.wrapped("  ", "partial: "+r.Reason, st.Warn)
		}
		if r.Coverage != "" {
			b.wrapped("  ", r.Coverage, st.Muted)
		}
		// Workspaces that import the package without declaring it (or
		// that the check left out): what the summary covers, and what not.
		for _, l := range r.Importers {
			b.wrapped("  ", l, st.Warn)
		}
	}
}

// plan renders the per-rule plan table; expanded rules list their sites.
func (m Model) plan(b *lines, d state.Dep) []int {
	st := m.s.Styles
	r := d.Check.Result
	if r == nil || d.Check.Status != state.Done {
		b.add(st.Section.Render("Plan") + st.Muted.Render("  the per-rule plan appears when a check finishes"))
		return nil
	}
	if len(r.Rules) == 0 {
		b.add(st.Section.Render("Plan") + st.Muted.Render("  nothing to change"))
		return nil
	}
	// The rows, signs, headings and counts are `uptide check`'s; the
	// cursor moves over the rule rows, a heading spans the line.
	rows := view.PlanRows(r.Entries())
	// The title column is as wide as the longest title, as far as the
	// screen holds it beside the counts (33 columns with the cursor, and
	// the sites column: "1 fix, 12 errors" where edits stand for more).
	title, sites := 0, 6
	for _, row := range rows {
		if row.Rule >= 0 {
			title = max(title, ansi.StringWidth(row.Cells[0].Text))
			sites = max(sites, ansi.StringWidth(row.Cells[1].Text))
		}
	}
	title = max(20, min(title, m.width-33-sites))
	h := view.PlanHeader
	b.add(st.Section.Render(fmt.Sprintf("%-*s", title+6, h[0])) + st.Header.Render(fmt.Sprintf("%*s  %7s  %8s  %6s", sites, h[1], h[2], h[3], h[4])))
	var at []int
	for _, row := range rows {
		if row.Rule < 0 {
			b.add("  " + st.Tone(row.Cells[0].Tone).Render(row.Cells[0].Text))
			continue
		}
		i, rule, c := row.Rule, r.Rules[row.Rule], row.Cells
		at = append(at, len(b.out))
		mark := "  "
		if i == m.rule {
			mark = "❯ "
		}
		name := ansi.Truncate(c[0].Text, title, "…")
		line := fmt.Sprintf("%s%-*s  %*s  %7s  %8s  %6s", mark, title+2, theme.Pad(name, title+2), sites, c[1].Text, c[2].Text, c[3].Text, c[4].Text)
		if i == m.rule {
			b.add(st.Cursor.Render(theme.Pad(ansi.Truncate(line, m.width, "…"), m.width)))
		} else {
			b.add(st.Tone(c[0].Tone).Render(line))
		}
		if m.expanded[i] {
			for _, f := range rule.Findings {
				site := fmt.Sprintf("%s:%d", f.File, f.Line)
				if by := rule.Fix[f.ID]; by != "" {
					site += "  [" + view.FixWord(by) + "]"
				}
				b.wrapped("      ", site+"  "+f.Reason, lipgloss.Style{})
				// What the rule's transform will do here (check's dry run).
				if diff := rule.Previews[f.ID]; diff != "" {
					m.preview(b, diff)
				}
				for _, e := range f.Evidence {
					b.wrapped("        ", fmt.Sprintf("TS%d %s", e.Code, e.Message), st.Muted)
				}
				// Errors traced to the site go away with its fix; they may
				// stand in another file.
				for _, d := range f.Downstream {
					b.wrapped("        ", fmt.Sprintf("%s:%d TS%d %s", d.File, d.Line, d.Code, d.Message), st.Muted)
				}
				// The lines check --details prints under the site.
				for _, l := range rule.Evidence[f.ID] {
					b.wrapped("        ", l, st.Muted)
				}
			}
		}
	}
	for _, l := range view.RuleNotes(r.Entries()) {
		b.wrapped(l[0].Text, view.Line(l[1:]).Text(), st.Muted)
	}
	return at
}

// preview renders a by-rule site's diff: hunk headers muted, removed
// lines bad, added lines good, each cut to the screen's width.
func (m Model) preview(b *lines, diff string) {
	st := m.s.Styles
	for _, l := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			b.add("        " + st.Muted.Render(l))
		case strings.HasPrefix(l, "-"):
			b.add("        " + st.Bad.Render(l))
		case strings.HasPrefix(l, "+"):
			b.add("        " + st.Good.Render(l))
		}
	}
}

// lines accumulates the content.
type lines struct {
	out   []string
	width int
}

func (b *lines) add(s string) { b.out = append(b.out, ansi.Truncate(s, b.width, "…")) }
func (b *lines) blank()       { b.out = append(b.out, "") }

func (b *lines) field(label lipgloss.Style, name, value string) {
	b.add(label.Render(fmt.Sprintf("%-12s", name)) + value)
}

// wrapped adds text wrapped to the width, every line indented.
func (b *lines) wrapped(indent, text string, style lipgloss.Style) {
	w := max(10, b.width-ansi.StringWidth(indent))
	for _, l := range strings.Split(ansi.Wrap(text, w, " "), "\n") {
		b.out = append(b.out, indent+style.Render(l))
	}
}

// table lays three columns out: name, versions, and a why that wraps
// under itself.
func (b *lines) table(indent string, rows [][3]string, style func(i int) lipgloss.Style) {
	var w0, w1 int
	for _, r := range rows {
		w0 = max(w0, ansi.StringWidth(r[0]))
		w1 = max(w1, ansi.StringWidth(r[1]))
	}
	w0 = min(w0, max(12, b.width/3))
	left := ansi.StringWidth(indent) + w0 + 2 + w1 + 2
	for i, r := range rows {
		head := indent + theme.Pad(ansi.Truncate(r[0], w0, "…"), w0) + "  " + theme.Pad(r[1], w1) + "  "
		whyW := b.width - left
		if whyW < 16 {
			b.out = append(b.out, style(i).Render(ansi.Truncate(head+r[2], b.width, "…")))
			continue
		}
		for j, l := range strings.Split(ansi.Wrap(r[2], whyW, " "), "\n") {
			if j == 0 {
				b.out = append(b.out, style(i).Render(head+l))
			} else {
				b.out = append(b.out, style(i).Render(strings.Repeat(" ", left)+l))
			}
		}
	}
}

func installedFrom(r model.DependencyRow) string {
	switch r.InstalledSource {
	case model.FromLockfile:
		return " (lockfile)"
	case model.FromManifest:
		return " (pinned in the manifest)"
	}
	return ""
}

func specs(r model.DependencyRow) string {
	if len(r.Specs) == 0 {
		return ""
	}
	return " · declared " + strings.Join(r.Specs, ", ")
}

func plural(n int, what string) string { return view.Count(n, what) }
