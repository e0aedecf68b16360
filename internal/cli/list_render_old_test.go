package cli

// The list renderer as it was before view.List, kept while the new one
// is compared with it.

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// renderList prints the list report for humans: the table of decisions
// (majors first), groups, companion plans, skipped and not-checked entries.
func oldRenderList(w io.Writer, rep *model.DiscoverReport, all bool, p palette, width int) {
	var shown, hidden []model.DependencyRow
	for _, r := range rep.Rows {
		if r.Status != model.RowOK {
			continue
		}
		switch {
		case r.Update.IsMajor():
			shown = append(shown, r)
		case r.Installed == "":
			shown = append(shown, r)
		case r.Update.Level == model.LevelMinor || r.Update.Level == model.LevelPatch:
			if all {
				shown = append(shown, r)
			} else {
				hidden = append(hidden, r)
			}
		case all:
			shown = append(shown, r)
		}
	}
	repo := rep.Repository
	lock := repo.Lockfile
	if lock == "" {
		lock = "no lockfile"
		for _, pr := range rep.Problems {
			if lockfile.IsName(filepath.Base(pr.File)) {
				lock = filepath.Base(pr.File) + " unreadable"
			}
		}
	}
	behind, majors := view.Behind(rep.Rows)
	fmt.Fprintf(w, "%s · %s (%s, %s, %s) · %d dependencies · %d behind, %d major\n\n",
		p.bold("uptide"), repo.Name, repo.PackageManager, plural(len(repo.Workspaces), "workspace"), lock,
		len(rep.Rows), behind, majors)

	if len(shown) == 0 {
		fmt.Fprintln(w, "  No major updates.")
	} else {
		t := &table{
			header:   []string{"PACKAGE", "WHERE", "INSTALLED → LATEST", "KIND", "FILES", "NOTES"},
			flexible: []bool{true, true, false, false, false, true},
			right:    []bool{false, false, false, false, true, false},
			keep:     3,
		}
		for _, r := range shown {
			t.add(r.Name, oldRowWhere(r), oldVersions(r), r.Update.String(), strconv.Itoa(len(r.ImportingFiles)), oldRowNotes(r))
		}
		fmt.Fprint(w, t.render(width, "  ", func(row, col int, s string) string {
			switch {
			case row < 0:
				return p.dim(s)
			case col == 3:
				return p.update(shown[row].Update, s)
			case col == 5 && strings.Contains(s, "deprecated"):
				return p.yellow(s)
			}
			return s
		}))
	}
	if len(hidden) > 0 {
		fmt.Fprintf(w, "  %s\n", p.dim(fmt.Sprintf("%s hidden (--all shows them)", plural(len(hidden), "minor/patch update"))))
	}

	if len(rep.Groups) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.bold("Release groups"))
		for _, g := range rep.Groups {
			fmt.Fprintf(w, "  %s  %s\n", p.cyan(g.Title), strings.Join(g.Members, ", "))
			fmt.Fprintf(w, "    %s\n", g.Why)
			fmt.Fprintf(w, "    %s\n", p.dim("check: "+oldGroupCheckCommand(g)))
		}
	}

	var plans []model.CompanionPlan
	for _, c := range rep.Companions {
		if len(c.Companions)+len(c.Conflicts) > 0 {
			plans = append(plans, c)
		}
	}
	if len(plans) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.bold("Companions"))
		for _, c := range plans {
			fmt.Fprintf(w, "  %s %s → %s moves with:\n", c.Name, c.From, c.To)
			t := &table{header: []string{"", "", ""}, flexible: []bool{false, false, true}, keep: 2}
			for _, m := range c.Companions {
				t.add(companionColumns(m))
			}
			for _, m := range c.Conflicts {
				t.add("✗ "+m.Name, m.From, "conflict: "+m.Why)
			}
			out := t.render(width, "    ", func(row, col int, s string) string {
				if row >= len(c.Companions) {
					return p.red(s)
				}
				return s
			})
			// Drop the empty header line.
			fmt.Fprint(w, out[strings.Index(out, "\n")+1:])
		}
	}

	if len(rep.Skipped) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.bold(fmt.Sprintf("Not from a registry (%d)", len(rep.Skipped))))
		for _, s := range rep.Skipped {
			fmt.Fprintf(w, "  %s %s  %s\n", s.Name, p.dim("("+engine.Where([]string{s.Workspace})+" "+s.Spec+")"), s.Reason)
		}
	}
	if len(rep.NotChecked) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.red(fmt.Sprintf("Not checked (%d)", len(rep.NotChecked))))
		for _, h := range oldNotCheckedByHost(rep.NotChecked) {
			fmt.Fprintf(w, "  %s: %s\n    %s\n", h.host, h.reason, strings.Join(h.names, ", "))
		}
	}
	for _, r := range rep.Rows {
		if r.Status == model.RowOK && r.Installed == "" && r.Reason != "" {
			fmt.Fprintf(w, "\n%s %s (%s): unknown installed version, %s\n", p.yellow("!"), r.Name, engine.Where(r.Workspaces), r.Reason)
		}
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.red("Problems"))
		for _, pr := range rep.Problems {
			fmt.Fprintf(w, "  %s\n", oldProblemLine(pr))
		}
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "\n%s\n", p.dim("note: "+n))
	}
}

func oldRowWhere(r model.DependencyRow) string {
	s := engine.Where(r.Workspaces)
	if r.Catalog != "" {
		return "catalog:" + strings.TrimPrefix(r.Catalog, "default") + " " + s
	}
	if r.Shared {
		return "shared: " + s
	}
	return s
}

func oldVersions(r model.DependencyRow) string {
	inst := r.Installed
	if inst == "" {
		inst = "?"
	}
	if r.Target == "" || r.Target == r.Installed {
		return inst
	}
	return inst + " → " + r.Target
}

func oldRowNotes(r model.DependencyRow) string {
	var n []string
	if r.Deprecated != "" {
		n = append(n, "deprecated: "+r.Deprecated)
	}
	if r.Group != "" {
		n = append(n, "group "+r.Group)
	}
	if r.Package != r.Name {
		n = append(n, "alias of "+r.Package)
	}
	return strings.Join(n, "; ")
}

// groupCheckCommand checks the group as one decision: check takes a
// one-scope group with any member, the others only with --group.
func oldGroupCheckCommand(g model.Group) string {
	cmd := "uptide check " + g.Members[0]
	if g.Kind != model.GroupFamily && g.Kind != model.GroupExplicit {
		cmd += " --group"
	}
	return cmd
}

func oldProblemLine(p model.Problem) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Message)
}

type oldHostFailures struct {
	host, reason string
	names        []string
}

// notCheckedByHost groups registry failures by host and reason.
func oldNotCheckedByHost(ncs []model.NotChecked) []oldHostFailures {
	var out []oldHostFailures
	idx := map[string]int{}
	for _, nc := range ncs {
		host := nc.Host
		if host == "" {
			host = "registry"
		}
		k := host + "\x00" + nc.Reason
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, oldHostFailures{host: host, reason: nc.Reason})
		}
		out[i].names = append(out[i].names, nc.Name)
	}
	return out
}
